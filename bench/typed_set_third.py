"""A third held-out typed set (issue 33, session 19): 7 documents written for this bench at the
start of session 19, before that session's answer changes, and 27 questions over them, 7
unanswerable. Written by hand for Cairn; no third-party text. Same shape as bench/typed_set.py
(`write`, `QUESTIONS`, `expect` None for an unanswerable question, `why` the way it is
unanswerable). The questions are phrased as a person types them (lower case, other words
than the note's, two parts, lists); every one is held out (`part` "third") and is looked at
only at the end of the session that wrote it (`python bench/answers_typed.py --set third`).
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "boiler-quote.md": """# Boiler replacement quote

From: Northgate Heating Ltd
Quote number: NH-2291
Date: 14 February 2028
Combi boiler (30 kW), supply and fit: £2,140.00
Magnetic filter: £145.00
Removal of the old boiler: £90.00
Quote total: £2,375.00
Valid for 30 days.
Engineer: Priya Lal, Gas Safe number 604118
Office: 0161 496 0733
""",
    "allotment.md": """# Allotment plot 17

Plot 17 at Millbrook Allotments, half plot.
Annual rent: £42, due every 1 October.
Water troughs are switched off from November to March.
Gate code: 4829
Plot neighbour: Dev Okafor (plot 18), who lends us his rotavator.
This year we are growing broad beans, leeks, beetroot and courgettes.
The committee meets on the first Sunday of each month at 10:00 in the hut.
""",
    "dentist.md": """# Dentist check-up

Practice: Harbourside Dental, 22 Quay Street
Appointment: Tuesday 7 March 2028 at 08:40 with Dr Amara Quist
Bring: your NHS number, a list of current medicines and the £27.50 band 1 charge.
Arrive ten minutes early to fill in the medical history form.
To cancel, call 01632 960 448 at least 24 hours before.
""",
    "minutes-residents.md": """# Elm Court residents' meeting, 9 January 2028

Present: Judith Varga (chair), Tomasz Nowak, Grace Ellery, Ravi Shah.
Apologies: Helen Crewe.
1. Bin store: the lock is broken again; Tomasz will ask the managing agent to replace it.
2. Garden: Grace offered to plant bulbs in the front beds in March.
3. Service charge: rising to £1,260 a year from April.
Next meeting: 12 March 2028 at 19:30 in flat 4.
""",
    "sourdough.md": """# Rye sourdough

Makes one loaf (about 900 g).
Starter: 150 g, fed the night before.
Dark rye flour: 300 g
Strong white flour: 200 g
Water: 380 g, lukewarm
Salt: 10 g
Mix everything, rest 30 minutes, then fold four times over two hours.
Prove in the tin for 3 to 4 hours, until the dough has risen by a third.
Bake at 230 °C for 15 minutes, then at 210 °C for 45 minutes.
Leave it a whole day before slicing.
""",
}

PDFS: dict[str, dict] = {
    "vet-invoice.pdf": {
        "lines": ["Brookside Veterinary Centre", "Invoice", "Invoice number: BVC-50317",
                  "Patient: Pepper (cat, 6 years)", "Date: 2 February 2028"],
        "table": [["Item", "Qty", "Amount"], ["Consultation", "1", "£48.00"],
                  ["Booster vaccination", "1", "£56.50"], ["Flea treatment", "3", "£31.20"],
                  ["", "Total", "£135.70"]],
        "after": ["Next booster due: February 2029.", "Paid by card on the day."],
    },
    "car-insurance.pdf": {
        "lines": ["Beacon Motor Insurance", "Policy schedule", "Policy number: BMI-8830-2716",
                  "Vehicle: 2019 Skoda Fabia, registration KT19 RWN",
                  "Cover: comprehensive", "Period: 1 March 2028 to 28 February 2029"],
        "table": [["Item", "Amount"], ["Annual premium", "£512.40"], ["Compulsory excess", "£250"],
                  ["Voluntary excess", "£150"]],
        "after": ["Claims line (24 hours): 0800 046 2290.", "Named driver: Sam Whitlock."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 200 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "third"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    ("how much will the new boiler cost altogether?", "boiler-quote", ["2,375"]),
    ("what's the quote number from Northgate?", "boiler-quote", ["NH-2291"]),
    ("what is the gas safe number of the engineer?", "boiler-quote", ["604118"]),
    ("how long is the boiler quote valid?", "boiler-quote", ["30 days"]),
    ("how much is the boiler's annual service?", "boiler-quote", None, "attribute"),
    ("whats the code for the allotment gate", "allotment", ["4829"]),
    ("how much rent do we pay for the allotment each year?", "allotment", ["42"]),
    ("what are we growing on the allotment this year?", "allotment",
     ["broad beans", "leeks", "beetroot", "courgettes"]),
    ("who lends us a rotavator?", "allotment", ["Dev Okafor"]),
    ("what is Dev Okafor's phone number?", "allotment", None, "type"),
    ("when is my dentist appointment and what do I need to bring?", "dentist",
     ["7 March 2028", "08:40", "NHS number"]),
    ("how much is the dental charge?", "dentist", ["27.50"]),
    ("what number do I ring to cancel the dentist?", "dentist", ["01632 960 448"]),
    ("who is my optician?", "dentist", None, "subject"),
    ("who chaired the Elm Court meeting?", "minutes-residents", ["Judith Varga"]),
    ("what is Tomasz going to do about the bin store?", "minutes-residents", ["managing agent"]),
    ("what did Helen Crewe agree to do?", "minutes-residents", None, "role"),
    ("how much will the service charge be from April?", "minutes-residents", ["1,260"]),
    ("how much dark rye flour goes in the sourdough?", "sourdough", ["300 g"]),
    ("what temperature do I bake the rye loaf at first?", "sourdough", ["230"]),
    ("how much yeast does the rye sourdough need?", "sourdough", None, "attribute"),
    ("what did the vet charge for Pepper's booster?", "vet-invoice", ["56.50"]),
    ("what was the total of the vet bill?", "vet-invoice", ["135.70"]),
    ("how much did the vet charge for Pepper's dental cleaning?", "vet-invoice", None, "attribute"),
    ("what's my car insurance policy number?", "car-insurance", ["BMI-8830-2716"]),
    ("what's the number for making a claim on the car insurance?", "car-insurance", ["0800 046 2290"]),
    ("what's the home insurance excess?", "car-insurance", None, "subject"),
])]
