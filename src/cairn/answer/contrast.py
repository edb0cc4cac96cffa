"""Is the quoted line's value stated of a counterpart of what was asked (typed23, issue 33)? Three readings of form, no
word lists: a quote that writes the asked word only as

- its role counterpart: the same stem with the other agent / recipient suffix ("employer" asked, "Pension, employee
  5%" quoted; payer / payee, lessor / lessee, guarantor / guarantee);
- a negated compound: "peak" asked, only "Off-Peak membership" quoted (off-, non-; not for a yes/no question, which
  it answers "No"),
- another modifier of the noun asked: "rear tyres" asked, "New front tyres" quoted (`other_modifier`, MODIFIER),

states another thing than the one asked: checks.finish declines it with pointers (switch `CONTRAST`). Pure functions.
"""

from __future__ import annotations

import re

from cairn.answer.types import missing
from cairn.lexical import content_terms, stem
from cairn.ner import noun_modifiers
from cairn.search.asked import TYPE_WORDS

CONTRAST = True
MODIFIER = True  # another modifier of the noun asked (`other_modifier`). Off: not read.
_ROLE_SUFFIXES = ("er", "or", "ee")
_WORD = re.compile(r"[a-z][a-z'’-]*")


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


def other_modifier(question: str, quote: str, titles: str) -> str | None:
    """The modifier of a noun of `question` (ner.noun_modifiers; no type word) neither `quote` nor `titles` holds, when
    `quote` gives the noun another of its kind (adjective, noun, possessor) ("rear": "New front tyres"); else None."""
    key, asked = lambda w: stem(next(iter(content_terms(w)), "")), {stem(t) for t in content_terms(question)}  # noqa: E731
    wanted = [(key(n), m, k) for n, m, k in noun_modifiers(question) if MODIFIER and key(n) and key(m) not in TYPE_WORDS
              | {""} and not missing((key(n),), quote) and missing((key(m),), quote) and missing((key(m),), titles)]
    said = {(key(n), k) for n, m, k in noun_modifiers(quote) if key(m) not in asked | {""}} if wanted else set()
    return next((m for n, m, k in wanted if (n, k) in said), None)


def contrast(question: str, quotes: list[str], polar: bool = False, titles: str = "") -> str | None:
    """What `question` asks that the quotes state only of a counterpart or another modifier (module doc; `titles`: the
    cited notes'): the asked word; None when none or CONTRAST is off. polar: a yes/no question (no modifier read)."""
    if not CONTRAST or not quotes:
        return None
    return counterpart(question, q := " ".join(quotes), polar) or (None if polar else other_modifier(question, q, titles))
