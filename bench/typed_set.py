"""The typed answer set (issue 33): 16 household documents written for this bench, and 66
questions over them, a third unanswerable. Written by hand for Cairn; no third-party text.

`write(folder)` writes the documents (markdown notes, and PDFs with tables drawn by
reportlab) into `folder`. `QUESTIONS`: dicts {"id", "question", "doc", "expect", "part",
"why"}: `expect` is a list of strings each of which the answer must hold (case and spacing
folded), None for an unanswerable question (`why` says in which way: "attribute" - the
asked attribute is written of another subject; "type" - no value of the asked type;
"subject" - the subject is absent; "role" - the person is named but not in the asked role).
`part` is "tune" (the half the rules were tuned on) or "held" (looked at only at the end).
"""

from __future__ import annotations

from pathlib import Path

NOTES: dict[str, str] = {
    "greenleaf-receipt.md": """# GreenLeaf Grocers receipt

GREENLEAF GROCERS
12 Mill Lane, Hebden Bridge
Tel 01422 845 210
Date: 02/03/2027 17:41
Free range eggs x6    £2.85
Sourdough loaf        £3.40
Oat milk 1L           £1.95
Cheddar 400g          £4.60
Apples 1kg            £2.30
Coffee beans 250g     £6.95
Washing-up liquid     £2.43
SUBTOTAL £24.48
TOTAL £24.48
Paid by card ending 3391
Thank you for shopping with us
""",
    "home-insurance.md": """# Home insurance policy summary

Insurer: Northgate Mutual
Policy number: HX-448120-B
Annual premium: £286.40
Policy excess: £250
Renewal date: 14 March 2027

## Making a claim
Claims line: 0800 555 0142 (open 24 hours)
Report a claim within 30 days of the loss.

## What is covered
- Buildings up to £350,000
- Contents up to £60,000
- Accidental damage to televisions
- Alternative accommodation for up to 12 months
""",
    "car-notes.md": """# Car: Skoda Fabia notes

Registration: YK19 TRW
Front tyre pressure: 2.3 bar
Engine oil: 5W-30 fully synthetic
Service interval: every 12 months or 10,000 miles
MOT due: 22 August 2027
The garage is Fenwick Motors on Station Road.
""",
    "flight-booking.md": """# Flight booking to Lisbon

Booking reference: QZ7KLM
Airline: Atlantico Air
Outbound flight AT 482 departs Manchester on 18 June 2027 at 07:45.
Check-in closes 40 minutes before departure.
Checked baggage allowance: 23 kg per passenger.
Seat 14C has been reserved for Jonas Weber.
""",
    "minutes-residents.md": """# Residents' committee minutes, 6 April 2027

Present: Tom Hale (chair), Priya Nair, Edith Marsh, Sam Okoro.
Apologies: Lucy Grant.

1. Garden fence: the fence along the car park is leaning. Tom agreed to get three quotes by 3 May.
2. Newsletter: Priya agreed to draft the spring newsletter.
3. Bins: Sam will ask the council about a second recycling bin.

Next meeting: 12 May 2027 at 7pm in the library meeting room.
""",
    "lemon-cake.md": """# Lemon drizzle cake

Serves 8.

## Ingredients
- 225g unsalted butter
- 225g caster sugar
- 4 eggs
- 225g self-raising flour
- 1 lemon, zested

## Method
1. Heat the oven to 180C (160C fan).
2. Beat the butter and sugar, then add the eggs one at a time.
3. Fold in the flour and lemon zest.
4. Bake for 45 minutes, until a skewer comes out clean.
""",
    "council-tax.md": """# Council tax letter 2027/28

From Calder Valley Council.
Your property is in council tax band D.
Annual council tax: £1,964.12
Account reference: CT-5521-0098
The first instalment of £196.41 is due on 1 April 2027.
Pay online or call 01422 288 001.
""",
    "dentist-letter.md": """# Dentist appointment letter

Brookside Dental Practice
Appointment: 9 April 2027 at 10:20 with Dr Amara Bello.
Please arrive 10 minutes early.

What to bring:
- your photo ID
- a list of any medicines you take
- your NHS exemption certificate, if you have one

To cancel, give at least 24 hours notice.
Phone:
01632 960 447
""",
    "gym-contract.md": """# Gym membership contract

Club: Riverside Fitness
Monthly fee: £34.99
Minimum term: 12 months
Group classes run on Mondays, Wednesdays and Fridays.
Cancellation needs 30 days notice in writing.
Member number: RF-20871
""",
    "school-trip.md": """# School trip letter: Eden Science Park

Year 5 will visit Eden Science Park on 21 May 2027.
The coach leaves school at 8:30am and returns by 4pm.
The cost of the trip is £18 per child.

Children need to bring:
- a packed lunch
- a waterproof coat
- a refillable water bottle

Please return the consent slip by 7 May.
""",
    "boiler-service.md": """# Boiler service record

Engineer: Karl Dunn
Gas Safe number: 512889
Serviced on 2 February 2027.
System pressure after service: 1.2 bar
Next service due: February 2028
Karl replaced the flue seal and said the boiler is in good condition.
""",
    "vet-record.md": """# Biscuit: vet record

Biscuit is our beagle.
Practice: Oakfield Vets
Weight at last visit: 12.4 kg
Booster vaccination given on 15 January 2027.
Next booster due: January 2028
Vet's phone: 01632 960 118
""",
}

PDFS: dict[str, dict] = {
    "harbour-plumbing-invoice.pdf": {
        "lines": ["Harbour Plumbing Ltd", "INVOICE", "Invoice number: INV-20931", "Invoice date: 11 March 2027",
                  "Customer: Mrs J. Weber, 4 Birch Road"],
        "table": [["Item", "Qty", "Amount"], ["Call-out", "1", "£65.00"], ["Replace kitchen tap", "1", "£142.00"],
                  ["Parts", "1", "£105.00"], ["Total due", "", "£312.00"]],
        "after": ["Payment due by 10 April 2027.", "Plumber: Dan Reyes", "Phone:", "07700 900 461"],
    },
    "seaview-hotel.pdf": {
        "lines": ["Seaview Hotel, Whitby", "Booking confirmation", "Confirmation number: 88412097",
                  "Guest: Jonas Weber", "Arrival: 2 August 2027", "Departure: 5 August 2027"],
        "table": [["Night", "Room", "Rate"], ["2 August", "Double sea view", "£137.50"],
                  ["3 August", "Double sea view", "£137.50"], ["4 August", "Double sea view", "£137.50"],
                  ["Total", "", "£412.50"]],
        "after": ["Check-in from 15:00. Check-out by 11:00.", "Breakfast is included in the rate."],
    },
    "cycle-repair-estimate.pdf": {
        "lines": ["Spokes Cycle Workshop", "Repair estimate", "Estimate number: SCW-3307",
                  "Bike: grey touring bike", "Mechanic: Ola Lind"],
        "table": [["Work", "Parts", "Labour"], ["New chain", "£24.00", "£12.00"], ["Brake pads front and rear",
                  "£30.00", "£20.00"], ["Wheel true", "", "£25.00"], ["Estimate total", "", "£146.00"]],
        "after": ["This estimate is valid for 30 days.", "Work takes about 3 days once approved."],
    },
    "electricity-bill.pdf": {
        "lines": ["Brightwater Energy", "Electricity bill", "Account number: BW-7712-4409",
                  "Billing period: 1 January 2027 to 31 March 2027"],
        "table": [["Reading", "Date", "kWh"], ["Previous", "1 January 2027", "18,220"],
                  ["Latest", "31 March 2027", "18,561"], ["Used", "", "341"]],
        "after": ["Unit rate: 24.5p per kWh", "Amount due: £97.45", "Please pay by 20 April 2027."],
    },
}


def _pdf(path: Path, spec: dict) -> None:
    """One page: lines of text, a ruled table, more lines (reportlab platypus)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    style = getSampleStyleSheet()["Normal"]
    story = [Paragraph(line, style) for line in spec["lines"]] + [Spacer(1, 12)]
    table = Table(spec["table"])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    story += [table, Spacer(1, 12)] + [Paragraph(line, style) for line in spec["after"]]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)


def write_documents(folder: Path, notes: dict[str, str], pdfs: dict[str, dict]) -> list[Path]:
    """Write `notes` ({file name: text}) and `pdfs` ({file name: spec}, see _pdf) into `folder`
    (created); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in notes.items():
        (folder / name).write_text(text, encoding="utf-8")
        out.append(folder / name)
    for name, spec in pdfs.items():
        _pdf(folder / name, spec)
        out.append(folder / name)
    return out


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    # every third question (by id) is held out: both parts cover every kind of document
    return {"id": i, "question": question, "doc": doc, "expect": expect, "why": why,
            "part": "held" if i % 3 == 0 else "tune"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    ("What was the total of my GreenLeaf receipt?", "greenleaf-receipt", ["24.48"]),
    ("How much did the coffee beans cost?", "greenleaf-receipt", ["6.95"]),
    ("What is the GreenLeaf Grocers phone number?", "greenleaf-receipt", ["01422 845 210"]),
    ("How much did the olive oil cost at GreenLeaf?", "greenleaf-receipt", None, "subject"),
    ("What is my home insurance policy number?", "home-insurance", ["HX-448120-B"]),
    ("How much is the annual premium of the home insurance?", "home-insurance", ["286.40"]),
    ("What is the claims line number for the home insurance?", "home-insurance", ["0800 555 0142"]),
    ("What is the excess on the home insurance?", "home-insurance", ["250"]),
    ("When is the home insurance renewal date?", "home-insurance", ["14 March 2027"]),
    ("What is the car insurance policy number?", "home-insurance", None, "attribute"),
    ("What is the front tyre pressure of the Skoda?", "car-notes", ["2.3 bar"]),
    ("What is the rear tyre pressure of the Skoda?", "car-notes", None, "attribute"),
    ("When is the Skoda's MOT due?", "car-notes", ["22 August 2027"]),
    ("What engine oil does the Skoda take?", "car-notes", ["5W-30"]),
    ("What is the Skoda's registration?", "car-notes", ["YK19 TRW"]),
    ("What is the phone number of Fenwick Motors?", "car-notes", None, "type"),
    ("What is the booking reference for the Lisbon flight?", "flight-booking", ["QZ7KLM"]),
    ("What time does the Lisbon flight depart?", "flight-booking", ["07:45"]),
    ("What is the checked baggage allowance on the Lisbon flight?", "flight-booking", ["23 kg"]),
    ("When does the return flight from Lisbon depart?", "flight-booking", None, "attribute"),
    ("What seat is reserved for Jonas on the Lisbon flight?", "flight-booking", ["14C"]),
    ("What did Tom agree to do at the residents' committee?", "minutes-residents", ["three quotes"]),
    ("What did Priya agree to do at the residents' meeting?", "minutes-residents", ["newsletter"]),
    ("What did Edith agree to do at the residents' meeting?", "minutes-residents", None, "role"),
    ("When is the next residents' committee meeting?", "minutes-residents", ["12 May 2027"]),
    ("Who chaired the residents' committee meeting?", "minutes-residents", ["Tom Hale"]),
    ("How long does the lemon drizzle cake bake?", "lemon-cake", ["45 minutes"]),
    ("What temperature should the oven be for the lemon drizzle cake?", "lemon-cake", ["180C"]),
    ("How long does the carrot cake bake?", "lemon-cake", None, "subject"),
    ("How many people does the lemon drizzle cake serve?", "lemon-cake", ["8"]),
    ("What are the ingredients of the lemon drizzle cake?", "lemon-cake",
     ["butter", "caster sugar", "eggs", "flour", "lemon"]),
    ("What is my annual council tax?", "council-tax", ["1,964.12"]),
    ("What is my council tax account reference?", "council-tax", ["CT-5521-0098"]),
    ("What council tax band is my property in?", "council-tax", ["band D"]),
    ("What is the council's email address?", "council-tax", None, "type"),
    ("When is my dentist appointment?", "dentist-letter", ["9 April 2027"]),
    ("What's the dentist's phone number?", "dentist-letter", ["01632 960 447"]),
    ("What do I need to bring to the dentist appointment?", "dentist-letter",
     ["photo ID", "medicines", "exemption certificate"]),
    ("How much does the dentist appointment cost?", "dentist-letter", None, "type"),
    ("How much is the monthly gym fee?", "gym-contract", ["34.99"]),
    ("Which days do the gym's group classes run?", "gym-contract", ["Mondays", "Wednesdays", "Fridays"]),
    ("What is the gym's joining fee?", "gym-contract", None, "attribute"),
    ("What is my gym member number?", "gym-contract", ["RF-20871"]),
    ("How much does the Eden Science Park school trip cost?", "school-trip", ["£18"]),
    ("What time does the coach leave for the school trip?", "school-trip", ["8:30"]),
    ("What do the children need to bring on the school trip?", "school-trip",
     ["packed lunch", "waterproof coat", "water bottle"]),
    ("What time does the school trip coach return?", "school-trip", ["4pm"]),
    ("Who serviced the boiler?", "boiler-service", ["Karl Dunn"]),
    ("What is the boiler engineer's Gas Safe number?", "boiler-service", ["512889"]),
    ("When is the next boiler service due?", "boiler-service", ["February 2028"]),
    ("What is the boiler engineer's phone number?", "boiler-service", None, "type"),
    ("How much does Biscuit weigh?", "vet-record", ["12.4 kg"]),
    ("What is the vet's phone number?", "vet-record", ["01632 960 118"]),
    ("When is Biscuit's next booster due?", "vet-record", ["January 2028"]),
    ("How much did Biscuit's booster vaccination cost?", "vet-record", None, "type"),
    ("What is the total due on the Harbour Plumbing invoice?", "harbour-plumbing-invoice", ["312.00"]),
    ("What's the plumber's phone number?", "harbour-plumbing-invoice", ["07700 900 461"]),
    ("When is the Harbour Plumbing invoice payment due?", "harbour-plumbing-invoice", ["10 April 2027"]),
    ("What is the plumber's VAT number?", "harbour-plumbing-invoice", None, "type"),
    ("What is the Seaview Hotel confirmation number?", "seaview-hotel", ["88412097"]),
    ("What is the total for the Seaview Hotel stay?", "seaview-hotel", ["412.50"]),
    ("What time is check-out at the Seaview Hotel?", "seaview-hotel", ["11:00"]),
    ("How much does parking cost at the Seaview Hotel?", "seaview-hotel", None, "subject"),
    ("What is the total of the cycle repair estimate?", "cycle-repair-estimate", ["146.00"]),
    ("How much is the labour for the new chain?", "cycle-repair-estimate", ["12.00"]),
    ("What is the electricity account number?", "electricity-bill", ["BW-7712-4409"]),
    ("How much is the electricity bill?", "electricity-bill", ["97.45"]),
    ("What is the gas unit rate on the Brightwater bill?", "electricity-bill", None, "attribute"),
    ("When do I need to pay the electricity bill by?", "electricity-bill", ["20 April 2027"]),
    ("Who is the mechanic on the cycle repair estimate?", "cycle-repair-estimate", ["Ola Lind"]),
    ("What did Lucy agree to do at the residents' meeting?", "minutes-residents", None, "role"),
    ("What time does the Seaview Hotel serve dinner?", "seaview-hotel", None, "subject"),
    ("What is the vet's email address?", "vet-record", None, "type"),
    ("What is the Volvo's MOT due date?", "car-notes", None, "subject"),
    ("How many eggs does the carrot cake need?", "lemon-cake", None, "subject"),
    ("What is the check-in time for the Lisbon hotel?", "flight-booking", None, "subject"),
    ("How much is the annual gym fee?", "gym-contract", None, "attribute"),
    ("What is the return flight's booking reference?", "flight-booking", None, "attribute"),
    ("What is the email address for home insurance claims?", "home-insurance", None, "type"),
    ("What is the plumber's hourly rate?", "harbour-plumbing-invoice", None, "attribute"),
])]
