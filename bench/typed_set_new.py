"""A second held-out typed set (issue 33, session 16): 5 documents written for this bench after
the rules of answer/ were last changed, and 20 questions over them, 6 unanswerable. Written by
hand for Cairn; no third-party text. Same shape as bench/typed_set.py (`write`, `QUESTIONS`,
`expect` None for an unanswerable question, `why` the way it is unanswerable); every question
is held out (`part` "new"): it was written before the session's answer changes and is looked
at only at the end (`python bench/answers_typed.py --set new`).
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "water-bill.md": """# Riverside Water bill

RIVERSIDE WATER
Customer number: RW-330912
Bill date: 5 May 2027
Standing charge: £38.20
Water supply: £112.64
Sewerage: £131.06
Total to pay: £281.90
Direct debit: 10 monthly instalments of £28.19
Customer services: 0345 600 2277
""",
    "piano-lessons.md": """# Piano lessons for Mia

Teacher: Hannah Berg
Lessons every Thursday at 16:30, 45 minutes each.
Fee per term: £180
Next term starts on 8 September 2027.
Hannah's mobile: 07700 900 812
Practice goal: twenty minutes a day.
""",
    "book-club.md": """# Book club, 3 June 2027

Present: Ines, Marco, Ruth, Sam.
We discussed "The Salt Road" and voted to read a poetry collection next.
Marco agreed to host the July meeting.
Ruth will bring the next book list.
Next meeting: 1 July 2027 at 19:00.
""",
    "passport-renewal.md": """# Passport renewal

Application reference: PEX 4471 0923
Submitted online on 12 April 2027.
Fee paid: £88.50
The new passport is expected within 3 weeks.
The old passport must be posted back with the signed form.
""",
}

PDFS: dict[str, dict] = {
    "storage-invoice.pdf": {
        "lines": ["BoxSafe Self Storage", "Invoice", "Invoice number: BSS-77120", "Storage unit: 14B (50 sq ft)",
                  "Invoice date: 1 June 2027"],
        "table": [["Period", "Description", "Amount"], ["June 2027", "Unit rent", "£89.00"],
                  ["June 2027", "Insurance cover", "£6.50"], ["", "Total", "£95.50"]],
        "after": ["Payment due by 15 June 2027.", "Access hours: 06:00 to 22:00 daily."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 100 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "new"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    ("How much is the Riverside Water bill in total?", "water-bill", ["281.90"]),
    ("What is my Riverside Water customer number?", "water-bill", ["RW-330912"]),
    ("What is the water company's customer services number?", "water-bill", ["0345 600 2277"]),
    ("What is the Riverside Water email address?", "water-bill", None, "type"),
    ("What time are Mia's piano lessons?", "piano-lessons", ["16:30"]),
    ("How long is each piano lesson?", "piano-lessons", ["45 minutes"]),
    ("How much is the piano fee per term?", "piano-lessons", ["180"]),
    ("When does the next piano term start?", "piano-lessons", ["8 September 2027"]),
    ("How much does a single piano lesson cost?", "piano-lessons", None, "attribute"),
    ("What is the violin teacher's phone number?", "piano-lessons", None, "subject"),
    ("What did Marco agree to do at the book club?", "book-club", ["host the July meeting"]),
    ("When is the next book club meeting?", "book-club", ["1 July 2027"]),
    ("What did Ines agree to do at the book club?", "book-club", None, "role"),
    ("What is the passport application reference?", "passport-renewal", ["PEX 4471 0923"]),
    ("How much was the passport renewal fee?", "passport-renewal", ["88.50"]),
    ("How much was the driving licence renewal fee?", "passport-renewal", None, "subject"),
    ("What is the total on the BoxSafe storage invoice?", "storage-invoice", ["95.50"]),
    ("What is my storage unit number?", "storage-invoice", ["14B"]),
    ("When is the BoxSafe invoice payment due?", "storage-invoice", ["15 June 2027"]),
    ("What is the BoxSafe late payment fee?", "storage-invoice", None, "attribute"),
])]
