"""Multi-part questions (issue 33), each part answered or declined on its own.

`split`: cut before "and", ";" or a second "?" when a question opens after it ("When is my appointment and what do I
need to bring?"; not "What are the total and the VAT?"); a part that only asks ("…and where?") is read about the
first part's body ("Where is my dentist appointment?"). `merge`: one answer, citations renumbered; "pass" when every
part passed, "abstain" when all were declined, else "revise" with `checks.completeness` False.
"""

from __future__ import annotations

import re

from cairn.answer.offtopic import ASKING_WORDS
from cairn.search.asked import TYPE_WORDS
from cairn.lexical import content_terms, stem

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
        out.append(p[0].upper() + p[1:])
    once: dict[str, str] = {}  # a part asked twice is answered once
    return [once.setdefault(p.lower(), p) for p in out if p.lower() not in once]


def merge(question: str, answers: list):
    """One `cairn.answer.Answer` from the answers to the parts (module doc)."""
    Answer = type(answers[0])  # cairn.answer.Answer, without importing the package (no cycle)
    cites: dict[str, dict] = {}  # chunk id -> renumbered citation
    texts, problems, evidence = [], [], []
    for part in answers:
        renumber = {}
        for c in part.citations:
            key = c.get("chunk_id") or f"{c.get('source_id')}:{c.get('start')}"
            if key not in cites:
                cites[key] = {**c, "n": len(cites) + 1}
            renumber[c["n"]] = cites[key]["n"]
        text = re.sub(r"\[(\d{1,3})\]", lambda m: f"[{renumber.get(int(m.group(1)), m.group(1))}]", part.answer)
        texts.append(text if not part.abstained else f"{part.question} {text}")
        problems += [f"{part.question} {p}" for p in part.problems]
        evidence += part.evidence
    declined = [a for a in answers if a.abstained]
    verdict = "pass" if all(a.verdict == "pass" for a in answers) else \
        "abstain" if len(declined) == len(answers) else "revise"
    checks = {k: all((a.checks or {}).get(k, not a.abstained) for a in answers if not a.abstained)
              for k in ("support", "type", "subject")} if len(declined) < len(answers) else \
        {"support": False, "type": False, "subject": False}
    checks["completeness"] = not declined
    return Answer(question, " ".join(texts), verdict, sorted(cites.values(), key=lambda c: c["n"]),
                  mode=answers[0].mode, llm=answers[0].llm, fallback=answers[0].fallback, problems=problems,
                  evidence=evidence, pointers=[p for a in declined for p in a.pointers][:3], checks=checks)
