"""The steps of a procedure (issue 33): "how do I cancel the gym", "how to renew a book", "what's the process for the
salt light" are answered by the passage about the asked action.

`procedure_draft(question, asked, evidence, embedder)` reads the notes among `evidence` (not chat messages) as units
that state a way of doing something:

- a section under a heading, or a list under its introducing line: the heading or line with the section's list items
  (else its sentences) as the steps;
- a sentence with a cue of means or instruction (`_HOW`: "To cancel, email ...", "How to repressurise the boiler: ...",
  "you may leave by giving ...", "phone ...", "fill in ...").

Each unit (its intro with its first step) is scored by the learned "does this line answer?" scorer (answer/fit.py,
trained on bench/answer_pairs.py); the best unit at or above fit.THRESHOLD is the answer, its steps quoted and cited one
by one (at most MAX_STEPS). None when no unit reaches it: the answerer then declines (answer/__init__.py, `PROCEDURE`).
"""

from __future__ import annotations

import re

from cairn.answer import fit
from cairn.answer.spans import _clean, _clean_markdown
from cairn.answer.tables import HEADING
from cairn.answer.typed import Typed, _ITEM
from cairn.lexical import sentences

MAX_STEPS = 6
# Off: a procedure question is answered by the extractive sentence answer, gated by fit as before.
PROCEDURE = True
# a sentence saying how: a purpose clause first ("To cancel, ..."), "how to", a means ("by giving", "via"), a modal of
# permission or duty for a person, or a verb of contacting
_HOW = re.compile(r"^\W*(?:to|how to)\s+\w+|\bby\s+\w+ing\b|\b(?:you|we|i|members?|owners?|customers?)\s+"
                  r"(?:can|may|must|should|need to|have to)\b|\b(?:email|e-mail|phone|ring|call|write to|"
                  r"fill in|speak to|ask|contact|log in|press|open|turn|twist|take)\b", re.IGNORECASE)


def units(text: str) -> list[tuple[str, list[str]]]:
    """(intro, steps) of every unit of the note `text` (module doc), in note order."""
    lines = _clean_markdown(text).split("\n")
    out: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(lines):
        head = HEADING.match(lines[i])  # (not the note's own title: the whole note is no one procedure)
        if head and i != next((k for k, x in enumerate(lines) if x.strip()), -1):  # a section: items, else sentences
            j = i + 1
            while j < len(lines) and not HEADING.match(lines[j]):
                j += 1
            body = lines[i + 1:j]
            items = [_clean(_ITEM.match(x).group(1)) for x in body if _ITEM.match(x)]
            prose = "\n".join(body)
            steps = items or [_clean(prose[s:e]) for s, e in sentences(prose) if prose[s:e].strip()]
            if steps:
                out.append((head.group(1).strip(), steps))
        elif _ITEM.match(lines[i]):  # a list under its introducing line
            j = i
            while j < len(lines) and _ITEM.match(lines[j]):
                j += 1
            intro = next((p for p in reversed(lines[:i]) if p.strip() and not HEADING.match(p)), "")
            out.append((intro.strip(), [_clean(_ITEM.match(x).group(1)) for x in lines[i:j]]))
            i = j
            continue
        i += 1
    prose = "\n".join("" if HEADING.match(x) or _ITEM.match(x) else x for x in lines)
    sents = [_clean(prose[s:e]) for s, e in sentences(prose)]
    return out + [(x, [x]) for x in sents if len(x.split()) >= 4 and _HOW.search(x)]


def procedure_draft(question: str, asked, evidence: list, embedder) -> Typed | None:
    """The steps of the unit of `evidence`'s notes best scored as answering `question` (module doc), or None when none
    scores fit.THRESHOLD or more."""
    best = None
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        title = ev.hit.title or ""
        for intro, steps in units(ev.text):
            line = intro if steps == [intro] else f"{intro}: {steps[0]}"
            p = fit.answers(question, asked, line[:500], title, embedder)
            if p >= fit.THRESHOLD and (best is None or p > best[0]):
                best = (p, ev.n, intro, steps[:MAX_STEPS])
    if best is None:
        return None
    _, n, intro, steps = best
    draft = " ".join(f"{s.rstrip('.')}. [{n}]" for s in steps)
    return Typed(draft, n, intro, intro, items=steps)
