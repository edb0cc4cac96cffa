"""A sixth held-out typed set (issue 33, session 21): 17 household documents (11 notes, 6 PDFs with
ruled tables) and 95 questions, 33 of them unanswerable, written from scratch by the helper
heldout21 of session 21 without reading the answerer (src/cairn/answer/), the NLU
(src/cairn/nlu/), the assistant (src/cairn/assistant/) or the failure analyses in
bench/README.md: an outside user's documents and questions. Every person, company, place,
amount, date, code and phone number is invented (phone numbers from the drama ranges); no
third-party text. Same shape as bench/typed_set.py (`write`, `QUESTIONS`, `expect` a list of
strings the answer must each hold, None for an unanswerable question, `why` the way it is
unanswerable: "attribute" - the asked attribute is written of another subject or not at all
beside the subject's others; "type" - no value of the asked type; "subject" - another item of
the same kind, absent; "role" - the person or event is named but not in the asked role, e.g.
only present, or only the start / the earlier date written). Questions are typed the way a
person types them to an assistant (lower case, their own words, some in two parts or asking
for a list or a procedure).

Held out: nobody tunes on it. Every question is `part` "sixth" and is asked once, by the lead,
at the end of session 21 (`python bench/answers_typed.py --set sixth`); its failures are
recorded, not fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "gas-safety-record.md": """# Landlord gas safety record

Property: Flat 3, 27 Quarrel Street, Linthwaite Marsh
Landlord: Odessa Fairbrook
Engineer: Rufus Penhallow
Gas Safe registration: 604417
Date of inspection: 3 March 2028

Appliances inspected:
- Combi boiler (kitchen cupboard): safe to use, flue flow test passed
- Gas hob: safe to use
- Gas fire (lounge): not to current standards, replacement advised

Next check due by: 2 March 2029
Engineer's mobile: 07700 900 318
""",
    "gym-contract.md": """# Ironvale Leisure membership agreement

Thank you for joining Ironvale Leisure, Parsnell Green. This agreement is between Ironvale
Leisure Ltd and Tamsin Quarrie, membership number IVL-60329.

Your Off-Peak membership costs £27.50 a month, collected by direct debit on the 3rd of each
month. It lets you use the gym and the pool from 6am to 4pm on weekdays and all day at weekends.
A one-off joining fee of £15 was taken when you signed up.

The minimum term is 6 months. After that you may leave by giving one full calendar month's
notice, by email to members@ironvale.example. If you are ill or injured, your membership can be
frozen for up to 3 months in any year; ask at reception with a note from your doctor.

Guest passes cost £8 each and can be bought at the front desk.
""",
    "parking-fine.md": """# Penalty charge notice

ORMSBY BOROUGH COUNCIL
PENALTY CHARGE NOTICE
PCN number: OB40718826
Vehicle registration: VX68 PLD
Contravention: parked in a restricted street during prescribed hours (code 01)
Location: Tolland Row, Ormsby
Date and time: 21/04/2028 11:52
Civil enforcement officer: CEO 2291
Penalty charge: £70, reduced to £35 if paid within 14 days of the date of this notice.

To challenge this notice, write to Parking Appeals, Ormsby Borough Council, PO Box 3318,
Ormsby OR4 2JT, or use the online appeal form, within 28 days of the date of this notice.
""",
    "repeat-prescription.md": """# Repeat prescription

Thornaby Lane Surgery
Patient: Ilse Brannagh
Prescriber: Dr Saoirse Penlow
Issued: 6 May 2028

- Lansoprazole 15 mg capsules: one each morning before breakfast (28 capsules)
- Sertraline 50 mg tablets: one a day (28 tablets)
- Cetirizine 10 mg tablets: one at night when needed for hay fever (30 tablets)

Medication review with the GP by 6 November 2028.
Order repeats at least 3 working days before you run out.
Pharmacy: Greaves and Sons Chemist, 0161 496 0833
""",
    "cottage-booking.md": """# Tarnbeck Cottage, August

We have booked Tarnbeck Cottage at Ravensgill through Fellside Retreats for 19 to 26 August 2028
(7 nights), booking number FR-88213. Arrival is from 4pm on the Saturday and we have to be out by
10am on departure day.

The total price is £1,146. We paid a deposit of £300 on 2 February; the balance of £846 is due
8 weeks before arrival.

The keys are in a key safe by the front door, code 5170. The cottage sleeps 6 and dogs are
welcome (two at most, £25 per dog per stay). The owner, Lorcan Thwaite, lives next door and can
be reached on 07700 900 562.
""",
    "broadband-contract.md": """# Broadband contract

Provider: Quillnet
Package: Fibre 500
Account number: QN-2270193

- Download speed: average 500 Mb/s, minimum guaranteed 350 Mb/s
- Upload speed: average 70 Mb/s
- Monthly price: £31.00 for the first 24 months, then £44.00
- Contract length: 24 months, starting 11 January 2028
- Router: Quillhub 6, to be returned within 30 days if you leave

Prices rise each April by £3 a month.
Faults and outages: 0330 088 4120 (8am to 10pm, every day).
Leaving before the end of the contract costs £18 for each remaining month.
""",
    "blackcurrant-crumble.md": """# Gran Morwenna's blackcurrant crumble

Serves 6.

Filling: 500 g blackcurrants, 75 g caster sugar, 1 tbsp cornflour.
Topping: 175 g plain flour, 100 g cold butter, 60 g demerara sugar, 40 g rolled oats.

1. Heat the oven to 190C (170C fan).
2. Toss the fruit with the sugar and cornflour and tip it into a 2 litre dish.
3. Rub the butter into the flour until it looks like breadcrumbs, then stir in the sugar and oats.
4. Scatter the topping over the fruit and bake for 35 to 40 minutes, until the juice bubbles up.

Serve with custard. It freezes well unbaked for up to 3 months.
""",
    "allotment-minutes.md": """# Pellow Street Allotment Society: committee minutes, 9 May 2028

Attendees: Hedda Morrow (chair), Bastian Crewe (treasurer), Nell Ivory, Fitz Obuya.
Also present: Ysolde Carrack (council liaison officer).

1. Water: Bastian reported that last year's mains water bill was £412. Agreed to fit two water
   butts on every row.
2. Plot 14 has stood empty since March. Nell will contact the next three people on the waiting list.
3. Annual show: Sunday 20 August 2028. Fitz will book the marquee (quoted at £260).
4. Rents: plot rent goes up to £48 a year from October.

Action: Hedda to write to the council about the broken top gate by 1 June.
Next meeting: 13 June 2028, 7.30pm, in the Pellow Street pavilion.
""",
    "porch-quote.md": """# Builder's quote for the porch

STONECHAT BUILDING AND JOINERY
Quote ref: SBJ-Q-1093    Date: 2 April 2028
For: Mr D. Penhaligon, 41 Arkwright Terrace, Ormsby
Work: build a timber-framed porch with a tiled roof

Groundwork and footings ......... £1,450.00
Timber frame and cladding ....... £2,980.00
Roof tiles and lead flashing .... £1,120.00
Glazed front door (supplied) .... £640.00
Labour, 9 days .................. £2,700.00
Subtotal ........................ £8,890.00
VAT at 20% ...................... £1,778.00
TOTAL ........................... £10,668.00

A deposit of 25% is payable on acceptance, the balance on completion.
This quote is valid for 60 days. Start date subject to availability, earliest 5 June.
Contact: Gethin Pryce-Odell, 07700 900 715
""",
    "dentist-letter.md": """# Letter from Marlowe Street Dental

Dear Mr Halvey,

Following your check-up with Dr Ines Valtonen on 12 May, you need one white filling in a lower
left molar and a scale and polish with our hygienist, Petra Lund.

We have booked your filling for Tuesday 6 June 2028 at 8:40am; it should take about 40 minutes.
Your hygiene appointment is the same morning at 9:30am.

The NHS Band 2 charge of £75.30 covers both treatments. Please do not eat for two hours after
the filling while the numbness wears off.

If you need to move an appointment, ring us on 01632 960 903 at least 48 hours before it, or a
£20 late cancellation fee may be charged.

Yours sincerely,
Reception, Marlowe Street Dental
""",
    "folk-weekend-ticket.md": """# Gallowfield Folk Weekend e-ticket

GALLOWFIELD FOLK WEEKEND 2028
E-TICKET
Order: GFW-55102-K
Name: Corin Halvey
Weekend camping adult x2 @ £118.00
Car parking pass x1 @ £15.00
Booking fee £6.50
ORDER TOTAL £257.50

Gates open Friday 14 July 2028 at 12:00 noon. The campsite closes on Monday 17 July at 11:00.
Headliner: The Corrigan Sisters, Saturday, main stage, 21:15.
No glass on site. Dogs are not allowed on site, except assistance dogs.
""",
}

PDFS: dict[str, dict] = {
    "mot-certificate.pdf": {
        "lines": ["Brackwell Autocare, Unit 4 Tansley Road, Ormsby", "MOT test certificate",
                  "Registration: VX68 PLD", "Make and model: Peugeot 208", "Test date: 14 September 2027",
                  "MOT test number: 5518 2290 4471"],
        "table": [["Check", "Result", "Note"], ["Odometer", "48,312 miles", ""], ["Brakes", "Pass", ""],
                  ["Tyres", "Advisory", "Nearside rear tyre worn close to the legal limit"],
                  ["Emissions", "Pass", ""], ["Expiry date", "13 September 2028", ""]],
        "after": ["Tester: Wendell Ashgrove", "Fee paid: £54.85",
                  "A retest within 10 working days is free of charge."],
    },
    "mortgage-offer.pdf": {
        "lines": ["Hollinbeck Building Society", "Mortgage offer",
                  "Applicants: Idris Kettleworth and Maren Kettleworth",
                  "Property: 9 Sallowfield Close, Ormsby", "Offer reference: HBS-MO-773104",
                  "This offer is valid until 30 June 2028."],
        "table": [["Detail", "Value"], ["Loan amount", "£186,500.00"], ["Term", "25 years"],
                  ["Initial rate", "4.29% fixed for 5 years"], ["Monthly payment, initial period", "£1,013.62"],
                  ["After the initial period", "Standard variable rate, currently 7.49%"],
                  ["Product fee", "£999.00"]],
        "after": ["Early repayment charge: 3% of the amount repaid in years 1 to 3, 2% in years 4 and 5.",
                  "Your solicitor: Pennock and Vail, 01632 960 552"],
    },
    "nursery-invoice.pdf": {
        "lines": ["Little Wrenfield Nursery", "Invoice for May 2028", "Invoice number: LWN-0528-114",
                  "Child: Poppy Ames", "Bill payer: Gideon Ames"],
        "table": [["Item", "Days", "Rate", "Amount"], ["Full days", "12", "£68.00", "£816.00"],
                  ["Half days (morning)", "4", "£39.00", "£156.00"], ["Late collection", "1", "£15.00", "£15.00"],
                  ["Funded hours credit", "", "", "-£294.40"], ["Total to pay", "", "", "£692.60"]],
        "after": ["Please pay by 10 June 2028 by bank transfer to sort code 40-11-62, account 31558820, "
                  "quoting LWN-0528-114.",
                  "Questions about your bill: Hester Vayle, nursery manager, 01632 960 274."],
    },
    "flight-booking.pdf": {
        "lines": ["SKELBROOK AIR", "Booking confirmation", "Booking reference: R8TQ2M",
                  "Passengers: Corin Halvey, Bryony Halvey"],
        "table": [["Flight", "From", "To", "Date", "Departs", "Arrives"],
                  ["SK 2217", "Bristol", "Palma de Mallorca", "27 July 2028", "06:10", "09:35"],
                  ["SK 2218", "Palma de Mallorca", "Bristol", "3 August 2028", "10:25", "11:55"]],
        "after": ["Cabin bags: one bag of up to 10 kg per passenger. Hold luggage: one bag of up to 20 kg, "
                  "booked for Corin Halvey.",
                  "Seats 12A and 12B are reserved on both flights.",
                  "Bag drop closes 45 minutes before departure."],
    },
    "pet-insurance.pdf": {
        "lines": ["Burrowfield Pet Cover", "Policy schedule", "Policyholder: Aurelie Stenhouse",
                  "Policy number: BPC-4418207", "Pet: Mungo, domestic shorthair cat, born 2 March 2021",
                  "Cover: Lifetime 4000"],
        "table": [["Benefit", "Limit", "Excess"], ["Vet fees, per condition per year", "£4,000", "£99"],
                  ["Dental accident", "£500", "£99"], ["Third party liability", "Not covered", ""],
                  ["Death from illness or injury", "£300", "None"]],
        "after": ["Monthly premium: £21.46",
                  "The policy started on 1 April 2028 and renews on 1 April 2029.",
                  "Claims: 0800 093 5521 or the Burrowfield app. A co-payment of 20% applies from age 10."],
    },
    "school-report.pdf": {
        "lines": ["Kelderby Primary School", "End of year report 2027-28", "Pupil: Tobias Wrenshaw",
                  "Class: 4 Kestrel", "Class teacher: Mr Anselm Drury"],
        "table": [["Subject", "Attainment", "Effort"], ["Reading", "Greater depth", "4"],
                  ["Writing", "Expected", "3"], ["Maths", "Working towards", "4"],
                  ["Science", "Expected", "4"], ["PE", "Expected", "2"]],
        "after": ["Attendance: 96.4% (7 sessions missed).",
                  "Tobias is a kind member of the class who reads widely. His next step in maths is to "
                  "learn his times tables up to 12 x 12.",
                  "Effort is graded from 1 (low) to 4 (high). Parents' evening: 4 July 2028."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 600 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "sixth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # MOT certificate (PDF)
    ("when does my mot run out", "mot-certificate", ["13 September 2028"]),
    ("which tyre did the mot guy say was worn", "mot-certificate", ["nearside rear"]),
    ("where did the car get its mot done", "mot-certificate", ["Brackwell Autocare"]),
    ("how much did the mot cost me", "mot-certificate", ["54.85"]),
    ("what was the emissions reading at the mot", "mot-certificate", None, "type"),
    ("when's the van's mot due", "mot-certificate", None, "subject"),
    # gas safety record
    ("who did the gas safety check on the flat", "gas-safety-record", ["Rufus Penhallow"]),
    ("when's the next gas safety check due", "gas-safety-record", ["2 March 2029"]),
    ("which gas appliances did they check", "gas-safety-record", ["boiler", "hob", "gas fire"]),
    ("gas engineer's registration number?", "gas-safety-record", ["604417"]),
    ("what's odessa's phone number", "gas-safety-record", None, "attribute"),
    ("what pressure was the boiler at after the check", "gas-safety-record", None, "type"),
    # mortgage offer (PDF)
    ("how much are we borrowing for the house", "mortgage-offer", ["186,500"]),
    ("what rate did we get on the mortgage and how long is it fixed for", "mortgage-offer", ["4.29%", "5 years"]),
    ("when does the mortgage offer expire", "mortgage-offer", ["30 June 2028"]),
    ("what's the solicitors number", "mortgage-offer", ["01632 960 552"]),
    ("how much deposit are we putting down on the house", "mortgage-offer", None, "type"),
    ("what's the product fee on the tracker mortgage", "mortgage-offer", None, "subject"),
    # gym membership
    ("how much is my gym membership a month", "gym-contract", ["27.50"]),
    ("what time can i use the gym till on a weekday", "gym-contract", ["4pm"]),
    ("how do i cancel the gym", "gym-contract", ["one full calendar month", "members@ironvale.example"]),
    ("can i put my gym membership on hold if im injured", "gym-contract", ["3 months"]),
    ("how much is a peak membership at ironvale", "gym-contract", None, "subject"),
    ("what's the gym's phone number", "gym-contract", None, "type"),
    # nursery invoice (PDF)
    ("how much do we owe the nursery for may", "nursery-invoice", ["692.60"]),
    ("nursery bank details pls", "nursery-invoice", ["40-11-62", "31558820"]),
    ("who's the manager at poppy's nursery", "nursery-invoice", ["Hester Vayle"]),
    ("how much did they charge for picking her up late", "nursery-invoice", ["15.00"]),
    ("how much is an afternoon session at nursery", "nursery-invoice", None, "attribute"),
    ("what time does the nursery shut", "nursery-invoice", None, "type"),
    # parking fine
    ("how much is the parking fine if i pay it straight away", "parking-fine", ["35"]),
    ("whats the pcn number", "parking-fine", ["OB40718826"]),
    ("what street was i parked on when i got the ticket", "parking-fine", ["Tolland Row"]),
    ("how do i appeal the parking ticket", "parking-fine", ["Parking Appeals", "28 days"]),
    ("what's the traffic warden's name", "parking-fine", None, "type"),
    ("how many penalty points do i get for the parking ticket", "parking-fine", None, "type"),
    # repeat prescription
    ("what strength is my sertraline", "repeat-prescription", ["50 mg"]),
    ("when am i meant to take the lansoprazole", "repeat-prescription", ["before breakfast"]),
    ("what's the chemist's phone number", "repeat-prescription", ["0161 496 0833"]),
    ("what meds am i on at the moment", "repeat-prescription", ["Lansoprazole", "Sertraline", "Cetirizine"]),
    ("what dose of omeprazole am i on", "repeat-prescription", None, "subject"),
    ("how much does my prescription cost", "repeat-prescription", None, "type"),
    # flight booking (PDF)
    ("what time do we land in palma", "flight-booking", ["09:35"]),
    ("when do we fly back from mallorca", "flight-booking", ["3 August 2028"]),
    ("how heavy can our cabin bags be", "flight-booking", ["10 kg"]),
    ("mallorca booking ref?", "flight-booking", ["R8TQ2M"]),
    ("what terminal do we fly from at bristol", "flight-booking", None, "type"),
    ("how much did the mallorca flights cost", "flight-booking", None, "type"),
    # holiday cottage
    ("what's the key safe code at the cottage", "cottage-booking", ["5170"]),
    ("how much do we still owe for the cottage and when's it due", "cottage-booking", ["846", "8 weeks"]),
    ("what time can we get into tarnbeck", "cottage-booking", ["4pm"]),
    ("who owns the cottage we're renting in august", "cottage-booking", ["Lorcan Thwaite"]),
    ("when did we pay the balance on the cottage", "cottage-booking", None, "role"),
    ("what's the wifi password at the cottage", "cottage-booking", None, "type"),
    # broadband contract
    ("who's our broadband with", "broadband-contract", ["Quillnet"]),
    ("how much is broadband a month now and what does it go up to after", "broadband-contract",
     ["31.00", "44.00"]),
    ("number to ring when the internet's down", "broadband-contract", ["0330 088 4120"]),
    ("what's the slowest download speed they promise", "broadband-contract", ["350 Mb/s"]),
    ("how much is the landline on our broadband deal", "broadband-contract", None, "subject"),
    ("what's the router admin password", "broadband-contract", None, "type"),
    # pet insurance (PDF)
    ("what's the excess on mungo's vet bills", "pet-insurance", ["99"]),
    ("how much does mungo's insurance cost a month", "pet-insurance", ["21.46"]),
    ("is mungo covered for third party liability", "pet-insurance", ["not covered"]),
    ("when does the cat insurance renew", "pet-insurance", ["1 April 2029"]),
    ("what's the excess on the dog's insurance", "pet-insurance", None, "subject"),
    ("how much does mungo's policy pay out for dental illness", "pet-insurance", None, "attribute"),
    # recipe
    ("what temp for the blackcurrant crumble", "blackcurrant-crumble", ["190C"]),
    ("how long does gran's crumble bake for", "blackcurrant-crumble", ["35 to 40 minutes"]),
    ("what goes in the crumble topping", "blackcurrant-crumble", ["flour", "butter", "demerara", "oats"]),
    ("how much rhubarb goes in the rhubarb crumble", "blackcurrant-crumble", None, "subject"),
    ("how many eggs in the blackcurrant crumble", "blackcurrant-crumble", None, "attribute"),
    # allotment committee minutes
    ("who's treasurer of the allotment society", "allotment-minutes", ["Bastian Crewe"]),
    ("what's fitz sorting out for the show", "allotment-minutes", ["marquee"]),
    ("where and when is the next allotment meeting", "allotment-minutes", ["13 June 2028", "pavilion"]),
    ("what did ysolde say she'd do", "allotment-minutes", None, "role"),
    ("how much was the allotment electricity bill", "allotment-minutes", None, "attribute"),
    # school report (PDF)
    ("how did tobias get on in maths", "school-report", ["Working towards"]),
    ("what was tobias's attendance this year", "school-report", ["96.4%"]),
    ("who's tobias's teacher", "school-report", ["Anselm Drury"]),
    ("what did tobias get for music", "school-report", None, "subject"),
    ("what's tobias's reading age", "school-report", None, "type"),
    # builder's quote
    ("how much is the porch going to cost including vat", "porch-quote", ["10,668.00"]),
    ("how many days will the porch take to build", "porch-quote", ["9 days"]),
    ("when's the earliest the builder can start", "porch-quote", ["5 June"]),
    ("how much would a conservatory cost", "porch-quote", None, "subject"),
    ("what's the builder's hourly rate", "porch-quote", None, "attribute"),
    # dentist letter
    ("what time's my filling", "dentist-letter", ["8:40"]),
    ("who's doing my scale and polish", "dentist-letter", ["Petra Lund"]),
    ("how much notice do i need to give to move the dentist and what happens if i don't",
     "dentist-letter", ["48 hours", "£20"]),
    ("when's my next dental check-up", "dentist-letter", None, "role"),
    # event ticket
    ("how much did the folk weekend tickets come to altogether", "folk-weekend-ticket", ["257.50"]),
    ("what time are the corrigan sisters on", "folk-weekend-ticket", ["21:15"]),
    ("can we take the dog to the folk weekend", "folk-weekend-ticket", ["assistance dogs"]),
    ("what time do the corrigan sisters finish", "folk-weekend-ticket", None, "role"),
    ("how much is a day ticket for gallowfield", "folk-weekend-ticket", None, "subject"),
])]
