"""Is the quoted line's value stated of a counterpart of what was asked (typed23, issue 33)? Three readings of form, no
word lists: a quote that writes the asked word only as

- its role counterpart: the same stem with the other agent / recipient suffix ("employer" asked, "Pension, employee
  5%" quoted; payer / payee, lessor / lessee, guarantor / guarantee);
- a negated compound: "peak" asked, only "Off-Peak membership" quoted (off-, non-; not for a yes/no question, which
  it answers "No");
- another number of the same thing: "plot 23" asked, the quote or its note's title says "plot 22" and never "plot 23"
  ("grade 3" / "Grade 2").

states another thing than the one asked: checks.finish declines it with pointers (switch `CONTRAST`). Pure functions.
"""

from __future__ import annotations

import re

from cairn.ner_written import CALENDAR

CONTRAST = True
_ROLE_SUFFIXES = ("er", "or", "ee")
_WORD = re.compile(r"[a-z][a-z'’-]*")
_NUMBERED = re.compile(r"\b([a-z]{3,})\s+(\d+[a-z]?)\b")
# words before a number that name no numbered thing ("for 2 people", "at 3", "about 20 minutes")
_NOT_THINGS = frozenset("""for from and the with about after before than over under around only just least most
into onto upon until till since every each per and are was were has had have ages aged age""".split())


def _plain(word: str) -> str:
    return word.strip("'’-").removesuffix("'s").removesuffix("’s")


def counterpart(question: str, quote: str, polar: bool = False) -> str | None:
    """The word of `question` that `quote` writes only as its role counterpart or inside a negated compound (module
    doc), as the question writes it; None when there is none. polar: a yes/no question, for which a negated compound
    is the answer ("is the deposit refundable": "No: Deposit: £200, non-refundable"), not another thing."""
    text = quote.lower()
    held = {_plain(w) for w in _WORD.findall(text)} | {w.rstrip("s") for w in _WORD.findall(text)}
    for q in map(_plain, _WORD.findall(question.lower())):
        if len(q) < 3 or q in held or q + "s" in held:
            continue
        if len(q) >= 5 and any(q.endswith(s) and any(q[:-2] + x in held for x in _ROLE_SUFFIXES if x != s)
                               for s in _ROLE_SUFFIXES):
            return q
        if not polar and re.search(rf"\b(?:off|non)-{re.escape(q)}s?\b", text) and not re.search(
                rf"(?<![\w-]){re.escape(q)}s?\b", text):
            return q
    return None


def other_number(question: str, text: str) -> str | None:
    """"NOUN N" of `question` when `text` numbers NOUN only otherwise ("plot 23" asked, "plot 22" written; "Grade: 2");
    None when the text writes N of it, numbers it nowhere, or the question numbers nothing."""
    low = text.lower()
    for noun, n in _NUMBERED.findall(question.lower()):
        if noun in _NOT_THINGS or noun in CALENDAR:
            continue
        written = re.findall(rf"\b{noun}s?\W{{0,2}}\s*(\d+[a-z]?)\b", low)
        if written and n not in written:
            return f"{noun} {n}"
    return None


def contrast(question: str, quotes: list[str], titles: list[str], polar: bool = False) -> str | None:
    """What `question` asks that the quotes state only of a counterpart (module doc): the asked word or "NOUN N"; None
    when none, or when CONTRAST is off. polar: a yes/no question (`counterpart`)."""
    if not CONTRAST or not quotes:
        return None
    return counterpart(question, " ".join(quotes), polar) or other_number(question, " ".join(quotes + titles))
