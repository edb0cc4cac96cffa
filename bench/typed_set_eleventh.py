"""An eleventh held-out typed set (issue 33, session 26): 18 everyday documents (11 notes, 7 PDFs
with ruled tables) and 220 questions, 68 of them unanswerable (attribute 27, subject 21, type 14,
role 6), written from scratch by the helper heldout26 of session 26 without reading the answerer
(src/cairn/answer/), the assistant (src/cairn/assistant/), search (src/cairn/search/) or
src/cairn/ops/: one household's documents (Joanna Pellow, Kwame Boateng and their children Maisie
and Felix, in the invented town of Brindlecombe) on kinds of document the earlier sets do not centre on: a physiotherapy appointment
letter, a netball team's league fixtures, a Cub Scout camp letter, a lamb tagine recipe, a primary
school PTA's minutes, a church hall booking for a christening party, a double glazing guarantee,
a lock-up garage rental agreement, musical theatre tickets, an orthodontist's letter and a
self-employed partner's tax return notes; as PDFs a home insurance schedule, a supermarket
receipt, a furniture order, an airport parking booking, a maths tutor's invoice, a workplace
pension statement and a school uniform order. Every person, company, place, amount, date, code
and phone number is invented (phone numbers from the drama ranges: 01632 960xxx, 07700 900xxx);
no third-party text. Same shape as bench/typed_set.py (`write`, `QUESTIONS`, `expect` a list of
strings the answer must each hold, case and spacing folded, None for an unanswerable question,
`why` the way it is unanswerable: "attribute" - the asked attribute is written of another subject
(the back door's guarantee but not a front door's; the matinee but not an evening show; Maisie's
braces but not Felix's), or the subject is there without it; "type" - no value of the asked type
(a phone number where only an email is given); "subject" - another item of the same kind, absent
(trousers where only a skirt was bought); "role" - the person is named but not in the asked role
(present at a meeting but given no task; a leader on camp not said to run an activity)).
Questions are typed the way a person types them: lower case, their own words rather than the
document's label ("the little ones" for Reception to Year 2, "burst pipe" for escape of water,
"lock up" for the garage, "ortho"), dropped apostrophes, a few typos, two-part questions, lists,
yes/no questions.

Held out: nobody tunes on it. Every question is `part` "eleventh" and is asked once on the start
commit by heldout26 (figures in bench/README.md, "Session 26 — heldout26") and once by the lead at
the end of session 26 (`python bench/answers_typed.py --set eleventh`); its failures are recorded,
not fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "physio-letter.md": """# Letter from the physio about my knee

Brindlecombe Community Hospital, Physiotherapy Outpatients
Orchard Wing, Level 1, Tanyard Road, Brindlecombe
Telephone 01632 960 318 (Monday to Friday, 8.30am to 4.30pm)

Dear Mrs Pellow,

Following your referral from Dr Okonjo for pain in your left knee, we have booked your first
appointment with Callum Reyes, Senior Physiotherapist:

Tuesday 9 September 2031 at 2.15pm, about 45 minutes.

Please arrive 10 minutes early and check in at the Orchard Wing reception. Bring shorts or loose
trousers, a list of any medicines you take and your hospital number, BCH 448 2019.

After this assessment you may be offered up to six follow-up sessions, or a place in the Tuesday
evening knee class in the hospital gym.

If you cannot come, please tell us at least 48 hours before. Two missed appointments without notice
mean you are discharged back to your GP.

Parking: the multi-storey on Tanyard Road, £2.40 for up to 2 hours; blue badge holders park free
in bays A1 to A12.

Yours sincerely,
Outpatient Bookings Team
""",
    "netball-fixtures.md": """# Brindlecombe Belles netball: autumn league fixtures

Thursday league, Division 2, at Wexford Road Sports Hall.
Team manager: Shona McBride, 07700 900 162. Match fee £6 a game, pay Shona on the night.

Fixtures
- Thursday 4 September: Kingsmead Comets, court 2, 7.00pm
- Thursday 11 September: Ridgeback Rebels, court 1, 8.00pm
- Thursday 18 September: bye week, no match
- Thursday 25 September: Harbour Town Hoops, court 3, 7.40pm
- Thursday 2 October: Kingsmead Comets (return), court 1, 8.40pm
- Thursday 9 October: Lantern Lane Lions, court 2, 7.00pm

Squad: Joanna (WD), Tamsin Riley (GS), Bex Adeyemi (GA), Priti Lal (C), Holly Fenwick (WA),
Nadia Cole (GK), Orla Duffy (GD), Ceri Brannigan (reserve).
Umpire duty: it's our turn to provide an umpire on 25 September; Ceri has said she'll do it.
Kit: navy dresses; bibs are kept by whoever played GS last.
Training: Mondays 7.30pm to 8.30pm at Brindlecombe Academy, £4 a session.
Last season we finished 3rd in Division 2.
League secretary: Moira Thackeray, fixtures@brindlecombenetball.example
""",
    "cub-camp-letter.md": """# Letter about Felix's Cub camp

1st Brindlecombe Cub Scouts

Dear parents and carers,

Our summer camp is at Hollinsbeck Scout Campsite from Friday 20 June to Sunday 22 June 2031.
Cubs should be dropped at the campsite at 6pm on the Friday and collected at 2pm on the Sunday.

The cost is £65, which covers food, activities and the campsite fee. Please pay by bank transfer
to 1st Brindlecombe Scouts, sort code 40-11-62, account 71120954, with your child's name as the
reference, by 30 May.

Activities: archery, raft building, a night hike and a campfire on the Saturday.

Kit list: sleeping bag, roll mat, torch, wellies, waterproof coat, two changes of clothes, a wash
bag, a plastic plate, bowl, mug and cutlery, and their full uniform for the Sunday flag ceremony.
No phones, games consoles or sweets, please.

Please return the health form and the consent form by 6 June. Any medicines must be handed to
Akela (Bronwen Tuttle) at drop-off in a named bag.

Leaders on camp: Bronwen Tuttle (Akela), Marcus Ogundipe (Baloo) and Sally Prentice (Raksha).
Emergency contact during camp: 07700 900 283.

Yours in Scouting,
Bronwen Tuttle
""",
    "lamb-tagine.md": """# Lamb and apricot tagine (Kwame's version, serves 6)

- 1kg diced lamb shoulder
- 2 red onions, chopped
- 3 garlic cloves, crushed
- 2 tsp ras el hanout, 1 tsp ground cinnamon, 1 tsp ground cumin
- a thumb of ginger, grated
- 400g tin chopped tomatoes
- 500ml lamb stock
- 150g dried apricots, halved
- 1 tbsp honey
- 400g tin chickpeas, drained
- a small bunch of coriander and 30g toasted flaked almonds to finish

1. Toss the lamb with the spices and leave it in the fridge for at least 2 hours, or overnight.
2. Brown the lamb in batches in a casserole with a little olive oil.
3. Fry the onions for 10 minutes, then add the garlic and ginger for a minute.
4. Add the tomatoes, stock and honey, bring to a simmer, cover and put in the oven at 160C (140C fan) for 2 hours.
5. Stir in the apricots and chickpeas and cook uncovered for another 30 minutes.
6. Scatter over the coriander and almonds.

Serve with couscous and warm flatbreads. Keeps for 2 days in the fridge; freezes for up to 2 months.
For Maisie's friend Esme, who has a nut allergy, leave out the almonds.
""",
    "pta-minutes.md": """# Friends of Hazelmoor Primary (PTA): meeting minutes, 16 January 2031

Held in the school library at 7pm.
Present: Rukhsana Begum (chair), Joanna Pellow (secretary), Gareth Llewellyn (treasurer), Ines Moreau,
Tobias Whitlock, Mrs Annabel Croft (head teacher).
Apologies: Dermot Keane, Yasmin Haddad.

1. Christmas fair: raised £2,184 after costs. Thanks to everyone who ran a stall.
2. Funds: the balance is £5,906. The PTA will pay £1,200 towards new playground equipment and £450
   for the Year 6 leavers' hoodies.
3. Valentine's disco: Friday 14 February, 5.30pm to 7pm for Reception to Year 2 and 7.15pm to 8.45pm
   for Years 3 to 6; tickets £3. Ines will book the DJ. Tobias will buy the glow sticks and the squash.
4. Summer fete: Saturday 28 June. Gareth will apply to the council for the tombola licence. A
   volunteer is still needed to organise the raffle prizes.
5. Second-hand uniform sale: after school on Thursday 6 March in the hall; Joanna will put a notice
   in the newsletter.
6. Mrs Croft asked for reading volunteers on Wednesday mornings.

Next meeting: Thursday 27 February 2031 at 7pm in the library.
""",
    "hall-hire.md": """# Hall booking for baby Theo's christening party

St Columba's Church Hall, Mill Pond Lane, Brindlecombe. Bookings: Mrs Edwina Harkness, 01632 960 574.
Booked: Sunday 13 April 2031, 1pm to 6pm (includes an hour to set up and clear away).
Hire is £22 an hour, so £110, plus a £75 refundable damage deposit. Deposit paid 3 March; the hire
fee is due 2 weeks before.
Booking reference SCH-0413-P.
The hall holds 80 standing or 60 seated. There are 10 round tables and 70 stacking chairs.
Kitchen: two ovens, a hot water urn and a dishwasher; bring our own tea towels and bin bags.
No confetti, no candles (the fire alarm is sensitive), no bouncy castles inside.
Music must be off by 5.30pm because of evensong.
The key is collected from the verger, Mr Denholm Price, at 5 Mill Pond Lane, on the Saturday before.
Car park: 14 spaces; overflow in the Co-op car park across the road after 2pm.
""",
    "window-guarantee.md": """# Windows and back door guarantee

Clearview Home Improvements Ltd, Unit 9 Tannery Business Park, Brindlecombe, 01632 960 811
Guarantee certificate CHI-G-30927, issued 2 October 2030
Installed at: 22 Fernlea Avenue, Brindlecombe
Work: 7 uPVC windows (white) and a composite back door (anthracite grey), fitted 24 to 26 September 2030.

- Window frames and hinges: 10 years
- Sealed glass units (misting between the panes): 10 years
- Back door: 10 years; door lock and handles: 5 years
- Installation workmanship: 2 years
- Not covered: damage from settlement of the building, condensation on the room side of the glass,
  scratches noticed after the fitters leave, or frames painted by the customer.

The guarantee is insurance-backed by Homesure Deposit Guarantees, policy HDG-2209-618, if Clearview stops trading.
It moves to a new owner if the house is sold: register the change within 28 days.
Oil the hinges and locks twice a year; clean the frames with soapy water only.
Fitter: Rhys Bellamy.
""",
    "garage-rental.md": """# Lock-up garage rental agreement

Landlord: Brindlecombe Garages (owner Mr Percival Stroud), 01632 960 442
Tenant: Kwame Boateng
Garage: number 17, Quarry Lane garage block, off Quarry Lane
Start: 1 February 2031, rolling monthly
Rent: £58 a calendar month by standing order on the 1st.
Deposit: £116 (two months), returned within 30 days of the key coming back, less any damage.
Notice: one month in writing from either side.
Key: one key to the up-and-over door; a replacement key costs £25.
Use: storage of a vehicle and household goods only. No workshop use, no petrol stored other than in
a vehicle's tank. There is no electricity supply.
The landlord may inspect with 24 hours' notice.
What's in there: Kwame's motorbike (a Trident Kestrel 650), the camping gear, the Christmas
decorations and the old cot.
""",
    "theatre-tickets.md": """# Tickets for The Lantern Keeper at the Alder Playhouse

Booking confirmation AP-774120, booked 12 January 2031 by Joanna Pellow
Show: The Lantern Keeper (a new musical)
Date: Saturday 8 March 2031, matinee at 2.30pm; doors open at 1.45pm.
Running time about 2 hours 40 minutes with one interval.
Seats: Dress Circle, row D, seats 14, 15, 16 and 17
Tickets: 3 adults at £42.50 and 1 child at £28.00; booking fee £3.00; total £158.50
Who's going: me, Kwame, Maisie and Nana Ruth (Felix is at Zac's birthday party that afternoon).
The tickets are e-tickets on my phone; show the QR code at the door.
Interval drinks can be pre-ordered at the Circle bar.
Recommended for ages 8 and up.
Nearest car park: Guildhall car park, £6.50 after 1pm on Saturdays.
Box office: 01632 960 905.
""",
    "orthodontist-letter.md": """# Maisie's orthodontist letter

Brindlecombe Orthodontic Practice, 3 Sheaf Street, Brindlecombe, 01632 960 627

Dear Mr Boateng,

Maisie's upper and lower fixed braces will be fitted on Monday 3 March 2031 at 4.10pm with
Dr Saskia Lindqvist. Please allow an hour.

Please make sure she has brushed well before she comes and has had something to eat, as her teeth
may be sore afterwards. Paracetamol or ibuprofen can help for the first few days.

After fitting, she will need adjustment appointments every 8 weeks. Treatment is expected to take
about 20 months and is funded by the NHS.

Foods to avoid: toffee, chewing gum, hard sweets, popcorn, and biting into whole apples or crusty
bread (cut them up).

Elastic bands: Maisie will start wearing these from the second adjustment; we will show her how.

If a bracket comes loose or a wire is poking, ring us; out of hours, use the emergency line
01632 960 628 rather than going to A&E.

Patient number: BOP-22714

Yours sincerely,
Dr Saskia Lindqvist, Specialist Orthodontist
""",
    "tax-return.md": """# Self assessment 2030-31 (Kwame's photography)

Tax year: 6 April 2030 to 5 April 2031. UTR: 48213 90576.
Online return deadline: 31 January 2032. Payment on account due 31 July 2031: £640.
Photography income: £14,820 (weddings £9,600; portraits £3,450; stock sales £1,770).
Expenses: camera lens £1,150; mileage 2,340 miles at 45p = £1,053; website and software £312; insurance £186.
Use of home as office: the flat rate of £10 a month.
Accountant: Delphine Marchetti, Marchetti and Co, 01632 960 752; her fee is £275.
Still need: the bank interest figure (Harbourstone statement) and the receipt for the new flash.
Gift Aid donations: £240 to the Brindlecombe Hospice.
""",
}

PDFS: dict[str, dict] = {
    "home-insurance.pdf": {
        "lines": ["Larkspur Home Insurance", "Home insurance schedule", "Policy number: LHI-552-0917-K",
                  "Policyholders: Joanna Pellow and Kwame Boateng", "Address: 22 Fernlea Avenue, Brindlecombe",
                  "Period of cover: 15 August 2031 to 14 August 2032"],
        "table": [["Section", "Cover", "Excess"],
                  ["Buildings", "£320,000 rebuild cost", "£350"],
                  ["Contents", "£45,000", "£150"],
                  ["Accidental damage (contents)", "Included", "£150"],
                  ["Personal possessions away from home", "£3,000", "£100"],
                  ["Bicycles away from home", "Not covered", ""],
                  ["Home emergency", "Not covered", ""],
                  ["Legal expenses", "£100,000", "Nil"]],
        "after": ["Escape of water excess: £500 for the buildings section.",
                  "Single items worth more than £2,000 must be listed: Kwame's camera kit, £4,200.",
                  "Annual premium: £412.80, paid monthly at £34.40 by Direct Debit.",
                  "If the home is unoccupied for more than 60 days in a row, cover for theft and escape of water stops.",
                  "Claims line: 01632 960 230, 24 hours a day."],
    },
    "supermarket-receipt.pdf": {
        "lines": ["Fairbrook Foodstores", "Station Road, Brindlecombe", "Tel 01632 960 356",
                  "Receipt 0417-2291-88", "Date: 22 February 2031, 18:07", "Till 4, served by Kayleigh"],
        "table": [["Item", "Qty", "Price"],
                  ["Semi-skimmed milk 4 pints", "2", "£3.30"],
                  ["Wholemeal bread", "1", "£1.45"],
                  ["Free range eggs x12", "1", "£3.60"],
                  ["Bananas", "1", "£0.98"],
                  ["Lamb shoulder diced 1kg", "1", "£11.50"],
                  ["Dried apricots 250g", "1", "£1.89"],
                  ["Dishwasher tablets x40", "1", "£7.25"],
                  ["Birthday card", "1", "£2.75"],
                  ["Multibuy saving (dishwasher tablets)", "", "-£1.25"],
                  ["Total", "", "£31.47"]],
        "after": ["Paid by contactless card ending 4471: £31.47.",
                  "Fairbrook Rewards: 31 points earned today, balance 1,284 points.",
                  "Refunds within 28 days with this receipt.",
                  "Car park: 2 hours free for customers."],
    },
    "sofa-order.pdf": {
        "lines": ["Hartley and Finch Furniture", "Order confirmation and delivery note", "Order number: HF-66082",
                  "Ordered: 30 January 2031 at the Brindlecombe showroom",
                  "Customer: Joanna Pellow, 22 Fernlea Avenue, Brindlecombe"],
        "table": [["Item", "Fabric or finish", "Qty", "Price"],
                  ["Alford 3 seater sofa", "Moss green velvet", "1", "£1,149.00"],
                  ["Alford armchair", "Moss green velvet", "1", "£649.00"],
                  ["Hadley coffee table", "Natural oak", "1", "£289.00"],
                  ["Fabric protection (5 years)", "", "1", "£89.00"],
                  ["Delivery and removal of old sofa", "", "1", "£60.00"],
                  ["Deposit paid", "", "", "-£400.00"],
                  ["Balance due before delivery", "", "", "£1,836.00"]],
        "after": ["Delivery: Thursday 17 April 2031, between 7am and 1pm; we will text a 2 hour slot the evening before.",
                  "Please measure doors and stairs: the sofa needs an opening of at least 80cm.",
                  "Made to order: cancellations after 14 days lose the deposit.",
                  "Frame guarantee: 15 years.",
                  "Customer care: 01632 960 499."],
    },
    "airport-parking.pdf": {
        "lines": ["ParkSure Airport Parking", "Booking confirmation", "Booking reference: PSA-309115",
                  "Product: Meet and Greet, Terminal 2, Farrowfield Airport",
                  "Vehicle: grey Vexa Orla estate, registration BX27 LMT",
                  "Driver: Kwame Boateng, 07700 900 831"],
        "table": [["", "Outbound", "Return"],
                  ["Date", "Saturday 2 August 2031", "Saturday 16 August 2031"],
                  ["Time", "05:30 car drop-off", "Flight lands 21:45"],
                  ["Flight", "SK 418 to Palma", "SK 419 from Palma"],
                  ["Meeting point", "Terminal 2, level 3, row M", "Terminal 2, level 3, row M"]],
        "after": ["Price: £129.99 for 15 days, paid in full.",
                  "Call 01632 960 145 when you are 20 minutes from the airport so a driver can meet you.",
                  "Your keys are kept in a secure key store and the car is parked in a secure compound off site.",
                  "Amendments: £10 each, at least 48 hours before your drop-off.",
                  "Not included: car wash (from £15) and electric vehicle charging."],
    },
    "tutoring-invoice.pdf": {
        "lines": ["Gemma Harrow Maths Tuition", "Invoice GH-2031-014", "Date: 31 March 2031",
                  "To: Joanna Pellow", "Pupil: Maisie Boateng, Year 6"],
        "table": [["Date", "Session", "Length", "Fee"],
                  ["4 March", "Fractions and decimals", "1 hour", "£36.00"],
                  ["11 March", "Algebra: expressions", "1 hour", "£36.00"],
                  ["18 March", "Algebra: equations", "1 hour", "£36.00"],
                  ["25 March", "Mock test and review", "1.5 hours", "£54.00"],
                  ["Total due", "", "", "£162.00"]],
        "after": ["Sessions are on Tuesdays at 5pm at my home, 8 Linden Walk.",
                  "Please pay by bank transfer within 14 days: Gemma Harrow, sort code 20-77-41, account 30481156, "
                  "reference MAISIE.",
                  "Maisie scored 34 out of 50 on the mock test, up from 26 in January.",
                  "No sessions in the Easter holidays (7 to 18 April); the next session is on 22 April.",
                  "Missed sessions need 24 hours' notice or are charged. Mobile: 07700 900 547."],
    },
    "pension-statement.pdf": {
        "lines": ["Ashgrove Workplace Pensions", "Annual benefit statement", "Member: Joanna Pellow",
                  "Member number: AWP-0093-4418", "Employer: Brindlecombe District Council",
                  "Statement date: 5 April 2031"],
        "table": [["Item", "Amount"],
                  ["Pot value at 6 April 2030", "£38,412.60"],
                  ["Your contributions (5%)", "£1,716.00"],
                  ["Employer contributions (8%)", "£2,745.60"],
                  ["Tax relief added", "£429.00"],
                  ["Investment growth", "£2,190.35"],
                  ["Charges", "-£91.20"],
                  ["Pot value at 5 April 2031", "£45,402.35"]],
        "after": ["Fund: Ashgrove Balanced Lifestyle Fund. Annual management charge: 0.2%.",
                  "Selected retirement age: 67.",
                  "Projected pot at 67 in today's money: £198,000, which could buy an income of about £7,900 a year.",
                  "Nominated beneficiary: Kwame Boateng (100%). You can update it at any time online.",
                  "Questions: 01632 960 688."],
    },
    "uniform-order.pdf": {
        "lines": ["Pennyroyal Schoolwear", "Order receipt", "Order number: PSW-48817", "Date: 19 July 2031",
                  "Customer: Joanna Pellow", "School: Brindlecombe Academy (Maisie Boateng, Year 7)"],
        "table": [["Item", "Size", "Qty", "Price"],
                  ["Blazer with badge", "Age 12-13", "1", "£38.00"],
                  ["Tie (house: Kestrel)", "Standard", "2", "£11.00"],
                  ["White shirt, twin pack", "Collar 13.5", "2", "£18.00"],
                  ["Grey skirt", "Waist 24", "1", "£16.50"],
                  ["PE polo shirt", "Age 12-13", "2", "£22.00"],
                  ["PE shorts", "Age 12-13", "1", "£10.50"],
                  ["Total", "", "", "£116.00"]],
        "after": ["Paid in store by card.",
                  "Still to come: the PE hoodie in age 12-13 is out of stock, expected 12 August; we will text you.",
                  "Exchanges within 30 days if unworn, with the labels attached.",
                  "Name labels: 50 iron-on labels ordered separately, £9.95, posted to your home.",
                  "Shop: 14 Bridge Street, Brindlecombe, 01632 960 217."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 1100 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "eleventh"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # physio letter
    ("when's my physio appointment", "physio-letter", ["9 September", "2.15pm"]),
    ("who am i seeing at the physio", "physio-letter", ["Callum Reyes"]),
    ("which knee was i referred for", "physio-letter", ["left"]),
    ("whats my hospital number", "physio-letter", ["BCH 448 2019"]),
    ("how much is it to park at the hospital", "physio-letter", ["2.40"]),
    ("how long will the physio session take", "physio-letter", ["45 minutes"]),
    ("what happens if i miss 2 physio appointments", "physio-letter", ["discharged"]),
    ("whats the physio department's email", "physio-letter", None, "type"),
    ("how much does the knee class cost", "physio-letter", None, "attribute"),
    ("when is my shoulder physio", "physio-letter", None, "subject"),
    ("how much is parking at the hospital for 4 hours", "physio-letter", None, "attribute"),
    # netball fixtures
    ("who are we playing at netball on the 25th", "netball-fixtures", ["Harbour Town Hoops"]),
    ("what time is netball on 2 october", "netball-fixtures", ["8.40pm"]),
    ("how much is the match fee for netball", "netball-fixtures", ["£6"]),
    ("who's umpiring for us on the 25th", "netball-fixtures", ["Ceri"]),
    ("who plays goal shooter for the belles", "netball-fixtures", ["Tamsin"]),
    ("is there a match on 18 sept", "netball-fixtures", ["bye"]),
    ("when is netball trainng and how much is it", "netball-fixtures", ["Mondays", "£4"]),
    ("whats shona's number", "netball-fixtures", ["07700 900 162"]),
    ("whats moira's phone number", "netball-fixtures", None, "type"),
    ("what time is the netball match on 16 october", "netball-fixtures", None, "subject"),
    ("who's captain of the belles", "netball-fixtures", None, "role"),
    ("what court are we on against the oakfield otters", "netball-fixtures", None, "subject"),
    # cub camp letter
    ("when is felix's cub camp", "cub-camp-letter", ["20 June", "22 June"]),
    ("how much is cub camp and when do i have to pay by", "cub-camp-letter", ["£65", "30 May"]),
    ("what time do we pick him up from camp on the sunday", "cub-camp-letter", ["2pm"]),
    ("whats the sort code to pay for camp", "cub-camp-letter", ["40-11-62"]),
    ("what activities are the cubs doing at camp", "cub-camp-letter",
     ["archery", "raft building", "night hike", "campfire"]),
    ("who do i hand felix's inhaler to at camp", "cub-camp-letter", ["Bronwen"]),
    ("whats the emergency number for during camp", "cub-camp-letter", ["07700 900 283"]),
    ("when does the health form need to be back", "cub-camp-letter", ["6 June"]),
    ("does felix need his uniform at camp", "cub-camp-letter", ["flag ceremony"]),
    ("whats the postcode of the campsite", "cub-camp-letter", None, "type"),
    ("which leader is running the archery", "cub-camp-letter", None, "role"),
    ("how much is camp for the beavers", "cub-camp-letter", None, "subject"),
    ("what time is drop off at camp on saturday", "cub-camp-letter", None, "attribute"),
    # lamb tagine
    ("how long does the lamb need to marinate", "lamb-tagine", ["2 hours"]),
    ("what temp does the tagine go in the oven at", "lamb-tagine", ["160"]),
    ("how much lamb do i need for kwames tagine", "lamb-tagine", ["1kg"]),
    ("what spices go in the tagine", "lamb-tagine", ["ras el hanout", "cinnamon", "cumin"]),
    ("what do i serve the tagine with", "lamb-tagine", ["couscous", "flatbreads"]),
    ("can i freeze the tagine", "lamb-tagine", ["2 months"]),
    ("what do i leave out for esme", "lamb-tagine", ["almonds"]),
    ("how long does the chicken tagine cook for", "lamb-tagine", None, "subject"),
    ("how much salt goes in the tagine", "lamb-tagine", None, "subject"),
    ("how many calories in a portion of the tagine", "lamb-tagine", None, "type"),
    ("how long do i cook the couscous for", "lamb-tagine", None, "attribute"),
    # PTA minutes
    ("who's booking the dj for the valentines disco", "pta-minutes", ["Ines"]),
    ("how much did the christmas fair make", "pta-minutes", ["2,184"]),
    ("what time is the disco for the little ones", "pta-minutes", ["5.30pm"]),
    ("how much are tickets for the school disco", "pta-minutes", ["£3"]),
    ("what is tobias getting for the disco", "pta-minutes", ["glow sticks", "squash"]),
    ("who sent their apologies to the pta meeting", "pta-minutes", ["Dermot Keane", "Yasmin Haddad"]),
    ("when's the summer fete", "pta-minutes", ["28 June"]),
    ("how much is the pta putting towards the playground", "pta-minutes", ["1,200"]),
    ("whens the next pta meeting", "pta-minutes", ["27 February"]),
    ("what's gareth sorting for the fete", "pta-minutes", ["tombola licence"]),
    ("who is organising the raffle prizes", "pta-minutes", None, "role"),
    ("what is rukhsana doing for the disco", "pta-minutes", None, "role"),
    ("how much did the autumn quiz night raise", "pta-minutes", None, "subject"),
    ("what time does the summer fete start", "pta-minutes", None, "attribute"),
    ("how much is each leavers hoodie", "pta-minutes", None, "attribute"),
    # church hall hire
    ("how much is the hall hire for the christening", "hall-hire", ["£110"]),
    ("how much is the deposit on the church hall and do we get it back", "hall-hire", ["£75", "refundable"]),
    ("what time have we got the hall from", "hall-hire", ["1pm"]),
    ("who do i get the hall key from", "hall-hire", ["Denholm"]),
    ("how many chairs are there at st columbas", "hall-hire", ["70"]),
    ("when does the music have to be off by", "hall-hire", ["5.30pm"]),
    ("whats the booking ref for the hall", "hall-hire", ["SCH-0413-P"]),
    ("what number do i ring about the hall booking", "hall-hire", ["01632 960 574"]),
    ("how many people can we seat in the hall", "hall-hire", ["60"]),
    ("whats the verger's phone number", "hall-hire", None, "attribute"),
    ("whats the wifi password at the church hall", "hall-hire", None, "subject"),
    ("how many spaces are there in the co-op car park", "hall-hire", None, "attribute"),
    ("who's doing the food for theo's christening", "hall-hire", None, "type"),
    # window guarantee
    ("how long are the windows guaranteed for", "window-guarantee", ["10 years"]),
    ("how long are the handles on the back door covered", "window-guarantee", ["5 years"]),
    ("what colour is the new back door", "window-guarantee", ["anthracite grey"]),
    ("how many windows did clearview put in", "window-guarantee", ["7 uPVC"]),
    ("whats the guarentee number for the windows", "window-guarantee", ["CHI-G-30927"]),
    ("what happens if clearview goes bust", "window-guarantee", ["Homesure"]),
    ("who fitted our windows", "window-guarantee", ["Rhys Bellamy"]),
    ("how often should i oil the window hinges", "window-guarantee", ["twice a year"]),
    ("if we sell the house how long have we got to transfer the guarantee", "window-guarantee", ["28 days"]),
    ("how long is the guarantee on the front door", "window-guarantee", None, "attribute"),
    ("how much did the windows cost", "window-guarantee", None, "type"),
    ("whats rhys's mobile number", "window-guarantee", None, "attribute"),
    ("how long is the conservatory roof guaranteed for", "window-guarantee", None, "subject"),
    # lock-up garage rental
    ("how much is the rent on the lock up", "garage-rental", ["£58"]),
    ("which number is our garage", "garage-rental", ["17"]),
    ("how much notice do we have to give on the garage", "garage-rental", ["one month"]),
    ("how much is a spare key for the garage", "garage-rental", ["£25"]),
    ("how much was the deposit on the lock-up", "garage-rental", ["116"]),
    ("is there electric in the garage", "garage-rental", ["no electricity"]),
    ("what have we got stored in the lock up", "garage-rental",
     ["motorbike", "camping gear", "Christmas decorations", "cot"]),
    ("who owns the quarry lane garages", "garage-rental", ["Percival Stroud"]),
    ("whats the code for the garage padlock", "garage-rental", None, "type"),
    ("whats the reg on kwame's motorbike", "garage-rental", None, "attribute"),
    ("how much is the rent on garage 18", "garage-rental", None, "subject"),
    ("how big is the lock up", "garage-rental", None, "attribute"),
    # theatre tickets
    ("what time does the lantern keeper start", "theatre-tickets", ["2.30pm"]),
    ("where are we sitting at the playhouse", "theatre-tickets", ["row D"]),
    ("how much were the theatre tickets altogether", "theatre-tickets", ["158.50"]),
    ("who's coming to the theatre", "theatre-tickets", ["Kwame", "Maisie", "Ruth"]),
    ("how long is the show", "theatre-tickets", ["2 hours 40 minutes"]),
    ("why isnt felix coming to the show", "theatre-tickets", ["Zac"]),
    ("how much is parking near the alder playhouse", "theatre-tickets", ["6.50"]),
    ("whats the box office number", "theatre-tickets", ["01632 960 905"]),
    ("how much was the childs ticket", "theatre-tickets", ["28.00"]),
    ("what age is the lantern keeper suitable for", "theatre-tickets", ["8 and up"]),
    ("what time does the evening performance start", "theatre-tickets", None, "attribute"),
    ("which seat is felix in", "theatre-tickets", None, "attribute"),
    ("how much is an ice cream in the interval", "theatre-tickets", None, "subject"),
    ("who wrote the lantern keeper", "theatre-tickets", None, "role"),
    ("how much were the stalls seats", "theatre-tickets", None, "attribute"),
    # orthodontist letter
    ("when is maisie getting her brace fitted", "orthodontist-letter", ["3 March", "4.10pm"]),
    ("how often does she have to go back to get them adjusted", "orthodontist-letter", ["8 weeks"]),
    ("how long will maisie have braces for", "orthodontist-letter", ["20 months"]),
    ("what cant she eat with her braces", "orthodontist-letter", ["toffee", "chewing gum", "hard sweets", "popcorn"]),
    ("who's maisie's orthodontist", "orthodontist-letter", ["Saskia Lindqvist"]),
    ("who do i ring if a wire comes loose at the weekend", "orthodontist-letter", ["01632 960 628"]),
    ("do we have to pay for maisies braces", "orthodontist-letter", ["NHS"]),
    ("whats maisie's patient number at the ortho", "orthodontist-letter", ["BOP-22714"]),
    ("when does she start wearing the elastics", "orthodontist-letter", ["second adjustment"]),
    ("when is felix's orthodontist appointment", "orthodontist-letter", None, "attribute"),
    ("how much is a replacement retainer", "orthodontist-letter", None, "type"),
    ("what time is maisie's second adjustment", "orthodontist-letter", None, "attribute"),
    ("whats the orthodontist's email address", "orthodontist-letter", None, "type"),
    # tax return
    ("when's kwame's tax return due", "tax-return", ["31 January 2032"]),
    ("how much did kwame make from weddings", "tax-return", ["9,600"]),
    ("what's kwame's utr", "tax-return", ["48213 90576"]),
    ("how much is the july payment on account", "tax-return", ["£640"]),
    ("how much does the accountant charge", "tax-return", ["£275"]),
    ("what are we still missing for the tax return", "tax-return", ["bank interest", "flash"]),
    ("how many business miles did kwame do", "tax-return", ["2,340"]),
    ("how much did we give to the hospice", "tax-return", ["£240"]),
    ("whats joanna's utr", "tax-return", None, "attribute"),
    ("how much did the new flash cost", "tax-return", None, "attribute"),
    ("whats delphine's email", "tax-return", None, "type"),
    ("how much did kwame earn from videos", "tax-return", None, "subject"),
    # home insurance (PDF)
    ("how much is the house insured for", "home-insurance", ["320,000"]),
    ("whats the excess on our contents insurance", "home-insurance", ["£150"]),
    ("how much do we pay a month for the home insurance", "home-insurance", ["34.40"]),
    ("when does the house insurance run out", "home-insurance", ["14 August 2032"]),
    ("whats the excess if a pipe bursts", "home-insurance", ["£500"]),
    ("is kwames camera on the home insurance", "home-insurance", ["4,200"]),
    ("whats the claims number for the house insurance", "home-insurance", ["01632 960 230"]),
    ("how much are our belongings covered for away from home", "home-insurance", ["3,000"]),
    ("whats the policy number for the car insurance", "home-insurance", None, "subject"),
    ("whats the excess for subsidence", "home-insurance", None, "attribute"),
    ("how many years no claims discount do we have on the home insurance", "home-insurance", None, "type"),
    # supermarket receipt (PDF)
    ("how much did i spend at fairbrook", "supermarket-receipt", ["31.47"]),
    ("how much was the lamb at fairbrook", "supermarket-receipt", ["11.50"]),
    ("how much were the dishwasher tablets", "supermarket-receipt", ["7.25"]),
    ("how many points have i got on my fairbrook card", "supermarket-receipt", ["1,284"]),
    ("which card did i pay for the shopping with", "supermarket-receipt", ["4471"]),
    ("how long have i got to take something back to fairbrook", "supermarket-receipt", ["28 days"]),
    ("what time did i do the big shop on the 22nd", "supermarket-receipt", ["18:07"]),
    ("how much were the apricots", "supermarket-receipt", ["1.89"]),
    ("how much was the coriander", "supermarket-receipt", None, "subject"),
    ("how much did the chickpeas cost", "supermarket-receipt", None, "subject"),
    ("how much vat was on the shopping", "supermarket-receipt", None, "type"),
    # sofa order (PDF)
    ("when is the new sofa being delivered", "sofa-order", ["17 April"]),
    ("what colour did we order the sofa in", "sofa-order", ["Moss green"]),
    ("how much is left to pay on the sofa", "sofa-order", ["1,836"]),
    ("how much was the armchiar", "sofa-order", ["649"]),
    ("are they taking the old sofa away", "sofa-order", ["removal"]),
    ("how wide does the doorway need to be for the sofa", "sofa-order", ["80cm"]),
    ("how long is the sofa frame guaranteed for", "sofa-order", ["15 years"]),
    ("whats the order number for the sofa", "sofa-order", ["HF-66082"]),
    ("how much deposit did we put down on the furniture", "sofa-order", ["400"]),
    ("how much was the footstool", "sofa-order", None, "subject"),
    ("what size is the coffee table", "sofa-order", None, "attribute"),
    ("whats the delivery driver called", "sofa-order", None, "role"),
    # airport parking (PDF)
    ("what time do we drop the car off at the airport", "airport-parking", ["05:30"]),
    ("how much was the airport parking", "airport-parking", ["129.99"]),
    ("whats the flight number on the way home", "airport-parking", ["SK 419"]),
    ("when do we fly back from palma", "airport-parking", ["16 August"]),
    ("who do we ring when we're nearly at the airport", "airport-parking", ["01632 960 145"]),
    ("how much does it cost to change the parking booking", "airport-parking", ["£10"]),
    ("which terminal is the meet and greet at", "airport-parking", ["Terminal 2"]),
    ("whats the parking booking ref", "airport-parking", ["PSA-309115"]),
    ("what time does our flight to palma take off", "airport-parking", None, "attribute"),
    ("which hotel are we staying at in palma", "airport-parking", None, "subject"),
    ("how much is it to charge an electric car at the airport parking", "airport-parking", None, "attribute"),
    # tutoring invoice (PDF)
    ("how much do i owe the maths tutor", "tutoring-invoice", ["162"]),
    ("how much is an hour with gemma", "tutoring-invoice", ["36"]),
    ("what did maisie get on the maths mock", "tutoring-invoice", ["34 out of 50"]),
    ("what day and time is maths tutoring", "tutoring-invoice", ["Tuesdays", "5pm"]),
    ("when's the first maths session after easter", "tutoring-invoice", ["22 April"]),
    ("what reference do i put when i pay gemma", "tutoring-invoice", ["MAISIE"]),
    ("how long have i got to pay the tutor", "tutoring-invoice", ["14 days"]),
    ("what did they do in the session on 18 march", "tutoring-invoice", ["equations"]),
    ("how much is tutoring for felix", "tutoring-invoice", None, "attribute"),
    ("what did maisie get in her english mock", "tutoring-invoice", None, "subject"),
    ("whats gemma's email address", "tutoring-invoice", None, "type"),
    # pension statement (PDF)
    ("how much is in my pension now", "pension-statement", ["45,402.35"]),
    ("what percentage does the council put into my pension", "pension-statement", ["8%"]),
    ("how much did i pay into my pension myself last year", "pension-statement", ["1,716"]),
    ("whats the charge on my pension fund", "pension-statement", ["0.2%"]),
    ("what age is my pension set to retire at", "pension-statement", ["67"]),
    ("whats my pension member number", "pension-statement", ["AWP-0093-4418"]),
    ("who gets my pension if i die", "pension-statement", ["Kwame"]),
    ("how much did the pension investments grow by", "pension-statement", ["2,190.35"]),
    ("roughly what income will my pension give me", "pension-statement", ["7,900"]),
    ("how much is kwame's pension worth", "pension-statement", None, "attribute"),
    ("whats my state pension forecast", "pension-statement", None, "subject"),
    ("whats the email for ashgrove pensions", "pension-statement", None, "type"),
    # uniform order (PDF)
    ("how much did maisie's uniform come to", "uniform-order", ["116"]),
    ("what size blazer did we get her", "uniform-order", ["12-13"]),
    ("which house is maisie in at the academy", "uniform-order", ["Kestrel"]),
    ("when's the pe hoodie coming in", "uniform-order", ["12 August"]),
    ("what collar size are her school shirts", "uniform-order", ["13.5"]),
    ("how much were the name labels", "uniform-order", ["9.95"]),
    ("can i swap the skirt if it doesnt fit", "uniform-order", ["30 days"]),
    ("where's the uniform shop", "uniform-order", ["14 Bridge Street"]),
    ("how much is the pe hoodie", "uniform-order", None, "attribute"),
    ("what size are maisie's school shoes", "uniform-order", None, "subject"),
    ("how much were her school trousers", "uniform-order", None, "subject"),
    ("how much was felix's blazer", "uniform-order", None, "attribute"),
])]
