"""Multi-part questions (issue 33), each part answered or declined on its own.

The parts are read with the question (search/parts.py `split`). `merge`: one answer, citations renumbered; "pass" when
every part passed, "abstain" when all were declined, else "revise" with `checks.completeness` False.
"""

from __future__ import annotations

import re

from cairn.search.parts import split  # noqa: F401  (the answerer calls parts.split: bench/answers_ablation.py)


def merge(question: str, answers: list):
    """One `cairn.answer.Answer` from the answers to the parts (module doc)."""
    Answer = type(answers[0])  # cairn.answer.Answer, without importing the package (no cycle)
    cites: dict[str, dict] = {}  # chunk id -> renumbered citation
    texts, problems, evidence, seen = [], [], [], set()  # seen: what each quote said (its words, less its marks)
    _said = lambda u: " ".join(re.findall(r"\w+", re.sub(r"\[\d{1,3}\]", "", u).lower()))  # noqa: E731
    for part in answers:
        renumber = {}
        for c in part.citations:
            key = c.get("chunk_id") or f"{c.get('source_id')}:{c.get('start')}"
            cites.setdefault(key, {**c, "n": len(cites) + 1})
            renumber[c["n"]] = cites[key]["n"]
        text = re.sub(r"\[(\d{1,3})\]", lambda m: f"[{renumber.get(int(m.group(1)), m.group(1))}]", part.answer)
        if not part.abstained:  # each quote with its citation mark said once in the answer
            text = " ".join(u for u in re.split(r"(?<=\])\s+|(?<=\]\.)\s+", text)
                            if (w := _said(u)) not in seen and not seen.add(w))
        texts += [text if not part.abstained else f"{part.question} {text}"] if text else []
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
