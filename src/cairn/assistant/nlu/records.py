"""How a note's lines hold records, for choosing the sentence that answers: a line's later sentences belong
to what its first names (`line_heads`), and a weekday that recurs (`WEEKLY`) answers "what night is X".
Plain functions of text; no imports of the rest of the assistant.
"""

from __future__ import annotations

import re


# A line of a note is one record ("- Mum: 12 June. Loves gardening; would like a kneeler."): its later sentences
# are about what its first one names, so they share its words when scored for a question ("what's mum after"
# reaches the kneeler; replies.best_sentences). Switch off: LINE_HEAD.
LINE_HEAD = True


def line_heads(body: str, sentences) -> dict[str, str]:
    """{sentence: the first sentence of its line} for the sentences after a line's first; `sentences`
    splits a text into sentences (replies.sentences)."""
    out: dict[str, str] = {}
    for ln in body.splitlines():
        parts = sentences(ln)
        for s in parts[1:]:
            out.setdefault(s, parts[0])
    return out


# "what night / evening / morning is X" asks the day of the week it comes round on, as "what day" does: a sentence
# naming a weekday recurring ("Wednesdays", "Tuesday evenings", "every Friday") with its hour or part of the day
# answers it ("Wednesdays 6.30pm to 8.30pm"), not a one-off date ("Exam date: Wednesday 28 May") nor another
# weekly thing said without one ("we meet for a coffee on Saturdays"; replies.asked_kind). Switch off: PART_OF_DAY.
PART_OF_DAY = True
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
WEEKLY = re.compile(rf"\b{_DAY}s\b|\b(?:every|each)\s+{_DAY}\b|\b{_DAY}\s+(?:night|evening|morning|afternoon)s\b", re.I)
PART_WORD = re.compile(r"\b(?:night|evening|morning|afternoon)s?\b", re.I)
