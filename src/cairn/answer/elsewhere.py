"""Is a typed value (answer/typed.py) stated of what was asked, or of something else the notes hold (read by
answer/checks.py; each check returns the words it fails on)? `other_note`: another note holds more of the question's
words; `other_line`: another line of the value's note states the attribute asked ("Charges" row, "Pot value" quoted)."""

from __future__ import annotations

import re

from cairn.answer.tables import table_rows
from cairn.answer.types import missing, values
from cairn.lexical import content_terms, stem

OTHER_NOTE = OTHER_LINE = True


def _notes(hits: list) -> dict[str, str]:
    """{note path: its title and every retrieved passage of it} of the hits without a speaker (notes)."""
    out: dict[str, str] = {}
    for h in (h for h in hits if h.speaker is None):
        out[h.path] = out.get(h.path, h.title or "") + "\n" + h.text
    return out


def other_note(words: tuple[str, ...], path: str, hits: list) -> list[str]:
    """The stemmed `words` (the question's head and subject) the note at `path` lacks, when another note of `hits`
    holds every word of them the note holds and at least one more; [] otherwise or when OTHER_NOTE is off."""
    notes = _notes(hits)
    if not OTHER_NOTE or path not in notes or not (lacks := set(missing(words, notes[path]))):
        return []
    return next((sorted(lacks - m) for other, text in notes.items()
                 if other != path and (m := set(missing(words, text))) < lacks), [])


def other_line(question: str, kind: str | None, line: str, title: str, context: str, path: str, hits: list,
               skip: frozenset[str]) -> list[str]:
    """The stemmed content words of `question` (less `skip`) that neither `line` (the value's own line or row; with its
    `context`, the line above and heading, unless it is a "Label: value" field) nor the note's `title` and header (its
    first two lines) holds, when another line of the note at `path` stating a value of `kind` holds one of them and
    every word asked `line` holds; [] otherwise or when OTHER_LINE is off."""
    notes = _notes(hits)
    if not OTHER_LINE or path not in notes:
        return []
    words = tuple(dict.fromkeys(w for w in map(stem, content_terms(question)) if w not in skip and not w.isdigit()))
    header = " ".join(next((h.text.strip().split("\n")[:2] for h in hits if h.path == path and not h.start), []))
    own = line if re.match(r"\s*[^\W\d_][^:]{0,60}:\s", line) else context
    lacks, held = set(missing(words, f"{title} {header} {own}")), set(words) - set(missing(words, line))
    lines = [r.text for r in table_rows(notes[path])] + [  # a table's rows with their header (answer/tables.py)
        x for x in notes[path].split("\n") if not x.lstrip().startswith("|")]
    for x in (x for x in lines if values(kind, x) and x.strip() not in line and line.strip() not in x):  # not its own
        has = set(words) - set(missing(words, x))
        if held <= has and has & lacks:
            return sorted(has & lacks)
    return []
