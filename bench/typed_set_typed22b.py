"""A held-out typed set of session 22 (issue 33), written by the helper typed22b before any change
of that session to the answerer, for procedures ("how do I", "how to", "what's the process for")
and yes/no questions ("is", "can", "does", "are"), plus who-questions whose note has lines that only
repeat the subject. 5 household notes and 30 questions, 11 of them unanswerable. Every person,
company, place, amount, date, code and phone number is invented (phone numbers from the drama
ranges); no third-party text. Same shape as bench/typed_set.py (`write`, `QUESTIONS`; `expect` a
list of strings the answer must each hold, None for an unanswerable question; `why` the way it is
unanswerable, as in bench/typed_set_sixth.py).

Held out: run once, at the end of session 22's typed22b (`python bench/answers_typed.py --set
typed22b`); nothing is tuned on it.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "library-card.md": """# Fenwick Lane library

Card holder: Ottilie Brannagh
Card number: FL-330915

Opening hours: Monday to Friday 9am to 7pm, Saturday 10am to 4pm, closed Sunday.

## Renewing a book
1. Log in to the library website with the card number and PIN.
2. Open "My loans" and tick the books to renew.
3. Press Renew; each book can be renewed three times unless someone has reserved it.

## Fines
Children's books carry no fines. Adult books are 20p a day late, up to £6 a book.

Printing costs 15p a page in black and white. The reading room is quiet study only.
""",
    "dishwasher.md": """# Kestrel DW60 dishwasher

Bought: 4 April 2028 from Hallam Electrics
Model number: KDW60-2214
Guarantee: 3 years parts and labour

## Cleaning the filter
Twist the filter at the bottom of the tub anticlockwise and lift it out. Rinse it under the hot
tap and brush off any food. Put it back and twist clockwise until it clicks.

The salt light means the softener needs salt: fill the salt chamber with dishwasher salt until
it is full. Do not put table salt in it.

The eco programme takes 3 hours 10 minutes. The dishwasher is not suitable for cast iron pans
or wooden boards.
""",
    "council-tax.md": """# Council tax, 27 Marsh Road

Band: C
Annual charge: £1,843.20, paid in 10 monthly instalments from April
Account reference: 77120459
Council: Wetherby Vale District Council

We get the single person discount of 25% since Rufus moved out in 2028.

To move the payment date, phone the council tax team on 01632 960 418 and ask for the 15th or the
28th. To report a change of circumstances, fill in the online form on the council's website
within 21 days.
""",
    "piano-lessons.md": """# Seraphina's piano lessons

Teacher: Mr Anselm Dubrovka
Lessons: Wednesdays at 4:15pm, 30 minutes, at his house on Quarry Lane
Fee: £19 a lesson, paid half-termly in advance

Seraphina is working towards her Grade 2 exam in March. She practises for 20 minutes a day.
Cancellations with less than 24 hours' notice are charged in full.

Next lesson topic: scales in D major
""",
    "bike-service.md": """# Bike service record

Bike: Marlowe Trekker 7 hybrid, frame number MT7-4410-B
Serviced by: Spokesmith Cycles, Kirkgate
Service date: 22 August 2029
Next service due: August 2030

Work done: new brake pads front and rear, chain replaced, gears indexed.
The rear tyre is worn and should be replaced before winter. The wheels are true.

To fix a puncture: take the wheel off, lever the tyre off with two tyre levers, find the hole
by pumping the tube up, patch it, then refit the tube and tyre and pump to 60 psi.
""",
}

PDFS: dict[str, dict] = {}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 2250 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "typed22b"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # library
    ("how do i renew a library book", "library-card", ["My loans", "Renew"]),
    ("are there fines on children's library books", "library-card", ["no fines"]),
    ("is the library open on sunday", "library-card", ["closed Sunday"]),
    ("how do i join the library", "library-card", None, "attribute"),
    ("can i eat in the library reading room", "library-card", None, "attribute"),
    ("how much is printing at the library", "library-card", ["15p"]),
    # dishwasher
    ("how do i clean the dishwasher filter", "dishwasher", ["anticlockwise"]),
    ("can i put the cast iron pan in the dishwasher", "dishwasher", ["not suitable for cast iron"]),
    ("is the dishwasher still under guarantee", "dishwasher", None, "attribute"),
    ("how do i descale the dishwasher", "dishwasher", None, "attribute"),
    ("who sold us the dishwasher", "dishwasher", ["Hallam Electrics"]),
    ("what's the process for the salt light on the dishwasher", "dishwasher", ["salt chamber"]),
    # council tax
    ("how do i change the council tax payment date", "council-tax", ["01632 960 418"]),
    ("do we get a council tax discount", "council-tax", ["25%"]),
    ("how do i appeal the council tax band", "council-tax", None, "attribute"),
    ("are we in council tax band d", "council-tax", ["Band: C"]),
    ("who is the council tax paid to", "council-tax", ["Wetherby Vale"]),
    ("is council tax paid by direct debit", "council-tax", None, "attribute"),
    # piano
    ("who teaches seraphina piano", "piano-lessons", ["Anselm Dubrovka"]),
    ("does seraphina have piano on wednesdays", "piano-lessons", ["Wednesdays"]),
    ("is seraphina doing her grade 3 exam", "piano-lessons", None, "attribute"),
    ("how do i cancel a piano lesson", "piano-lessons", ["24 hours"]),
    ("who is seraphina's violin teacher", "piano-lessons", None, "subject"),
    ("has seraphina passed grade 1", "piano-lessons", None, "attribute"),
    # bike
    ("how do i fix a puncture on the bike", "bike-service", ["tyre levers"]),
    ("who serviced the bike", "bike-service", ["Spokesmith Cycles"]),
    ("does the bike need new tyres", "bike-service", ["rear tyre is worn"]),
    ("were the bike's brake pads replaced", "bike-service", ["new brake pads"]),
    ("how do i adjust the bike saddle", "bike-service", None, "attribute"),
    ("who owns the bike", "bike-service", None, "role"),
])]
