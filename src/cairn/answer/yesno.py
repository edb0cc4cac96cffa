"""Yes/no questions (issue 33): "can pickle have rawhide chews", "is the hire car's mileage limited" are answered by the
one line that states both what is asked about and what is asked of it, with an explicit "Yes" or "No" when the line's
own words say so.

`yesno_draft(question, asked, evidence, embedder)` splits the question's content words (stems, less search/asked.TYPE_WORDS)
into the **subject** (words the cited note's title or header holds, typed.HEADER, or its text writes capitalised inside
a sentence: a name, "Pickle") and the **attribute** (the rest: "rawhide", "chews"). A line (or a sentence of a long
line, or a table row) of a note answers when it holds every attribute word: in its words (types.missing: stem, word
family) or within typed.ROLE_COS (cosine, the packaged sentence embedder) of the line, as "Spectators are welcome" holds
"watch". A neighbouring line that only repeats the subject holds no attribute word and does not answer. Among the lines
that answer, the one the learned scorer (answer/fit.py) rates highest is quoted.

Its polarity: "No" when the line negates (`_NEGATION`: not, never, no, n't, without, ...) or writes an attribute word
with a negating prefix ("Unlimited" for "limited"); a field's value that is a bare yes or no ("Breakfast included: No")
says so itself; "Yes" when its value (past a field's key: the key only names the attribute) holds every attribute word
in its own words without negation; else no word is added (the line says it otherwise: "Opening hours: 9-5, closed
Sunday" for "open on sunday" is not a yes). None when no line answers: the answerer declines (answer/__init__.py,
`YESNO`).
"""

from __future__ import annotations

import re

from cairn.answer import fit, types
from cairn.answer.spans import _clean, _clean_markdown, _short_spans
from cairn.answer.tables import HEADING, table_rows
from cairn.answer.typed import ROLE_COS, Typed, _header, _span
from cairn.embed.cache import embed_cached
from cairn.lexical import MONTH_NAMES, WEEKDAY_NAMES, sentences, stem
from cairn.ner import parts_of_speech

# Off: a yes/no question is answered by the extractive sentence answer, gated by fit as before.
YESNO = True
HELD = 0.5  # the share of attribute words a line holds to answer; less only when fit passes it
# the auxiliaries and conjunctions a yes/no question is built of: no attribute ("can", "if", "im")
_FRAME = frozenset(stem(w) for w in "is are was were do does did can could will would should shall may might must has have "
                   "had be been if im i'm get got "
                   # light verbs and words of permission: the frame of "can we take the dog ...", "are greenhouses
                   # allowed", not what is asked of the subject
                   "take bring put have go use make let allow allowed permitted ok okay".split())
# A line answers only when it holds (or is within ROLE_COS of) every verb of the attribute: what is asked of the subject
# is its predicate ("can we *move out* early" is not answered by "Please arrive 10 minutes early"). "need": a frame.
PREDICATE = True
_CELL = re.compile(r"^[^\W\d_][^.:;!?]{0,40}$")  # a short bare phrase: a cell or a label, no sentence
_KEY = re.compile(r"^[^:\n]{1,40}:\s*")  # a field's key: "Opening hours: "
_NEGATION = re.compile(r"\b(?:not|never|no|none|nor|cannot|without|neither)\b|n[’']t\b", re.IGNORECASE)


def lines_of(text: str) -> list[str]:
    """The candidate lines of a note `text`: table rows, and its sentences (spans._short_spans: a record's or a
    flattened table's lines are their own); a short bare label ("Third party liability", a cell of a table written one
    cell a line) is read with the line after it."""
    text = _clean_markdown(text)
    rows = table_rows(text)
    out = [r.text for r in rows]
    spans = [(r.table_start, r.table_end) for r in rows]
    sents = [_clean(text[s:e]) for s, e in _short_spans(text)
             if text[s:e].strip() and not HEADING.match(text[s:e]) and not any(a <= s < b for a, b in spans)]
    for i, x in enumerate(sents):
        if _CELL.match(x) and i + 1 < len(sents) and _CELL.match(sents[i + 1]):
            out.append(f"{x}: {sents[i + 1]}")
        out.append(x)
    return out


# A question naming a date ("is my dentist appointment in May", "on the 10th", "on a Friday") is answered "No" by a
# line whose dates name another month, day or weekday (not a span: "Monday to Saturday"). Off: by the line's words.
DATED = True


def dated(question: str, line: str) -> str:
    """"Yes" when a date of `line` (types.values) names every part (month, day of month, weekday) of the date `question`
    names, "No" when each of its dates names one of them otherwise, "" when none names any (or DATED is off)."""
    def parts(text: str) -> list[dict[str, str]]:
        return [{k: v for k, v in zip(("month", "day", "weekday"), (next((w[:3] for w in ws if w in MONTH_NAMES), ""), next(
            (w for w in ws if w.isdigit() and int(w) <= 31), ""), next((w[:3] for w in ws if w in WEEKDAY_NAMES), ""))) if v}
            for ws in (re.findall(r"[a-z]+|\d+", text[s:e].lower()) for s, e in types.values("date", text))]
    asked = next(iter(parts(question)), {}) if DATED else {}
    said = [d for d in parts(line) if d.keys() & asked.keys() and not _span("date", line)]  # a span holds more days
    return "" if not said else "Yes" if any(all(d.get(k) == v for k, v in asked.items()) for d in said) else \
        "No" if all(any(d.get(k, v) != v for k, v in asked.items()) for d in said) else ""


def polarity(attr_words: list[str], line: str, lexical: bool) -> str:
    """"No", "Yes" or "" for `line` answering a question whose attribute is `attr_words` (as the question writes them;
    module doc). lexical: every attribute word is in the line's words."""
    low = line.lower()
    bare = re.match(r"(yes|no)\b", low[_KEY.match(low).end():] if _KEY.match(low) else "")
    if bare:
        return bare.group(1).capitalize()
    if _NEGATION.search(line) or any(re.search(rf"\b(?:un|in|non-?\s?){re.escape(w.lower())}", low)
                                      for w in attr_words):  # "in" attached only: "in credit" is no "incredit"
        return "No"
    return "Yes" if lexical else ""


def yesno_draft(question: str, asked, evidence: list, embedder) -> Typed | None:
    """The line of `evidence`'s notes answering the yes/no `question` (module doc), with its polarity in `Typed.polar`
    ("Yes", "No" or ""); None when no line holds the attribute, or the question has no attribute word beyond its
    subject."""
    terms = [t for t in fit._terms(question) if t not in _FRAME]
    when = {stem(w) for s, e in types.values("date", question) for w in re.findall(r"\w+", question[s:e].lower()) if DATED}
    best, verbs = None, {stem(w.lower()) for w, pos in parts_of_speech(question) or () if pos == "VERB"} - {"need"}
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        title, lines = ev.hit.title or "", lines_of(ev.text)
        # a name: a word written capitalised past the first word of a line or sentence
        names = {stem(w.lower().rstrip("'’s")) for x in lines for w in re.findall(r"[\w'’-]+", x)[1:]
                 if w[:1].isupper()}
        own = f"{title} {_header(ev)}"  # its title and header (typed.HEADER: "Brightwater Energy" of a PDF's bill)
        subject = (set(terms) - set(types.missing(tuple(terms), own)) | (set(terms) & names)) - when
        attr = [t for t in terms if t not in subject]
        if not attr:
            continue
        for line in lines:  # a line dating what is asked holds the date asked (`when`: DATED) and, in its words, the rest
            at = [t for t in attr if t not in when] if when and dated(question, line) else attr
            gap, held, words = types.missing(tuple(at), line), 1.0, types.words_of(at, question)
            if gap and len(gap) == len(at) and (len(at) > 1 or at is not attr):
                continue
            if gap:
                vecs = embed_cached(embedder, [line[:500]] + types.words_of(gap, question))
                near = (vecs[1:] @ vecs[0]) >= ROLE_COS
                held = 1 - (len(gap) - int(near.sum())) / len(at)
                if PREDICATE and verbs & {g for g, ok in zip(gap, near) if not ok and f"un{g}" not in line.lower()}:
                    continue  # "can i eat in the reading room": not "The reading room is quiet study only"
            p = fit.answers(question, asked, line, title, embedder)
            if held and (held >= HELD or p >= fit.THRESHOLD) and (best is None or (held, at is not attr, p) > best[0]):
                key = _KEY.match(line)
                best = ((held, at is not attr, p), ev.n, line, "No" if not gap and dated(question, line) == "No" else polarity(
                    words, line, not types.missing(tuple(at), line[key.end():] if key else line)))
    if best is None:
        return None
    _, n, line, polar = best
    sent = line.rstrip() + ("" if re.search(r"[.!?]$", line.rstrip()) else ".")
    return Typed(f"{sent} [{n}]", n, line, polar=polar)
