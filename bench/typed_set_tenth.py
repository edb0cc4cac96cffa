"""A tenth held-out typed set (issue 33, session 25): 18 everyday documents (11 notes, 7 PDFs with
ruled tables) and 199 questions, 65 of them unanswerable, written from scratch by the helper
heldout25 of session 25 without reading the answerer (src/cairn/answer/), the assistant
(src/cairn/assistant/) or src/cairn/ops/: an outside user's documents and questions, on kinds of
document the earlier sets do not centre on (a child's antibiotic label from the pharmacy, a cricket
club committee's minutes, a chicken and leek pie recipe card, a learner driver's lesson log, a
running club newsletter, a child's birthday party plan, a bathroom refit plan, a secondary school
offer letter, a family's travel vaccinations, a food bank volunteering rota, the home wifi and
gadget notes; as PDFs a garage service invoice, a dual fuel energy bill, a bank statement, a
touring caravan insurance schedule, a walking holiday itinerary, an e-bike warranty certificate
and a children's holiday club booking). Every person, company, place (bar a few real towns on the
walking holiday), amount, date, code and phone number is invented (phone numbers from the drama
ranges: 01632 960xxx, 07700 900xxx); no third-party text. Same shape as bench/typed_set.py
(`write`, `QUESTIONS`, `expect` a list of strings the answer must each hold, case and spacing
folded, None for an unanswerable question, `why` the way it is unanswerable: "attribute" - the
asked attribute is written of another subject (the front tyres but not the rear; Niamh's booster
but not Tomasz's), or the subject is there without it while its other attributes are; "type" - no
value of the asked type in the documents; "subject" - another item of the same kind, absent (an
apple pie where only the chicken pie is written); "role" - the person, place or date is named but
not in the asked role (present at a meeting but given no action; a local contact, not a guide)).
Questions are typed the way a person types them: lower case, their own words rather than the
document's label ("jabs" for vaccinations, "the tile place" for Marlow Tile Centre, "back tyres"
for rear), dropped apostrophes, a few typos, two-part questions, lists, yes/no and "how do i".

Held out: nobody tunes on it. Every question is `part` "tenth" and is asked once on the start
commit by heldout25 (figures in bench/README.md, "Session 25 — heldout25") and once by the lead at
the end of session 25 (`python bench/answers_typed.py --set tenth`); its failures are recorded, not
fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "pharmacy-label.md": """# Elodie's antibiotics from the pharmacy

Label from Brightwell Pharmacy, 14 Chapel Row, Stannerby, 01632 960 447
Patient: Elodie Wren
Medicine: Amoxicillin 250mg/5ml oral suspension, 100ml bottle
Dose: 5ml three times a day, spaced through the day, for 7 days.
Prescribed by Dr Halvard Peake at Stannerby Health Centre on 3 March 2031.
Dispensed on 4 March 2031 by the pharmacist, Ms Ifeoma Daley.
Keep in the fridge. Shake the bottle well before each dose.
Throw away any medicine left over after 14 days.
Finish the whole course even if she seems better.
Use the oral syringe from the box, not a kitchen teaspoon.
She can have Calpol for her temperature as well: 7.5ml up to 4 times in 24 hours, at least 4 hours apart.
If a rash appears, stop the antibiotic and call the surgery on 01632 960 510.
""",
    "cricket-committee-minutes.md": """# Stannerby Cricket Club committee meeting, 12 February 2031

Held in the pavilion at 7.30pm.
Present: Gideon Marsh (chair), Niamh Calloway (secretary), Priya Ostrowski, Femi Adebayo-Hart, Colm Breslin.
Apologies: Harriet Vance (treasurer), Dev Saini.

1. The minutes of the January meeting were agreed.
2. Treasurer's report, sent by Harriet by email: bank balance £4,318 at 31 January. Subscriptions
   for 2031 stay at £85 for adults and £40 for juniors and students.
3. Pitch: the roller needs a new drive belt. Colm will get quotes from two suppliers before the March meeting.
4. Nets: the new practice nets cost £2,650. The club has a grant of £1,500 from the Stannerby
   Community Fund towards them. Gideon will sign the grant acceptance form.
5. Junior section: coaching starts on Sunday 27 April at 10am. Femi will run the under-11s; a coach
   for the under-13s is still needed.
6. Teas: a sign-up sheet goes up on the pavilion noticeboard. Visiting teams pay £3.50 a head for tea.
7. Season opener: a friendly against Hollow Cross CC on Saturday 19 April, start 1pm.
8. Any other business: the bar licence renewal is due in May; Niamh will send the form to the council.

Next meeting: Wednesday 12 March 2031 at 7.30pm.
""",
    "chicken-leek-pie.md": """# Mum's chicken and leek pie (serves 4)

Ingredients
- 500g skinless chicken thighs, cut into chunks
- 2 leeks, sliced
- 1 tbsp butter and 1 tbsp oil
- 2 tbsp plain flour
- 300ml chicken stock
- 150ml double cream
- 1 tsp wholegrain mustard
- a handful of chopped tarragon
- 320g ready-rolled puff pastry
- 1 egg, beaten, to glaze

Method
1. Brown the chicken in the butter and oil, then lift it out.
2. Soften the leeks in the same pan for 8 minutes.
3. Stir in the flour, then the stock a little at a time, then the cream and mustard. Simmer for 10 minutes.
4. Put the chicken back, add the tarragon and leave the filling to cool.
5. Tip into a 1.2 litre pie dish, lay the pastry over and brush with the egg.
6. Bake at 200C (180C fan) for 30 to 35 minutes until golden.

Freezes well before baking, for up to 3 months; defrost overnight in the fridge.
Serve with mash and green beans.
""",
    "driving-lessons.md": """# Tomasz's driving lessons

Instructor: Bernadette Quill, Quill School of Motoring, 07700 900 318.
Car: manual Vexa Civet with dual controls. She picks up from home or from work on Harlow Street.
Price: £38 an hour, or £350 for a block of 10 hours paid up front (block paid on 6 January).
Theory test: passed on 14 December 2030 with 47 out of 50, and 61 on hazard perception.
Theory certificate number 7730-4412-QX, valid for 2 years.
Practical test: Thursday 22 May 2031 at 10.42am, Stannerby test centre on Mill Road.
Test fee £62, paid. Booking reference DT-88417-W.

Lessons so far
- 9 January: moving off and stopping, 1 hour
- 16 January: junctions, 2 hours
- 23 January: roundabouts, 2 hours
- 30 January: parallel parking and bay parking, 1 hour
- 6 February: dual carriageway, 2 hours

Still to work on: hill starts, the Mill Road roundabout, the emergency stop.
Bernadette doesn't charge for a cancelled lesson with 48 hours' notice; any later and it's paid in full.
""",
    "running-club-newsletter.md": """# Stannerby Striders newsletter, March 2031

Hello Striders!

Well done to Oona Brackley, who ran 38:12 at the Fenmoor 10k, a new women's V50 club record. Lewis
Tait took 4 minutes off his half marathon best at Dunholt with 1:29:47.

Parkrun: 14 Striders ran at Stannerby parkrun on 1 March. First club finisher was Ravi Mendes in 18:55.

Coming up
- Stannerby 10k: Sunday 6 April, 9.30am start, entry £24 (£22 for affiliated runners). Marshals
  needed: tell Sunita.
- Dunholt Trail Half: Saturday 10 May, entry £32, entries close on 30 April.
- Club handicap 5 mile: Wednesday 21 May at 7pm from the leisure centre, free.

Kit: new club vests £22, long-sleeve tops £28, from Sunita Grewal at the Tuesday sessions.
Sessions: Tuesdays 6.30pm intervals on the track (£2 track fee); Thursdays 6.30pm steady run from
the leisure centre; Sunday long run at 8am from the Market Cross.
Membership renewals are due by 1 April: £30 for the year, including England Athletics affiliation.
Social: curry night at the Jaipur Garden on Friday 28 March at 7.30pm, £18 a head; pay Lewis by 21 March.
""",
    "birthday-party.md": """# Elodie's 8th birthday party

Saturday 15 March 2031, 2pm to 4pm at Jumping Jacks soft play, Unit 4 Ridgeway Park, Stannerby.
Booked the party package: £14.50 a child for 90 minutes' play and 30 minutes in the party room
with food. Minimum 10 children. £50 deposit paid on 2 February; the rest is paid on the day.
Food: hot dogs or cheese pizza, with chips. They need our numbers by 8 March.
Cake: a unicorn cake for 16 from Crumb & Co, £45, to collect on the Saturday morning from 9am.
Party bags: bubbles, a bouncy ball, a mini colouring book and a slice of cake. Get them at the market.

Guests
- Amara: coming, pizza
- Bo Lindqvist: coming, hot dog
- Freya and Isla (twins): coming, both pizza; Isla is gluten free
- Jude: coming, hot dog
- Kasia: can't come, she's at her gran's
- Marnie: coming, pizza
- Otis: coming, hot dog; his dad is staying for the party
- Sami: maybe
- Theo: hasn't replied
- Zainab: coming, pizza
""",
    "bathroom-refit.md": """# Bathroom refit

Plan: take out the bath and fit a walk-in shower, a new toilet, basin and vanity unit; tiles floor to ceiling.

Plumber: Declan Ferris, Ferris Plumbing & Heating, 07700 900 574. Quote £3,900 for the strip-out,
first and second fix and fitting; the sanitaryware is not included. Starts Monday 7 April 2031,
about 8 working days.
Tiler: Stavros Kallis, 07700 900 921. £45 a square metre, about 22 square metres. He starts after
the plumber's first fix, pencilled in for 14 April.
Electrician: Lowri Pritchard, for the extractor fan and a shaver point. Quoted £420. Needs to come on day 2.

Tiles from Marlow Tile Centre: "Saltmarsh" porcelain 60x30 in pale grey for the walls, "Slate Drift"
60x60 for the floor. Ordered 26 square metres to allow for cuts. Delivery on 2 April.
Shower: Aquaveil 1200 x 800 tray and glass screen, £689 from Bathstore Direct, order number BSD-551072.
Toilet: wall hung, £329. Basin and 600mm vanity unit: £415.
Budget: £8,500 for everything, plus £600 contingency.
While the bathroom is out: downstairs loo, and showers at the leisure centre (Tomasz has a pass) or at my sister's.
""",
    "school-offer-letter.md": """# Letter: Rafe's secondary school place

From Stannerby County Council School Admissions, 3 March 2031

Dear Ms Calloway,

We are pleased to offer Rafe Wren a place in Year 7 at Hartwell Academy from September 2031. This
was your first preference.

Please accept or decline the place online by 17 March 2031. If we do not hear from you, the place
may be offered to another child.

Rafe's application number is SCA-2031-06618.

Hartwell Academy will write to you about its induction day, which is on Thursday 3 July 2031. The
school's uniform supplier is Pennant Schoolwear, 9 Bridge Street; blazers must carry the school badge.

Rafe lives 2.8 miles from the school, so he qualifies for free school transport. Apply for a bus
pass by 31 May using the form on the council's website.

If you want to appeal for a place at another school, your appeal must reach us by 14 April 2031.

Yours sincerely,
Admissions Team, 01632 960 233
""",
    "travel-jabs.md": """# Travel jabs for Kenya (family trip, August 2031)

Jabs with the practice nurse, Sister Mirela Constantin, at Stannerby Health Centre; travel clinic line 01632 960 512.
Some are free on the NHS; the rest are private at the Travel Health Point on Quay Street, 01632 960 736.

Niamh
- Typhoid: 11 June 2031, free, lasts 3 years
- Hepatitis A: 11 June 2031, free; booster 6 to 12 months later
- Yellow fever: 18 June 2031, £78 private; the certificate (valid for life) goes with the passport

Tomasz
- Typhoid: had one in 2029, still covered
- Hepatitis A: 11 June 2031, free
- Yellow fever: 18 June 2031, £78 private

Elodie and Rafe
- Hepatitis A: 11 June 2031, free
- Yellow fever: 18 June 2031, £78 each, private. Elodie needs a check with the doctor first because of her egg allergy.

Malaria tablets: atovaquone-proguanil for all four of us. Start 2 days before we arrive and keep
taking them for 7 days after we leave. Private prescription £35 a person, plus the tablets.
Rabies: the nurse said it's optional for our trip and we decided not to have it.
""",
    "food-bank-rota.md": """# Food bank volunteering

I help at the Stannerby Community Pantry, St Aidan's church hall, Fenn Lane.
Coordinator: Marguerite Obi, 07700 900 466 (text her, don't ring, during sessions).
Sessions: Tuesdays 10am to 1pm (sorting) and Fridays 4pm to 7pm (giving out parcels).

My shifts in April
- Tuesday 1 April: sorting, with Dougal and Shreya
- Friday 11 April: front desk, with Marguerite
- Tuesday 15 April: sorting, with Wilf
- Friday 25 April: van run to the Brookside supermarket to collect their surplus, Dougal driving

Most needed this month: tinned meat, UHT milk, tea bags, toiletries (especially deodorant), nappies in sizes 5 and 6.
Not accepted: anything out of date, home-cooked food, opened packets, alcohol.
Volunteer briefing and food hygiene refresher: Monday 7 April at 6.30pm in the hall.
Parking: use the church car park; the bays on Fenn Lane are 1 hour only.
The door code for the store room is 5512.
""",
    "home-network.md": """# Home wifi and gadgets

Broadband: Lumenfibre 500, account LF-2290-7713, help line 01632 960 388. Contract ends 30 November 2031.
Router: Lumen Hub 6, in the hall cupboard. Admin page 192.168.1.254; the admin password is on the sticker underneath.
Main wifi: Calloway-Home, password Kestrel!Harbour58
Guest wifi: Calloway-Guest, password letmein-2031 (switches itself off at midnight)
Mesh node upstairs on the landing; the one in the garden office needs the powerline adapter plugged in next to the printer.
Printer: Inkora 3650, IP address 192.168.1.40, takes 39XL cartridges.
Rafe's tablet has parental controls: it locks at 8.30pm on school nights.
TV box: Streamline, with a Netwave subscription at £10.99 a month, renewing on the 3rd.
Speed we pay for: 500 Mbps down, 70 up. Last speed test in the garden office: 212 down.
""",
}

PDFS: dict[str, dict] = {
    "car-service-invoice.pdf": {
        "lines": ["Kestrel Lane Garage, 41 Kestrel Lane, Stannerby, 01632 960 284", "Invoice KLG-20577",
                  "Date: 24 February 2031", "Customer: Tomasz Wren",
                  "Vehicle: Vexa Orla 1.5 petrol estate, registration WR21 KTB", "Mileage: 41,806"],
        "table": [["Work", "Parts", "Labour", "Total"],
                  ["Full service: oil, oil filter, air filter, pollen filter", "£86.40", "£110.00", "£196.40"],
                  ["Two front tyres, Caldera Sport 205/55 R16", "£168.00", "£24.00", "£192.00"],
                  ["Front wiper blades", "£21.50", "", "£21.50"],
                  ["Brake fluid change", "£9.80", "£36.00", "£45.80"],
                  ["Total including VAT", "", "", "£455.70"]],
        "after": ["New front tyres: tread 8mm, pressure set to 2.4 bar (35 psi).",
                  "Advisories: rear brake discs lightly corroded, check at the next service. "
                  "Small chip in the windscreen on the driver's side.",
                  "Next service due at 51,800 miles or by February 2032, whichever comes first.",
                  "MOT due: 9 August 2031.",
                  "Paid by card on collection. Technician: Anselm Birch."],
    },
    "energy-bill.pdf": {
        "lines": ["Meadowlight Energy", "Your energy bill", "Account number: ML-4470-2291", "Bill date: 8 April 2031",
                  "Billing period: 1 January 2031 to 31 March 2031 (90 days)",
                  "Tariff: Meadowlight Steady Fix 12, fixed until 31 October 2031"],
        "table": [["Fuel", "Units used", "Unit rate", "Standing charge", "Cost"],
                  ["Electricity", "1,124 kWh", "26.8p per kWh", "52.4p a day", "£348.39"],
                  ["Gas", "3,870 kWh", "6.9p per kWh", "31.7p a day", "£295.56"],
                  ["VAT at 5%", "", "", "", "£32.20"],
                  ["Total for this period", "", "", "", "£676.15"]],
        "after": ["Direct Debit: £205 a month, taken on the 12th.",
                  "Your account is £61.80 in credit.",
                  "Next meter reading due: 30 June 2031.",
                  "Electricity meter serial: E19K 220473. Gas meter serial: G4A 88016.",
                  "Customer service: 01632 960 155."],
    },
    "bank-statement.pdf": {
        "lines": ["Harbourstone Bank", "Current account statement", "Account holder: Niamh Calloway",
                  "Sort code 30-96-17, account number 55820413",
                  "Statement period: 1 March 2031 to 31 March 2031"],
        "table": [["Date", "Description", "Paid out", "Paid in", "Balance"],
                  ["1 Mar", "Balance brought forward", "", "", "£1,482.16"],
                  ["3 Mar", "Card payment Brightwell Pharmacy", "£9.65", "", "£1,472.51"],
                  ["5 Mar", "Standing order S Doyle window cleaning", "£18.00", "", "£1,454.51"],
                  ["12 Mar", "Direct debit Meadowlight Energy", "£205.00", "", "£1,249.51"],
                  ["14 Mar", "Transfer from T Wren", "", "£400.00", "£1,649.51"],
                  ["15 Mar", "Card payment Jumping Jacks Stannerby", "£95.50", "", "£1,554.01"],
                  ["20 Mar", "Direct debit Stannerby Leisure membership", "£29.00", "", "£1,525.01"],
                  ["26 Mar", "Salary Corvel Logistics Ltd", "", "£2,318.44", "£3,843.45"],
                  ["28 Mar", "Card payment Marlow Tile Centre", "£612.80", "", "£3,230.65"],
                  ["31 Mar", "Interest paid", "", "£1.12", "£3,231.77"],
                  ["31 Mar", "Balance carried forward", "", "", "£3,231.77"]],
        "after": ["Money in: £2,719.56. Money out: £969.95.",
                  "Arranged overdraft limit: £500.",
                  "Lost or stolen cards: 01632 960 919."],
    },
    "caravan-insurance.pdf": {
        "lines": ["Wayfarer Leisure Insurance", "Touring caravan insurance schedule", "Policy number: WLI-0381-5527",
                  "Policyholder: Tomasz Wren, 17 Linnet Close, Stannerby",
                  "Period of cover: 1 May 2031 to 30 April 2032",
                  "Caravan: Swiftline Corriedale 554, 2019, 4 berth, chassis number SLC554-19-08832"],
        "table": [["Section", "Sum insured", "Excess"],
                  ["Caravan", "£18,500 (market value)", "£150"],
                  ["Contents and personal belongings", "£2,000", "£100"],
                  ["Awning", "£900", "£100"],
                  ["Storage and transit", "Included", "£150"],
                  ["Legal expenses", "£25,000", "Nil"]],
        "after": ["Annual premium: £243.60 including Insurance Premium Tax, paid in full.",
                  "Security conditions: whenever the caravan is stored or left unattended it must have a wheel "
                  "clamp and a hitch lock fitted.",
                  "Storage site: Brackenfold Caravan Storage, Long Lane, Stannerby.",
                  "Not covered: frost damage to the water system unless it was drained, wear and tear, and theft "
                  "of items left in the awning overnight.",
                  "Claims: 01632 960 377, 8am to 8pm."],
    },
    "walking-holiday.pdf": {
        "lines": ["Treadlight Walking Holidays", "Itinerary: Lakes and Alps of Slovenia, self-guided, 7 nights",
                  "Booking reference: TWH-88031", "Travellers: Niamh Calloway and Tomasz Wren",
                  "Dates: 6 to 13 September 2031"],
        "table": [["Day", "Date", "Route", "Distance", "Overnight"],
                  ["1", "6 Sep", "Arrive Ljubljana airport, transfer to Bled (included)", "", "Hotel Jezero Vila, Bled"],
                  ["2", "7 Sep", "Vintgar gorge and the Bled lake circuit", "14 km", "Hotel Jezero Vila, Bled"],
                  ["3", "8 Sep", "Bled to Bohinj over the Pokljuka plateau", "19 km", "Penzion Triglavska, Bohinj"],
                  ["4", "9 Sep", "Rest day or the Savica waterfall", "6 km", "Penzion Triglavska, Bohinj"],
                  ["5", "10 Sep", "Bohinj to the Radovna valley", "17 km", "Kmetija Pri Lipi farm stay"],
                  ["6", "11 Sep", "Radovna to Kranjska Gora", "21 km", "Hotel Kavka, Kranjska Gora"],
                  ["7", "12 Sep", "Vrsic pass loop (optional bus up)", "12 km", "Hotel Kavka, Kranjska Gora"],
                  ["8", "13 Sep", "Transfer to Ljubljana airport at 9am (included)", "", ""]],
        "after": ["Flights are not included.",
                  "Your luggage is moved between hotels each day: have bags at reception by 8.30am.",
                  "Breakfast every day; dinner included at Bohinj and at the farm stay.",
                  "Price: £1,245 per person; single supplement £310. Deposit of £300 paid; the balance of "
                  "£2,190 is due by 8 July 2031.",
                  "Local contact in Slovenia: Tjasa Kos. Treadlight office: 01632 960 640."],
    },
    "ebike-warranty.pdf": {
        "lines": ["Voltaro Bikes", "Warranty certificate", "Model: Voltaro Arden step-through e-bike, size M",
                  "Frame number: VA-ST-55210-M", "Purchased: 19 February 2031 from Pedalhaus, Stannerby",
                  "Owner: Niamh Calloway"],
        "table": [["Part", "Warranty period", "Conditions"],
                  ["Frame", "Lifetime (original owner)", "Not for racing or hire use"],
                  ["Motor", "3 years", "Serviced by an authorised dealer every 12 months"],
                  ["Battery", "2 years or 500 full charge cycles", "Capacity below 60% counts as a fault"],
                  ["Display and controls", "2 years", ""],
                  ["Paint", "1 year", "Chips from use are not covered"]],
        "after": ["Register the warranty online within 30 days of purchase to keep the 3 year motor cover; "
                  "otherwise it is 2 years.",
                  "Tyres, brake pads, the chain and the cassette are wear parts and are not covered.",
                  "First free service at Pedalhaus after 6 weeks or 300 km.",
                  "Warranty claims go through the dealer: Pedalhaus, 01632 960 591."],
    },
    "holiday-club.pdf": {
        "lines": ["Stannerby Sports Camps", "Easter holiday club booking confirmation", "Booking number: SSC-4092",
                  "Booked by: Niamh Calloway", "Venue: Ridgeway Primary School, Ridgeway Road"],
        "table": [["Child", "Day", "Date", "Activity", "Price"],
                  ["Elodie", "Monday", "7 April", "Multi-sports", "£28.00"],
                  ["Elodie", "Tuesday", "8 April", "Multi-sports", "£28.00"],
                  ["Rafe", "Tuesday", "8 April", "Football", "£28.00"],
                  ["Rafe", "Wednesday", "9 April", "Climbing trip (off site)", "£38.00"],
                  ["Elodie", "Thursday", "10 April", "Dance and drama", "£28.00"],
                  ["Rafe", "Thursday", "10 April", "Football", "£28.00"],
                  ["Sibling discount", "", "", "", "-£8.50"],
                  ["Total paid", "", "", "", "£169.50"]],
        "after": ["Drop off from 8.30am, pick up by 4pm. Early club from 7.45am, £5 a day: not booked.",
                  "Bring a packed lunch, a water bottle, sun cream and trainers. No nuts, please.",
                  "The climbing trip leaves the school at 9am and is back by 3.30pm; it needs a signed consent form.",
                  "Changes are free up to 7 days before; after that there are no refunds.",
                  "Camp manager: Jess Amadi, 07700 900 255."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 1000 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "tenth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # pharmacy label
    ("how much of the antibiotic does elodie have", "pharmacy-label", ["5ml", "three times a day"]),
    ("how many days is she on the amoxicillin", "pharmacy-label", ["7 days"]),
    ("does elodies medicine need to go in the fridge", "pharmacy-label", ["fridge"]),
    ("how often can she have calpol", "pharmacy-label", ["4 times in 24 hours"]),
    ("which doctor prescribed the antibiotics", "pharmacy-label", ["Halvard Peake"]),
    ("what do i do if she comes out in a rash", "pharmacy-label", ["01632 960 510"]),
    ("how big is the bottle of amoxicillin", "pharmacy-label", ["100ml"]),
    ("how much calpol can rafe have", "pharmacy-label", None, "attribute"),
    ("whats the dose of ibuprofen for elodie", "pharmacy-label", None, "subject"),
    ("who picked up elodie's prescription", "pharmacy-label", None, "role"),
    # cricket committee minutes
    ("whats colm doing about the roller", "cricket-committee-minutes", ["quotes"]),
    ("who is signing the grant form for the nets", "cricket-committee-minutes", ["Gideon"]),
    ("how much are adult subs at the cricket club this year", "cricket-committee-minutes", ["£85"]),
    ("when's the first match of the season and who are we playing", "cricket-committee-minutes",
     ["19 April", "Hollow Cross"]),
    ("who sent apologies to the committee meeting", "cricket-committee-minutes", ["Harriet Vance", "Dev Saini"]),
    ("when's the next cricket committee meeting", "cricket-committee-minutes", ["12 March"]),
    ("how much do the nets cost and how much does the grant cover", "cricket-committee-minutes",
     ["2,650", "1,500"]),
    ("what did priya agree to do", "cricket-committee-minutes", None, "role"),
    ("who's coaching the under 9s", "cricket-committee-minutes", None, "subject"),
    ("how much is the new drive belt for the roller", "cricket-committee-minutes", None, "attribute"),
    ("what has dev been asked to do", "cricket-committee-minutes", None, "role"),
    # chicken and leek pie
    ("what temp does the chicken pie go in at", "chicken-leek-pie", ["200"]),
    ("how long does the chicken and leek pie bake for", "chicken-leek-pie", ["30 to 35 minutes"]),
    ("what do i need to buy for mums chicken pie", "chicken-leek-pie",
     ["chicken thighs", "leeks", "flour", "stock", "double cream", "mustard", "tarragon", "puff pastry", "egg"]),
    ("how much cream goes in the pie", "chicken-leek-pie", ["150ml"]),
    ("can i freeze the chicken pie", "chicken-leek-pie", ["3 months"]),
    ("what size pie dish do i need", "chicken-leek-pie", ["1.2 litre"]),
    ("how long does the apple pie take in the oven", "chicken-leek-pie", None, "subject"),
    ("how many calories are in a slice of the chicken pie", "chicken-leek-pie", None, "type"),
    ("how much salt goes in the pie filling", "chicken-leek-pie", None, "subject"),
    # driving lessons
    ("when is tomasz's driving test", "driving-lessons", ["22 May", "10.42"]),
    ("how much is a drivng lesson with bernadette", "driving-lessons", ["£38"]),
    ("what did tomasz get on his theory test", "driving-lessons", ["47 out of 50"]),
    ("how much notice does bernadette need if we cancel", "driving-lessons", ["48 hours"]),
    ("whats the booking ref for the practical test", "driving-lessons", ["DT-88417-W"]),
    ("what's he still got to practise before the test", "driving-lessons",
     ["hill starts", "Mill Road roundabout", "emergency stop"]),
    ("how long is the theory certificate valid", "driving-lessons", ["2 years"]),
    ("when did he do parallel parking", "driving-lessons", ["30 January"]),
    ("whats bernadette's email address", "driving-lessons", None, "type"),
    ("what did tomasz score on his practical", "driving-lessons", None, "attribute"),
    ("how much is the fee if he has to retake the theory", "driving-lessons", None, "attribute"),
    # running club newsletter
    ("what time did oona run at fenmoor", "running-club-newsletter", ["38:12"]),
    ("how much is it to enter the stannerby 10k", "running-club-newsletter", ["£24"]),
    ("when do entries shut for the dunholt trail half", "running-club-newsletter", ["30 April"]),
    ("how much is a striders long sleeve top", "running-club-newsletter", ["£28"]),
    ("what's the thursday session at the running club", "running-club-newsletter", ["steady run"]),
    ("how much are striders subs and when do i need to renew by", "running-club-newsletter", ["£30", "1 April"]),
    ("who do i pay for the curry night", "running-club-newsletter", ["Lewis"]),
    ("what was ravi's time at parkrun", "running-club-newsletter", ["18:55"]),
    ("how much is the club hoodie", "running-club-newsletter", None, "subject"),
    ("what's lewis's 10k pb", "running-club-newsletter", None, "attribute"),
    ("what time does the dunholt trail half start", "running-club-newsletter", None, "attribute"),
    # birthday party
    ("what time is elodie's party", "birthday-party", ["2pm"]),
    ("how much per child is the soft play", "birthday-party", ["14.50"]),
    ("which of the kids is gluten free", "birthday-party", ["Isla"]),
    ("who still hasn't replied to the party invite", "birthday-party", ["Theo"]),
    ("who can't make it to the party", "birthday-party", ["Kasia"]),
    ("when do jumping jacks need the food numbers", "birthday-party", ["8 March"]),
    ("where's the birthday cake coming from and how much was it", "birthday-party", ["Crumb", "£45"]),
    ("what goes in the party bags", "birthday-party", ["bubbles", "bouncy ball", "colouring book", "cake"]),
    ("whats otis having to eat", "birthday-party", ["hot dog"]),
    ("what's amara's mum's phone number", "birthday-party", None, "type"),
    ("what is jude allergic to", "birthday-party", None, "attribute"),
    ("how much was the balloon arch", "birthday-party", None, "subject"),
    # bathroom refit
    ("when does the plumber start on the bathroom", "bathroom-refit", ["7 April"]),
    ("how much is the tiler charging", "bathroom-refit", ["£45 a square metre"]),
    ("which tiles did we go for on the floor", "bathroom-refit", ["Slate Drift"]),
    ("how much is the electrician and what's she doing", "bathroom-refit", ["420", "extractor fan", "shaver point"]),
    ("what's the order number for the shower tray", "bathroom-refit", ["BSD-551072"]),
    ("whats our budget for the bathroom", "bathroom-refit", ["8,500"]),
    ("how much is declan charging", "bathroom-refit", ["3,900"]),
    ("what's lowri's number", "bathroom-refit", None, "attribute"),
    ("how much was the new bath", "bathroom-refit", None, "subject"),
    ("when will stavros be finished", "bathroom-refit", None, "attribute"),
    ("how much is the heated towel rail", "bathroom-refit", None, "subject"),
    ("where are we getting the toilet from", "bathroom-refit", None, "attribute"),
    # school offer letter
    ("which school did rafe get into", "school-offer-letter", ["Hartwell Academy"]),
    ("when do we have to accept rafe's place by", "school-offer-letter", ["17 March"]),
    ("when's the induction day at hartwell", "school-offer-letter", ["3 July"]),
    ("where do we buy rafe's blazer", "school-offer-letter", ["Pennant Schoolwear"]),
    ("does rafe get a free bus pass to secondary", "school-offer-letter", ["free school transport"]),
    ("whats rafe's application number", "school-offer-letter", ["SCA-2031-06618"]),
    ("what's the deadline for an appeal", "school-offer-letter", ["14 April"]),
    ("which school was our second choice", "school-offer-letter", None, "role"),
    ("who's going to be rafe's form tutor", "school-offer-letter", None, "type"),
    ("what time does hartwell finish in the afternoon", "school-offer-letter", None, "attribute"),
    ("how much is the hartwell blazer", "school-offer-letter", None, "attribute"),
    # travel jabs
    ("when are we getting the yellow fever jabs", "travel-jabs", ["18 June"]),
    ("how much is the yellow fever jab", "travel-jabs", ["£78"]),
    ("when's niamh's hep a booster due", "travel-jabs", ["6 to 12 months"]),
    ("how long before we land do we start the malaria tablets", "travel-jabs", ["2 days before"]),
    ("is tomasz having the typhoid jab", "travel-jabs", ["2029"]),
    ("why does elodie need to see the doctor before her yellow fever", "travel-jabs", ["egg allergy"]),
    ("are we getting the rabies vaccine", "travel-jabs", ["decided not to"]),
    ("whats the number for the travel health point", "travel-jabs", ["01632 960 736"]),
    ("when does tomasz need his hep a booster", "travel-jabs", None, "attribute"),
    ("how much is the cholera vaccine", "travel-jabs", None, "subject"),
    ("when is rafe's typhoid jab", "travel-jabs", None, "attribute"),
    ("how much do the malaria tablets themselves cost", "travel-jabs", None, "attribute"),
    # food bank rota
    ("what am i doing at the pantry on the 25th", "food-bank-rota", ["van run"]),
    ("who's driving the van for the food bank", "food-bank-rota", ["Dougal"]),
    ("what does the food bank need most at the moment", "food-bank-rota",
     ["tinned meat", "UHT milk", "tea bags", "toiletries", "nappies"]),
    ("can i take some home made soup to the food bank", "food-bank-rota", ["home-cooked"]),
    ("whats the code for the store room at the pantry", "food-bank-rota", ["5512"]),
    ("when's the volunteer briefing", "food-bank-rota", ["7 April", "6.30pm"]),
    ("who am i on with on friday the 11th", "food-bank-rota", ["Marguerite"]),
    ("how do i get hold of marguerite", "food-bank-rota", ["07700 900 466"]),
    ("whats shreya's number", "food-bank-rota", None, "attribute"),
    ("who is marguerite's deputy at the pantry", "food-bank-rota", None, "role"),
    ("what time do the saturday sessions start at the pantry", "food-bank-rota", None, "subject"),
    ("what's the wifi password at the church hall", "food-bank-rota", None, "subject"),
    ("what's wilf doing on the van run", "food-bank-rota", None, "role"),
    # home network
    ("whats the guest wifi password", "home-network", ["letmein-2031"]),
    ("when does our broadband contract finish", "home-network", ["30 November 2031"]),
    ("what cartridges does the printer take", "home-network", ["39XL"]),
    ("what's the ip address of the printer", "home-network", ["192.168.1.40"]),
    ("where do i find the router admin password", "home-network", ["sticker"]),
    ("what time does rafes tablet lock on a school night", "home-network", ["8.30pm"]),
    ("how much is netwave a month", "home-network", ["10.99"]),
    ("what speed did we get upstairs on the speed test", "home-network", None, "attribute"),
    ("how much is the broadband a month", "home-network", None, "attribute"),
    ("what's the password for the smart tv", "home-network", None, "subject"),
    # car service invoice (PDF)
    ("how much was the car service in total", "car-service-invoice", ["455.70"]),
    ("what pressure are the front tyres meant to be", "car-service-invoice", ["2.4 bar"]),
    ("what tyres did the garage put on", "car-service-invoice", ["Caldera Sport"]),
    ("when's the car next due a service", "car-service-invoice", ["51,800", "February 2032"]),
    ("did the garage say anything about the brakes", "car-service-invoice", ["rear brake discs"]),
    ("wen's the mot due", "car-service-invoice", ["9 August 2031"]),
    ("what was the mileage when it went in for the service", "car-service-invoice", ["41,806"]),
    ("what's the reg of the vexa", "car-service-invoice", ["WR21 KTB"]),
    ("what pressure should the back tyres be", "car-service-invoice", None, "attribute"),
    ("how much tread is left on the rear tyres", "car-service-invoice", None, "attribute"),
    ("how much were the rear wiper blades", "car-service-invoice", None, "subject"),
    ("how much did the timing belt cost", "car-service-invoice", None, "subject"),
    # energy bill (PDF)
    ("how much is our energy direct debit", "energy-bill", ["£205"]),
    ("whats the unit rate for electric", "energy-bill", ["26.8p"]),
    ("what's the standing charge on the gas", "energy-bill", ["31.7p"]),
    ("how much gas did we use last quarter", "energy-bill", ["3,870"]),
    ("how much credit have we got with meadowlight", "energy-bill", ["61.80"]),
    ("when does our fixed energy deal end", "energy-bill", ["31 October 2031"]),
    ("whats the serial number on the electric meter", "energy-bill", ["E19K 220473"]),
    ("how much was the energy bill for jan to march", "energy-bill", ["676.15"]),
    ("what's the night rate for electricity", "energy-bill", None, "subject"),
    ("what's the exit fee if we leave the fix early", "energy-bill", None, "type"),
    ("what's the serial number on the water meter", "energy-bill", None, "subject"),
    # bank statement (PDF)
    ("whats my bank balance at the end of march", "bank-statement", ["3,231.77"]),
    ("when did my salary go in and how much was it", "bank-statement", ["26 Mar", "2,318.44"]),
    ("how much did tomasz send me", "bank-statement", ["400"]),
    ("how much does the window cleaner get", "bank-statement", ["18.00"]),
    ("how much did i spend at the tile place", "bank-statement", ["612.80"]),
    ("what did the leisure centre membership cost me in march", "bank-statement", ["29.00"]),
    ("what's my sort code", "bank-statement", ["30-96-17"]),
    ("whats my overdraft limit", "bank-statement", ["£500"]),
    ("what's the interest rate on my overdraft", "bank-statement", None, "attribute"),
    ("how much did i spend at the supermarket in march", "bank-statement", None, "subject"),
    ("whats the balance on my savings account", "bank-statement", None, "subject"),
    ("how much did i pay the plumber in march", "bank-statement", None, "subject"),
    # caravan insurance (PDF)
    ("how much is the caravan insured for", "caravan-insurance", ["18,500"]),
    ("whats the excess on the awnign", "caravan-insurance", ["£100"]),
    ("what do we have to fit when the caravan's left on its own", "caravan-insurance", ["wheel clamp", "hitch lock"]),
    ("when does the caravan cover run out", "caravan-insurance", ["30 April 2032"]),
    ("how much is the caravan insurance a year", "caravan-insurance", ["243.60"]),
    ("are we covered if the pipes freeze in the caravan", "caravan-insurance", ["drained"]),
    ("where is the caravan stored", "caravan-insurance", ["Brackenfold"]),
    ("what's the policy number for the caravan", "caravan-insurance", ["WLI-0381-5527"]),
    ("what's the excess on the motor mover", "caravan-insurance", None, "subject"),
    ("who is the named driver for towing the caravan", "caravan-insurance", None, "role"),
    ("whats the caravan's registration", "caravan-insurance", None, "attribute"),
    # walking holiday (PDF)
    ("where are we staying in bohinj", "walking-holiday", ["Penzion Triglavska"]),
    ("how far is it from radovna to kranjska gora", "walking-holiday", ["21 km"]),
    ("when is the balance due for slovenia", "walking-holiday", ["8 July"]),
    ("how much have we still got to pay for the walking holiday", "walking-holiday", ["2,190"]),
    ("what time do our bags have to be at reception", "walking-holiday", ["8.30am"]),
    ("which nights do we get dinner on the slovenia trip", "walking-holiday", ["Bohinj", "farm stay"]),
    ("how far is the walk on day 4", "walking-holiday", ["6 km"]),
    ("what flight are we getting to ljubljana", "walking-holiday", None, "type"),
    ("which hotel are we in in ljubljana", "walking-holiday", None, "subject"),
    ("how much is dinner in kranjska gora", "walking-holiday", None, "attribute"),
    ("who's our guide on the walking holiday", "walking-holiday", None, "role"),
    # e-bike warranty (PDF)
    ("how long is the battery on my e-bike covered for", "ebike-warranty", ["2 years", "500"]),
    ("is the chain covered by the bike warranty", "ebike-warranty", ["not covered"]),
    ("when's the free first service for the ebike", "ebike-warranty", ["6 weeks", "300 km"]),
    ("how long's the motor guaranteed", "ebike-warranty", ["3 years"]),
    ("whats the frame number on my bike", "ebike-warranty", ["VA-ST-55210-M"]),
    ("who do i go to if i need to claim on the bike warranty", "ebike-warranty", ["Pedalhaus"]),
    ("how much did the e-bike cost", "ebike-warranty", None, "type"),
    ("how long is the warranty on the lights", "ebike-warranty", None, "subject"),
    ("what's the paint warranty on tomasz's bike", "ebike-warranty", None, "subject"),
    # holiday club (PDF)
    ("which days is elodie at holiday club", "holiday-club", ["7 April", "8 April", "10 April"]),
    ("what's rafe doing on the wednesday", "holiday-club", ["Climbing"]),
    ("what time is pick up from the sports camp", "holiday-club", ["4pm"]),
    ("what do the kids need to take to holiday club", "holiday-club",
     ["packed lunch", "water bottle", "sun cream", "trainers"]),
    ("how much did the holiday club come to in the end", "holiday-club", ["169.50"]),
    ("what time does the climbing trip get back", "holiday-club", ["3.30pm"]),
    ("have we booked early club", "holiday-club", ["not booked"]),
    ("what's elodie doing on the friday", "holiday-club", None, "attribute"),
    ("how much is late club", "holiday-club", None, "subject"),
    ("who's the football coach at the holiday club", "holiday-club", None, "role"),
    ("who's running the climbing trip", "holiday-club", None, "role"),
])]
