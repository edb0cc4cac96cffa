"""The typed answer (issue 33): the span of the asked type whose context matches the head and
the subject, quoted with its line; and lists gathered whole.

`typed_draft(question, asked, evidence, embedder)` looks only at notes (evidence without a
speaker: a chat message's date is its metadata, not its text). Candidates are the lines (and
sentences of long lines) and table rows (answer/tables.py) holding a value of the asked type
(answer/types.values); a line that is only a label ("Phone:") is read with the value on the
next line. Each candidate is scored by

    score = HEAD x mean(share of the head's words in its local context: the line, the line
            before it, the section heading, the note title; share in the line itself)
          + SUBJECT x (share of the subject's words in the note title and passage)
          + SEMANTIC x cosine(question, candidate)

and the best one is the answer. A line labelled with the question's wh-word ("When: 2027-03-02…"
for "When is my physio appointment?", an imported event's field) is a field of the whole note:
its own line is read with the note title. Its `Typed.missing_head` says which head words its context
lacks ("rear" for "the rear tyre pressure" when only the front is written): the answer's
subject check (answer/checks.py) then fails and the question is declined. A list question
("what do I need to bring", "the ingredients") is answered by every item of the list whose
introducing line or heading best matches the question (`list_draft`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cairn.answer.spans import _clean, _clean_markdown, labelled_answer
from cairn.answer.tables import flat_rows, heading_above, table_rows
from cairn.lexical import content_terms, sentences
from cairn.answer.types import KIND_WORDS, Asked, compound_kinds, kind_held, missing, values
from cairn.embed.cache import embed_cached

HEAD = 1.0
SUBJECT = 1.0  # as HEAD: a value of another subject answers another question
SEMANTIC = 0.5
LOCAL_SUBJECT = 0.5  # the subject's words in the candidate's own context, not only its note's
LEXICAL = 0.5  # the question's own words (hyphenated ones whole: "check-out") in the candidate
KIND_WORD = 0.3  # the candidate names the kind of value it states ("Amount due:"; types.KIND_WORDS)
MEMORY = 0.3  # what the person told Cairn (a memory, hit type "memory") before a note about someone else
# a label line: a short phrase ("Phone", "Total due:"), not a sentence of three or more words
# ending in a full stop ("Home insurance policy number HX-44821." names no value below it)
_LABEL_ONLY = re.compile(r"^(?![ \t]*(?:\S+[ \t]+){2,}\S*\.[ \t]*$)[ \t]*[^\W\d_][\w '’()/&.-]{0,40}:?[ \t]*$")
NL = "\n"
_ITEM = re.compile(r"^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+(\S.*)$")


@dataclass
class Typed:
    """A typed draft: `draft` ("TOTAL £24.48. [1]"), the evidence number `n`, the quoted
    candidate `text`, its local `context`, the head words it lacks (`missing_head`), the
    subject words its note lacks (`missing_subject`), and `items` for a list answer."""

    draft: str
    n: int
    text: str
    context: str = ""
    missing_head: list[str] = field(default_factory=list)
    missing_subject: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


def _words(text: str) -> set[str]:
    """Lower-cased words of `text`, hyphenated ones kept whole ("check-out"), less stopwords."""
    keep = set(content_terms(text))
    return {w for w in re.findall(r"[\w]+(?:-[\w]+)*", text.lower()) if w in keep or "-" in w}


def _bare(kind: str | None, line: str) -> bool:
    """True when `line` is one value of `kind` and nothing else ("£56.50", "-£448.20")."""
    spans = values(kind, line)
    text = line.strip().lstrip("-–+").strip()
    return len(spans) == 1 and line[spans[0][0]:spans[0][1]].strip().lstrip("-–+").strip() == text


def candidates(asked: Asked, evidence: list) -> list[tuple[int, str, str, str, str]]:
    """(evidence n, candidate text, local context, passage context, own line) of every line,
    sentence of a long line, and table row of the notes among `evidence` holding a value of
    `asked.kind` (module doc); the own line is the whole line, row or "label: value" pair the
    candidate stands in."""
    out = []
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        text = _clean_markdown(ev.text)
        title = ev.hit.title or ""
        passage = f"{title}\n{text}"
        rows = table_rows(text)
        for row in rows:
            if values(asked.kind, row.text):
                out.append((ev.n, row.text, f"{title} {row.text}", passage, row.text))
        in_table = [(r.table_start, r.table_end) for r in rows]
        lines = text.split("\n")
        flat = flat_rows(lines, lambda x: _bare(asked.kind, x))
        pos = 0
        for i, line in enumerate(lines):
            start, pos = pos, pos + len(line) + 1
            if any(a <= start < b for a, b in in_table) or re.match(r"^[ \t]*#", line) or not line.strip():
                continue
            if i in flat:  # a row of a table written one cell a line: the row, under its header
                row, header = flat[i]
                if i == 0 or (i - 1) not in flat:  # once per row
                    out.append((ev.n, row, f"{title} {header} {row}", passage, row))
                continue
            prev = next((p for p in reversed(lines[:i]) if p.strip()), "")
            # a bare word on the line before ("Labour": a table's header cell, flattened one cell
            # a line by a PDF's text layer) names another cell, not this value
            cell = _LABEL_ONLY.match(prev) and not prev.strip().endswith(":")
            local = f"{title} {heading_above(NL.join(lines[:i]))} {'' if cell else prev}"
            if _LABEL_ONLY.match(line) and not values(asked.kind, line) and i + 1 < len(lines) \
                    and values(asked.kind, lines[i + 1]) and not _LABEL_ONLY.match(lines[i + 1]):
                joined = f"{line.strip().rstrip(':')}: {lines[i + 1].strip()}"
                out.append((ev.n, joined, f"{local} {joined}", passage, joined))
                continue
            if not values(asked.kind, line):
                continue
            if _LABEL_ONLY.match(prev) and prev.strip().endswith(":"):
                local += " " + prev
            item = _ITEM.match(line)
            body = item.group(1) if item else line
            pieces = [body[s:e] for s, e in sentences(body)] or [body]
            for piece in pieces:  # the line's other sentences are its context ("Q: ...? A: ...")
                if values(asked.kind, piece):
                    out.append((ev.n, _clean(piece), f"{local} {body}", passage, body))
    if asked.units:  # a value of the quantity named, in its units (types.units_of)
        out = [c for c in out if re.search(asked.units, c[1], re.IGNORECASE)]
    return out


def typed_draft(question: str, asked: Asked, evidence: list, embedder) -> Typed | None:
    """The best candidate of the asked type (module doc), or None when no note among
    `evidence` holds a value of `asked.kind`."""
    cands = candidates(asked, evidence)[:200]
    if not cands:
        return None
    vecs = embed_cached(embedder, [question] + [c[1][:500] for c in cands])
    cos = vecs[1:] @ vecs[0]
    best = None
    words = _words(question)
    memory = {ev.n: ev.hit.type for ev in evidence}
    titles = {ev.n: ev.hit.title or "" for ev in evidence}
    kind_words = KIND_WORDS.get(asked.kind or "", set())
    kinds_of: list = []  # compound_kinds(question), tagged only once a subject word is missing

    def kinds():
        if not kinds_of:
            kinds_of.append(compound_kinds(question))
        return kinds_of[0]

    for (n, text, local, passage, line), c in zip(cands, cos):
        if labelled_answer(question, line):  # a field of the whole note ("When: …" of an event): of its title
            line = f"{titles[n]} {line}"
        head_gap = missing(asked.head, local)
        # the head said on the candidate's own line counts as much as in its surroundings: the
        # line before another value ("Last descaled: ..." above "Anode check due in 2027")
        # must not lend that value its head
        line_share = (1 - len(missing(asked.head, line)) / len(asked.head)) if asked.head else 1.0
        if asked.verb and head_gap and not missing((asked.verb,), line):
            head_gap, line_share = [], 1.0  # the count stated by the verb asked: "Serves 8"
        subj_gap = missing(asked.subject, passage)
        subj_gap = kind_held(subj_gap, kinds(), passage) if subj_gap else subj_gap
        own = _words(text)
        score = (HEAD * 0.5 * (((1 - len(head_gap) / len(asked.head)) if asked.head else 1.0) + line_share)
                 + SUBJECT * ((1 - len(subj_gap) / len(asked.subject)) if asked.subject else 1.0)
                 + LOCAL_SUBJECT * ((1 - len(missing(asked.subject, local)) / len(asked.subject)) if asked.subject else 0.0)
                 + LEXICAL * (len(words & own) / len(words) if words else 0)
                 + KIND_WORD * bool(kind_words & own)
                 + MEMORY * (memory.get(n) == "memory")
                 + SEMANTIC * float(c))
        if best is None or score > best[0]:
            best = (score, n, text, local, head_gap, subj_gap)
    _, n, text, local, head_gap, subj_gap = best
    sent = text.rstrip()
    if not re.search(r"[.!?]$", sent):
        sent += "."
    return Typed(f"{sent} [{n}]", n, text, local, head_gap, subj_gap)


def list_draft(question: str, asked: Asked, evidence: list) -> Typed | None:
    """Every item of the list (markdown "- item" or "1. item" lines) whose introducing line
    ("What to bring:") or section heading holds most of the question's head and subject
    words, when it holds at least one of them besides the note title; None when no list
    qualifies. Each item is quoted and cited."""
    terms = tuple(dict.fromkeys(asked.head + asked.subject))
    if not terms:
        return None
    best = None
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        lines = _clean_markdown(ev.text).split("\n")
        i = 0
        while i < len(lines):
            if not _ITEM.match(lines[i]):
                i += 1
                continue
            j = i
            while j < len(lines) and _ITEM.match(lines[j]):
                j += 1
            intro = next((p for p in reversed(lines[:i]) if p.strip()), "")
            own = f"{intro} {heading_above(NL.join(lines[:i]))}"
            held = len(terms) - len(missing(terms, own))
            whole = len(terms) - len(missing(terms, f"{ev.hit.title or ''} {own}"))
            if held and (best is None or (whole, held) > best[0]):
                items = [_clean(_ITEM.match(x).group(1)) for x in lines[i:j]]
                best = ((whole, held), ev.n, intro.strip(" #"), items)
            i = j
    if best is None:
        return None
    _, n, intro, items = best
    draft = " ".join(f"{it.rstrip('.')}. [{n}]" for it in items)
    return Typed(draft, n, intro, intro, items=items)
