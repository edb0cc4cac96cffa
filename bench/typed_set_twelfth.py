"""A twelfth held-out typed set (issue 33, session 27): 20 everyday documents (12 notes, 8 PDFs
with ruled tables) and 297 questions, 95 of them unanswerable (attribute 37, subject 28, type 12,
role 11, date 7), written from scratch by the helper heldout27 of
session 27 without reading the answerer (src/cairn/answer/), the assistant (src/cairn/assistant/),
search (src/cairn/search/) or src/cairn/ops/: one household's documents (Hester Brackwood, Idris
Fennimore, their children Juno and Cass, Hester's dad Leofric, a cat called Bramble and a tortoise
called Gideon, in the invented town of Wickhollow near Sallowmere and Thorncastle) on kinds of
document the earlier sets do not centre on: a jury summons, a wedding invitation with RSVP
details, a cattery booking, a residents' association's minutes, a knitting pattern, a tree
surgeon's quote, a 10k race entry, a building society's letter about account changes, a damson
chutney recipe, a care rota for a grandparent after a hip operation, a neighbour's party wall
notice and an angling club permit; as PDFs an exotic vet's bill, a parents' evening timetable, a
sponsored swim form, a coach day trip itinerary, a solar export statement, a wine club delivery
note, a school meals account statement and an electrician's quote for a car charger. Every
person, company, place, amount, date, code and phone number is invented (phone numbers from the
drama ranges: 01632 960xxx, 07700 900xxx); no third-party text. Same shape as bench/typed_set.py
(`write`, `QUESTIONS`, `expect` a list of strings the answer must each hold, case and spacing
folded, None for an unanswerable question, `why` the way it is unanswerable: "attribute" - the
asked attribute is written of another subject (Cass's breakfast club but not Juno's; the minibus to
the barn but not back), or the subject is there without it (a courtroom that is never named);
"type" - no value of the asked type (an e-mail address where only a phone number is given);
"subject" - another item of the same kind, absent (a half marathon where only a 10k is entered);
"role" - the role is held by nobody, or the person is named but not in the asked role (present
at a meeting but given no task); "date" - the asked date or period is not the one the document
covers (April's solar generation on a January to March statement)).
Questions are typed the way a person types them: lower case, their own words rather than the
document's ("fuse board" for consumer unit, "put it off" for defer, "the seaside" for the
seafront, "a tenner"), dropped apostrophes, a few typos, two-part questions, lists, yes/no
questions.

Held out: nobody tunes on it. Every question is `part` "twelfth" and is asked once on the start
commit by heldout27 (figures in bench/README.md, "Session 27 — heldout27") and once by the lead at
the end of session 27 (`python bench/answers_typed.py --set twelfth`); its failures are recorded,
not fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "jury-summons.md": """# Idris's jury summons

Juror Summoning Office, Thorncastle
Juror number: 771 204 86

Dear Mr Fennimore,

You have been summoned for jury service at Thorncastle Crown Court, Assize Street, Thorncastle.

Start date: Monday 12 July 2032. Please arrive by 9.15am on the first day and go to the jury
assembly area on the second floor.

Jury service usually lasts up to 10 working days, but you may be asked to stay longer if a trial
runs on. You must reply within 7 days of receiving this summons, online or by post with the reply
form. If you wish to defer, you may ask once to move your service to another date within 12 months.

What to bring: this letter, photo ID (a passport or driving licence) and something to read.
Laptops and phones are allowed in the assembly area but must be switched off in court.
Not allowed: knives of any kind, including penknives, and aerosols.

Expenses: you can claim travel (bus or train fares, or 31p a mile if you drive), up to £5.71 a day
for food and drink, and loss of earnings of up to £64.95 a day for the first 10 days. Your employer
should fill in the certificate of loss of earnings.

Parking: there is no parking at the court; the nearest car park is Drapers Yard, £9 a day.
Questions: 01632 960 377, Monday to Friday, 9am to 5pm.
Do not talk about the case with anyone outside the jury, including online.

(Note to self: give the loss of earnings form to Fay Orrin at the bus depot by 1 June.)
""",
    "wedding-invitation.md": """# Posy and Ezra's wedding invitation

Mr and Mrs Gethin Dunmarrow request the pleasure of the company of
Hester, Idris, Juno and Cass
at the marriage of their daughter Posy Dunmarrow to Ezra Kildane
on Saturday 4 September 2032 at 1.30pm
at St Wenna's Church, Lower Sallowmere,
and afterwards at the reception at Cobbold's Barn, Haymead Lane, Sallowmere.

RSVP by 10 July 2032 to Lark Dunmarrow (mother of the bride), 07700 900 318, or on the wedding
website with the code POSYEZRA32. Please tell us about any dietary needs when you reply.

Dress code: summer smart. The barn floor is cobbled, so no stilettos.
A minibus will take guests from the church to the barn at 2.45pm.
Evening: a ceilidh band, the Bramble Reelers, from 8pm; carriages at midnight.
Children are welcome at the ceremony and the wedding breakfast; there is a children's tent with
an entertainer from 3pm to 6pm.
Gifts: your company is the best present; if you would like to give something, there is a
honeymoon fund (they are off to Madeira).
Rooms are held at the Haymead Arms until 1 August: quote "Dunmarrow wedding" for £95 a night
including breakfast.
Best man: Tolly Kildane (Ezra's brother). Bridesmaids: Juno Fennimore and Ottoline Pask.
""",
    "cattery-booking.md": """# Cattery booking for Bramble

Purrington Lodge Cattery, Fold Lane, Wickhollow. Owner: Mrs Verity Stallworth, 01632 960 129.
Booked: Bramble (our tabby, 9 years old) from Saturday 14 August 2032 to Sunday 22 August 2032.
Drop off between 9am and 11am; collect between 2pm and 4pm. No drop-offs or collections on Wednesdays.
Price: £14.50 a night, 8 nights = £116. Deposit of £30 paid when booking; the rest on collection
(cash or card).
Vaccinations must be up to date: bring her vaccination card (cat flu and enteritis booster within
the last 12 months). Bramble's booster was done on 3 March.
She's in Chalet 6, which has a heated sleeping area and its own run.
Food: Whiskerly senior dry food, 40g twice a day; we bring our own.
Medicine: half a Thyrocalm tablet every morning for her thyroid, hidden in a cat treat.
Emergency vet while we're away: Sallowmere Veterinary Centre, 01632 960 840.
Cancellation: the deposit is kept if we cancel less than 14 days before.
Bring her blanket so she feels at home; no catnip toys (she goes wild).
""",
    "residents-minutes.md": """# Orchard Rise Residents' Association: minutes of the meeting on 9 March 2032

Held in the Orchard Rise community room at 7.30pm.
Present: Cressida Lowther (chair), Aurelio Santangelo (treasurer), Hester Brackwood (taking the
minutes), Winnie Capshaw, Piotr Zelenka, Rufus Oyelaran (council neighbourhood team).
Apologies: Dilys Pengelly, Sanjeev Marwaha.

1. The minutes of the last meeting (12 January) were agreed.
2. Speeding on Orchard Rise: several near misses by the school. Piotr will write to the council
   asking for a 20mph limit and speed bumps.
3. Communal green: the grass cutting contract with Greenleigh Grounds is renewed at £1,340 a year.
   Aurelio will pay the first instalment.
4. Street party: Saturday 19 June. Winnie will apply for the road closure. Volunteers are still
   needed to run the barbecue.
5. Fly-tipping behind the garages: Rufus said the council will clear it within 10 working days
   and put up a camera.
6. Subscriptions stay at £12 per household a year; 47 of the 62 households have paid.
   The association's balance is £2,318.
7. Any other business: Winnie reported the broken street light outside number 23; Hester will
   report it on the council website.

Next meeting: Tuesday 11 May 2032 at 7.30pm in the community room.
""",
    "knitting-pattern.md": """# Cass's stripy jumper (knitting notes)

Pattern: "Harbour Stripes" child's raglan jumper, from the Wickhollow Wool Shed class.
Yarn: Tollbeck DK (100% wool), 50g balls. Main colour Kelp (green), contrast colour Lighthouse (white).
Needles: 3.25mm for the ribbing, 4mm for the body and sleeves.
Tension: 22 stitches and 30 rows to 10cm on 4mm needles.
Sizes (chest): age 5-6 61cm, age 7-8 66cm, age 9-10 71cm. I'm making age 7-8 for Cass.
Yarn for age 7-8: 4 balls of Kelp and 2 balls of Lighthouse.
Back: cast on 72 stitches, 5cm of 2x2 rib, then stripes of 6 rows Kelp and 2 rows Lighthouse.
Wash at 30C on the wool cycle and dry flat.
The yarn is £5.80 a ball at the Wool Shed. I've bought the Kelp; still need the Lighthouse.
The Wool Shed knit and natter group meets on Thursdays at 10am.
""",
    "tree-surgeon-quote.md": """# Quote from the tree surgeon

Canopy and Crown Tree Care: Ned Harrowgate, 07700 900 746. Fully insured (£5 million public liability).
Quote CC-1187, 22 February 2032, for 14 Orchard Rise, Wickhollow.

- Reduce the crown of the oak in the back garden by 25%: £680
- Fell the dead silver birch by the shed and grind out the stump: £420
- Cut the leylandii hedge on the left boundary down to 2 metres and trim both sides: £260
- Take away all the wood and green waste: £90

Total £1,450 (Ned is not VAT registered, so no VAT).
The oak has a tree preservation order, so Ned will apply to the council for consent first; allow 8 weeks.
The birch and the hedge can be done in the week of 15 March, before the birds nest; the oak once
consent comes through.
If we keep the birch logs for the wood burner, it's £40 off.
No deposit; payment within 7 days of the work being finished.
The quote is valid for 60 days.
""",
    "race-entry.md": """# Thorncastle 10k: my race entry

Race: Thorncastle Riverside 10k, Sunday 25 April 2032, start 9.30am at Weir Meadow.
Entry confirmation TR10-55193. Entry fee £24 (£2 off for club runners, which I'm not).
Race number 1408, green start wave (for 50 to 60 minute finishers).
Number and timing chip collection: Saturday 24 April, 11am to 4pm, at Pace Setters running shop
in the Cornmarket, or on race morning from 7.30am.
Bag drop closes at 9.10am. Toilets by the bandstand.
Water station at 5km. Medal and a technical T-shirt (size M) at the finish.
Parking: Weir Meadow park and ride, £3; the river road is closed from 8am to 12.30pm.
My goal: under 55 minutes (my best 10k is 56:42).
Running it with Bettany from work; she's in the blue wave.
Raising money for Thorncastle Hospice: target £250.
""",
    "bank-letter.md": """# Letter from the building society about our joint account

Merrowfield Building Society, 1 Tallis Square, Thorncastle
Customer services 01632 960 260 (8am to 8pm, 7 days a week)
2 May 2032

Dear Ms Brackwood and Mr Fennimore,

Your Everyday Joint Account ending 5520 (sort code 07-44-19)

We are making these changes to your account from 1 July 2032:
- The arranged overdraft interest rate goes from 19.9% EAR to 21.9% EAR.
- Your arranged overdraft limit stays at £750.
- The £3 monthly account fee is waived in any month you pay in at least £1,500.
- Credit interest on balances up to £2,000 rises to 1.5% AER.

Your new debit cards (Ms H Brackwood and Mr I Fennimore) will arrive separately within the next
2 weeks; they expire 05/36. Start using a new card with a chip and PIN payment. The old cards stop
working on 31 May.

If you do not agree to the changes, you can close or switch the account free of charge before 1 July.
We will never ask for your PIN or ask you to move money to a "safe account".

Yours sincerely,
Ffinlo Carraway, Head of Current Accounts
""",
    "damson-chutney.md": """# Grandpa Leofric's damson chutney (makes about 6 jars)

- 1.5kg damsons
- 500g cooking apples, peeled and chopped
- 2 onions, finely chopped
- 350g dark muscovado sugar
- 450ml malt vinegar
- 100g sultanas
- 1 tsp ground allspice, 1 tsp ground ginger and half a tsp of chilli flakes
- 2 tsp salt

1. Simmer the damsons in a splash of the vinegar for 15 minutes until soft, then push them through
   a colander to get the stones out.
2. Put everything in a preserving pan and bring slowly to the boil, stirring until the sugar dissolves.
3. Simmer uncovered for about 1.5 hours, stirring more often near the end, until a spoon drawn
   across the bottom leaves a channel.
4. Pot into sterilised jars while hot (wash them, then 15 minutes in the oven at 140C) and seal.

Leave it at least 6 weeks before opening; it keeps for a year unopened. Once open, keep it in the
fridge and use it within a month.
The damsons come from the tree in Leofric's garden; he picks them in early September.
Good with cheese and cold ham; Idris likes it in a cheese toastie.
""",
    "care-rota.md": """# Rota for Grandpa Leofric after his hip operation

Dad (Leofric) had his new left hip on Thursday 3 June 2032 at Thorncastle General and came home on
8 June, to 7 Cordwainer Close, Sallowmere. Someone pops in every day at lunchtime and helps with tea.

- Monday: Hester
- Tuesday: Auntie Perpetua (Dad's sister)
- Wednesday: Idris, after his shift, about 4pm
- Thursday: Hester
- Friday: Clem Ruddock from number 9
- Saturday and Sunday: my brother Lachlan, driving down from Kettleby

Medicines: the blood-thinning injection once a day at 6pm for 28 days; two paracetamol four times a
day; codeine 30mg at night if he needs it.
Hip rules for 6 weeks: don't bend past 90 degrees, don't cross his legs, sleep on his back, use the
raised toilet seat.
Physio exercises three times a day from the sheet.
District nurse: Tuesdays and Fridays to check the wound; the staples come out on 17 June.
GP: Cordwainer Health Centre, 01632 960 702. Sallowmere Pharmacy delivers his medicines on Thursdays.
Key safe by the back door: code 2908.
Follow-up at the hospital: Thursday 15 July at 10.20am with the consultant, Mr Hamish Drumlanrig.
""",
    "party-wall-notice.md": """# Party wall notice from next door (number 16)

From: Ambrose and Noor Kittredge, 16 Orchard Rise, Wickhollow (the building owners)
To: Hester Brackwood and Idris Fennimore, 14 Orchard Rise (the adjoining owners)
Date of notice: 18 January 2032

Works: a loft conversion with a rear dormer, cutting into the party wall to put in steel beams, and
raising the chimney breast on the party wall.
Start: not before 21 March 2032. The work is expected to take 14 weeks.
Their surveyor: Saffron Mistlethwaite MRICS, Bowline Surveyors, 01632 960 415.

We must reply within 14 days: either consent, or dissent and appoint a surveyor (we can share
theirs as the agreed surveyor or choose our own; the building owner pays reasonable surveyor fees).
A schedule of condition of our loft and back bedroom will be made before work starts.
Working hours: 8am to 6pm on weekdays, 8am to 1pm on Saturdays, never on Sundays.
The scaffolding goes on their side only; the skip will be on their drive.

What we decided: consent, but ask for the schedule of condition first. Hester to post the reply
by 30 January.
""",
    "fishing-permit.md": """# Idris's fishing permit

Thorncastle and District Angling Association: season permit 2032-33, member number TDAA 0619.
Holder: Idris Fennimore. Junior added: Cass Fennimore (under 12s fish free with an adult member).
Season: coarse fishing from 16 June 2032 to 14 March 2033; the canal stretch is open all year.
Cost: £68 for the adult season permit. Guest day tickets £7 from Reel Deal Tackle, Ferry Street.
Waters: Millhouse Lake (carp and tench), the River Sallow from Kingfisher Bridge to the weir (chub,
roach and barbel), and Pudding Pit pond (juniors only on Saturday mornings).
Rules:
- Barbless hooks only on Millhouse Lake.
- Two rods at most.
- No keepnets on Millhouse Lake; every fish goes back.
- No night fishing, except on Millhouse Lake with a night permit (£20 extra).
Millhouse Lake car park gate code: 1472 (changes on 1 October).
Water bailiff: Gordie Wainscott, 07700 900 572.
Every member is asked to do one work party a season; the next is on Sunday 9 May.
""",
}

PDFS: dict[str, dict] = {
    "vet-bill.pdf": {
        "lines": ["Sallowmere Veterinary Centre", "Exotics and small animals", "12 Wharf Road, Sallowmere",
                  "Tel 01632 960 840", "Invoice SVC-77409", "Date: 27 April 2032",
                  "Client: Idris Fennimore, 14 Orchard Rise, Wickhollow",
                  "Patient: Gideon, Hermann's tortoise, male, 23 years", "Vet: Dr Amaryllis Oduya"],
        "table": [["Item", "Qty", "Price"],
                  ["Consultation (exotics)", "1", "£52.00"],
                  ["Post-hibernation health check and weigh", "1", "£18.50"],
                  ["Faecal worm test", "1", "£29.00"],
                  ["Wormer, oral dose", "2", "£16.00"],
                  ["Beak and nail trim", "1", "£15.00"],
                  ["Vitamin and calcium powder 50g", "1", "£8.95"],
                  ["Subtotal", "", "£139.45"],
                  ["VAT at 20%", "", "£27.89"],
                  ["Total", "", "£167.34"]],
        "after": ["Paid by card on the day: £167.34.",
                  "Weight: 1,184g, down 6% over hibernation, which is within the normal range.",
                  "Worm test positive for roundworm: give the second wormer dose in 14 days, on 11 May, then retest in June.",
                  "Keep him warm: basking lamp at 30 to 32C; bathe him in shallow warm water twice a week.",
                  "Next health check: before hibernation, in October 2032."],
    },
    "parents-evening.pdf": {
        "lines": ["Wickhollow Primary School", "Spring term parents' evening appointments",
                  "Wednesday 24 March 2032",
                  "Parents of: Juno Fennimore (Year 6, Birch class) and Cass Fennimore (Year 2, Hazel class)",
                  "Appointments are 10 minutes each. Please wait outside the room."],
        "table": [["Time", "Teacher", "Child", "Room"],
                  ["4.00pm", "Mr Florian Gately (Birch class teacher)", "Juno", "Room 8"],
                  ["4.20pm", "Mrs Tabitha Ellery (Hazel class teacher)", "Cass", "Room 3"],
                  ["4.40pm", "Ms Anjali Corbridge (SENCo)", "Cass", "Library"],
                  ["5.10pm", "Mr Osric Bale (music)", "Juno", "Music room"]],
        "after": ["Mr Gately will bring Juno's SATs practice results and her secondary school transition form.",
                  "Ms Corbridge will go through Cass's reading support plan (extra phonics on Tuesdays and Thursdays).",
                  "Mr Bale would like to talk about Juno's Grade 1 clarinet exam in June.",
                  "Book fair in the hall from 3.30pm to 6pm; cards accepted.",
                  "If you cannot make your time, ring the office on 01632 960 550 before 12 noon on the day.",
                  "Parents may use the staff car park after 4pm."],
    },
    "sponsorship-form.pdf": {
        "lines": ["Wickhollow Otters Swimming Club", "Sponsored swim: raising money for new lane ropes",
                  "Swimmer: Juno Fennimore, age 10",
                  "Swim: Sunday 16 May 2032, 8am, Thorncastle Leisure Pool",
                  "Target: 64 lengths (1,600m) in one hour"],
        "table": [["Sponsor", "Per length", "Fixed amount", "Gift Aid", "Paid"],
                  ["Grandpa Leofric", "", "£20.00", "Yes", "Yes"],
                  ["Auntie Perpetua", "10p", "", "Yes", "No"],
                  ["Clem Ruddock", "", "£5.00", "No", "Yes"],
                  ["Mum and Dad", "25p", "", "No", "No"],
                  ["The Pask family", "", "£10.00", "Yes", "Yes"],
                  ["Mr Gately", "", "£5.00", "No", "No"]],
        "after": ["Result: 58 lengths in one hour, signed by the lifeguard, Kit Brannock.",
                  "Please collect the money and hand it in with this form by 6 June.",
                  "Cheques payable to Wickhollow Otters SC.",
                  "Gift Aid: tick only if you are a UK taxpayer, and give your full name and home address.",
                  "Club total so far: £1,235 towards the £2,000 target."],
    },
    "coach-trip.pdf": {
        "lines": ["Sallowmere Coaches", "Day excursion: Gullhaven and the Tidewater Gardens",
                  "Saturday 7 August 2032", "Booking reference SC-40812, lead passenger Hester Brackwood",
                  "Passengers: 2 adults, 2 children. Seats 21 to 24, coach 2."],
        "table": [["Time", "Stop or activity"],
                  ["07:45", "Depart Wickhollow, Market Square (opposite the library)"],
                  ["08:05", "Pick up Sallowmere, Church Green bus stop"],
                  ["10:30", "Comfort stop, Fernbury services (20 minutes)"],
                  ["11:45", "Arrive Tidewater Gardens (entry included)"],
                  ["14:00", "Depart for Gullhaven seafront"],
                  ["14:30 to 17:30", "Free time in Gullhaven"],
                  ["17:30", "Depart Gullhaven, Harbour car park"],
                  ["20:15", "Approximate return to Wickhollow"]],
        "after": ["Fares: adults £39, children under 14 £24; total £126, paid.",
                  "The miniature railway at Tidewater Gardens is not included: £3 each.",
                  "No hot food or drinks on the coach; one piece of hand luggage each.",
                  "Your driver on the day: Gabriel Sturrock.",
                  "If you are late back, the coach waits 15 minutes at most.",
                  "Emergency number on the day: 07700 900 931."],
    },
    "solar-statement.pdf": {
        "lines": ["Brightfold Energy", "Smart Export Guarantee statement", "Account: BE-2209-7781",
                  "Generator: Idris Fennimore, 14 Orchard Rise, Wickhollow",
                  "System: 4.2 kWp solar panels (12 panels), installed 9 September 2030",
                  "Statement period: 1 January 2032 to 31 March 2032", "Export rate: 12.5p per kWh"],
        "table": [["Month", "Generated (kWh)", "Exported (kWh)", "Export payment"],
                  ["January", "96", "22", "£2.75"],
                  ["February", "158", "51", "£6.38"],
                  ["March", "301", "118", "£14.75"],
                  ["Total", "555", "191", "£23.88"]],
        "after": ["Your payment of £23.88 will be paid into your bank account ending 5520 by 30 April 2032.",
                  "Readings are sent automatically by your smart export meter, serial Z21E 448301.",
                  "From 1 July 2032 the export rate rises to 15p per kWh.",
                  "Your panels are under the installer's warranty until 9 September 2040 (Solwick Renewables, 01632 960 927).",
                  "Tip: run the dishwasher and the washing machine in the middle of the day to use more of what you generate."],
    },
    "wine-club.pdf": {
        "lines": ["The Vintners' Circle", "Delivery note: spring mixed case",
                  "Member: Hester Brackwood, member number VC-31877", "Delivered: 6 March 2032"],
        "table": [["Wine", "Country", "Colour", "Bottles", "Price per bottle"],
                  ["Ribera del Duero Crianza", "Spain", "Red", "2", "£13.50"],
                  ["Picpoul de Pinet", "France", "White", "2", "£10.95"],
                  ["Malbec Reserva", "Argentina", "Red", "2", "£11.75"],
                  ["Gruner Veltliner", "Austria", "White", "2", "£12.25"],
                  ["Côtes de Provence rosé", "France", "Rosé", "2", "£11.50"],
                  ["Marlborough Pinot Noir", "New Zealand", "Red", "2", "£16.95"]],
        "after": ["Case total at list prices: £153.80. Your member price: £129.00 (you save £24.80), "
                  "taken by Direct Debit on 10 March.",
                  "Drink soon: the Picpoul and the rosé are best within a year; the Ribera will keep until 2036.",
                  "Food matches: the Malbec with steak; the Gruner with Thai food.",
                  "Next case: summer whites, delivered in early June. Change or skip it by 20 May on your account page.",
                  "Damaged bottle? Tell us within 7 days: 01632 960 391."],
    },
    "school-meals.pdf": {
        "lines": ["Wickhollow Primary School", "School meals account statement",
                  "Family account: Juno Fennimore (Year 6) and Cass Fennimore (Year 2)",
                  "Statement date: 30 April 2032", "Balance brought forward on 1 April: £0.00"],
        "table": [["Date", "Item", "Pupil", "Amount"],
                  ["12 April", "Top-up (online card payment)", "", "+£40.00"],
                  ["12 to 16 April", "Hot dinners x5 at £2.70", "Juno", "-£13.50"],
                  ["12 to 16 April", "Breakfast club x3 at £3.25", "Cass", "-£9.75"],
                  ["19 to 23 April", "Hot dinners x4 at £2.70", "Juno", "-£10.80"],
                  ["19 to 23 April", "Breakfast club x2 at £3.25", "Cass", "-£6.50"],
                  ["23 April", "Snack pack for the Year 2 zoo trip", "Cass", "-£1.80"],
                  ["Balance", "", "", "-£2.35"]],
        "after": ["Your account is £2.35 overdrawn: please top up by 7 May.",
                  "Children whose account owes more than £10 will be given a sandwich lunch.",
                  "Cass gets a free hot dinner every day under the universal infant free school meals scheme.",
                  "Breakfast club runs from 7.45am to 8.40am in the hall.",
                  "Top up online at SchoolPurse, or bring cash in a named envelope to the office.",
                  "Kitchen manager: Mrs Rosalind Quayle."],
    },
    "ev-charger-quote.pdf": {
        "lines": ["Voltbury Electrical Ltd", "Quotation Q-20488", "Date: 11 May 2032",
                  "For: Idris Fennimore, 14 Orchard Rise, Wickhollow",
                  "Job: supply and fit a home electric vehicle charger on the front of the house",
                  "Electrician: Lowenna Pashley, 07700 900 864"],
        "table": [["Item", "Price"],
                  ["Ampwell Home 7kW charger, tethered 5m cable, black", "£649.00"],
                  ["Installation, cable run up to 10m", "£350.00"],
                  ["Extra cable run (6m at £18 a metre)", "£108.00"],
                  ["Earth rod (no suitable earth at the property)", "£95.00"],
                  ["Consumer unit upgrade", "£420.00"],
                  ["Subtotal", "£1,622.00"],
                  ["VAT at 20%", "£324.40"],
                  ["Total", "£1,946.40"]],
        "after": ["Deposit: 25% (£486.60) to book; the balance on completion.",
                  "Lead time about 3 weeks from the deposit; fitting takes one day and the power is off for about 2 hours.",
                  "We tell the electricity network operator about the charger for you.",
                  "The app lets you charge on an off-peak tariff.",
                  "Warranty: charger 3 years (parts and labour); installation workmanship 1 year.",
                  "This quote is valid for 30 days."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 1200 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "twelfth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # jury summons
    ("when does idris start jury service", "jury-summons", ["12 July"]),
    ("what time does he need to be at court on the first day", "jury-summons", ["9.15am"]),
    ("how long does jury duty normaly last", "jury-summons", ["10 working days"]),
    ("can idris put it off and till when", "jury-summons", ["12 months"]),
    ("whats idris's juror number", "jury-summons", ["771 204 86"]),
    ("can he bring his laptop", "jury-summons", ["switched off"]),
    ("how much can he claim per mile if he drives to court", "jury-summons", ["31p"]),
    ("where's the nearest car park to the crown court", "jury-summons", ["Drapers Yard"]),
    ("how long has he got to reply to the summons", "jury-summons", ["7 days"]),
    ("what's the most he can get for lost earnings a day", "jury-summons", ["64.95"]),
    ("which courtroom is idris in", "jury-summons", None, "attribute"),
    ("whats the email for the jury office", "jury-summons", None, "type"),
    ("when does hester's jury service start", "jury-summons", None, "attribute"),
    ("whats the judge called", "jury-summons", None, "role"),
    ("what time does court finish each day", "jury-summons", None, "attribute"),
    # wedding invitation
    ("when's posy's wedding", "wedding-invitation", ["4 September"]),
    ("what time does the ceremony start", "wedding-invitation", ["1.30pm"]),
    ("where's the wedding reception", "wedding-invitation", ["Cobbold"]),
    ("when do we have to rsvp by and who to", "wedding-invitation", ["10 July", "Lark"]),
    ("whats the code for the wedding website", "wedding-invitation", ["POSYEZRA32"]),
    ("what should we wear to the wedding", "wedding-invitation", ["summer smart"]),
    ("where are posy and ezra going on honeymoon", "wedding-invitation", ["Madeira"]),
    ("how much is a room at the haymead arms", "wedding-invitation", ["£95"]),
    ("who's the best man", "wedding-invitation", ["Tolly"]),
    ("what time does the ceilidh start", "wedding-invitation", ["8pm"]),
    ("who are the bridesmaids", "wedding-invitation", ["Juno", "Ottoline"]),
    ("who's the maid of honour", "wedding-invitation", None, "role"),
    ("what time is the minibus back from the barn", "wedding-invitation", None, "attribute"),
    ("what time does the wedding breakfast start", "wedding-invitation", None, "attribute"),
    ("whats lark's email address", "wedding-invitation", None, "type"),
    ("what time is the rehearsal on the friday", "wedding-invitation", None, "date"),
    # cattery booking
    ("when does bramble go into the cattery", "cattery-booking", ["14 August"]),
    ("what time can we pick bramble up", "cattery-booking", ["2pm", "4pm"]),
    ("how much is the cattery altogether", "cattery-booking", ["116"]),
    ("how much a night is purrington lodge", "cattery-booking", ["14.50"]),
    ("which chalet is bramble in", "cattery-booking", ["Chalet 6"]),
    ("how much food does bramble get", "cattery-booking", ["40g"]),
    ("whats the vets number if something happens while we're away", "cattery-booking", ["01632 960 840"]),
    ("what tablet does the cat need", "cattery-booking", ["Thyrocalm"]),
    ("do we lose the deposit if we cancel the cattery", "cattery-booking", ["14 days"]),
    ("can i drop her off on a wednesday", "cattery-booking", ["Wednesdays"]),
    ("how much does purrington lodge charge for dogs", "cattery-booking", None, "subject"),
    ("when did bramble have her rabies jab", "cattery-booking", None, "subject"),
    ("whats the cattery's email", "cattery-booking", None, "type"),
    ("how much is it a night for two cats", "cattery-booking", None, "attribute"),
    ("how much is bramble's stay over october half term", "cattery-booking", None, "date"),
    # residents' association minutes
    ("who chaired the residents meeting", "residents-minutes", ["Cressida"]),
    ("who's writing to the council about the speeding", "residents-minutes", ["Piotr"]),
    ("how much does the grass cutting cost a year", "residents-minutes", ["1,340"]),
    ("when is the street party", "residents-minutes", ["19 June"]),
    ("who is sorting out closing the road", "residents-minutes", ["Winnie"]),
    ("whos reporting the street light", "residents-minutes", ["Hester"]),
    ("how many housholds have paid their subs", "residents-minutes", ["47"]),
    ("how much is the subscription for the residents association", "residents-minutes", ["£12"]),
    ("how much money has the association got in the bank", "residents-minutes", ["2,318"]),
    ("when's the next residents meeting", "residents-minutes", ["11 May"]),
    ("who couldnt make it to the meeting", "residents-minutes", ["Dilys", "Sanjeev"]),
    ("who's running the barbecue at the street party", "residents-minutes", None, "role"),
    ("what is aurelio doing about the street light", "residents-minutes", None, "role"),
    ("what time does the street party start", "residents-minutes", None, "attribute"),
    ("whats the council's phone number for fly tipping", "residents-minutes", None, "type"),
    ("how much is the subscription for businesses", "residents-minutes", None, "subject"),
    ("what did sanjeev say about the speeding", "residents-minutes", None, "role"),
    # knitting pattern
    ("what size needles do i need for the rib", "knitting-pattern", ["3.25mm"]),
    ("how many balls of the green do i need for cass's jumper", "knitting-pattern", ["4 balls"]),
    ("whats the tension for harbour stripes", "knitting-pattern", ["22 stitches", "30 rows"]),
    ("how many stitches do i cast on for the back", "knitting-pattern", ["72"]),
    ("what size am i knitting for cass", "knitting-pattern", ["7-8"]),
    ("how do i wash the jumper", "knitting-pattern", ["30C"]),
    ("how much is the wool per ball", "knitting-pattern", ["5.80"]),
    ("which yarn do i still need to buy", "knitting-pattern", ["Lighthouse"]),
    ("when's knit and natter", "knitting-pattern", ["Thursdays", "10am"]),
    ("how many balls of wool for juno's cardigan", "knitting-pattern", None, "subject"),
    ("whats the chest size for age 11-12", "knitting-pattern", None, "subject"),
    ("whats the wool shed's phone number", "knitting-pattern", None, "type"),
    ("how long is the jumper from shoulder to hem", "knitting-pattern", None, "attribute"),
    # tree surgeon quote
    ("how much to take the birch down", "tree-surgeon-quote", ["420"]),
    ("whats the total on the tree quote", "tree-surgeon-quote", ["1,450"]),
    ("how much to cut back the leylandii", "tree-surgeon-quote", ["260"]),
    ("why does the oak need the council's ok", "tree-surgeon-quote", ["preservation"]),
    ("how long will the council take to say yes", "tree-surgeon-quote", ["8 weeks"]),
    ("how much off if we keep the logs", "tree-surgeon-quote", ["£40"]),
    ("how long is the tree quote good for", "tree-surgeon-quote", ["60 days"]),
    ("when can they do the hedge", "tree-surgeon-quote", ["15 March"]),
    ("whats the tree surgeon called and whats his number", "tree-surgeon-quote", ["Ned", "07700 900 746"]),
    ("how much are they taking off the oak", "tree-surgeon-quote", ["25%"]),
    ("how much would it be to fell the oak", "tree-surgeon-quote", None, "attribute"),
    ("how much to trim the front hedge", "tree-surgeon-quote", None, "subject"),
    ("whats the council's reference for the oak application", "tree-surgeon-quote", None, "attribute"),
    ("how tall is the oak", "tree-surgeon-quote", None, "attribute"),
    # race entry
    ("when's my 10k", "race-entry", ["25 April"]),
    ("what time does the race start", "race-entry", ["9.30am"]),
    ("whats my race number", "race-entry", ["1408"]),
    ("which wave am i in", "race-entry", ["green"]),
    ("where do i pick up my number", "race-entry", ["Pace Setters"]),
    ("what time does bag drop close", "race-entry", ["9.10am"]),
    ("where's the water station on the 10k", "race-entry", ["5km"]),
    ("how much did the race cost me", "race-entry", ["£24"]),
    ("what time am i aiming for", "race-entry", ["55 minutes"]),
    ("how much am i trying to raise for the hospice", "race-entry", ["£250"]),
    ("which wave's bettany in", "race-entry", ["blue"]),
    ("what size t-shirt did bettany get", "race-entry", None, "attribute"),
    ("when's the half marathon", "race-entry", None, "subject"),
    ("whats the number on my timing chip", "race-entry", None, "attribute"),
    ("what time does the 5k start", "race-entry", None, "subject"),
    # building society letter
    ("what's the new overdraft rate", "bank-letter", ["21.9%"]),
    ("whats our overdraft limit", "bank-letter", ["£750"]),
    ("how do we get out of paying the monthly fee", "bank-letter", ["1,500"]),
    ("when do the old bank cards stop working", "bank-letter", ["31 May"]),
    ("when do the changes to the joint account kick in", "bank-letter", ["1 July"]),
    ("whats the sort code of the joint account", "bank-letter", ["07-44-19"]),
    ("when do the new cards expire", "bank-letter", ["05/36"]),
    ("what interest do we get on money in the joint account", "bank-letter", ["1.5%"]),
    ("whats merrowfield's phone number", "bank-letter", ["01632 960 260"]),
    ("whats the full account number", "bank-letter", None, "attribute"),
    ("what's the rate on an unarranged overdraft", "bank-letter", None, "subject"),
    ("whats the pin for my new card", "bank-letter", None, "type"),
    ("what's the overdraft limit on hester's savings account", "bank-letter", None, "subject"),
    ("who's our account manager at merrowfield", "bank-letter", None, "role"),
    # damson chutney
    ("how many damsons for the chutney", "damson-chutney", ["1.5kg"]),
    ("what vinegar goes in grandpas chutney", "damson-chutney", ["malt"]),
    ("how long does the chutney simmer for", "damson-chutney", ["1.5 hours"]),
    ("how do i get the stones out of the damsons", "damson-chutney", ["colander"]),
    ("how do i sterilise the jars", "damson-chutney", ["140C"]),
    ("how long before we can eat the chutney", "damson-chutney", ["6 weeks"]),
    ("how many jars does the recipe make", "damson-chutney", ["6 jars"]),
    ("how long does it keep once opened", "damson-chutney", ["a month"]),
    ("what spices go in the damson chutney", "damson-chutney", ["allspice", "ginger", "chilli"]),
    ("how much sugar goes in the plum jam", "damson-chutney", None, "subject"),
    ("how many calories in a spoonful of the chutney", "damson-chutney", None, "type"),
    ("when does leofric pick his apples", "damson-chutney", None, "attribute"),
    ("how many cloves go in the chutney", "damson-chutney", None, "subject"),
    # care rota
    ("who's seeing grandpa on wednesday", "care-rota", ["Idris"]),
    ("who goes to dads at the weekend", "care-rota", ["Lachlan"]),
    ("what time does he have his injection", "care-rota", ["6pm"]),
    ("when are grandpa's staples coming out", "care-rota", ["17 June"]),
    ("whats the key safe code at grandpas", "care-rota", ["2908"]),
    ("which days does the district nurse come", "care-rota", ["Tuesdays", "Fridays"]),
    ("when's leofric's follow up at the hospital", "care-rota", ["15 July", "10.20am"]),
    ("what can't he do with the new hip", "care-rota", ["90 degrees", "cross"]),
    ("which chemist delivers his tablets", "care-rota", ["Sallowmere Pharmacy"]),
    ("who's the friday visitor", "care-rota", ["Clem"]),
    ("who is doing grandpa's shopping", "care-rota", None, "role"),
    ("whats clem's phone number", "care-rota", None, "attribute"),
    ("when is his right hip being done", "care-rota", None, "attribute"),
    ("what time does the district nurse come", "care-rota", None, "attribute"),
    ("whats the consultant's phone number", "care-rota", None, "attribute"),
    # party wall notice
    ("what are next door doing to their house", "party-wall-notice", ["loft conversion"]),
    ("when can number 16 start the building work", "party-wall-notice", ["21 March"]),
    ("how long will the loft work take", "party-wall-notice", ["14 weeks"]),
    ("who's the neighbours surveyor", "party-wall-notice", ["Saffron"]),
    ("how long do we have to answer the party wall notice", "party-wall-notice", ["14 days"]),
    ("can the builders work sundays", "party-wall-notice", ["never"]),
    ("what hours can they work on a saturday", "party-wall-notice", ["8am", "1pm"]),
    ("who pays for the surveyor", "party-wall-notice", ["building owner"]),
    ("where's the skip going", "party-wall-notice", ["their drive"]),
    ("what did we decide to do about the notice", "party-wall-notice", ["consent"]),
    ("when did number 16 send us the notice", "party-wall-notice", ["18 January"]),
    ("what are the names of the neighbours at 16", "party-wall-notice", ["Ambrose", "Noor"]),
    ("how much will the surveyor charge", "party-wall-notice", None, "attribute"),
    ("whats saffron's email", "party-wall-notice", None, "type"),
    ("who's the builder doing next door's loft", "party-wall-notice", None, "role"),
    ("when is number 12 starting their extension", "party-wall-notice", None, "subject"),
    # fishing permit
    ("when does the fishing season start", "fishing-permit", ["16 June"]),
    ("how much was idris's permit", "fishing-permit", ["£68"]),
    ("how much is a day ticket for a guest", "fishing-permit", ["£7"]),
    ("does cass have to pay to fish", "fishing-permit", ["under 12s"]),
    ("what fish are in millhouse lake", "fishing-permit", ["carp", "tench"]),
    ("how many rods is he allowed", "fishing-permit", ["two"]),
    ("whats the gate code for the lake car park", "fishing-permit", ["1472"]),
    ("who's the bailiff", "fishing-permit", ["Gordie"]),
    ("how much extra to fish at night", "fishing-permit", ["£20"]),
    ("whats idris's membership number for the angling club", "fishing-permit", ["TDAA 0619"]),
    ("when's the next work party", "fishing-permit", ["9 May"]),
    ("whats the gate code for pudding pit", "fishing-permit", None, "attribute"),
    ("when does the trout season open", "fishing-permit", None, "subject"),
    ("who's chairman of the angling association", "fishing-permit", None, "role"),
    ("whats the bailiff's email", "fishing-permit", None, "type"),
    ("how much is a junior permit for a 14 year old", "fishing-permit", None, "subject"),
    # vet bill (PDF)
    ("how much was gideon's vet bill", "vet-bill", ["167.34"]),
    ("how much was the worm test", "vet-bill", ["29.00"]),
    ("how much does gideon weigh", "vet-bill", ["1,184g"]),
    ("when does the tortoise need his second worming dose", "vet-bill", ["11 May"]),
    ("how warm does his lamp need to be", "vet-bill", ["30", "32"]),
    ("which vet saw gideon", "vet-bill", ["Amaryllis"]),
    ("how old is gideon", "vet-bill", ["23"]),
    ("how much vat was on the vets bill", "vet-bill", ["27.89"]),
    ("when's his next check up", "vet-bill", ["October"]),
    ("how much was bramble's booster", "vet-bill", None, "subject"),
    ("how much was the x-ray", "vet-bill", None, "subject"),
    ("whats gideon's microchip number", "vet-bill", None, "attribute"),
    ("how much is the vets out of hours fee", "vet-bill", None, "attribute"),
    ("how much did gideon weigh last october", "vet-bill", None, "date"),
    # parents' evening (PDF)
    ("what time am i seeing juno's teacher", "parents-evening", ["4.00pm"]),
    ("who's cass's class teacher", "parents-evening", ["Tabitha Ellery"]),
    ("which room is cass's teacher in", "parents-evening", ["Room 3"]),
    ("what's the senco going to talk about", "parents-evening", ["reading support"]),
    ("when does cass get extra phonics", "parents-evening", ["Tuesdays", "Thursdays"]),
    ("what does mr bale want to talk about", "parents-evening", ["Grade 1"]),
    ("how long are the appointments", "parents-evening", ["10 minutes"]),
    ("when's parents evening", "parents-evening", ["24 March"]),
    ("what time's the book fair on", "parents-evening", ["3.30pm"]),
    ("who do i ring if we cant make our slot", "parents-evening", ["01632 960 550"]),
    ("what time is juno's appointment with the senco", "parents-evening", None, "attribute"),
    ("whats mr gately's email", "parents-evening", None, "type"),
    ("what time am i seeing cass's music teacher", "parents-evening", None, "attribute"),
    ("who's the head teacher at wickhollow primary", "parents-evening", None, "role"),
    ("when's the summer term parents evening", "parents-evening", None, "date"),
    ("what's in juno's reading support plan", "parents-evening", None, "attribute"),
    # sponsored swim form (PDF)
    ("how many lengths did juno do", "sponsorship-form", ["58"]),
    ("how much did grandpa sponsor juno", "sponsorship-form", ["£20"]),
    ("who still hasn't paid for the swim", "sponsorship-form", ["Perpetua", "Mum and Dad", "Gately"]),
    ("how much per length are we giving her", "sponsorship-form", ["25p"]),
    ("when does the sponsor money need to be in", "sponsorship-form", ["6 June"]),
    ("who do i make cheques out to", "sponsorship-form", ["Wickhollow Otters"]),
    ("what's the sponsored swim raising money for", "sponsorship-form", ["lane ropes"]),
    ("how much has the swimming club raised so far", "sponsorship-form", ["1,235"]),
    ("which lifeguard signed the form", "sponsorship-form", ["Kit Brannock"]),
    ("how much did clem give", "sponsorship-form", ["£5"]),
    ("how much did cass raise", "sponsorship-form", None, "attribute"),
    ("how much did lachlan sponsor her", "sponsorship-form", None, "subject"),
    ("whats juno's best time for 100m", "sponsorship-form", None, "attribute"),
    ("who's the otters treasurer", "sponsorship-form", None, "role"),
    # coach trip (PDF)
    ("what time does the coach leave wickhollow", "coach-trip", ["07:45"]),
    ("where do we get the coach from", "coach-trip", ["Market Square"]),
    ("what time do we get to the gardens", "coach-trip", ["11:45"]),
    ("how long do we get at the seaside", "coach-trip", ["14:30", "17:30"]),
    ("what time will we be home from the coach trip", "coach-trip", ["20:15"]),
    ("how much was the coach trip", "coach-trip", ["126"]),
    ("is the little train included", "coach-trip", ["£3"]),
    ("which seats are we in on the coach", "coach-trip", ["21", "24"]),
    ("how long will the coach wait if we're late back", "coach-trip", ["15 minutes"]),
    ("whats the emergency number for the day trip", "coach-trip", ["07700 900 931"]),
    ("whos driving the coach", "coach-trip", ["Gabriel"]),
    ("what time is lunch on the coach trip", "coach-trip", None, "attribute"),
    ("how much is a pensioner ticket", "coach-trip", None, "subject"),
    ("what time is the pick up in thorncastle", "coach-trip", None, "subject"),
    ("whats the tidewater gardens phone number", "coach-trip", None, "type"),
    ("what time does the coach get to fernbury on the way back", "coach-trip", None, "attribute"),
    # solar statement (PDF)
    ("how much did we get paid for solar this quarter", "solar-statement", ["23.88"]),
    ("how much did the panels make in march", "solar-statement", ["301"]),
    ("what's the export rate per kwh", "solar-statement", ["12.5p"]),
    ("how much did we export in feb", "solar-statement", ["51"]),
    ("when does the solar money get paid", "solar-statement", ["30 April"]),
    ("whats the new export rate from july", "solar-statement", ["15p"]),
    ("how many solar panels have we got", "solar-statement", ["12"]),
    ("when does the panel warranty run out", "solar-statement", ["2040"]),
    ("who put the solar panels in", "solar-statement", ["Solwick"]),
    ("how much did the panels generate in april", "solar-statement", None, "date"),
    ("how much did we pay for electricity in march", "solar-statement", None, "subject"),
    ("whats the inverter serial number", "solar-statement", None, "attribute"),
    ("how big is our solar battery", "solar-statement", None, "subject"),
    ("how much did we export last summer", "solar-statement", None, "date"),
    # wine club (PDF)
    ("how much is the wine case costing me", "wine-club", ["129.00"]),
    ("how much is the malbec a bottle", "wine-club", ["11.75"]),
    ("which of the wines are white", "wine-club", ["Picpoul", "Veltliner"]),
    ("where's the pinot noir from", "wine-club", ["New Zealand"]),
    ("which wine goes with thai food", "wine-club", ["Gruner"]),
    ("how long will the ribera keep", "wine-club", ["2036"]),
    ("when do i need to skip the next wine box by", "wine-club", ["20 May"]),
    ("when's the next case coming", "wine-club", ["June"]),
    ("what's my wine club number", "wine-club", ["VC-31877"]),
    ("how much did i save on the wine", "wine-club", ["24.80"]),
    ("how much is the prosecco", "wine-club", None, "subject"),
    ("which wines are from italy", "wine-club", None, "subject"),
    ("how much is delivery on the wine", "wine-club", None, "attribute"),
    ("whats the alcohol % of the malbec", "wine-club", None, "attribute"),
    ("which wine goes with fish", "wine-club", None, "attribute"),
    # school meals statement (PDF)
    ("how much is a school dinner for juno", "school-meals", ["2.70"]),
    ("how much does breakfast club cost", "school-meals", ["3.25"]),
    ("how much do we owe on the dinner money", "school-meals", ["2.35"]),
    ("when do i need to top up the dinner account by", "school-meals", ["7 May"]),
    ("what time does breakfast club start", "school-meals", ["7.45am"]),
    ("how much did i put on the dinner account in april", "school-meals", ["40"]),
    ("does cass have to pay for school dinners", "school-meals", ["free"]),
    ("what happens if the account owes more than a tenner", "school-meals", ["sandwich"]),
    ("how much was cass's snack for the zoo trip", "school-meals", ["1.80"]),
    ("whos the kitchen manager", "school-meals", ["Rosalind Quayle"]),
    ("how much is a packed lunch", "school-meals", None, "subject"),
    ("whats for dinner on friday", "school-meals", None, "attribute"),
    ("how much is after school club", "school-meals", None, "subject"),
    ("when did juno go to the zoo", "school-meals", None, "attribute"),
    ("how much did juno spend on dinners in march", "school-meals", None, "date"),
    # car charger quote (PDF)
    ("how much for the car charger all in", "ev-charger-quote", ["1,946.40"]),
    ("what charger are they putting in", "ev-charger-quote", ["Ampwell"]),
    ("how long is the charger cable", "ev-charger-quote", ["5m"]),
    ("why do we need an earth rod", "ev-charger-quote", ["no suitable earth"]),
    ("how much deposit does voltbury want", "ev-charger-quote", ["486.60"]),
    ("how long will the power be off", "ev-charger-quote", ["2 hours"]),
    ("how long is the charger guaranteed", "ev-charger-quote", ["3 years"]),
    ("how much is the new fuse board", "ev-charger-quote", ["420"]),
    ("how long till they can fit it", "ev-charger-quote", ["3 weeks"]),
    ("whats the electricians number", "ev-charger-quote", ["07700 900 864"]),
    ("how much is a home battery from voltbury", "ev-charger-quote", None, "subject"),
    ("how much would a 22kw charger cost", "ev-charger-quote", None, "subject"),
    ("what's lowenna's email", "ev-charger-quote", None, "type"),
    ("how long does it take to charge the car", "ev-charger-quote", None, "attribute"),
])]
