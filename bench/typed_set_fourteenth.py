"""A fourteenth held-out typed set (issue 33, session 29): 19 everyday documents (12 notes, 7 PDFs with
ruled tables) and 299 questions, 98 of them unanswerable (attribute 27, subject 24, date 18, type 16,
role 13), written from scratch by the helper heldout29 of session 29 without reading the
answerer (src/cairn/answer/), the assistant (src/cairn/assistant/), search (src/cairn/search/) or
src/cairn/ops/: one household's documents (Hester Penmarrick, Dorian Ashby, their children Wilf (11)
and Clemency (6), Hester's grandmother Beatrix and an au pair, Mateja, at 4 Tanyard Close in the
invented town of Brackenholt near Wexcombe, Ullerby and Saltfleet Haven) on kinds of document the
earlier sets do not centre on: a chiropodist's appointment card, a window cleaner's round, a
birthday cake order, an escape room booking, a septic tank emptying record, a chess club's
fixtures, a police crime report for a stolen bike, a village show schedule, a bouncy castle hire,
a stairlift quote, an au pair's house agreement and a gingerbread recipe; as PDFs a tyre fitting
invoice, a swimming gala's results, a leisure centre class timetable, a travel money receipt, a
window blinds quote, a karate grading sheet and a house purchase completion statement. Amounts that
are not money stand next to money (mm, psi, litres, cubic metres, seconds, grams, euros, kyu
grades, degrees); several times are written without am/pm ("at 4.15", "10.30 till 12"). Every
person, company, place, amount, date, code and phone number is invented (phone numbers from the
drama ranges: 01632 960xxx, 07700 900xxx); no third-party text.
Same shape as bench/typed_set.py (`write`, `QUESTIONS`, `expect` a list of strings the answer must
each hold, case and spacing folded, None for an unanswerable question, `why` the way it is
unanswerable: "attribute" - the asked attribute is written of another subject, or the subject is
there without it; "type" - no value of the asked type (an e-mail address where only a phone number
is given); "subject" - another item of the same kind, absent; "role" - the role is held by nobody
named; "date" - the asked date or period is not the one the document covers).
Questions are typed the way a person types them: lower case, their own words rather than the
document's ("foot appointment" for the chiropodist, "the kids" for children, "the cesspit" for the
septic tank), dropped apostrophes, a few typos, two-part questions, lists, who-questions and
yes/no questions (several whose answer is no).

Held out: nobody tunes on it. Every question is `part` "fourteenth" and is asked once on the start
commit by heldout29 (figures in bench/README.md, "Session 29 — heldout29") and once by the lead at
the end of session 29 (`python bench/answers_typed.py --set fourteenth`); its failures are
recorded, not fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "chiropodist.md": """# Nana Beatrix's chiropodist

Brackenholt Foot Clinic, 9 Sadler Street, Brackenholt. Chiropodist: Mrs Yolande Ferrabee, 01632 960 237.
Patient: Beatrix Penmarrick, 86.
Next appointment: Tuesday 14 September 2032 at 10.40, for nail cutting and a corn on her right little toe.
Routine treatment costs £36; a home visit costs £52 and is only for people who can't get out.
Appointments every 8 weeks. She has diabetes, so her feet are checked for feeling at every visit.
Last visit (20 July): skin in good condition, feeling normal in both feet.
Insoles: made to measure, £95 the pair, ready in 3 weeks; she hasn't decided yet.
Parking: two disabled bays right outside; the clinic is on the ground floor.
Bring: her slippers and the list of her tablets.
Cancel with at least 24 hours' notice or the full fee is charged.
""",
    "window-cleaner.md": """# Window cleaner

Crystal Clear Rounds, Kenrick Oduya, 07700 900 641. He comes every 4 weeks, usually on a Wednesday morning.
Prices for 4 Tanyard Close: outside windows £18; outside and inside £30; frames and sills wiped every other visit, no extra charge.
Conservatory roof: £25, twice a year (April and October).
Gutter clear-out: £60, once a year in November, with a before and after photo.
Pay by bank transfer within 7 days; he texts the bill. Account name K Oduya, reference TANYARD4.
He uses a water-fed pole with pure water, so no ladders against the house and no soap streaks.
Side gate: leave it unbolted on his days; the code for the padlock is not needed.
Next visit: Wednesday 6 October 2032.
He doesn't do the flats above the shop.
""",
    "cake-order.md": """# Clem's birthday cake

Ordered from Sugar Loaf Bakes (Perpetua Hennessy, 07700 900 318), Market Hill, Brackenholt.
For Clemency's 7th birthday party, Saturday 23 October 2032.
Cake: a two tier unicorn cake, lemon sponge with raspberry jam and vanilla buttercream, serves 30.
Decoration: pastel rainbow mane, gold horn, "Happy 7th Clem" on the top tier.
Price: £78, with a £20 deposit paid on 1 September; the rest on collection.
Collect: Friday 22 October between 4 and 6 from the shop.
Allergies: one guest is allergic to nuts, so no nuts; the kitchen is not nut free, though.
Extra: 12 matching cupcakes at £2.25 each.
Keep it somewhere cool; don't put it in the fridge or the buttercream sweats.
The cake board is 12 inches; the box is 14 inches, so check it fits on the car seat.
""",
    "escape-room.md": """# Wilf's escape room

Locked Out Brackenholt, 31 Foundry Lane. Booking reference LOB-44907.
Room: "The Pharaoh's Vault", suitable for ages 10 and up, 60 minutes.
Date: Sunday 17 October 2032 at 2.15; arrive 15 minutes early for the briefing.
Team: Wilf and 5 friends (6 players); at least one adult must come in with under 12s, so Dorian goes in too.
Price: £22 a player for 6 or more, so £154 for 7.
Hints: 3 free hints, asked for with the walkie-talkie.
Escape rate for this room: 38%. Best time so far: 41 minutes 12 seconds.
Party room upstairs afterwards, £30 for an hour, bring your own food.
Game master on the day: Tamsin.
Free parking at the back in the Foundry Lane car park.
""",
    "septic-tank.md": """# Septic tank

The house drains to a septic tank in the back field (no mains sewer on Tanyard Close).
Tank: two chamber concrete tank, 4,500 litres (4.5 cubic metres), built about 1978.
Emptied by Wexcombe Drainage Services, 01632 960 552, every 12 months; last emptied 5 March 2032 for £245.
Next emptying due: March 2033.
Soakaway: checked in 2029, draining well.
Rules of the house: no wet wipes, nappies, fat or bleach down the drains; use the septic-safe toilet cleaner.
Warning signs: gurgling, slow drains or a smell by the manhole: ring Wexcombe Drainage.
The manhole cover is by the shed, under the loose paving slab.
The tank must meet the general binding rules; a new drainage field would cost about £6,000.
""",
    "chess-club.md": """# Wilf's chess club

Ullerby Junior Chess Club, meets Fridays 5.30 to 7 in the library at Ullerby Primary. Coach: Mr Ambrose Kettering.
Membership: £40 a term; sets and clocks provided.
Wilf's rating: 742 (up from 690 in the spring). Goal: 800 by Christmas.
County junior league, under 12 team, Wilf on board 3. Matches on Saturday mornings at 10.
Fixtures:
- 2 October: home against Saltfleet Knights
- 16 October: away at Wexcombe Rooks, Wexcombe Methodist Hall
- 6 November: home against Brackenholt Bishops
Congress: the Ullerby Junior Congress on 13 November, 5 rounds, £12 entry, close date 30 October.
Bring: a pen and his scoresheet book; phones off in the playing hall.
Wilf's openings: the Italian with white, the Caro-Kann with black.
""",
    "police-report.md": """# Dorian's stolen bike

Reported to Wexshire Police on 101 on Monday 27 September 2032. Crime reference number WX/32/118406.
Officer in charge: PC Lenna Voss.
Bike: a dark green Ravenscar Trail 3 gravel bike, frame number RT3-88213-K, bought for £849 in 2031.
Taken from the bike rack outside Brackenholt station between 7.50am and 6.15pm on Monday 27 September.
It was locked with a D lock, which was cut and left on the ground.
Marked: registered on the bike register, sticker under the saddle.
CCTV: the station has cameras; PC Voss will request the footage.
Insurance: on the home insurance, claim made on 28 September, excess £100.
If it turns up for sale online, don't approach the seller: call 101 with the crime reference.
""",
    "village-show.md": """# Brackenholt Village Show

Saturday 4 September 2032 at the Memorial Hall, Brackenholt. Show secretary: Ginevra Stott, 01632 960 903.
Entries by Wednesday 1 September, 50p a class (children's classes free).
Staging: Saturday 7.30 to 10; judging 10.30 till 12 (the hall is closed); open to the public 2 to 4.30.
Prize giving at 4.30, then the auction of produce.
Our entries:
- Class 12, five runner beans (Dorian)
- Class 27, a Victoria sponge (Hester): the jam must be raspberry, no cream
- Class 41, children's class under 8, a decorated biscuit (Clem)
- Class 45, children's class 9 to 12, a photograph called "My Pet" (Wilf)
Prizes: first £3, second £2, third £1. The cup for the most points goes to the overall winner.
Take everything home by 5, or it goes in the auction.
Tea and cakes in the side room all afternoon.
""",
    "bouncy-castle.md": """# Bouncy castle for Clem's party

Hired from Boing Brothers Hire, Jory Tallack, 07700 900 574.
Castle: the Princess Palace, 15ft by 15ft, for children up to 12.
Date: Saturday 23 October 2032, delivered at 9 and collected at 5.
Price: £95 for the day, including delivery within 10 miles; a £30 deposit paid on 12 September.
It needs a flat space of 18ft by 18ft, and a plug socket within 25 metres; the blower runs all day.
In rain it must be deflated; no refund for the weather after delivery.
Rules: shoes off, no food or drink on it, no more than 6 children at once, an adult watching all the time.
Safety mats included. Insurance: public liability of £5 million.
Indoor option: the church hall (ceiling 4m high) if it rains, ask Jory by the Thursday before.
""",
    "stairlift.md": """# Stairlift for Nana Beatrix

Quote from Ascentra Stairlifts, surveyor Mr Hollis Brightwater, 01632 960 716. Survey on 9 August 2032.
Staircase: straight, 13 steps, at her house, 2 Rope Walk, Saltfleet Haven.
Model: Ascentra Glide straight stairlift, with a swivel seat and folding footrest.
Price: £2,695 fitted, VAT free (Nana fills in the VAT relief form). Reconditioned: £1,650.
Fitting: about 3 hours; they can fit within 10 days of the order.
Warranty: 2 years parts and labour; then a service plan at £120 a year.
Weight limit: 125kg. Battery powered, so it still works in a power cut (up to 15 trips).
Rental is also possible: £395 to fit and £16 a week.
We are asking the council's occupational therapist about a grant first.
""",
    "au-pair.md": """# Au pair agreement: Mateja

Mateja Kovač, from Ljubljana, with us from 30 August 2032 to 30 June 2033.
Hours: up to 25 hours a week, Monday to Friday: school runs, after school (3 till 6), light tidying of the kids' rooms.
Babysitting: two evenings a week included; extra evenings on request.
Pocket money: £120 a week, paid on Fridays into her account.
Room: the back bedroom with its own shower room; wifi password on the fridge.
Days off: weekends free, and a week off at Christmas and at Easter, paid.
English lessons: Tuesday and Thursday mornings at Wexcombe College, £210 a term (we pay half).
Car: she may drive the blue Fabia for the school run, on our insurance as a named driver.
Curfew: none, but text if staying out overnight.
Notice: 2 weeks on either side.
""",
    "gingerbread.md": """# Gingerbread people (Hester's Grandma's)

Makes about 20.
- 350g plain flour
- 1 tsp bicarbonate of soda
- 2 tsp ground ginger
- 1 tsp cinnamon
- 125g butter
- 175g light soft brown sugar
- 1 egg
- 4 tbsp golden syrup

1. Rub the butter into the flour, soda and spices; stir in the sugar.
2. Beat the egg with the syrup, add it and knead into a dough. Chill for 15 minutes.
3. Roll out to 5mm thick, cut out the people and bake at 180C (160C fan) for 12 to 15 minutes until golden.
4. Leave on the tray for 10 minutes, then on a wire rack.
They keep a week in a tin. Decorate with white icing and currants for eyes.
For Christmas tree biscuits, make a hole with a straw before baking.
""",
}

PDFS: dict[str, dict] = {
    "tyre-invoice.pdf": {
        "lines": ["Treadright Tyres Ltd, Unit 7, Kilnworth Trading Estate, Wexcombe", "Invoice TT-570392",
                  "Date: 11 August 2032", "Customer: Dorian Ashby, 4 Tanyard Close, Brackenholt",
                  "Vehicle: Skoda Fabia, registration WX19 KPD, mileage 48,215"],
        "table": [["Item", "Quantity", "Unit price", "Total"],
                  ["Hallmark Ecotrak 185/60 R15 tyre", "2", "£72.50", "£145.00"],
                  ["Fitting, balancing and new valve", "2", "£12.00", "£24.00"],
                  ["Tyre disposal", "2", "£2.50", "£5.00"],
                  ["Four wheel alignment", "1", "£45.00", "£45.00"],
                  ["Net", "", "", "£182.50"],
                  ["VAT at 20%", "", "", "£36.50"],
                  ["Total paid", "", "", "£219.00"]],
        "after": ["New tyres fitted to the front; tread depth 8mm new.",
                  "Rear tyres checked: 3.5mm, fine for now; replace at 3mm.",
                  "Tyre pressures: front 33 psi, rear 30 psi.",
                  "Paid by debit card. Technician: Elwyn Marsh.",
                  "Puncture repairs are free for a year on the tyres we fitted.",
                  "Please re-torque wheel nuts after 50 miles; we can do it free of charge."],
    },
    "gala-results.pdf": {
        "lines": ["Saltfleet Seals Swimming Club", "Autumn Club Gala results, Saturday 25 September 2032",
                  "Venue: Ullerby Leisure Centre (25m pool)", "Swimmer: Wilf Ashby, age group 11 years, boys"],
        "table": [["Event", "Time", "Place", "Personal best"],
                  ["50m freestyle", "38.42", "3rd", "Yes"],
                  ["50m backstroke", "46.90", "5th", "No (45.71)"],
                  ["100m breaststroke", "1:52.06", "2nd", "Yes"],
                  ["25m butterfly", "21.37", "4th", "Yes"],
                  ["4 x 50m freestyle relay", "2:41.80", "1st", "-"]],
        "after": ["Points for the Seals: 212. The Seals came 2nd of 4 clubs; Ullerby Otters won with 238.",
                  "Relay team: Wilf, Kit Ramsbottom, Jonah Adewale, Cosmo Reyes.",
                  "Wilf's 100m breaststroke time qualifies him for the county championships in January.",
                  "Next gala: Winter Open, Saturday 11 December, entries by 20 November, £4.50 a swim.",
                  "Club coach: Ms Freya Lindqvist."],
    },
    "leisure-timetable.pdf": {
        "lines": ["Wexcombe Leisure Centre", "Autumn class timetable, 6 September to 19 December 2032",
                  "Members book free in the app; non-members pay £7.50 a class.",
                  "Hester's classes marked in the notes below."],
        "table": [["Day", "Class", "Time", "Studio", "Instructor"],
                  ["Monday", "Spin", "6.30 to 7.15", "Cycle studio", "Darragh"],
                  ["Tuesday", "Aqua aerobics", "10 to 10.45", "Main pool", "Bernadette"],
                  ["Wednesday", "Pilates", "7.30 to 8.30", "Studio 2", "Saoirse"],
                  ["Thursday", "Circuits", "12.15 to 1", "Sports hall", "Darragh"],
                  ["Friday", "Yoga", "9.30 to 10.30", "Studio 2", "Anjali"],
                  ["Saturday", "Boxfit", "9 to 9.45", "Studio 1", "Rhys"]],
        "after": ["Hester goes to Pilates on Wednesdays and Yoga on Fridays.",
                  "Bring your own mat for Pilates and Yoga; spin shoes can be hired for £2.",
                  "Cancel at least 2 hours before or lose the booking credit.",
                  "The pool is 25m with 6 lanes; water temperature 29 degrees.",
                  "Creche: Monday to Friday mornings, £4 an hour, for ages 6 months to 5 years.",
                  "Reception: 01632 960 480."],
    },
    "travel-money.pdf": {
        "lines": ["Bureau Meridian, Wexcombe branch", "Travel money receipt", "Transaction number BM-7710-3348",
                  "Date: 2 October 2032", "Customer: Hester Penmarrick"],
        "table": [["Currency", "Foreign amount", "Rate", "Sterling"],
                  ["Euro", "600.00 EUR", "1.1420", "£525.39"],
                  ["Swiss franc", "150.00 CHF", "1.0960", "£136.86"],
                  ["Commission", "", "", "£0.00"],
                  ["Total paid", "", "", "£662.25"]],
        "after": ["Paid by debit card.",
                  "Buy back: we will buy back leftover euros and francs at the rate of the day, no charge within 28 days "
                  "with this receipt.",
                  "Euros supplied as: 10 x 50 EUR, 5 x 20 EUR.",
                  "Rates are better on orders over £750.",
                  "Collected in branch on 2 October; reserved online on 29 September."],
    },
    "blinds-quote.pdf": {
        "lines": ["Shadeworks Blinds and Shutters", "Quotation Q-20931", "Date: 15 September 2032",
                  "For: Hester Penmarrick, 4 Tanyard Close, Brackenholt", "Surveyed by: Anouska Pelling"],
        "table": [["Room", "Product", "Size (mm)", "Colour", "Price"],
                  ["Kitchen", "Roller blind, wipe clean", "1210 x 1050", "Sage", "£89.00"],
                  ["Living room", "Wooden Venetian, 50mm slats", "1780 x 1400", "Oak", "£246.00"],
                  ["Clem's bedroom", "Blackout roller, cordless", "960 x 1200", "Lilac", "£112.00"],
                  ["Bathroom", "Faux wood Venetian", "620 x 900", "White", "£74.00"],
                  ["Fitting", "", "", "", "£60.00"],
                  ["Total", "", "", "", "£581.00"]],
        "after": ["Prices include VAT. Quote valid for 30 days.",
                  "Deposit: 50% on order; the balance on the day of fitting.",
                  "Lead time: about 3 weeks from order.",
                  "Guarantee: 3 years on all blinds; motors not included.",
                  "Child safety: all blinds meet the safety standard; cord tidies fitted free."],
    },
    "karate-grading.pdf": {
        "lines": ["Ullerby Shotokan Karate Club", "Kyu grading results, Sunday 19 September 2032",
                  "Examiner: Sensei Oren Takahashi-Blythe, 4th Dan", "Student: Clemency Ashby, age 6"],
        "table": [["Section", "Mark (out of 10)", "Comment"],
                  ["Kihon (basics)", "8", "Strong stances"],
                  ["Kata (Heian Shodan)", "7", "Remember the kiai"],
                  ["Kumite (sparring)", "6", "Keep the guard up"],
                  ["Etiquette", "9", "Very polite"],
                  ["Total", "30 out of 40", "Pass"]],
        "after": ["New grade: 8th kyu, red belt (from 9th kyu, white belt).",
                  "Belt and certificate: £18, paid on the day.",
                  "Next grading: about 3 months, in December, if she trains twice a week.",
                  "Training: Mondays and Wednesdays, 5 to 5.45, at Ullerby Scout Hut; £5 a session.",
                  "Licence (insurance) renewal due 1 January, £25."],
    },
    "completion-statement.pdf": {
        "lines": ["Greywether and Lusk Solicitors", "Completion statement", "Client: Hester Penmarrick and Dorian Ashby",
                  "Purchase of 4 Tanyard Close, Brackenholt", "Completion date: 26 February 2027",
                  "Our reference: GL/HP/20418"],
        "table": [["Item", "Debit", "Credit"],
                  ["Purchase price", "£318,000.00", ""],
                  ["Stamp duty land tax", "£5,900.00", ""],
                  ["Land Registry fee", "£150.00", ""],
                  ["Search fees", "£298.40", ""],
                  ["Legal fee (including VAT)", "£1,416.00", ""],
                  ["Mortgage advance (Harbourline Building Society)", "", "£254,400.00"],
                  ["Deposit paid on exchange", "", "£31,800.00"],
                  ["Balance due from you", "", "£39,564.40"]],
        "after": ["Exchange of contracts took place on 12 February 2027.",
                  "Please send the balance to reach us by 24 February 2027.",
                  "The seller leaves the keys with Holt and Marr estate agents.",
                  "Your conveyancer: Mrs Sunniva Greywether, 01632 960 259."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 1400 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "fourteenth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # chiropodist
    ("when is nanas next foot appointment", "chiropodist", ["14 September"]),
    ("what time is nana at the chiropodist", "chiropodist", ["10.40"]),
    ("how much does a normal chiropody visit cost", "chiropodist", ["£36"]),
    ("how much for a home vist", "chiropodist", ["£52"]),
    ("how often does nana go to the chiropodist", "chiropodist", ["8 weeks"]),
    ("why do they check the feeling in her feet", "chiropodist", ["diabetes"]),
    ("how much are the insoles and how long do they take", "chiropodist", ["£95", "3 weeks"]),
    ("is the foot clinic upstairs", "chiropodist", ["ground floor"]),
    ("whats the chiropodists email", "chiropodist", None, "type"),
    ("how much is a verruca treatment", "chiropodist", None, "subject"),
    ("what time was nanas july appointment", "chiropodist", None, "date"),
    ("who is nanas gp", "chiropodist", None, "role"),
    ("what are the foot clinics opening hours", "chiropodist", None, "attribute"),
    # window cleaner
    ("whats the window cleaners number", "window-cleaner", ["07700 900 641"]),
    ("how often does the window man come", "window-cleaner", ["4 weeks"]),
    ("how much for just the outsides", "window-cleaner", ["£18"]),
    ("how much to do the conservatory roof", "window-cleaner", ["£25"]),
    ("when does he clear the gutters and what does it cost", "window-cleaner", ["November", "£60"]),
    ("when is the window cleaner next coming", "window-cleaner", ["6 October"]),
    ("does he use ladders", "window-cleaner", ["water-fed pole"]),
    ("do i need to leave the side gate open", "window-cleaner", ["unbolted"]),
    ("how much does he charge for the garage door", "window-cleaner", None, "subject"),
    ("how much is the window cleaner for the skylights", "window-cleaner", None, "subject"),
    ("whats the window cleaners sort code", "window-cleaner", None, "attribute"),
    ("when did he last come", "window-cleaner", None, "date"),
    ("whats kenricks email address", "window-cleaner", None, "type"),
    # cake order
    ("where did we order clems cake from", "cake-order", ["Sugar Loaf Bakes"]),
    ("what flavour is clems birthday cake", "cake-order", ["lemon"]),
    ("how many people does the cake feed", "cake-order", ["serves 30"]),
    ("how much is the cake", "cake-order", ["£78"]),
    ("when do i pick the cake up", "cake-order", ["22 October"]),
    ("what time can i collect the cake", "cake-order", ["4 and 6"]),
    ("what does it say on top of the cake", "cake-order", ["Happy 7th Clem"]),
    ("how much are the cupcakes each", "cake-order", ["£2.25"]),
    ("should the cake go in the fridge", "cake-order", ["don't put it in the fridge"]),
    ("is the bakery kitchen nut free", "cake-order", ["not nut free"]),
    ("how much would a chocolate sponge be", "cake-order", None, "subject"),
    ("what time does the bakery shut on saturdays", "cake-order", None, "attribute"),
    ("when is wilfs birthday", "cake-order", None, "subject"),
    ("who is making the party food", "cake-order", None, "role"),
    ("whats the bakerys website", "cake-order", None, "type"),
    # escape room
    ("whats the escape room booking ref", "escape-room", ["LOB-44907"]),
    ("which room did wilf book", "escape-room", ["Pharaoh"]),
    ("what time is the escape room on sunday", "escape-room", ["2.15"]),
    ("how many kids are going to the escape room", "escape-room", ["5 friends"]),
    ("how much is the escape room altogether", "escape-room", ["£154"]),
    ("how many clues do they get", "escape-room", ["3 free hints"]),
    ("whats the record time for the room", "escape-room", ["41 minutes"]),
    ("how much is the party room after", "escape-room", ["£30"]),
    ("who is the game master", "escape-room", ["Tamsin"]),
    ("why does dorian have to go in", "escape-room", ["under 12s"]),
    ("whats the escape rooms phone number", "escape-room", None, "type"),
    ("what age is the jungle room for", "escape-room", None, "subject"),
    ("how much is a drink at the escape room", "escape-room", None, "attribute"),
    ("whats the escape rate for the other rooms", "escape-room", None, "attribute"),
    ("what time did wilf book for saturday", "escape-room", None, "date"),
    # septic tank
    ("how big is the septic tank", "septic-tank", ["4,500 litres"]),
    ("who empties the cesspit", "septic-tank", ["Wexcombe Drainage"]),
    ("how much did it cost to empty the tank last time", "septic-tank", ["£245"]),
    ("when was the septic tank last emptied", "septic-tank", ["5 March 2032"]),
    ("when is the tank due to be emptied next", "septic-tank", ["March 2033"]),
    ("where is the manhole", "septic-tank", ["by the shed"]),
    ("what cant go down the drains", "septic-tank", ["wet wipes", "bleach"]),
    ("how much would a new drainage field be", "septic-tank", ["£6,000"]),
    ("what are the signs of a problem with the tank", "septic-tank", ["gurgling"]),
    ("are we on mains sewage", "septic-tank", ["no mains sewer"]),
    ("how much does it cost to empty the soakaway", "septic-tank", None, "attribute"),
    ("when was the septic tank emptied in 2030", "septic-tank", None, "date"),
    ("whats the drainage companys email", "septic-tank", None, "type"),
    ("who built the septic tank", "septic-tank", None, "role"),
    ("how big is the oil tank", "septic-tank", None, "subject"),
    # chess club
    ("what night is wilfs chess", "chess-club", ["Friday"]),
    ("what time is chess club", "chess-club", ["5.30 to 7"]),
    ("whos the chess coach", "chess-club", ["Ambrose Kettering"]),
    ("how much is chess club a term", "chess-club", ["£40"]),
    ("whats wilfs chess rating now", "chess-club", ["742"]),
    ("what board does wilf play on", "chess-club", ["board 3"]),
    ("who are they playing on 16 october", "chess-club", ["Wexcombe Rooks"]),
    ("how much is the congress and when do entries close", "chess-club", ["£12", "30 October"]),
    ("what opening does wilf play with black", "chess-club", ["Caro-Kann"]),
    ("does wilf need to bring his own chess set", "chess-club", ["provided"]),
    ("who is the under 12 team captain", "chess-club", None, "role"),
    ("what time do the congress games start", "chess-club", None, "attribute"),
    ("who do they play on 20 november", "chess-club", None, "date"),
    ("whats clems chess rating", "chess-club", None, "attribute"),
    ("how much is the adult club", "chess-club", None, "subject"),
    # police report
    ("whats the crime number for dorians bike", "police-report", ["WX/32/118406"]),
    ("which officer is dealing with the bike theft", "police-report", ["Lenna Voss"]),
    ("when was the bike nicked", "police-report", ["27 September"]),
    ("where was dorians bike stolen from", "police-report", ["Brackenholt station"]),
    ("what colour was the stolen bike", "police-report", ["dark green"]),
    ("whats the frame number", "police-report", ["RT3-88213-K"]),
    ("how much did the bike cost new", "police-report", ["£849"]),
    ("whats the insurance excess on the bike", "police-report", ["£100"]),
    ("is there cctv at the station", "police-report", ["cameras"]),
    ("what do we do if we see it for sale online", "police-report", ["101"]),
    ("whats pc vosss phone number", "police-report", None, "attribute"),
    ("when was wilfs bike stolen", "police-report", None, "subject"),
    ("whats the insurance claim number", "police-report", None, "attribute"),
    ("who is the insurer", "police-report", None, "role"),
    ("how much is the bike worth now", "police-report", None, "attribute"),
    # village show
    ("when is the village show", "village-show", ["4 September"]),
    ("whats the deadline for show entries", "village-show", ["1 September"]),
    ("how much does it cost to enter a class", "village-show", ["50p"]),
    ("do the kids have to pay to enter", "village-show", ["free"]),
    ("what time is the judging", "village-show", ["10.30 till 12"]),
    ("when can the public come in", "village-show", ["2 to 4.30"]),
    ("whats dorian entering", "village-show", ["runner beans"]),
    ("what class is hesters sponge in", "village-show", ["Class 27"]),
    ("what jam goes in the victoria sponge", "village-show", ["raspberry"]),
    ("what is clem entering in the show", "village-show", ["decorated biscuit"]),
    ("who is the show secretary", "village-show", ["Ginevra Stott"]),
    ("what happens if we dont collect our stuff by 5", "village-show", ["auction"]),
    ("is there a dog show", "village-show", None, "subject"),
    ("who is judging the baking", "village-show", None, "role"),
    ("how much does it cost to get in to the show", "village-show", None, "attribute"),
    ("what did hester enter last year", "village-show", None, "date"),
    ("whats the show secretarys email", "village-show", None, "type"),
    # bouncy castle
    ("who are we hiring the bouncy castle from", "bouncy-castle", ["Boing Brothers"]),
    ("which bouncy castle did we get", "bouncy-castle", ["Princess Palace"]),
    ("how big is the bouncy castle", "bouncy-castle", ["15ft by 15ft"]),
    ("how much space does it need", "bouncy-castle", ["18ft by 18ft"]),
    ("what time does the bouncy castle arrive and when do they take it away", "bouncy-castle", ["delivered at 9", "collected at 5"]),
    ("how much is the castle hire", "bouncy-castle", ["£95"]),
    ("how many children can go on at once", "bouncy-castle", ["6 children"]),
    ("what if it rains", "bouncy-castle", ["deflated"]),
    ("how far can the plug be", "bouncy-castle", ["25 metres"]),
    ("when do i have to tell jory about the church hall", "bouncy-castle", ["Thursday before"]),
    ("how much is a ball pit", "bouncy-castle", None, "subject"),
    ("how much does jory charge for delivery over 10 miles", "bouncy-castle", None, "attribute"),
    ("whats the church hall phone number", "bouncy-castle", None, "attribute"),
    ("what time is the bouncy castle coming on the sunday", "bouncy-castle", None, "date"),
    ("whats boing brothers email", "bouncy-castle", None, "type"),
    # stairlift
    ("how much is nanas stairlift", "stairlift", ["£2,695"]),
    ("how much is a second hand stairlift", "stairlift", ["£1,650"]),
    ("who did the stairlift survey", "stairlift", ["Hollis Brightwater"]),
    ("how many stairs has nana got", "stairlift", ["13 steps"]),
    ("how long does the stairlift take to fit", "stairlift", ["3 hours"]),
    ("does it work if the power goes off", "stairlift", ["power cut"]),
    ("how much is it to rent one", "stairlift", ["£395", "£16 a week"]),
    ("how much is the service plan a year", "stairlift", ["£120"]),
    ("do we pay vat on the stairlift", "stairlift", ["VAT free"]),
    ("wheres nana live", "stairlift", ["2 Rope Walk"]),
    ("how much is a curved stairlift", "stairlift", None, "subject"),
    ("whats the occupational therapists name", "stairlift", None, "attribute"),
    ("how much is the council grant", "stairlift", None, "attribute"),
    ("when is the stairlift being fitted", "stairlift", None, "date"),
    ("whats ascentras email", "stairlift", None, "type"),
    # au pair
    ("when does mateja start", "au-pair", ["30 August"]),
    ("where is our au pair from", "au-pair", ["Ljubljana"]),
    ("how many hours does the au pair work", "au-pair", ["25 hours"]),
    ("how much pocket money does mateja get", "au-pair", ["£120"]),
    ("how many nights babysitting are included", "au-pair", ["two evenings"]),
    ("what time does she do after school", "au-pair", ["3 till 6"]),
    ("how much are her english lessons", "au-pair", ["£210"]),
    ("which days are her english classes", "au-pair", ["Tuesday", "Thursday"]),
    ("can mateja drive the car", "au-pair", ["Fabia"]),
    ("how much notice does she have to give", "au-pair", ["2 weeks"]),
    ("does she work weekends", "au-pair", ["weekends free"]),
    ("whats matejas phone number", "au-pair", None, "attribute"),
    ("how much do we pay for extra babysitting", "au-pair", None, "attribute"),
    ("what was our last au pairs name", "au-pair", None, "subject"),
    ("how much holiday does she get in the summer", "au-pair", None, "date"),
    ("who is matejas agency", "au-pair", None, "role"),
    # gingerbread
    ("how much flour in the gingerbread men", "gingerbread", ["350g"]),
    ("how many gingerbread men does the recipe make", "gingerbread", ["20"]),
    ("how much ginger goes in", "gingerbread", ["2 tsp"]),
    ("what temp do i bake the gingerbread at", "gingerbread", ["180C"]),
    ("how long in the oven for the gingerbread biscuits", "gingerbread", ["12 to 15 minutes"]),
    ("how thick should i roll the dough", "gingerbread", ["5mm"]),
    ("what sugar is in the gingerbread", "gingerbread", ["light soft brown sugar"]),
    ("what do i use for the eyes", "gingerbread", ["currants"]),
    ("how long do the gingerbread people last", "gingerbread", ["a week"]),
    ("how do i make them hang on the tree", "gingerbread", ["straw"]),
    ("how much treacle goes in", "gingerbread", None, "subject"),
    ("how many calories in a gingerbread man", "gingerbread", None, "attribute"),
    ("how long do the gingerbread men keep in the freezer", "gingerbread", None, "attribute"),
    ("what gas mark for the gingerbread", "gingerbread", None, "type"),
    # tyres (PDF)
    ("how much were the new tyres altogether", "tyre-invoice", ["£219.00"]),
    ("where did we get the tyres done", "tyre-invoice", ["Treadright"]),
    ("what size tyres does the fabia take", "tyre-invoice", ["185/60 R15"]),
    ("how much was each tyre", "tyre-invoice", ["£72.50"]),
    ("how much was the tracking", "tyre-invoice", ["£45.00"]),
    ("what pressure should the front tyres be", "tyre-invoice", ["33 psi"]),
    ("what pressure for the back tyres", "tyre-invoice", ["30 psi"]),
    ("how much tread is left on the rear tyres", "tyre-invoice", ["3.5mm"]),
    ("whats the reg of the car", "tyre-invoice", ["WX19 KPD"]),
    ("who fitted the tyres", "tyre-invoice", ["Elwyn Marsh"]),
    ("are puncture repairs free", "tyre-invoice", ["free for a year"]),
    ("how much is a tyre for the rear", "tyre-invoice", None, "subject"),
    ("whats treadrights phone number", "tyre-invoice", None, "type"),
    ("when is the car due its next service", "tyre-invoice", None, "date"),
    ("who is the manager at treadright", "tyre-invoice", None, "role"),
    ("how much is a spare wheel", "tyre-invoice", None, "subject"),
    # gala results (PDF)
    ("what was wilfs 50m freestyle time", "gala-results", ["38.42"]),
    ("where did wilf come in backstroke", "gala-results", ["5th"]),
    ("whats wilfs backstroke pb", "gala-results", ["45.71"]),
    ("which race did wilf come second in", "gala-results", ["breaststroke"]),
    ("did the relay team win", "gala-results", ["1st"]),
    ("who was in the relay with wilf", "gala-results", ["Kit Ramsbottom", "Jonah Adewale", "Cosmo Reyes"]),
    ("which club won the gala", "gala-results", ["Ullerby Otters"]),
    ("how many points did the seals get", "gala-results", ["212"]),
    ("what has wilf qualified for", "gala-results", ["county championships"]),
    ("when is the next gala and how much per swim", "gala-results", ["11 December", "£4.50"]),
    ("did wilf get a pb in backstroke", "gala-results", ["45.71"]),
    ("what was wilfs 100m freestyle time", "gala-results", None, "subject"),
    ("what was kits time in the freestyle", "gala-results", None, "attribute"),
    ("what did wilf get at the summer gala", "gala-results", None, "date"),
    ("who is the club chairman", "gala-results", None, "role"),
    ("whats the swimming clubs email", "gala-results", None, "type"),
    # leisure timetable (PDF)
    ("what time is pilates", "leisure-timetable", ["7.30 to 8.30"]),
    ("who runs the yoga class", "leisure-timetable", ["Anjali"]),
    ("what day is aqua aerobics", "leisure-timetable", ["Tuesday"]),
    ("what time is spin on monday", "leisure-timetable", ["6.30 to 7.15"]),
    ("how much is a class if youre not a member", "leisure-timetable", ["£7.50"]),
    ("which classes does hester go to", "leisure-timetable", ["Pilates", "Yoga"]),
    ("who takes circuits", "leisure-timetable", ["Darragh"]),
    ("how warm is the pool", "leisure-timetable", ["29 degrees"]),
    ("how much is the creche an hour", "leisure-timetable", ["£4"]),
    ("how late can i cancel a class", "leisure-timetable", ["2 hours"]),
    ("do i need to bring a mat to yoga", "leisure-timetable", ["Bring your own mat"]),
    ("is there a zumba class", "leisure-timetable", None, "subject"),
    ("what time is yoga on sundays", "leisure-timetable", None, "date"),
    ("how much is membership at the leisure centre", "leisure-timetable", None, "attribute"),
    ("who runs the creche", "leisure-timetable", None, "role"),
    ("whats the leisure centre email", "leisure-timetable", None, "type"),
    ("what time is pilates in the spring term", "leisure-timetable", None, "date"),
    # travel money (PDF)
    ("how many euros did hester buy", "travel-money", ["600"]),
    ("how much did the euros cost in pounds", "travel-money", ["£525.39"]),
    ("how many swiss francs did we get", "travel-money", ["150"]),
    ("how much was the travel money in total", "travel-money", ["£662.25"]),
    ("was there any commission", "travel-money", ["£0.00"]),
    ("what notes did the euros come in", "travel-money", ["50 EUR", "20 EUR"]),
    ("can we sell the leftover euros back", "travel-money", ["buy back"]),
    ("how long have we got to sell back the currency for free", "travel-money", ["28 days"]),
    ("whats the transaction number for the travel money", "travel-money", ["BM-7710-3348"]),
    ("how much did we spend on dollars", "travel-money", None, "subject"),
    ("what was the franc rate in september", "travel-money", None, "date"),
    ("who served hester at the bureau", "travel-money", None, "role"),
    ("whats the bureaus phone number", "travel-money", None, "type"),
    ("where are we going on holiday", "travel-money", None, "attribute"),
    # blinds quote (PDF)
    ("how much is the blinds quote", "blinds-quote", ["£581.00"]),
    ("what blind is going in the kitchen", "blinds-quote", ["Roller blind"]),
    ("what colour is the kitchen blind", "blinds-quote", ["Sage"]),
    ("how much is the living room blind", "blinds-quote", ["£246.00"]),
    ("what blind is clem getting", "blinds-quote", ["Blackout"]),
    ("whats the size of the bathroom blind", "blinds-quote", ["620 x 900"]),
    ("how much is fitting the blinds", "blinds-quote", ["£60.00"]),
    ("how much deposit for the blinds", "blinds-quote", ["50%"]),
    ("how long till the blinds are fitted", "blinds-quote", ["3 weeks"]),
    ("who measured up for the blinds", "blinds-quote", ["Anouska Pelling"]),
    ("is vat included in the blinds price", "blinds-quote", ["include VAT"]),
    ("how much is a blind for wilfs room", "blinds-quote", None, "subject"),
    ("how much are motorised blinds", "blinds-quote", None, "attribute"),
    ("whats shadeworks phone number", "blinds-quote", None, "type"),
    ("when are the blinds being fitted", "blinds-quote", None, "date"),
    # karate grading (PDF)
    ("did clem pass her karate grading", "karate-grading", ["Pass"]),
    ("what belt is clem now", "karate-grading", ["red belt"]),
    ("what kyu is clem", "karate-grading", ["8th kyu"]),
    ("what did clem score overall in karate", "karate-grading", ["30 out of 40"]),
    ("what was her best section", "karate-grading", ["Etiquette"]),
    ("what did the sensei say about her sparring", "karate-grading", ["guard up"]),
    ("who was the karate examiner", "karate-grading", ["Oren Takahashi-Blythe"]),
    ("how much was the new belt", "karate-grading", ["£18"]),
    ("when is her next grading", "karate-grading", ["December"]),
    ("what nights is karate", "karate-grading", ["Mondays", "Wednesdays"]),
    ("how much is a karate session", "karate-grading", ["£5"]),
    ("when is the karate licence due and how much", "karate-grading", ["1 January", "£25"]),
    ("what belt is wilf in karate", "karate-grading", None, "subject"),
    ("how much is a karate suit", "karate-grading", None, "attribute"),
    ("what did clem get at her first grading", "karate-grading", None, "date"),
    ("whats the karate clubs phone number", "karate-grading", None, "type"),
    ("who is the club welfare officer", "karate-grading", None, "role"),
    # completion statement (PDF)
    ("how much did we pay for the house", "completion-statement", ["£318,000.00"]),
    ("how much stamp duty did we pay", "completion-statement", ["£5,900.00"]),
    ("when did we complete on tanyard close", "completion-statement", ["26 February 2027"]),
    ("when did we exchange", "completion-statement", ["12 February 2027"]),
    ("how big was our mortgage", "completion-statement", ["£254,400.00"]),
    ("who was the mortgage with", "completion-statement", ["Harbourline"]),
    ("how much were the solicitors fees", "completion-statement", ["£1,416.00"]),
    ("how much deposit did we put down", "completion-statement", ["£31,800.00"]),
    ("who was our conveyancer", "completion-statement", ["Sunniva Greywether"]),
    ("where were the keys left", "completion-statement", ["Holt and Marr"]),
    ("how much was the survey", "completion-statement", None, "subject"),
    ("what is the mortgage interest rate", "completion-statement", None, "attribute"),
    ("who sold us the house", "completion-statement", None, "role"),
    ("what was the solicitors email", "completion-statement", None, "type"),
    ("how much stamp duty did we pay on the old flat", "completion-statement", None, "subject"),
    ("what was the balance due in march", "completion-statement", None, "date"),
    # more, mixed wording
    ("did wilf win the 50m freestyle", "gala-results", ["3rd"]),
    ("is the village show on a sunday", "village-show", ["Saturday"]),
    ("does the au pair get paid holiday", "au-pair", ["Christmas"]),
    ("is the cake chocolate", "cake-order", ["lemon"]),
    ("is the escape room ok for clem", "escape-room", ["10 and up"]),
    ("do the kids need shoes on the bouncy castle", "bouncy-castle", ["shoes off"]),
    ("can clem have the party food on the castle", "bouncy-castle", ["no food"]),
    ("how much pocket money did our last au pair get", "au-pair", None, "subject"),
    ("what time does the village show open on sunday", "village-show", None, "date"),
    ("whats the frame size of dorians bike", "police-report", None, "attribute"),
])]
