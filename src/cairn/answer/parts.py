"""Multi-part questions (issue 33): "When is my appointment and what do I need to bring?" is
two questions; each is answered or declined on its own and the answers are joined.

`split(question)`: the parts, cut before "and" (or ";", or a second "?") when what follows
opens a question of its own (a wh-word or an auxiliary verb: "and what do I…", "and is it…").
"What are the total and the VAT?" stays one question (no question word after "and").
`merge(question, answers)`: one answer; citations renumbered over the parts (one number per
cited passage), verdict "pass" when every part passed, "abstain" when every part was
declined, else "revise" with `checks.completeness` False.
"""

from __future__ import annotations

import re

_CUT = re.compile(r"\s*(?:,\s*)?(?:\band\b|;|\?)\s+(?=(?:and\s+)?(?:what|when|where|who|whom|which|how|why|is|are|was|"
                  r"were|do|does|did|can|will|should)\b)", re.IGNORECASE)


def split(question: str) -> list[str]:
    """The parts of `question` (module doc), each ending in "?"; [question] when it has one."""
    pieces = [p.strip(" ,") for p in _CUT.split(question.strip()) if p and p.strip(" ,?")]
    pieces = [re.sub(r"^and\s+", "", p, flags=re.IGNORECASE) for p in pieces]
    if len(pieces) < 2:
        return [question]
    out = []
    for p in pieces:
        p = p.rstrip(" ?") + "?"
        out.append(p[0].upper() + p[1:])
    return out


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
    passed = all(a.verdict == "pass" for a in answers)
    verdict = "pass" if passed else "abstain" if len(declined) == len(answers) else "revise"
    checks = {k: all((a.checks or {}).get(k, not a.abstained) for a in answers if not a.abstained)
              for k in ("support", "type", "subject")} if len(declined) < len(answers) else \
        {"support": False, "type": False, "subject": False}
    checks["completeness"] = not declined
    first = answers[0]
    return Answer(question, " ".join(texts), verdict, sorted(cites.values(), key=lambda c: c["n"]),
                  mode=first.mode, llm=first.llm, fallback=first.fallback, problems=problems,
                  evidence=evidence, pointers=[p for a in declined for p in a.pointers][:3], checks=checks)
