"""A fifth held-out typed set (issue 33, session 20): 8 documents and 34 questions, 10 of them
unanswerable, written by the lead of session 20 before that session's answer changes were
merged, without reading the other sets' failure tables past session 19's. Written by hand for
Cairn; no third-party text. Same shape as bench/typed_set.py (`write`, `QUESTIONS`, `expect`
None for an unanswerable question, `why` the way it is unanswerable). Questions are typed the
way a person types them (lower case, their own words, some in two parts or asking for a list).
Every one is held out (`part` "fifth") and looked at once, at the end of the session
(`python bench/answers_typed.py --set fifth`).
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "school-trip.md": """# Year 5 trip to the Science Museum

Dear parents and carers,
Year 5 will visit the Science Museum on Thursday 18 May 2028.
The coach leaves from the school gates at 8:15 and returns at about 4:30 pm.
The trip costs £14.50, paid on ParentPay by 5 May.
Children need a packed lunch (no fizzy drinks) and a waterproof coat.
Mrs Okonjo, Year 5 teacher
""",
    "washer-warranty.md": """# Washing machine warranty

Model: Bosch Series 6 WGG244, bought from Hartley Electricals on 12 January 2027.
Warranty: 5 years, parts and labour, registered online.
Serial number: 4402-1187-55
If it breaks, book a repair on 0117 496 0552 with the serial number to hand.
""",
    "book-club.md": """# Book club, 2 April 2028

Present: Lena, Marcus, Beth, Oyelaran (hosting).
We discussed The Salt Road; most of us liked the first half more than the ending.
Next book: Winter Orchard, chosen by Marcus.
Next meeting: 7 May at Beth's, 7:30 pm.
Lena will bring the wine.
""",
    "flapjacks.md": """# Flapjacks

250 g porridge oats
125 g butter
125 g light brown sugar
3 tbsp golden syrup
Melt the butter, sugar and syrup, stir in the oats and press into a lined tin.
Bake at 180 °C (160 °C fan) for 20 to 25 minutes.
Cut into 12 squares while warm; they keep for 5 days in a tin.
""",
    "gp-letter.md": """# Letter from Fernlea Surgery

Dear Ms Adebayo,
Your blood test results are back. Your cholesterol is 5.8 mmol/L, a little above the target.
Your vitamin D is low: Dr Hollis has prescribed colecalciferol, 800 units daily for 8 weeks.
Please book a repeat blood test in 3 months.
Fernlea Surgery, telephone 0121 496 0087
""",
}

PDFS: dict[str, dict] = {
    "water-bill.pdf": {
        "lines": ["Severn Valley Water", "Your water bill", "Account number: SVW 4471 0932",
                  "Bill date: 3 April 2028", "Period: 1 October 2027 to 31 March 2028"],
        "table": [["Charge", "Amount"], ["Water supply", "£96.40"], ["Sewerage", "£118.22"],
                  ["Standing charge", "£22.00"], ["Total due", "£236.62"]],
        "after": ["Please pay by 24 April 2028.", "Leaks and emergencies: 0800 085 4471."],
    },
    "payslip.pdf": {
        "lines": ["Halden Logistics Ltd", "Payslip", "Employee number: 88214", "Pay date: 28 April 2028",
                  "Tax code: 1257L"],
        "table": [["Description", "Amount"], ["Basic pay", "£2,450.00"], ["Overtime", "£186.75"],
                  ["Income tax", "-£379.20"], ["National Insurance", "-£162.44"], ["Pension", "-£131.84"],
                  ["Net pay", "£1,963.27"]],
        "after": ["Paid into account ending 6620."],
    },
    "train-ticket.pdf": {
        "lines": ["Advance Single", "London Kings Cross to York", "Travel date: 9 June 2028",
                  "Ticket reference: 7XK-QP2-M41"],
        "table": [["Train", "Departs", "Arrives", "Coach", "Seat"], ["10:30 LNER", "10:30", "12:21", "C", "42"]],
        "after": ["Price paid: £38.60 with a 16-25 Railcard.", "Valid only on the train shown."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 500 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "fifth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    ("how much do i owe the water company", "water-bill", ["236.62"]),
    ("when's the water bill due", "water-bill", ["24 April 2028"]),
    ("what's my water account number", "water-bill", ["SVW 4471 0932"]),
    ("how much is the sewerage bit", "water-bill", ["118.22"]),
    ("what's the total on the gas bill", "water-bill", None, "subject"),
    ("what time does the coach leave for the science museum", "school-trip", ["8:15"]),
    ("what does my kid need to take on the museum trip", "school-trip", ["packed lunch", "waterproof coat"]),
    ("how much is the school trip and when do i have to pay by", "school-trip", ["14.50", "5 May"]),
    ("what's the year 5 teacher's email address", "school-trip", None, "type"),
    ("what was my take home pay in april", "payslip", ["1,963.27"]),
    ("how much tax came off my pay", "payslip", ["379.20"]),
    ("what's my tax code", "payslip", ["1257L"]),
    ("how much holiday pay did i get", "payslip", None, "attribute"),
    ("what's my overtime rate per hour", "payslip", None, "attribute"),
    ("how long is the washing machine guaranteed for", "washer-warranty", ["5 years"]),
    ("whats the serial number on the washer", "washer-warranty", ["4402-1187-55"]),
    ("who do i ring if the washing machine breaks down", "washer-warranty", ["0117 496 0552"]),
    ("when does the dishwasher warranty run out", "washer-warranty", None, "subject"),
    ("which seat have i got on the york train", "train-ticket", ["42"]),
    ("what time do i get into york", "train-ticket", ["12:21"]),
    ("how much did the train ticket to york cost", "train-ticket", ["38.60"]),
    ("which platform does the york train leave from", "train-ticket", None, "attribute"),
    ("what are we reading next at book club", "book-club", ["Winter Orchard"]),
    ("where is the next book club", "book-club", ["Beth"]),
    ("what's lena bringing", "book-club", ["wine"]),
    ("what did oyelaran think of the ending", "book-club", None, "role"),
    ("how much butter goes in the flapjacks", "flapjacks", ["125 g"]),
    ("how long do the flapjacks bake for", "flapjacks", ["20 to 25 minutes"]),
    ("how many eggs do the flapjacks need", "flapjacks", None, "attribute"),
    ("what was my cholesterol reading", "gp-letter", ["5.8"]),
    ("how long do i have to take the vitamin d for", "gp-letter", ["8 weeks"]),
    ("when do i need another blood test", "gp-letter", ["3 months"]),
    ("what was my blood pressure", "gp-letter", None, "attribute"),
    ("what did the dentist say about my fillings", "gp-letter", None, "subject"),
])]
