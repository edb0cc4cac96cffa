"""A thirteenth held-out typed set (issue 33, session 28): 21 everyday documents (12 notes, 9 PDFs with
ruled tables) and 306 questions, 105 of them unanswerable (attribute 27, subject 26, date 19, type
17, role 16), written from scratch by the helper heldout28 of session 28 without reading the
answerer (src/cairn/answer/), the assistant (src/cairn/assistant/), search (src/cairn/search/) or
src/cairn/ops/: one household's documents (Marigold Treharne, Bastian Quill, their children Ansel
(14) and Peony (8), Marigold's mum Ottilie and a cockapoo called Pickle, at 31 Ropemaker Row in the
invented town of Fallowby near Cressmouth, Hartlebridge and Sandhollow Bay) on kinds of document the
earlier sets do not centre on: a dog groomer's booking, a funeral order of service, a brass band's
contest rehearsal schedule, a beekeeper's hive inspection log, a campsite pitch booking, a bin
collection calendar, an elderflower cordial recipe, an energy performance certificate, a hearing
test result, a council's road closure letter, a pub quiz league table and a charity shop volunteer's
induction notes; as PDFs a heating oil delivery invoice, football season tickets, a fitness
tracker's weekly summary, a work mileage claim form, a supermarket loyalty points statement, GP
blood test results, a funeral director's invoice, a youth sailing course's joining instructions and
a school photo order form. Amounts that are not money stand next to money (kWh, litres, miles,
points, steps, km, dB, mmol/L, kg of honey); several times are written without am/pm ("at 9.30",
"11.00", "7.30 to 9.45"). Every person, company, place, amount, date, code and phone number is
invented (phone numbers from the drama ranges: 01632 960xxx, 07700 900xxx); no third-party text.
Same shape as bench/typed_set.py (`write`, `QUESTIONS`, `expect` a list of strings the answer must
each hold, case and spacing folded, None for an unanswerable question, `why` the way it is
unanswerable: "attribute" - the asked attribute is written of another subject (Bastian's cholesterol
but not Marigold's; Hive B's honey but not Hive A's), or the subject is there without it (a vicar
with no phone number); "type" - no value of the asked type (an e-mail address where only a phone
number is given); "subject" - another item of the same kind, absent (a puppy groom where only a
medium dog's price is given); "role" - the role is held by nobody named (a quizmaster, an executor);
"date" - the asked date or period is not the one the document covers (March's mileage on an April
claim)).
Questions are typed the way a person types them: lower case, their own words rather than the
document's ("the wake" for refreshments, "the undertakers" for funeral directors, "the tip" for the
household recycling centre, "the md" for the musical director), dropped apostrophes, a few typos,
two-part questions, lists, who-questions and yes/no questions (several whose answer is no).

Held out: nobody tunes on it. Every question is `part` "thirteenth" and is asked once on the start
commit by heldout28 (figures in bench/README.md, "Session 28 — heldout28") and once by the lead at
the end of session 28 (`python bench/answers_typed.py --set thirteenth`); its failures are
recorded, not fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "dog-groomer.md": """# Pickle's grooming appointment

Scruffs to Fluffs Dog Grooming, Unit 2, Mill Yard, Fallowby. Groomer: Delphine Okafor, 07700 900 452.
Dog: Pickle, our cockapoo, 4 years old, about 11kg.
Booked: Friday 18 June 2032 at 9.30 for a full groom (bath, dry, clip, nails and ears).
Price: full groom for a medium dog £48. De-matting is extra, £10 for every 15 minutes, if he needs it.
Pick up: Delphine texts when he is ready, usually about 3 hours after drop off.
Style: teddy bear face, 1.5cm all over, leave the ears long.
Walk him before you bring him in so he has been to the toilet.
He must be up to date with his kennel cough vaccine; his was done on 2 February.
Late cancellation (under 48 hours) costs half the groom price.
Loyalty card: the 6th groom is free; Pickle has 4 stamps so far.
For his coat a groom every 8 weeks is recommended.
Pickle hates the dryer, so Delphine towel dries his face.
""",
    "order-of-service.md": """# Order of service: Grandad Aldous's funeral

A celebration of the life of Aldous Benedict Quill, 12 March 1941 to 29 May 2032.
Tuesday 15 June 2032 at 11.00, St Brannoc's Church, Cressmouth, followed by a private committal at
Hartlebridge Crematorium (family only).
Service led by the Reverend Philippa Ashdown.

- Music as we come in: "Morning Over the Quay", played by the organist, Mr Cyril Banfield
- Welcome and opening prayer
- Hymn: "The Harbour Bells"
- Reading: a poem Aldous kept in his wallet, read by his great-grandson Ansel Quill
- Eulogy: Bastian Quill (grandson)
- Memories of the lifeboat years: Jory Penhallow, who served on the crew with him
- Prayers
- Hymn: "Lanterns on the Quay"
- Commendation and farewell
- Music as we leave: "Fair Winds Home", a recording of the Hartlebridge Town Band

Bearers: Bastian, his brothers Hugo and Lorcan Quill, and Jory Penhallow.
Afterwards: refreshments at the Anchor Rooms, Quay Street, Cressmouth, from 12.30.
Family flowers only, please. Donations in Aldous's memory to the Cressmouth Lifeboat Station; there
will be a collection plate at the church door.
Funeral directors: Pendry and Rowse, 01632 960 583.
Aldous asked that nobody wear black: a splash of blue for the sea.
""",
    "band-rehearsals.md": """# Fallowby Brass: rehearsals for the spring contest

Bastian plays 2nd cornet. Musical director: Ms Rosamund Achterberg. Band secretary: Tobin Greatorex, 07700 900 219.
Usual rehearsals: Mondays and Thursdays, 7.30 to 9.45, at the Methodist Hall, Chapel Street, Fallowby.
Extra rehearsals before the contest:
- Sunday 7 March, 2 to 5: sectionals (cornets in the back room, basses in the hall)
- Saturday 13 March, 10 to 4: full band; bring a packed lunch
- Wednesday 17 March, 7.30 to 9.30: run-through in contest order
Contest: West Cressmouth Area Championship, Saturday 20 March, at the Cressmouth Corn Exchange. We
are drawn to play 7th of 11 bands, at about 2.40pm.
Test piece: "Tidewrack", about 13 minutes long.
The coach leaves the Methodist Hall at 11.15; £12 each, pay Tobin.
Uniform: red jacket, black trousers, black shoes and the band tie.
Subs: £15 a month by standing order.
Last year we came 4th with 181 points; the top 2 bands go through to the finals.
""",
    "beekeeping-log.md": """# Hive inspection log (Marigold's bees in Mum's orchard)

Two hives: Hive A "Primrose" (a National hive, local black bees) and Hive B "Saffie" (a swarm we caught in June 2031).
Fallowby and District Beekeepers; my mentor is Godfrey Lamplugh, 07700 900 388.

Saturday 10 April 2032, 14C, sunny.
Hive A: queen seen (marked green), eggs and young larvae, 6 frames of brood, calm. Added a super.
Hive B: no queen seen but eggs present, 4 frames of brood, a bit tetchy. 2 empty queen cups.

Saturday 24 April 2032, 17C.
Hive A: 8 frames of brood and 3 sealed queen cells! Did an artificial swarm: the old queen went into a
new box, Hive C, on the old site.
Hive B: 5 frames of brood, calm today.

Saturday 8 May 2032, 15C, cloudy.
Hive A: the new queen not seen yet and no eggs; give it another 2 weeks. Hive C: the old queen laying well.
Hive B: varroa count 12 mites a day on the board; treat after the summer honey comes off.

Honey so far this year: 9kg of spring honey from Hive B, taken off on 8 May. Jars (454g) sell for
£7.50 at the farm shop.
Next inspection: Saturday 15 May. Wear the full suit for Hive B.
""",
    "campsite-booking.md": """# Camping at Gorse Point

Gorse Point Camping, Cliff Road, Sandhollow Bay. Booking reference GPC-60371.
Arrive Friday 23 July 2032, leave Friday 30 July (7 nights).
Pitch 14: hardstanding with electric hook-up (16 amp) and a sea view, in the Lower Field.
Party: 2 adults, 2 children and 1 dog (Pickle).
Price: £34 a night for the pitch and £2 a night for the dog, electric included: £252 in all.
Deposit of £50 paid; the balance is due by 23 June.
Arrival from 1pm; the pitch must be empty by 11 on the day we leave.
Quiet time 10.30pm to 7.30am. The barrier closes at 11pm; the code is 5813.
Dogs on leads at all times; the dog walk field is by the top gate.
Showers are free; laundry tokens £4 from reception.
Shop open 8am to 6pm: order bread and papers the night before.
Warden: Nesta Carvossa, 01632 960 664.
The beach is 10 minutes down the coast path; no dogs on the main beach from May to September.
No campfires; barbecues must be raised off the grass.
""",
    "bin-calendar.md": """# Bin days (Fallowby District Council, Ropemaker Row, round 3B)

- Black bin (general waste): every other Tuesday; the next ones are 8 June, 22 June and 6 July.
- Blue bin (cans, glass and plastic bottles): every other Tuesday, the weeks in between: 1 June, 15 June and 29 June.
- Red box (paper and card): goes out with the blue bin.
- Food caddy: every Tuesday.
- Green bin (garden waste): every other Friday, March to November, with the £52 a year subscription (paid; permit sticker 30778).

Put the bins out by 7am on the day, and not before 6pm the night before. Lids must close.
Bank holiday weeks: collections are a day later.
Never in the bins: bricks, soil, paint or batteries (batteries go in a clear bag on top of the blue bin).
Missed bin: report it online by 5pm the next working day, or ring 01632 960 120.
Household recycling centre: Brickkiln Lane, Hartlebridge, open 8 till 4, closed Thursdays; vans need a booked slot.
Christmas trees: cut up and put in the green bin.
""",
    "elderflower-cordial.md": """# Mum's elderflower cordial (makes about 2 litres)

- 25 elderflower heads, picked on a dry sunny morning and shaken to get the insects out
- 1.5 litres of water
- 1kg granulated sugar
- 2 unwaxed lemons, zest and slices
- 50g citric acid (from the chemist)

1. Bring the water to the boil, take it off the heat and stir in the sugar until it dissolves.
2. Add the lemon zest and slices, the citric acid and the flowers. Cover with a tea towel and leave for 24 hours.
3. Strain through a muslin into a jug and pour into sterilised bottles.

It keeps 6 weeks in the fridge, or freeze it in ice cube trays.
To drink: 1 part cordial to 10 parts water; nice with fizzy water too.
Pick the flowers from late May to mid June, from the hedge along Holloway Lane, away from the main road.
Don't use the stalks: they make it bitter.
""",
    "energy-certificate.md": """# Energy certificate for 31 Ropemaker Row

Energy performance certificate number 8812-4406-2290-7135-0043, valid until 3 November 2041.
Assessor: Imogen Radwell, Cressmouth Energy Surveys, 01632 960 476. Surveyed on 4 November 2031.
Property: mid-terrace house, built about 1910, floor area 94 square metres.
Current rating: E (52). Potential rating: C (74).
Estimated energy use for heating and hot water: 14,800 kWh a year, about £2,190 a year.
Walls: solid brick, no insulation. Roof: pitched, 100mm of loft insulation. Windows: mostly double glazed.
Heating: gas boiler and radiators, with a programmer and room thermostat but no thermostatic radiator valves.
Carbon dioxide: 4.1 tonnes a year (a typical house: 6 tonnes).

Recommended improvements:
1. Loft insulation up to 270mm: about £400, saving £95 a year; the rating goes up to 55.
2. Internal wall insulation: £7,500 to £11,000, saving £420 a year.
3. Thermostatic radiator valves: £350 to £450, saving £40 a year.
4. Solar water heating: £4,000 to £6,000, saving £35 a year.

We want a C before we ever sell. The loft first: Bastian to get three quotes in September.
""",
    "hearing-test.md": """# Mum's hearing test

Ottilie Treharne, hearing test on Wednesday 5 May 2032 at 2.15, Clearwave Hearing, Fore Street, Cressmouth.
Audiologist: Mr Ravindra Pillai.
Result: moderate high-frequency hearing loss in both ears, worse in the left.
Left ear: average loss 48 dB. Right ear: average loss 35 dB.
Speech-in-noise test: 62% of words heard correctly (above 80% is normal for her age).
Recommended: two behind-the-ear hearing aids with rechargeable batteries.
Option 1: NHS hearing aids from the audiology department at Cressmouth Hospital, free, needs a referral
from her GP; the wait is about 14 weeks.
Option 2: Clearwave's own Solace 5 aids, £2,340 the pair, with 4 years of aftercare and a 60-day trial.
Earwax: a little in the right ear, no need to remove it.
She mentioned ringing in her ears at night; he gave her a tinnitus leaflet.
Mum's decision: NHS. I'll ask Dr Fairweather at the surgery for the referral.
Retest in 2 years if nothing changes.
""",
    "road-closure.md": """# Road closure: Ropemaker Row resurfacing

Letter from Fallowby District Council Highways, reference HW/32/0917, dated 10 May 2032.
Ropemaker Row will be closed between Mill Street and Cooper's Hill so the road can be resurfaced.
Dates: Monday 7 June to Wednesday 9 June 2032, 8pm to 6am each night (night work keeps the school run clear).
Diversion: Mill Street, Station Road and Cooper's Hill (signed).
Residents' cars must be off the road by 7pm each night; park in the Station Road car park free of charge
(show this letter).
Access on foot at all times; emergency vehicles will be let through.
No parking cones go out from 2 June.
The bus stop outside number 40 moves to Mill Street for the three nights.
Bin collections are not affected (they are on Tuesdays, by day).
Contractor: Ridgeway Surfacing Ltd; site supervisor Wendell Okoro, 07700 900 705.
Questions: Highways, 01632 960 312, or highways@fallowby.example.
If bad weather holds the work up, it moves to the following week, 14 to 16 June.
""",
    "quiz-league.md": """# Quiz league: the Row Brains

Fallowby Pubs Quiz League, winter season 2031-32. Our team, the Row Brains: Marigold, Bastian,
Anouk Delacroix-Barnes and Fenwick Odusanya. Captain: Anouk.
Quiz nights are Wednesdays at 8.30; home matches at the Wheatsheaf, Mill Street. £2 each a week for the kitty.

League table after 14 weeks (2 points for a win, 1 for a draw):
1. The Quizzly Bears, 24 points
2. The Row Brains, 21 points
3. Brains of Fallowby, 18 points
4. Four Pints Short, 15 points
5. The Wheatsheaf Wanderers, 9 points

Our best round this season: 38 out of 40 in the picture round, against Four Pints Short.
Next match: away to the Quizzly Bears at the Fox and Ferret, Cooper's Hill, on Wednesday 26 January.
Brewster Cup final: Friday 11 February at the Corn Exchange, £20 a team to enter. Fenwick can't come,
so Bastian's sister Ingrid will fill in.
End of season dinner at the Wheatsheaf on 25 March, £28 a head.
Who answers what: Anouk does rivers and flags, Fenwick does sport, Bastian does music.
""",
    "volunteer-induction.md": """# Hospice shop volunteering: my induction notes

Seahaven Hospice Shop, 22 Market Place, Fallowby. Shop phone 01632 960 745.
Shop manager: Priya Castellanos; deputy manager: Huw Brangwyn.
My shifts: Thursday mornings, 9.30 to 1, starting 3 June; the sorting room first, then the till.
Induction with Huw on 27 May: fire exits (the back door to the yard; we gather by the post box on the
corner), till training and Gift Aid.
Gift Aid: every bag from a signed-up donor gets a label with their donor number; it adds 25p to every £1 we sell.
Steaming: everything that goes on a hanger gets steamed; the steamer takes 10 minutes to heat up.
Prices: tops and shirts £3.50, jeans £5, coats £8 to £15, books 99p or 3 for £2. Designer labels go to
Priya, who sells them online.
Not accepted: electricals without a safety test, cot mattresses, car seats, opened make-up.
Volunteers get 20% off in the shop after 3 months.
Tea and coffee are free in the back; the biscuit tin is shared.
Never work alone: at least 2 people on the shop floor at all times.
A DBS check is not needed for the shop.
""",
}

PDFS: dict[str, dict] = {
    "heating-oil.pdf": {
        "lines": ["Kestrel Fuels Ltd", "Heating oil delivery note and invoice", "Invoice KF-229184",
                  "Date of delivery: 19 January 2032",
                  "Customer: Mrs Ottilie Treharne, Quince Cottage, Holloway Lane, Fallowby",
                  "Account number: 40517", "Tank: 1,200 litre bunded plastic tank, rear garden",
                  "Driver: Lowri Pencarrow"],
        "table": [["Product", "Litres", "Price per litre", "Amount"],
                  ["Kerosene (28 second)", "650", "62.4p", "£405.60"],
                  ["Fuel additive treatment", "1", "£14.00", "£14.00"],
                  ["Subtotal", "", "", "£419.60"],
                  ["VAT at 5%", "", "", "£20.98"],
                  ["Total", "", "", "£440.58"]],
        "after": ["Tank gauge before delivery: 22%; after delivery: 76%.",
                  "Payment: by Direct Debit on 2 February 2032.",
                  "Price promise: order 500 litres or more before 31 March for a fixed 59.9p per litre.",
                  "Minimum order: 500 litres. Emergency top-up of 100 litres: £95, delivered within 48 hours.",
                  "Orders: 01632 960 811 (Monday to Friday, 8.30am to 5pm).",
                  "Please keep the path to the tank clear of snow and ice."],
    },
    "season-tickets.pdf": {
        "lines": ["Cressmouth Town Football Club", "Season ticket confirmation 2032-33", "Order number CTFC-88120",
                  "Account holder: Bastian Quill", "Ground: Harbourside Park, Quay Road, Cressmouth"],
        "table": [["Holder", "Type", "Stand", "Block", "Row", "Seat", "Price"],
                  ["Bastian Quill", "Adult", "Lighthouse Stand", "L4", "K", "112", "£285.00"],
                  ["Ansel Quill", "Under 16", "Lighthouse Stand", "L4", "K", "113", "£95.00"],
                  ["Total", "", "", "", "", "", "£380.00"]],
        "after": ["Paid in 10 monthly instalments of £38.00 from 1 July 2032.",
                  "Tickets are loaded onto your membership cards: Bastian CTFC 0047712, Ansel CTFC 0047713.",
                  "Your season ticket covers all 23 home league games. Cup games are extra: season ticket holders "
                  "get priority booking and 20% off.",
                  "Turnstiles open 90 minutes before kick-off; most Saturday games kick off at 3pm.",
                  "Can't go? List your seat on the ticket exchange by noon the day before and get £8 back "
                  "into your account.",
                  "An under 16 must sit with an adult in the same block.",
                  "Box office: 01632 960 656."],
    },
    "fitness-summary.pdf": {
        "lines": ["Stridewell fitness tracker", "Weekly summary: Monday 17 May to Sunday 23 May 2032",
                  "Name: Marigold Treharne", "Daily step goal: 9,000 steps"],
        "table": [["Day", "Steps", "Distance (km)", "Active minutes", "Sleep", "Resting heart rate"],
                  ["Monday", "8,412", "6.1", "34", "6h 50m", "61"],
                  ["Tuesday", "11,905", "8.7", "62", "7h 15m", "59"],
                  ["Wednesday", "6,230", "4.5", "21", "5h 40m", "63"],
                  ["Thursday", "12,118", "8.9", "71", "7h 05m", "58"],
                  ["Friday", "9,764", "7.1", "48", "6h 20m", "60"],
                  ["Saturday", "15,302", "11.4", "96", "8h 10m", "57"],
                  ["Sunday", "4,877", "3.5", "18", "8h 35m", "58"]],
        "after": ["Weekly total: 68,608 steps, 50.2 km, 350 active minutes.",
                  "Step goal reached on 4 of 7 days.",
                  "Average sleep: 7h 08m. Best night: Sunday.",
                  "Longest workout: Saturday, parkrun and a walk home, 1h 42m.",
                  "New badge: Marathon Walker (42 km in one week).",
                  "Next week's challenge: 10,000 steps a day."],
    },
    "mileage-claim.pdf": {
        "lines": ["Fernside Housing Association", "Business mileage claim form",
                  "Employee: Bastian Quill, employee number FH-3391", "Job title: Maintenance surveyor",
                  "Claim month: April 2032", "Rate: 45p a mile (first 10,000 business miles in the tax year)"],
        "table": [["Date", "Journey", "Miles", "Parking", "Amount"],
                  ["6 April", "Office to Gullrock Estate (void inspections) and back", "38", "£4.00", "£21.10"],
                  ["9 April", "Office to Kestle Court (damp survey) and back", "22", "£0.00", "£9.90"],
                  ["15 April", "Home to Hartlebridge depot (training day) and back", "46", "£6.50", "£27.20"],
                  ["22 April", "Office to Cressmouth tenants' meeting and back", "30", "£3.20", "£16.70"],
                  ["28 April", "Office to Sandhollow sheltered housing and back", "54", "£0.00", "£24.30"],
                  ["Total", "", "190", "£13.70", "£99.20"]],
        "after": ["Claims must reach payroll by the 5th of the next month to be paid with that month's salary "
                  "(paid on the 28th).",
                  "Attach parking receipts; fuel receipts are not needed.",
                  "Approved by: Carys Oyelowo (line manager), 3 May 2032.",
                  "Passengers: add 5p a mile for each colleague you carry (none this month)."],
    },
    "loyalty-points.pdf": {
        "lines": ["Hollins and Vane", "Harvest Rewards points statement",
                  "Member: Marigold Treharne, card ending 6620", "Statement period: 1 February to 30 April 2032",
                  "You earn 1 point for every £1 you spend, and 2 points a litre on fuel."],
        "table": [["Date", "Where", "Spent", "Points"],
                  ["3 February", "Fallowby store", "£86.40", "86"],
                  ["14 February", "Fuel, Cressmouth", "£62.10 (41 litres)", "82"],
                  ["2 March", "Fallowby store", "£112.75", "112"],
                  ["19 March", "Online shop", "£97.30", "97"],
                  ["6 April", "Fuel, Cressmouth", "£58.90 (38 litres)", "76"],
                  ["21 April", "Fallowby store", "£74.20", "74"],
                  ["21 April", "Bonus: double points weekend", "", "74"],
                  ["Total this period", "", "£491.65", "601"]],
        "after": ["Points balance: 1,148 (including 547 carried over).",
                  "Every 500 points turns into a £5 voucher; your next vouchers, worth £10, will be posted in May.",
                  "Points expire if you do not use your card for 2 years.",
                  "Customer services: 01632 960 233."],
    },
    "blood-results.pdf": {
        "lines": ["Hartlebridge Road Surgery", "Blood test results",
                  "Patient: Bastian Quill, date of birth 14 August 1984",
                  "Sample taken: Tuesday 11 May 2032, 8.40am (fasting)", "Requested by: Dr Lucinda Fairweather"],
        "table": [["Test", "Result", "Normal range", "Comment"],
                  ["Total cholesterol", "5.9 mmol/L", "below 5.0", "Raised"],
                  ["HDL (good) cholesterol", "1.3 mmol/L", "above 1.0", "Normal"],
                  ["LDL cholesterol", "3.8 mmol/L", "below 3.0", "Raised"],
                  ["Fasting glucose", "5.4 mmol/L", "3.9 to 5.5", "Normal"],
                  ["HbA1c", "39 mmol/mol", "below 42", "Normal"],
                  ["Vitamin D", "38 nmol/L", "50 to 175", "Low"],
                  ["Ferritin", "96 ug/L", "30 to 400", "Normal"]],
        "after": ["Doctor's comment: cholesterol a little raised; try diet and exercise first and recheck in "
                  "3 months. QRISK score 6.2% (low).",
                  "Vitamin D low: take a 1,000 unit supplement every day through the winter (over the counter).",
                  "No need to book an appointment. Results line: 01632 960 390, after 2pm.",
                  "Next blood test: August 2032, fasting from 10pm the night before."],
    },
    "funeral-invoice.pdf": {
        "lines": ["Pendry and Rowse Funeral Directors", "Harbour Lane, Cressmouth", "Tel 01632 960 583",
                  "Invoice PR-5127", "Date: 18 June 2032", "Funeral of: Mr Aldous Benedict Quill",
                  "Account: Mr Bastian Quill, 31 Ropemaker Row, Fallowby"],
        "table": [["Item", "Amount"],
                  ["Funeral director's services and care of Mr Quill", "£2,150.00"],
                  ["Oak veneer coffin", "£795.00"],
                  ["Hearse and one limousine", "£540.00"],
                  ["Paid on your behalf: crematorium fee, Hartlebridge", "£1,030.00"],
                  ["Paid on your behalf: minister's fee", "£216.00"],
                  ["Paid on your behalf: organist", "£95.00"],
                  ["Printed orders of service (80)", "£160.00"],
                  ["Death notice, Cressmouth Courier", "£118.00"],
                  ["Total", "£5,104.00"],
                  ["Less deposit paid 1 June", "-£1,000.00"],
                  ["Balance due", "£4,104.00"]],
        "after": ["Please pay the balance within 28 days, by 16 July 2032.",
                  "Bank transfer to Pendry and Rowse Ltd, sort code 30-91-62, account 48120375, reference PR-5127.",
                  "The balance can be paid from Mr Quill's estate: we can send this invoice to the bank dealing with it.",
                  "Donations collected at the church for the Cressmouth Lifeboat Station: £642.50, which we will send on.",
                  "The ashes will be ready to collect from 25 June."],
    },
    "sailing-course.pdf": {
        "lines": ["Sandhollow Sailing Club", "Youth Stage 2 dinghy course: joining instructions",
                  "Sailor: Ansel Quill, age 14", "Dates: Monday 2 August to Friday 6 August 2032",
                  "In charge: senior instructor Morwenna Tregunna",
                  "Course fee: £265 (paid). Youth membership: £30 a year (paid)."],
        "table": [["Day", "Morning (9.30 to 12.30)", "Afternoon (1.30 to 4.30)"],
                  ["Monday", "Rigging, launching and capsize drill", "Steering and tacking on the lake"],
                  ["Tuesday", "Points of sailing (theory)", "Gybing and man overboard drill"],
                  ["Wednesday", "Knots: bowline, reef knot, round turn", "Sea sail in the bay (weather permitting)"],
                  ["Thursday", "Rules of the road", "Racing games round the buoys"],
                  ["Friday", "Assessment", "Sail to Gull Island and back; certificates at 4pm"]],
        "after": ["Bring: a wetsuit (hire £5 a day), old trainers that can get wet, a waterproof jacket, "
                  "a packed lunch, sun cream and a change of clothes.",
                  "Buoyancy aids are provided and must be worn on the water at all times.",
                  "Sailors must be able to swim 50m in clothes: please sign the swimming declaration.",
                  "If the wind is over 20 knots we stay ashore and do theory.",
                  "Parents can watch from the clubhouse balcony; the cafe opens at 10am.",
                  "Club office: 01632 960 947."],
    },
    "school-photos.pdf": {
        "lines": ["Snapwell School Photography", "Fallowby Primary School: individual and sibling photos",
                  "Photographed on: 12 May 2032", "Pupil: Peony Quill, Kingfishers class (Year 3)",
                  "Proof code: PQ7-K2248. Order online with your proof code."],
        "table": [["Item", "What you get", "Price", "Ordered"],
                  ["Pack A", "One 10x8 print and two 7x5 prints", "£24.00", "No"],
                  ["Pack B", "Two 7x5 prints and four wallet prints", "£18.00", "Yes"],
                  ["Digital download", "One high-resolution file", "£15.00", "Yes"],
                  ["Sibling photo", "One 10x8 print of brothers and sisters at this school", "£14.00", "No"],
                  ["Calendar 2033", "12 months with your photo", "£12.50", "No"],
                  ["Postage to home", "", "£3.95", "No"]],
        "after": ["Your order: Pack B and the digital download, £33.00, paid online on 20 May.",
                  "Orders placed by 1 June are delivered to school free; after that, postage to home only.",
                  "Free retake day: 9 June, for any pupil whose photo went wrong (eyes shut and so on).",
                  "We keep the photos for 12 months, then delete them.",
                  "Queries: 01632 960 418 or orders@snapwell.example."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 1300 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "thirteenth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # dog groomer
    ("what time is pickle booked in at the groomers", "dog-groomer", ["9.30"]),
    ("how much is pickles groom", "dog-groomer", ["£48"]),
    ("how much extra if hes all matted", "dog-groomer", ["£10"]),
    ("how short are they cutting him", "dog-groomer", ["1.5cm"]),
    ("how long till i can collect him", "dog-groomer", ["3 hours"]),
    ("what if i cancel the day before", "dog-groomer", ["half"]),
    ("when did pickle have his kennel cough jab", "dog-groomer", ["2 February"]),
    ("is the groomers on saturday", "dog-groomer", ["Friday"]),
    ("how much is a puppy groom", "dog-groomer", None, "subject"),
    ("whats delphines email address", "dog-groomer", None, "type"),
    ("what shampoo do they use on pickle", "dog-groomer", None, "attribute"),
    ("whos on reception at scruffs to fluffs", "dog-groomer", None, "role"),
    ("how much was pickles groom last christmas", "dog-groomer", None, "date"),
    # order of service
    ("what time is grandad aldous's funeral", "order-of-service", ["11.00"]),
    ("whos taking the service", "order-of-service", ["Philippa Ashdown"]),
    ("who is giving the eulogy", "order-of-service", ["Bastian"]),
    ("who are the bearers", "order-of-service", ["Hugo", "Lorcan", "Jory"]),
    ("where's the wake", "order-of-service", ["Anchor Rooms"]),
    ("what time does the do after start", "order-of-service", ["12.30"]),
    ("where do donations go", "order-of-service", ["Lifeboat"]),
    ("can anyone go to the crematorium", "order-of-service", ["family only"]),
    ("should we wear black to the funeral", "order-of-service", ["splash of blue"]),
    ("what hymns are we singing", "order-of-service", ["Harbour Bells", "Lanterns on the Quay"]),
    ("what time is the committal at the crematorium", "order-of-service", None, "attribute"),
    ("who's doing the second reading", "order-of-service", None, "subject"),
    ("whats the vicars phone number", "order-of-service", None, "attribute"),
    ("when is grandma's memorial service", "order-of-service", None, "subject"),
    ("whats the funeral directors email", "order-of-service", None, "type"),
    # band rehearsals
    ("what nights is band practice", "band-rehearsals", ["Mondays", "Thursdays"]),
    ("what time does band finish on a thursday", "band-rehearsals", ["9.45"]),
    ("when's the contest", "band-rehearsals", ["20 March"]),
    ("what piece are they playing at the area", "band-rehearsals", ["Tidewrack"]),
    ("what time are they on stage at the contest", "band-rehearsals", ["2.40pm"]),
    ("how much is the coach and who do i give the money to", "band-rehearsals", ["£12", "Tobin"]),
    ("what does bastian need to take on the 13th", "band-rehearsals", ["packed lunch"]),
    ("hows many points did they get last year", "band-rehearsals", ["181"]),
    ("is the sunday rehearsal the whole band", "band-rehearsals", ["sectionals"]),
    ("how many points did the winners get last year", "band-rehearsals", None, "attribute"),
    ("when are the national finals", "band-rehearsals", None, "subject"),
    ("who plays principal cornet", "band-rehearsals", None, "role"),
    ("whats tobins email", "band-rehearsals", None, "type"),
    ("whens the contest next year", "band-rehearsals", None, "date"),
    # beekeeping log
    ("how many frames of brood in primrose on the 24th", "beekeeping-log", ["8 frames"]),
    ("what colour is primroses queen marked", "beekeeping-log", ["green"]),
    ("how much honey have the bees made this year", "beekeeping-log", ["9kg"]),
    ("how much does a jar of honey sell for", "beekeeping-log", ["£7.50"]),
    ("whats the mite count on hive b", "beekeeping-log", ["12"]),
    ("when should i do the varroa treatment", "beekeeping-log", ["summer honey"]),
    ("who's my beekeeping mentor", "beekeeping-log", ["Godfrey"]),
    ("where did the old queen end up", "beekeeping-log", ["Hive C"]),
    ("was the queen seen in saffie on 10 april", "beekeeping-log", ["no queen seen"]),
    ("how much honey has primrose made", "beekeeping-log", None, "attribute"),
    ("whats the varroa count on hive a", "beekeeping-log", None, "attribute"),
    ("who's the secretary of the beekeepers association", "beekeeping-log", None, "role"),
    ("what did i find at the 22 may inspection", "beekeeping-log", None, "date"),
    ("whats godfreys email", "beekeeping-log", None, "type"),
    # campsite booking
    ("what pitch are we on at gorse point", "campsite-booking", ["Pitch 14"]),
    ("how much is the camping all in", "campsite-booking", ["£252"]),
    ("when do we have to pay the rest for the campsite", "campsite-booking", ["23 June"]),
    ("what time do we have to leave the pitch", "campsite-booking", ["11"]),
    ("whats the code for the barrier", "campsite-booking", ["5813"]),
    ("do we pay extra for electric", "campsite-booking", ["electric included"]),
    ("can pickle go on the main beach in july", "campsite-booking", ["no dogs"]),
    ("whos the warden and whats her number", "campsite-booking", ["Nesta", "01632 960 664"]),
    ("can we have a fire", "campsite-booking", ["No campfires"]),
    ("whats the wifi password at the campsite", "campsite-booking", None, "attribute"),
    ("how much is a tent pitch in the top field", "campsite-booking", None, "subject"),
    ("whats the campsite email", "campsite-booking", None, "type"),
    ("how much would the pitch cost in september", "campsite-booking", None, "date"),
    ("who runs the campsite shop", "campsite-booking", None, "role"),
    # bin calendar
    ("when is the black bin next", "bin-calendar", ["8 June"]),
    ("which bin does glass go in", "bin-calendar", ["Blue"]),
    ("how much is the garden waste subscription", "bin-calendar", ["£52"]),
    ("what time do the bins need to be out", "bin-calendar", ["7am"]),
    ("where do old batteries go", "bin-calendar", ["clear bag"]),
    ("wheres the tip", "bin-calendar", ["Brickkiln Lane"]),
    ("is the tip open on thursdays", "bin-calendar", ["closed Thursdays"]),
    ("who do i ring if the bin men miss us", "bin-calendar", ["01632 960 120"]),
    ("whats different in a bank holiday week", "bin-calendar", ["a day later"]),
    ("when is the brown bin collected", "bin-calendar", None, "subject"),
    ("when is the blue bin in august", "bin-calendar", None, "date"),
    ("whats the councils email for bins", "bin-calendar", None, "type"),
    ("what time do the bin men usually come", "bin-calendar", None, "attribute"),
    ("who's in charge of the recycling centre", "bin-calendar", None, "role"),
    # elderflower cordial
    ("how many flower heads for the cordial", "elderflower-cordial", ["25"]),
    ("how much sugar in mums cordial", "elderflower-cordial", ["1kg"]),
    ("how long do the flowers soak for", "elderflower-cordial", ["24 hours"]),
    ("how long will the cordial last", "elderflower-cordial", ["6 weeks"]),
    ("how much water do i mix it with", "elderflower-cordial", ["10 parts"]),
    ("when do you pick elderflowers", "elderflower-cordial", ["late May", "mid June"]),
    ("where does mum get her elderflowers", "elderflower-cordial", ["Holloway Lane"]),
    ("why leave the stalks out", "elderflower-cordial", ["bitter"]),
    ("what goes in elderflower cordial", "elderflower-cordial", ["sugar", "lemons", "citric acid"]),
    ("how much elderberry goes in the syrup", "elderflower-cordial", None, "subject"),
    ("how many calories in a glass of the cordial", "elderflower-cordial", None, "type"),
    ("how hot should the oven be to sterilise the bottles", "elderflower-cordial", None, "attribute"),
    ("how long does elderflower champagne take to fizz", "elderflower-cordial", None, "subject"),
    ("how much honey goes in the cordial", "elderflower-cordial", None, "subject"),
    # energy certificate
    ("whats our epc rating now", "energy-certificate", ["52"]),
    ("what could the house get to if we did everything", "energy-certificate", ["74"]),
    ("how many kwh do we use for heating a year", "energy-certificate", ["14,800"]),
    ("how much does heating the house cost a year", "energy-certificate", ["2,190"]),
    ("how much loft insulation is up there now", "energy-certificate", ["100mm"]),
    ("what would topping up the loft cost and how much would it save", "energy-certificate", ["£400", "£95"]),
    ("when does the energy certificate expire", "energy-certificate", ["3 November 2041"]),
    ("have we got trvs on the radiators", "energy-certificate", ["no thermostatic"]),
    ("how much would insulating the walls save a year", "energy-certificate", ["£420"]),
    ("who's sorting the loft quotes", "energy-certificate", ["Bastian"]),
    ("how much would a heat pump cost", "energy-certificate", None, "subject"),
    ("whats the epc rating of mums cottage", "energy-certificate", None, "attribute"),
    ("whats imogens email", "energy-certificate", None, "type"),
    ("what was our energy rating in 2020", "energy-certificate", None, "date"),
    ("how old is our boiler", "energy-certificate", None, "attribute"),
    # hearing test
    ("when was mums hearing test", "hearing-test", ["5 May"]),
    ("which of mums ears is worse", "hearing-test", ["left"]),
    ("how much hearing has she lost in her right ear", "hearing-test", ["35 dB"]),
    ("what did she score on the speech in noise test", "hearing-test", ["62%"]),
    ("how much are the private hearing aids", "hearing-test", ["2,340"]),
    ("how long is the wait for nhs hearing aids", "hearing-test", ["14 weeks"]),
    ("is mum going private or nhs", "hearing-test", ["NHS"]),
    ("who am i asking for the referral", "hearing-test", ["Dr Fairweather"]),
    ("does mum need her ears syringed", "hearing-test", ["no need"]),
    ("what sort of hearing aids were recomended", "hearing-test", ["behind-the-ear"]),
    ("how much are replacement batteries for the aids", "hearing-test", None, "attribute"),
    ("whats clearwaves phone number", "hearing-test", None, "type"),
    ("what were mums results in 2030", "hearing-test", None, "date"),
    ("how much are in the ear hearing aids", "hearing-test", None, "subject"),
    ("who's mums ent consultant", "hearing-test", None, "role"),
    # road closure
    ("when is our road being resurfaced", "road-closure", ["7 June", "9 June"]),
    ("what hours are they doing the road works", "road-closure", ["8pm", "6am"]),
    ("where can we park while the road's shut", "road-closure", ["Station Road car park"]),
    ("what time does the car need to be moved by", "road-closure", ["7pm"]),
    ("whats the diversion route", "road-closure", ["Mill Street", "Station Road"]),
    ("wheres the bus stop moving to", "road-closure", ["Mill Street"]),
    ("will the bins still get emptied", "road-closure", ["not affected"]),
    ("whats the email for highways", "road-closure", ["highways@fallowby.example"]),
    ("what happens if it rains", "road-closure", ["14 to 16 June"]),
    ("whats the councils reference for the resurfaceing", "road-closure", ["HW/32/0917"]),
    ("when are they resurfacing mill street", "road-closure", None, "subject"),
    ("whats ridgeways office number", "road-closure", None, "attribute"),
    ("who's our local councillor", "road-closure", None, "role"),
    ("what time do they start on the saturday", "road-closure", None, "date"),
    ("whats wendells email", "road-closure", None, "type"),
    # quiz league
    ("whos top of the quiz league", "quiz-league", ["Quizzly Bears"]),
    ("how many points have the row brains got", "quiz-league", ["21 points"]),
    ("what night is quiz", "quiz-league", ["Wednesdays"]),
    ("where are our home quizzes", "quiz-league", ["Wheatsheaf"]),
    ("how much do we put in the kitty", "quiz-league", ["£2"]),
    ("whats our best round score", "quiz-league", ["38"]),
    ("when and where is the next quiz match", "quiz-league", ["26 January", "Fox and Ferret"]),
    ("how much is it to enter the cup final", "quiz-league", ["£20"]),
    ("whos filling in for fenwick", "quiz-league", ["Ingrid"]),
    ("who does the sport questions", "quiz-league", ["Fenwick"]),
    ("how many points have the pint pots got", "quiz-league", None, "subject"),
    ("whats the prize for winning the league", "quiz-league", None, "attribute"),
    ("whos the quizmaster at the wheatsheaf", "quiz-league", None, "role"),
    ("what did we get in the picture round last season", "quiz-league", None, "date"),
    ("whats anouks mobile number", "quiz-league", None, "type"),
    # volunteer induction
    ("when are my shifts at the hospice shop", "volunteer-induction", ["Thursday", "9.30"]),
    ("when do i start at the charity shop", "volunteer-induction", ["3 June"]),
    ("who manages the hospice shop", "volunteer-induction", ["Priya"]),
    ("how much do we sell jeans for", "volunteer-induction", ["£5"]),
    ("how much are the books", "volunteer-induction", ["99p", "3 for £2"]),
    ("can we take a car seat", "volunteer-induction", ["Not accepted"]),
    ("whats the volunteer discount and when do i get it", "volunteer-induction", ["20%", "3 months"]),
    ("where do we meet if the fire alarm goes", "volunteer-induction", ["post box"]),
    ("do i need a dbs check", "volunteer-induction", ["not needed"]),
    ("how much are shoes in the hospice shop", "volunteer-induction", None, "subject"),
    ("whos the area manager for the hospice shops", "volunteer-induction", None, "role"),
    ("whats priyas mobile", "volunteer-induction", None, "attribute"),
    ("whats the shop's email", "volunteer-induction", None, "type"),
    ("what's the rota for christmas week", "volunteer-induction", None, "date"),
    # heating oil (PDF)
    ("how much oil did mum have delivered", "heating-oil", ["650"]),
    ("what was the price per litre", "heating-oil", ["62.4p"]),
    ("how much was mums oil bill", "heating-oil", ["440.58"]),
    ("how full was the tank before they filled it", "heating-oil", ["22%"]),
    ("how big is mums oil tank", "heating-oil", ["1,200 litre"]),
    ("when is the oil payment taken", "heating-oil", ["2 February"]),
    ("whats the smallest amount of oil i can order", "heating-oil", ["500 litres"]),
    ("how much for an emergency top up", "heating-oil", ["£95"]),
    ("whats the number to order oil", "heating-oil", ["01632 960 811"]),
    ("whats the fixed price if we order before the end of march", "heating-oil", ["59.9p"]),
    ("how much was the december oil delivery", "heating-oil", None, "date"),
    ("how much is red diesel from kestrel", "heating-oil", None, "subject"),
    ("whats lowris mobile", "heating-oil", None, "attribute"),
    ("whos our account manager at kestrel fuels", "heating-oil", None, "role"),
    ("whats kestrels email", "heating-oil", None, "type"),
    # season tickets (PDF)
    ("what seats are we in at the football", "season-tickets", ["112", "113"]),
    ("which stand are our season tickets in", "season-tickets", ["Lighthouse"]),
    ("how much was ansels season ticket", "season-tickets", ["£95"]),
    ("how much are the monthly payments for the season tickets", "season-tickets", ["£38"]),
    ("how many home games do we get", "season-tickets", ["23"]),
    ("are cup games included in the season ticket", "season-tickets", ["extra"]),
    ("how much off cup tickets", "season-tickets", ["20%"]),
    ("how much do we get back if we cant go", "season-tickets", ["£8"]),
    ("whats bastians membership number", "season-tickets", ["0047712"]),
    ("can ansel sit on his own", "season-tickets", ["with an adult"]),
    ("how much is an away ticket", "season-tickets", None, "subject"),
    ("whats the club shop phone number", "season-tickets", None, "attribute"),
    ("how much were our season tickets last season", "season-tickets", None, "date"),
    ("who's the club secretary", "season-tickets", None, "role"),
    ("whats peonys seat number", "season-tickets", None, "attribute"),
    # fitness summary (PDF)
    ("how many steps did i do on saturday", "fitness-summary", ["15,302"]),
    ("how far did i walk on tuesday", "fitness-summary", ["8.7"]),
    ("how many steps did i do all week", "fitness-summary", ["68,608"]),
    ("how many days did i hit my step goal", "fitness-summary", ["4 of 7"]),
    ("whats my daily step target", "fitness-summary", ["9,000"]),
    ("how much sleep did i get wednesday night", "fitness-summary", ["5h 40m"]),
    ("whats my average sleep", "fitness-summary", ["7h 08m"]),
    ("what badge did i earn", "fitness-summary", ["Marathon Walker"]),
    ("did i hit my step goal on monday", "fitness-summary", ["8,412"]),
    ("how long was my longest workout", "fitness-summary", ["1h 42m"]),
    ("how many calories did i burn on saturday", "fitness-summary", None, "attribute"),
    ("how many steps did i do the week before", "fitness-summary", None, "date"),
    ("how many steps did bastian do on saturday", "fitness-summary", None, "subject"),
    ("how many floors did i climb on tuesday", "fitness-summary", None, "attribute"),
    ("whats my parkrun time", "fitness-summary", None, "attribute"),
    # mileage claim (PDF)
    ("how much is bastians mileage claim for april", "mileage-claim", ["99.20"]),
    ("how many miles did he claim altogether", "mileage-claim", ["190"]),
    ("what do fernside pay per mile", "mileage-claim", ["45p"]),
    ("how much parking did he claim", "mileage-claim", ["13.70"]),
    ("when does the mileage claim have to be in", "mileage-claim", ["5th"]),
    ("what day does bastian get paid", "mileage-claim", ["28th"]),
    ("who signed off his claim", "mileage-claim", ["Carys"]),
    ("does he need to keep petrol receipts", "mileage-claim", ["not needed"]),
    ("how much extra if he gives someone a lift", "mileage-claim", ["5p"]),
    ("how much did he claim for the damp survey trip", "mileage-claim", ["9.90"]),
    ("how much did he claim in march", "mileage-claim", None, "date"),
    ("how much did he spend on petrol", "mileage-claim", None, "attribute"),
    ("whats the rate for a motorbike", "mileage-claim", None, "subject"),
    ("who's the payroll manager at fernside", "mileage-claim", None, "role"),
    ("whats carys's email", "mileage-claim", None, "type"),
    # loyalty points (PDF)
    ("how many points have i got at hollins and vane", "loyalty-points", ["1,148"]),
    ("how many points did i earn this time", "loyalty-points", ["601"]),
    ("how many points a litre for petrol", "loyalty-points", ["2 points"]),
    ("how much did i spend at hollins and vane", "loyalty-points", ["491.65"]),
    ("how many litres did i put in on 14 feb", "loyalty-points", ["41 litres"]),
    ("how many points for a voucher", "loyalty-points", ["500"]),
    ("how much are my next vouchers worth and when do they come", "loyalty-points", ["£10", "May"]),
    ("do my points ever run out", "loyalty-points", ["2 years"]),
    ("how many points did i carry over", "loyalty-points", ["547"]),
    ("how many points has bastian got", "loyalty-points", None, "subject"),
    ("how many points did i have in january", "loyalty-points", None, "date"),
    ("how many points do i get for bringing my own bags", "loyalty-points", None, "attribute"),
    ("whats the customer services email", "loyalty-points", None, "type"),
    ("how much did i spend on fuel in december", "loyalty-points", None, "date"),
    # blood results (PDF)
    ("whats bastians cholestrol", "blood-results", ["5.9"]),
    ("is his blood sugar ok", "blood-results", ["5.4"]),
    ("is bastian low on vitamin d", "blood-results", ["38"]),
    ("how much vitamin d should he take", "blood-results", ["1,000 unit"]),
    ("whats his good cholesterol", "blood-results", ["1.3"]),
    ("when does he need his bloods doing again", "blood-results", ["August"]),
    ("whats his qrisk", "blood-results", ["6.2%"]),
    ("what time can i ring for the results", "blood-results", ["after 2pm"]),
    ("does he have to make an appointment", "blood-results", ["No need"]),
    ("from what time does he have to fast", "blood-results", ["10pm"]),
    ("whats his blood pressure", "blood-results", None, "attribute"),
    ("how are his kidneys", "blood-results", None, "subject"),
    ("whats marigolds cholesterol", "blood-results", None, "attribute"),
    ("what was his cholesterol last year", "blood-results", None, "date"),
    ("who's the practice nurse", "blood-results", None, "role"),
    # funeral invoice (PDF)
    ("how much was the funeral altogether", "funeral-invoice", ["5,104"]),
    ("how much do we still owe pendry and rowse", "funeral-invoice", ["4,104"]),
    ("how much was the coffin", "funeral-invoice", ["795"]),
    ("how much did the crematorium charge", "funeral-invoice", ["1,030"]),
    ("when does the funeral bill need paying", "funeral-invoice", ["16 July"]),
    ("how much was collected for the lifeboats", "funeral-invoice", ["642.50"]),
    ("when can we collect grandads ashes", "funeral-invoice", ["25 June"]),
    ("what reference do i use to pay the undertakers", "funeral-invoice", ["PR-5127"]),
    ("how much did the vicar cost", "funeral-invoice", ["216"]),
    ("can grandads estate pay the bill", "funeral-invoice", ["estate"]),
    ("how much were the flowers", "funeral-invoice", None, "subject"),
    ("how much was the wake at the anchor rooms", "funeral-invoice", None, "subject"),
    ("who's the executor of grandads will", "funeral-invoice", None, "role"),
    ("whats the undertakers email", "funeral-invoice", None, "type"),
    ("how much was the headstone", "funeral-invoice", None, "subject"),
    # sailing course (PDF)
    ("when is ansels sailing course", "sailing-course", ["2 August", "6 August"]),
    ("how much was the sailing course", "sailing-course", ["£265"]),
    ("whos in charge of the sailing", "sailing-course", ["Morwenna"]),
    ("what time does sailing start each morning", "sailing-course", ["9.30"]),
    ("what are they doing wednesday afternoon", "sailing-course", ["Sea sail"]),
    ("what knots will ansel learn", "sailing-course", ["bowline", "reef knot"]),
    ("how much to hire a wetsuit", "sailing-course", ["£5"]),
    ("does he need his own buoyancy aid", "sailing-course", ["provided"]),
    ("how far does he have to be able to swim", "sailing-course", ["50m"]),
    ("what happens if its too windy", "sailing-course", ["20 knots"]),
    ("how much is the stage 3 course", "sailing-course", None, "subject"),
    ("whats the sailing clubs email", "sailing-course", None, "type"),
    ("what time does the course finish on saturday", "sailing-course", None, "date"),
    ("who's the club commodore", "sailing-course", None, "role"),
    ("what time does the clubhouse cafe close", "sailing-course", None, "attribute"),
    # school photos (PDF)
    ("what did we order from the school photos", "school-photos", ["Pack B", "digital download"]),
    ("how much did peonys photos cost", "school-photos", ["33.00"]),
    ("how much is pack a", "school-photos", ["24.00"]),
    ("whats in pack b", "school-photos", ["four wallet prints"]),
    ("whats peonys proof code", "school-photos", ["PQ7-K2248"]),
    ("when were the school photos taken", "school-photos", ["12 May"]),
    ("when is retake day", "school-photos", ["9 June"]),
    ("how much is the photo calendar", "school-photos", ["12.50"]),
    ("whats the last day for free delivery to school", "school-photos", ["1 June"]),
    ("whats the email for the photographers", "school-photos", ["orders@snapwell.example"]),
    ("how much is a canvas print", "school-photos", None, "subject"),
    ("whats ansels proof code", "school-photos", None, "attribute"),
    ("when were last years school photos taken", "school-photos", None, "date"),
    ("who took the photos", "school-photos", None, "role"),
    ("how much is the class photo", "school-photos", None, "subject"),
])]
