"""Multi-part questions (issue 33): the parts of a question, each answered or declined on its own by the answerer
(answer/parts.py merges their answers).

`split`: cut before "and", ";" or a second "?" when a question opens after it ("When is my appointment and what do I
need to bring?"; not "What are the total and the VAT?"); a part that only asks ("…and where?") is read about the
first part's body ("Where is my dentist appointment?"); a part that refers back by "it" or "they" ("…and where is it
held?") is read with the thing the first part asks about when it names one after "is" or "are" ("Which day is the chess
club" -> "Where is the chess club held?").
"""

from __future__ import annotations

import re

from cairn.lexical import content_terms, stem
from cairn.search.asked import TYPE_WORDS

# Words a question asks with, never its topic (quantifiers, modal verbs: "How much…").
ASKING_WORDS = frozenset("much many more most less least few should would could might must shall can will may".split())
_CUT = re.compile(r"\s*(?:,\s*)?(?:\band\b|;|\?)\s+(?=(?:and\s+)?(?:what|when|where|who|whom|which|how|why|is|are|was|"
                  r"were|do|does|did|can|will|should)\b)", re.IGNORECASE)
# The question phrase a part opens with: its wh-word and a type word after it ("how long").
_WH = re.compile(r"^\W*((?:\w+\s+){0,2}?(?:what|when|where|who|whom|which|whose|why|how)\b(?:\s+(\w+))?)", re.I)


def _asks_only(part: str) -> bool:
    """Whether `part` names nothing to ask about: every content word is a question or type word."""
    return all(stem(t) in TYPE_WORDS or t in ASKING_WORDS for t in content_terms(part))


def _question_phrase(part: str) -> tuple[str, str]:
    """(the question phrase `part` opens with, the rest); ("", part) without a wh-word in its
    first three words. The word after the wh-word joins only a type word ("how long", not "when is")."""
    m = _WH.match(part)
    if not m:
        return "", part
    phrase = m.group(1)
    if m.group(2) and stem(m.group(2).lower()) not in TYPE_WORDS and m.group(2).lower() not in ASKING_WORDS:
        phrase = phrase[:m.start(2) - m.start(1)].rstrip()
    return phrase, part[m.start(1) + len(phrase):].strip()


def _inherit(first: str, part: str) -> str:
    """`part` (elliptical: `_asks_only`) read about what `first` asks about (module doc)."""
    phrase, _ = _question_phrase(part.rstrip(" ?"))
    _, body = _question_phrase(first.rstrip(" ?"))
    if not phrase or not body:
        return part
    return f"{phrase} {body[:1].lower() + body[1:] if not body[:2].isupper() else body}?"


def _refer_back(first: str, part: str) -> str:
    """`part` with its first "it", "they" or "them" replaced by the noun phrase `first` asks about (module doc), when
    `first` names one of at most six words after a copula; else `part`."""
    _, body = _question_phrase(first.rstrip(" ?"))
    m = re.fullmatch(r"(?:is|are|was|were)\s+(\S+(?:\s+\S+){0,5})", body, re.IGNORECASE)
    if not m or re.search(r"\b(?:it|they|them)\b", m.group(1), re.IGNORECASE):
        return part
    return re.sub(r"\b(?:it|they|them)\b", lambda _: m.group(1), part, count=1, flags=re.IGNORECASE)


def split(question: str) -> list[str]:
    """The parts of `question` (module doc), each ending in "?", each once (case folded); [question] when it has one."""
    pieces = [p.strip(" ,") for p in _CUT.split(question.strip()) if p and p.strip(" ,?")]
    pieces = [re.sub(r"^and\s+", "", p, flags=re.IGNORECASE) for p in pieces]
    if len(pieces) < 2:
        return [question]
    out = []
    for i, p in enumerate(pieces):
        p = p.rstrip(" ?") + "?"
        if i and _asks_only(p) and not _asks_only(pieces[0]):
            p = _inherit(pieces[0], p)
        elif i:
            p = _refer_back(pieces[0], p)
        out.append(p[0].upper() + p[1:])
    once: dict[str, str] = {}  # a part asked twice is answered once
    return [once.setdefault(p.lower(), p) for p in out if p.lower() not in once]
