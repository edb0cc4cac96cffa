"""Is the quoted line's value stated of a counterpart of what was asked (typed23, issue 33)? Three readings of form, no
word lists: a quote that writes the asked word only as

- its role counterpart: the same stem with the other agent / recipient suffix ("employer" asked, "Pension, employee
  5%" quoted; payer / payee, lessor / lessee, guarantor / guarantee);
- a negated compound: "peak" asked, only "Off-Peak membership" quoted (off-, non-; not for a yes/no question, which
  it answers "No"),
- another modifier of the asked noun (`other_modifier`, MODIFIER): "the rear tyres" asked, "New front tyres: tread 8mm"
  quoted; "juno's plan", "Cass's plan",

states another thing than the one asked: checks.finish declines it with pointers (switch `CONTRAST`). Pure functions.
"""

from __future__ import annotations

import re

from cairn.answer.types import missing
from cairn.lexical import content_terms, stem
from cairn.ner import parse
from cairn.search.asked import TYPE_WORDS

CONTRAST = True
# The modifiers of a noun by the packaged dependency parse: an adjective, a noun or a possessor ("rear", "dining", "Cass's")
MODIFIER = True
_MODS, _TAGS = frozenset({"amod", "compound", "poss", "nmod"}), frozenset({"ADJ", "NOUN", "PROPN"})
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


def modifiers(text: str) -> dict[str, list[tuple[str, tuple[bool, bool], str]]]:
    """{stem of a noun of `text`: [(stem of a modifier of it, (an adjective?, a possessor?), the modifier as written)]}
    (ner.parse; {} without spaCy)."""
    toks, out = parse(text) or (), {}
    for t in toks:
        if t.dep in _MODS and t.pos in _TAGS and toks[t.head].pos in ("NOUN", "PROPN") \
                and (noun := content_terms(toks[t.head].text)) and (mod := content_terms(t.text)):
            out.setdefault(stem(noun[0]), []).append((stem(mod[0]), (t.pos == "ADJ", t.dep == "poss"), mod[0]))
    return out


def other_modifier(question: str, quote: str, titles: str) -> str | None:
    """The modifier of a noun of `question` (not a type word: "phone number") that neither `quote` nor the cited notes'
    `titles` holds while `quote` gives the same noun another modifier of its kind (adjective, noun, possessor) that
    the question does not hold ("rear" for "New front tyres"); None otherwise or when MODIFIER is off."""
    asked, said = {stem(t) for t in content_terms(question)}, modifiers(quote) if MODIFIER else {}
    return next((word for noun, mods in modifiers(question).items() if noun in said for m, kind, word in mods
                 if m not in TYPE_WORDS and missing((m,), quote) and missing((m,), titles)
                 and any(p not in asked and k == kind for p, k, _ in said[noun])), None)


def contrast(question: str, quotes: list[str], polar: bool = False, titles: str = "") -> str | None:
    """What `question` asks that the quotes state only of a counterpart or of another modifier of the noun asked (module
    doc; `titles`: of the cited notes): the asked word; None when none, or when CONTRAST is
    off. polar: a yes/no question (`counterpart`; no modifier is read)."""
    if not CONTRAST or not quotes:
        return None
    return counterpart(question, " ".join(quotes), polar) or (None if polar else
                                                              other_modifier(question, " ".join(quotes), titles))
