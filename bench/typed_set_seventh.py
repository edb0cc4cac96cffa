"""A seventh held-out typed set (issue 33, session 22): 18 household documents (11 notes, 7 PDFs with
ruled tables) and 114 questions, 38 of them unanswerable, written from scratch by the helper
heldout22 of session 22 without reading the answerer (src/cairn/answer/), the NLU
(src/cairn/nlu/, nor its training data), the assistant (src/cairn/assistant/) or the failure
analyses in bench/README.md: an outside user's documents and questions, on topics the sixth set
does not use (a solicitor's letter about wills, a council planning decision, a sourdough recipe,
a house move checklist, a choir's AGM minutes, a child's piano lessons, a washing machine repair
job sheet, a chimney sweep's receipt, a child's passport renewal, notes for a house sitter, a
bulky waste collection; as PDFs a payslip, a water bill, a spectacle prescription, a narrowboat
hire, a wedding florist's quote, a cash ISA statement and a carpet quote). Every person,
company, place, amount, date, code and phone number is invented (phone numbers from the drama
ranges: 01632 960xxx, 07700 900xxx, 08081 570xxx); no third-party text. Same shape as
bench/typed_set.py (`write`, `QUESTIONS`, `expect` a list of strings the answer must each hold,
case and spacing folded, None for an unanswerable question, `why` the way it is unanswerable:
"attribute" - the asked attribute is written of another subject, or the subject is there
without it while its other attributes are; "type" - no value of the asked type in the note;
"subject" - another item of the same kind, absent; "role" - the person, payment or date is
named but not in the asked role, e.g. only absent, only the employee's share, only the decision
date). Questions are typed the way a person types them to an assistant (lower case, their own
words and synonyms rather than the note's, some in two parts, some asking for a list or a
procedure, some yes/no), and the unanswerable ones are tempting: the note holds a value of the
same type for another role or subject.

Held out: nobody tunes on it. Every question is `part` "seventh" and is asked once, by the lead,
at the end of session 22 (`python bench/answers_typed.py --set seventh`); its failures are
recorded, not fixed in the same session. Only its format was checked before it was committed.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "solicitor-letter.md": """# Letter from Ashdown Fenner about our wills

Ashdown Fenner LLP
3 Chapel Wynd, Brackenholme
Tel: 01632 960 731

Our ref: AF/WIL/20944
Your matter: wills and lasting powers of attorney

Dear Mr and Mrs Tregarthen,

Thank you for instructing us to prepare your mirror wills and two lasting powers of attorney for
property and financial affairs. Your matter will be handled by Philippa Gorringe, associate
solicitor, with help from her trainee, Jasper Lumb.

Our fixed fee for the two mirror wills is £540 including VAT. Each lasting power of attorney is
£395 plus the Office of the Public Guardian registration fee of £92, which we pay on your behalf
and add to our bill.

When you come in to sign, please bring photo ID for both of you and the full names and addresses
of the executors you have chosen. Signing takes about an hour at our office, and we provide the
two witnesses.

Before we start drafting we ask for a payment on account of £300. You will have the drafts within
15 working days of receiving it.

Yours sincerely,

Philippa Gorringe
""",
    "planning-decision.md": """# Planning decision for the extension

Harrowdale District Council, Planning Services

Application number: 28/00613/HOUSE
Site: 22 Fellside Terrace, Pelsby
Applicant: Mr Konstantin Aberdour
Proposal: single storey rear extension with a rooflight
Decision: GRANTED subject to the conditions below
Date of decision: 19 June 2028

Conditions
1. The development must be begun within three years of the date of this decision.
2. The external walls must be built in bricks to match the existing house.
3. No building work on site before 8am or after 6pm Monday to Friday, before 9am or after 1pm on
   Saturdays, and none at all on Sundays or bank holidays.

Right of appeal: if you disagree with a condition you may appeal to the Planning Inspectorate
within 12 weeks of the date of decision.

Case officer: Delphine Rusk, 01632 960 319
""",
    "sourdough.md": """# Weekend sourdough (Dilys's method)

Makes one large loaf.

Ingredients
- 100g active starter, fed the night before
- 375g lukewarm water
- 450g strong white flour
- 50g wholemeal flour
- 10g fine sea salt

Method
1. Stir the starter into the water, add both flours, mix to a shaggy dough and leave it covered
   for 45 minutes (the autolyse).
2. Add the salt and squeeze it through the dough.
3. Bulk ferment for 5 hours at room temperature, doing four sets of stretch and folds in the
   first 2 hours.
4. Shape it, put it seam side up in a floured banneton and leave it in the fridge overnight,
   12 to 16 hours.
5. Bake in a preheated Dutch oven at 240C for 20 minutes with the lid on, then turn down to 220C
   and bake 25 minutes with the lid off.

Between bakes keep the starter in the fridge and feed it 1:1:1 (starter, flour, water).
""",
    "moving-checklist.md": """# Moving house checklist

Moving day: Friday 8 September 2028, from 41 Lantern Walk to 6 Orchard Nook, Pelsby.
Removals: Kestrel & Daughters, the van arrives at 7:30am; the crew leader is Bram. Office 01632 960 688.
Keys to Orchard Nook: collect from Hebblewhite Estates after 12 noon, once completion is confirmed.

Before the move
- [x] book the removals (deposit of £250 paid on 2 August)
- [x] redirect our post for 6 months
- [ ] tell the council tax office, the bank and the GP
- [ ] defrost the freezer the day before
- [ ] take meter readings at both houses

On the day
- [ ] leave the keys for Lantern Walk with the agent
- [ ] find the boiler manual at Orchard Nook (in the utility cupboard)
- [ ] Pippin the cat goes to Aunt Winnie's for the weekend
""",
    "choir-agm.md": """# Fenwold Community Choir: AGM minutes, 14 September 2028

Held in St Oswin's church hall. 31 members present.
Apologies: Hattie Brennock, Solomon Achterberg.

1. Officers for 2028-29: chair Imelda Corrish; treasurer Ravi Pendlebury; secretary Noor Yaxley
   (re-elected unopposed).
2. Treasurer's report: the choir ended the year with £2,318 in the bank. The Christmas concert
   made a profit of £644.
3. Subscriptions go up from £45 to £52 a term from January. Concessions stay at £30.
4. Musical director: Ferdinand Ostrow has agreed to stay for another year; his fee will continue
   to be met from subscriptions.
5. Christmas concert: Saturday 16 December 2028 at 7.30pm in St Oswin's. Ravi will book the piano
   tuner and Imelda will draft the poster.
6. AOB: a member asked about a choir weekend away in Pennymoor Sands next summer; the committee
   will look into it.

Next AGM: September 2029.
""",
    "piano-lessons.md": """# Elsie's piano lessons

Teacher: Mrs Rosalind Quennell, 07700 900 563
Lessons are on Wednesdays from 4.15pm to 4.45pm at her house, 9 Weaver's Yard.
Autumn term: 12 lessons from 6 September at £23 a lesson; we paid £276 by bank transfer on 30 August.
A missed lesson is still charged unless she gets 48 hours notice.
Grade 2 exam: 25 November 2028 at 10:40, Lindhurst Music Centre. Exam fee £58.
Practice 20 minutes a day: the scales of G major and D major, and the piece "The Clockwork Owl".
""",
    "washing-machine-repair.md": """# Washing machine repair job sheet

Company: Whitcombe Appliance Care
Job number: WAC-55190
Engineer: Lowri Fanshawe
Visit date: 21 August 2028
Appliance: Orvika WM814 washing machine, serial 7731-0042-KQ
Fault reported: not draining, error code E21
Work done: cleared the drain pump filter (a sock and two coins in it) and replaced the drain hose.
Parts: drain hose £18.50
Labour: £65.00
Call-out: £35.00
TOTAL PAID: £118.50
Guarantee on parts and labour: 90 days
Advice: run an empty 90C wash with descaler once a month and clean the filter every 6 weeks.
""",
    "chimney-sweep-receipt.md": """# Chimney sweep receipt

SOOTY PETE'S CHIMNEY SWEEPING
Peter Hallowes, registered sweep no. 4471
Tel 07700 900 217
Date 03/10/2028   Time 09:10
Sweep lounge flue (wood burner)       £70.00
Smoke test                            £15.00
Bird guard fitted                     £45.00
Cowl                             not needed
SUBTOTAL                             £130.00
TOTAL                                £130.00
PAID CASH
Certificate issued. Next sweep due in 12 months when burning seasoned wood only.
""",
    "passport-renewal.md": """# Milo's passport renewal

Applied online on 2 May 2028 to renew Milo's child passport (he is 9 now).
Application reference: 4417-8820-1936-0051
Fee: £61.50, paid by debit card.
Countersigned by Gwendolen Ashby, our neighbour (a retired headteacher), who has known us for 6 years.
His old passport, number 553108742, expires on 11 July 2028; it has to go back in the envelope they post to us.
They say about 3 weeks, but allow up to 10 weeks in the summer.
""",
    "house-sitter-notes.md": """# Notes for Femi (house sitting, 12 to 19 October)

Thank you so much for looking after the house and Bramble! A few things.

The front door sticks, so lift the handle as you turn the key. The alarm panel is in the hall
cupboard: key in 6093 and press the tick. If it goes off by mistake, ring Sentry Grange Alarms on
01632 960 402 and give them the password "marmalade".

Bramble (the collie) has one scoop of dry food at 7am and another at 5pm. No scraps, she is on a
diet. The fish in the kitchen tank get a pinch of flakes every other day.

The grey bin goes out on Tuesday night for the Wednesday morning collection; no recycling that week.

If anything leaks, our plumber is Ansel Mayhew on 07700 900 648.
The stopcock is under the kitchen sink.

We're back on the 19th at about 6pm.
""",
    "bulky-waste.md": """# Bulky waste collection booked

Harrowdale District Council: bulky waste collection confirmation
Booking number: BWC-208817
Collection date: Thursday 5 October 2028 (crews work between 7am and 3pm)
Standard charge for up to 3 items: £38.00
Items booked:
1. three-seater sofa
2. single mattress
3. broken exercise bike
Extra items: £9.50 each (none booked)
Fridges and freezers are collected separately at £27.00 each.
Put the items out by 7am at the front of the property, without blocking the pavement.
To cancel, give 2 working days notice; the refund is the charge less a £5 admin fee.
""",
}

PDFS: dict[str, dict] = {
    "payslip.pdf": {
        "lines": ["Calloway Freight Ltd", "Payslip", "Employee: Saoirse Mendip", "Employee number: 004418",
                  "Pay date: 28 September 2028", "Tax code: 1257L"],
        "table": [["Payments", "Amount", "Deductions", "Amount"],
                  ["Basic pay", "£2,850.00", "Income tax", "£412.40"],
                  ["Overtime (6 hours)", "£123.30", "National Insurance", "£169.35"],
                  ["", "", "Pension, employee 5%", "£142.50"],
                  ["Total payments", "£2,973.30", "Total deductions", "£724.25"]],
        "after": ["Net pay: £2,249.05, paid to the account ending 7720.",
                  "Year to date: taxable pay £17,839.80, tax paid £2,474.40.",
                  "Holiday remaining this year: 11.5 days."],
    },
    "water-bill.pdf": {
        "lines": ["Mereside Water", "Your water and sewerage bill", "Customer reference: MW 6610 2284 07",
                  "Property: 41 Lantern Walk, Pelsby", "Bill date: 4 April 2028",
                  "Charges for 1 April 2028 to 31 March 2029"],
        "table": [["Charge", "Basis", "Amount"], ["Water supply", "Metered, 96 cubic metres", "£187.20"],
                  ["Sewerage", "Metered, 91 cubic metres", "£214.76"],
                  ["Standing charges", "Water and sewerage", "£58.00"],
                  ["Surface water drainage", "", "£41.30"], ["Total for the year", "", "£501.26"]],
        "after": ["We will collect 10 monthly Direct Debit payments of £50.13 (the last one £50.09), "
                  "starting on 15 April 2028.",
                  "Leaks and emergencies, 24 hours: 08081 570 336.",
                  "Your meter will next be read in October 2028."],
    },
    "glasses-prescription.pdf": {
        "lines": ["Brightlow Opticians, 18 Market Stile, Pelsby", "Spectacle prescription",
                  "Patient: Agnieszka Hollin", "Date of eye test: 7 July 2028", "Optometrist: Cosmo Verrall"],
        "table": [["Eye", "Sphere", "Cylinder", "Axis", "Add"], ["Right (R)", "-2.25", "-0.50", "180", "+1.00"],
                  ["Left (L)", "-1.75", "-0.75", "170", "+1.00"]],
        "after": ["Pupillary distance: 63 mm.",
                  "Eye pressures: R 15 mmHg, L 16 mmHg. Retinal photographs normal.",
                  "Recommended recall: 2 years (next test due July 2030).",
                  "Eye test fee: £25.00. Varifocals ordered: £289.00, ready in 10 days."],
    },
    "narrowboat-hire.pdf": {
        "lines": ["Wandle & Teme Narrowboats", "Hire confirmation", "Booking ref: WTN-48127",
                  "Hirer: Dominic Fairweather", "Boat: Kittiwake, 58 ft, sleeps 6", "Base: Colebrook Wharf"],
        "table": [["Item", "Detail", "Price"], ["Hire", "Sat 19 August 2028 to Sat 26 August 2028", "£1,645.00"],
                  ["Damage waiver", "Non-returnable", "£95.00"], ["Dog", "1 dog", "£40.00"],
                  ["Fuel deposit", "Returned less diesel used, charged by engine hour", "£150.00"],
                  ["Total", "", "£1,930.00"]],
        "after": ["Deposit paid: £500.00 on 2 February 2028. Balance of £1,430.00 due by 22 July 2028.",
                  "Boarding from 2pm on the first day. Return the boat by 9am on the last day.",
                  "New crews get a free 45-minute handling lesson at the wharf before setting off.",
                  "Base phone: 01632 960 874"],
    },
    "florist-quote.pdf": {
        "lines": ["Thistle & Tansy Flowers", "Wedding flowers quotation", "Quote number: TT-Q-0871",
                  "Couple: Maud Penrose and Caspian Oduya", "Wedding date: Saturday 21 April 2029",
                  "Venue: Hembury Mill Barn"],
        "table": [["Item", "Qty", "Each", "Total"],
                  ["Bridal bouquet (peonies, eucalyptus)", "1", "£165.00", "£165.00"],
                  ["Bridesmaid posies", "3", "£55.00", "£165.00"], ["Buttonholes", "8", "£12.50", "£100.00"],
                  ["Table centrepieces", "12", "£38.00", "£456.00"], ["Arch garland", "1", "£320.00", "£320.00"],
                  ["Delivery and set-up", "", "", "£60.00"], ["Total", "", "", "£1,266.00"]],
        "after": ["A 25% deposit (£316.50) secures the date. The balance is due 28 days before the wedding.",
                  "This quote is valid until 31 October 2028.",
                  "Florist: Juniper Haskett, 07700 900 385"],
    },
    "isa-statement.pdf": {
        "lines": ["Pellworth Building Society", "Cash ISA statement", "Account holder: Saoirse Mendip",
                  "Account number: 70214486", "Sort code: 60-84-19",
                  "Statement period: 6 April 2028 to 5 October 2028"],
        "table": [["Date", "Description", "Paid in", "Balance"],
                  ["6 April 2028", "Opening balance", "", "£8,420.16"],
                  ["12 April 2028", "Transfer in", "£2,000.00", "£10,420.16"],
                  ["30 June 2028", "Interest", "£98.74", "£10,518.90"],
                  ["15 August 2028", "Transfer in", "£1,500.00", "£12,018.90"],
                  ["30 September 2028", "Interest", "£117.42", "£12,136.32"]],
        "after": ["Interest rate: 3.85% AER variable, paid quarterly.",
                  "ISA allowance used this tax year: £3,500.00 of £20,000.00.",
                  "Up to 3 withdrawals a year are allowed without losing interest."],
    },
    "carpet-quote.pdf": {
        "lines": ["Underfoot Flooring Co.", "Quotation", "Quote ref: UF-3392",
                  "Customer: Saoirse Mendip, 6 Orchard Nook, Pelsby", "Date: 11 September 2028"],
        "table": [["Room", "Area", "Product", "Price"],
                  ["Lounge", "18.4 m2", "Harlow twist, oatmeal", "£846.40"],
                  ["Stairs and landing", "14 stairs + 4.2 m2", "Harlow twist, oatmeal", "£612.00"],
                  ["Main bedroom", "13.1 m2", "Saxony deep pile, dove grey", "£550.20"],
                  ["Underlay and grippers", "All areas", "10 mm PU underlay", "£214.00"],
                  ["Fitting", "", "", "£280.00"], ["Total", "", "", "£2,502.60"]],
        "after": ["Fitting date offered: 26 September 2028. Fitter: Ossie Branwell.",
                  "Taking up and disposing of the old carpet: £60 extra if wanted.",
                  "This quote is valid for 30 days."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 700 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "seventh"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # solicitor's letter
    ("how much are the wills going to cost us", "solicitor-letter", ["540"]),
    ("who's sorting out our wills at the solicitors", "solicitor-letter", ["Philippa Gorringe"]),
    ("what do we need to take with us when we go in to sign", "solicitor-letter", ["photo ID", "executors"]),
    ("how much do they want before they start and how long till we get the drafts", "solicitor-letter",
     ["300", "15 working days"]),
    ("how much is the health and welfare power of attorney", "solicitor-letter", None, "subject"),
    ("who are the witnesses for our wills", "solicitor-letter", None, "role"),
    ("what's philippa's email", "solicitor-letter", None, "type"),
    # planning decision
    ("did the extension get planning permission", "planning-decision", ["granted"]),
    ("how long have we got to start the extension", "planning-decision", ["three years"]),
    ("what time can the builders start on a saturday", "planning-decision", ["9am"]),
    ("who's the planning officer and what's her number", "planning-decision", ["Delphine Rusk", "01632 960 319"]),
    ("what's the deadline for appealing the planning conditions", "planning-decision", ["12 weeks"]),
    ("when did we put the planning application in", "planning-decision", None, "role"),
    ("how much did the planning application cost", "planning-decision", None, "type"),
    ("what colour do the roof tiles on the extension have to be", "planning-decision", None, "attribute"),
    # sourdough
    ("how much salt in the sourdough", "sourdough", ["10g"]),
    ("how long does the shaped loaf sit in the fridge", "sourdough", ["12 to 16 hours"]),
    ("what oven temp do i start the sourdough at and how long with the lid on", "sourdough",
     ["240C", "20 minutes"]),
    ("how do i look after the starter between bakes", "sourdough", ["fridge", "1:1:1"]),
    ("how much rye flour goes in the sourdough", "sourdough", None, "subject"),
    ("how long will the sourdough loaf keep", "sourdough", None, "attribute"),
    ("how many calories in a slice of dilys's sourdough", "sourdough", None, "type"),
    # moving checklist
    ("what time are the removal men turning up", "moving-checklist", ["7:30"]),
    ("when can we pick up the keys for orchard nook", "moving-checklist", ["12 noon"]),
    ("what have i still got to do before the move", "moving-checklist",
     ["council tax", "defrost", "meter readings"]),
    ("who's having pippin while we move", "moving-checklist", ["Winnie"]),
    ("how long is our post being redirected for", "moving-checklist", ["6 months"]),
    ("what's hebblewhite's phone number", "moving-checklist", None, "attribute"),
    # choir AGM
    ("who's the choir treasurer now", "choir-agm", ["Ravi Pendlebury"]),
    ("how much are choir subs going up to", "choir-agm", ["52"]),
    ("when and where is the christmas concert", "choir-agm", ["16 December 2028", "St Oswin"]),
    ("what's imelda doing for the concert", "choir-agm", ["poster"]),
    ("how much money has the choir got in the bank", "choir-agm", ["2,318"]),
    ("what's hattie taking on for the concert", "choir-agm", None, "role"),
    ("how much does ferdinand get paid", "choir-agm", None, "attribute"),
    ("how much profit did the summer concert make", "choir-agm", None, "subject"),
    ("what's imelda's phone number", "choir-agm", None, "type"),
    # piano lessons
    ("how much is each piano lesson", "piano-lessons", ["23"]),
    ("when's elsie's piano exam", "piano-lessons", ["25 November 2028"]),
    ("what's elsie supposed to be practising", "piano-lessons", ["D major", "Clockwork Owl"]),
    ("what time does piano finish on wednesdays", "piano-lessons", ["4.45pm"]),
    ("how much notice does mrs quennell need if elsie can't make it", "piano-lessons", ["48 hours"]),
    ("how much is the grade 3 exam", "piano-lessons", None, "subject"),
    # washing machine repair
    ("what was up with the washing machine", "washing-machine-repair", ["draining"]),
    ("how much did the washer repair come to in the end", "washing-machine-repair", ["118.50"]),
    ("how long is the repair guaranteed", "washing-machine-repair", ["90 days"]),
    ("how often should i clean the filter on the washer", "washing-machine-repair", ["6 weeks"]),
    ("what's the washing machine engineer's phone number", "washing-machine-repair", None, "type"),
    ("how much was the new door seal", "washing-machine-repair", None, "subject"),
    # chimney sweep receipt
    ("how much did the chimney sweep charge", "chimney-sweep-receipt", ["130.00"]),
    ("when does the chimney need sweeping again", "chimney-sweep-receipt", ["12 months"]),
    ("did i pay the sweep by card", "chimney-sweep-receipt", ["cash"]),
    ("what's the sweep's mobile", "chimney-sweep-receipt", ["07700 900 217"]),
    ("how much would the cowl have been", "chimney-sweep-receipt", None, "attribute"),
    # passport renewal
    ("how much did milo's passport cost", "passport-renewal", ["61.50"]),
    ("who signed milo's passport form for us", "passport-renewal", ["Gwendolen Ashby"]),
    ("when does milo's current passport expire", "passport-renewal", ["11 July 2028"]),
    ("how long's the new passport going to take", "passport-renewal", ["3 weeks"]),
    ("what's milo's new passport number", "passport-renewal", None, "role"),
    ("what number do i ring to chase milo's passport", "passport-renewal", None, "type"),
    # house sitter notes
    ("what's the code for the alarm", "house-sitter-notes", ["6093"]),
    ("what's the password for the alarm company", "house-sitter-notes", ["marmalade"]),
    ("when does the dog get fed", "house-sitter-notes", ["7am", "5pm"]),
    ("which night does the bin go out", "house-sitter-notes", ["Tuesday"]),
    ("where do you turn the water off", "house-sitter-notes", ["under the kitchen sink"]),
    ("what's the code for the garage door", "house-sitter-notes", None, "subject"),
    ("what time is femi getting here on the 12th", "house-sitter-notes", None, "role"),
    # bulky waste
    ("what day are the council taking the sofa", "bulky-waste", ["5 October 2028"]),
    ("how much is the bulky waste pickup", "bulky-waste", ["38.00"]),
    ("what have i booked for the council to take away", "bulky-waste", ["sofa", "mattress", "exercise bike"]),
    ("how much extra if i want them to take the old fridge as well", "bulky-waste", ["27.00"]),
    ("what's the number for the bulky waste team", "bulky-waste", None, "type"),
    # payslip (PDF)
    ("how much did i take home this month", "payslip", ["2,249.05"]),
    ("how much tax came off my wages", "payslip", ["412.40"]),
    ("what's my tax code", "payslip", ["1257L"]),
    ("how many days holiday have i got left", "payslip", ["11.5 days"]),
    ("how much national insurance did i pay and how much tax have i paid so far this year", "payslip",
     ["169.35", "2,474.40"]),
    ("how much did my employer put into my pension", "payslip", None, "role"),
    ("how much student loan came off my pay", "payslip", None, "subject"),
    # water bill (PDF)
    ("what's the water bill for the year", "water-bill", ["501.26"]),
    ("how much is the monthly direct debit for water", "water-bill", ["50.13"]),
    ("who do i call if there's a burst pipe", "water-bill", ["08081 570 336"]),
    ("how much water did we use", "water-bill", ["96 cubic metres"]),
    ("how much is the gas standing charge", "water-bill", None, "subject"),
    # spectacle prescription (PDF)
    ("what's the sphere on my left eye", "glasses-prescription", ["-1.75"]),
    ("whats my pd", "glasses-prescription", ["63 mm"]),
    ("when am i due another eye test", "glasses-prescription", ["July 2030"]),
    ("how much were the varifocals and when will they be ready", "glasses-prescription", ["289.00", "10 days"]),
    ("what's my contact lens prescription", "glasses-prescription", None, "subject"),
    ("what prism is on my glasses", "glasses-prescription", None, "attribute"),
    ("what's the opticians phone number", "glasses-prescription", None, "type"),
    # narrowboat hire (PDF)
    ("what's the name of the boat we've hired", "narrowboat-hire", ["Kittiwake"]),
    ("how much do we still owe on the boat and when by", "narrowboat-hire", ["1,430.00", "22 July 2028"]),
    ("what time does the boat have to be back", "narrowboat-hire", ["9am"]),
    ("how much extra is it to bring the dog on the boat", "narrowboat-hire", ["40.00"]),
    ("how much is the diesel per hour", "narrowboat-hire", None, "attribute"),
    ("what date did we pay off the rest of the boat", "narrowboat-hire", None, "role"),
    # florist quote (PDF)
    ("how much are the wedding flowers altogether", "florist-quote", ["1,266.00"]),
    ("what flowers are in maud's bouquet", "florist-quote", ["peonies", "eucalyptus"]),
    ("how much deposit does the florist want", "florist-quote", ["316.50"]),
    ("how much is a buttonhole", "florist-quote", ["12.50"]),
    ("how much are the corsages", "florist-quote", None, "subject"),
    ("when do we have to pay the florist's deposit by", "florist-quote", None, "attribute"),
    # cash ISA statement (PDF)
    ("how much is in my isa", "isa-statement", ["12,136.32"]),
    ("what rate is the isa paying", "isa-statement", ["3.85%"]),
    ("how much of this year's isa allowance have i used", "isa-statement", ["3,500.00"]),
    ("how much did i take out of the isa", "isa-statement", None, "role"),
    ("what's the balance on my current account", "isa-statement", None, "subject"),
    # carpet quote (PDF)
    ("what carpet are we having in the bedroom", "carpet-quote", ["Saxony"]),
    ("how much is the carpet quote in total and when can they fit it", "carpet-quote",
     ["2,502.60", "26 September 2028"]),
    ("how much to get rid of the old carpet", "carpet-quote", ["60"]),
    ("how much is the carpet for the dining room", "carpet-quote", None, "subject"),
    ("what's ossie's number", "carpet-quote", None, "type"),
    ("how long will it take them to fit the carpets", "carpet-quote", None, "attribute"),
])]
