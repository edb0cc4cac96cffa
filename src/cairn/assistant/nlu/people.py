"""The people a sentence names, as the assistant's note readers find them without a model:
`people(text)` (a title and a name, a two-word capitalised run that is no place or calendar
phrase, one capitalised word after a word that takes a person), `Personish` (a pattern-like
test of a sentence naming someone) and `PHONE` (a phone number's digits).
"""

from __future__ import annotations

import re

PHONE = re.compile(r"(?:\+?\d[\d ()-]{7,}\d)")  # a phone number's digits in a sentence
# capitalised words of the calendar, never a person's name: "First Saturday of the month" is no one
_CALENDAR = frozenset("monday tuesday wednesday thursday friday saturday sunday january february march april may june "
                      "july august september october november december christmas easter year".split())


_CAPS_RUN = re.compile(r"\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)+\b")
_PLACE_BEFORE = re.compile(r"(?:\b(?:on|at|in|into|near|from|to|off|the|of)|\d)\s*$", re.I)


_TITLED = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?")
# one capitalised word after a word that takes a person ("with Tomasz", "ask Priya", "ring Jo"), not a day
_AFTER_PERSON_WORD = re.compile(r"\b(?:with|ask|call|ring|text|tell|phone|message)\s+(?P<n>[A-Z][a-z'’-]+)\b(?!\s+[A-Z])")


def people(text: str) -> list[str]:
    """The people a sentence names, in order: a title and a name ("Dr Hale"), a run of exactly
    two capitalised words that is no place, calendar phrase or body (`Personish`'s rules:
    "Priya Mistry", "Aunt Carol"; not "on Mill Lane", "First Saturday", "Clevedon Community
    Choir"), or one capitalised word after a word that takes a person ("with Tomasz", "ring
    Jo"; not a day: "with Friday" is none)."""
    found: list[tuple[int, str]] = [(m.start(), m.group(0)) for m in _TITLED.finditer(text)]
    found += [(m.start(), m.group(0)) for m in _CAPS_RUN.finditer(text)
              if len(m.group(0).split()) == 2 and not set(m.group(0).lower().split()) & _CALENDAR
              and not _PLACE_BEFORE.search(text[:m.start()]) and not any(a <= m.start() < a + len(n) for a, n in found)]
    found += [(m.start("n"), m.group("n")) for m in _AFTER_PERSON_WORD.finditer(text)
              if m.group("n").lower() not in _CALENDAR]
    return list(dict.fromkeys(n for _, n in sorted(found)))


class Personish:
    """A sentence naming a person: a title and a name ("Dr Hale", "Mrs Hale"), or exactly two
    capitalised words (a run of three or more, "Clevedon Community Choir", names a body or a
    place) that follow no place preposition, article or number ("on Mill Lane", "in St
    Barnabas", "22 Orchard Parade", "2016 Skoda Octavia") and hold no word of the calendar
    ("First Saturday", "New Year", `_CALENDAR`). `search(s)` as a pattern's."""

    @staticmethod
    def search(s: str) -> bool:
        return bool(people(s))
