"""The typed answer (issue 33): the span of the asked type whose context matches the head and the subject, quoted with
its line; and lists gathered whole.

`typed_draft(question, asked, evidence, embedder)` looks only at notes (evidence without a speaker: a chat message's
date is its metadata, not its text). Candidates are the lines (and sentences of long lines) and table rows
(answer/tables.py) holding a value of the asked type (answer/types.values); a line that is only a label ("Phone:") is
read with the value on the next line. Each candidate is scored by

    score = HEAD x mean(share of the head's words in its local context: the line, the line
            before it, the section heading, the note title; share in the line itself)
          + SUBJECT x (share of the subject's words in the note title and passage)
          + SEMANTIC x cosine(question, candidate)

and the best one is the answer. Its `Typed.missing_head` says which head words its context lacks ("rear" for "the rear
tyre pressure" when only the front is written): the answer's subject check (answer/checks.py) then fails and the
question is declined. A list question ("what do I need to bring", "the ingredients") is answered by every item of the
list whose introducing line or heading best matches the question (`list_draft`).
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field, replace

from cairn.answer.spans import _clean, _clean_markdown
from cairn.answer.rota import keyed_person
from cairn.answer.tables import HEADING, heading_above, table_rows
from cairn.lexical import LABEL_VALUE, content_terms, sentences, stem
from cairn.answer.types import KIND_WORDS, missing, values, words_of
from cairn.search.asked import TYPE_WORDS, VALUE_KINDS, Asked, compound_kinds, nominal_head, role_of
from cairn.search.unasked import light_verbs, unasked
from cairn.embed.cache import embed_cached

HEAD = 1.0
SUBJECT = 1.0  # as HEAD: a value of another subject answers another question
SEMANTIC = 0.5
LEXICAL = 0.5  # the question's own words (hyphenated ones whole: "check-out") in the candidate
KIND_WORD = 0.3  # the candidate names the kind of value it states ("Amount due:"; types.KIND_WORDS)
# A value's role is said by its label (`value_labels`: "Please pay by", "Bill date", a column header "Arrives"). A date
# or time question's role (search/asked.role_of: "due", "get into") tells the values of one note apart: when the answer's note
# holds another value of the kind, the role must be held by the answer's label, in its words, or within ROLE_COS
# (cosine) of it by the packaged sentence embedder, or by the label of the note nearest it, ROLE_MARGIN ahead of the
# next; or its line names the thing asked by a head word its note's title lacks ("Its MOT expires on ..." for "when is
# the MOT due?": that line, not the note, is about the MOT). A candidate holding the role is preferred; an answer that
# does not lacks its head and is declined. ROLE_COS is the threshold with the best balanced accuracy on
# bench/role_pairs.py's train pairs (0.758; held out 0.750); ROLE_MARGIN the smallest lead of a right winner there.
FIELD_KEY = True  # a "Key: value" line whose key names a thing takes no words from the line above
ROLE = 0.5  # weight of the role's fit among one note's values (0: the role neither ranks nor declines)
ROLE_COS = 0.47
ROLE_MARGIN = 0.15  # a note's nearest label leading its next by this holds the role (bench/role_pairs.py)
# a label line: a short phrase ("Phone", "Total due:"), not a sentence of three or more words ending in a full stop
# ("Home insurance policy number HX-44821." names no value below it)
_LABEL_ONLY = re.compile(r"^(?![ \t]*(?:\S+[ \t]+){2,}\S*\.[ \t]*$)[ \t]*[^\W\d_][\w '’()/&.-]{0,40}:?[ \t]*$")
NL = "\n"
_ITEM = re.compile(r"^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+(\S.*)$")
# A note with a total ("TOTAL £130.00", "Total for the year") answers a money question naming nothing but the note's own
# thing ("how much did the chimney sweep charge": every word in its title) by the total, not a line item; a question
# naming a word of an item line that no total line holds ("how much was the smoke test") asks that item, not the total.
TOTAL = True
# Whose phone or e-mail it is ("odessa's phone number") is named by its line, the line above, its heading or the note's
# title ("Engineer's mobile" in a note naming the landlord Odessa is the engineer's). Off: anywhere in the note.
OWNED = True
_TOTAL = re.compile(r"\b(?:total|amount due|balance)\b", re.IGNORECASE)
# ... and the note's own thing is named by its title and, for a passage opening its note, its header: its first two
# lines (the sender and the document's name), up to a field or an amount ("Little Wrens Nursery", "Invoice for June
# 2029": a PDF's title is its file name). Off: by its title only.
HEADER = True
# A value is declined for a word asked its note's own thing lacks when its line (a sentence, not a field or row) holds
# no head word, or a subject word its line holds is only in a ';' clause holding no value (unless the value's clause
# refers back with a pronoun, _BACK). Off: neither.
OWN_LINE = True
CODE_NO_PHONE = True  # a code asked by name ("the padlock code"), not as a "number", is no part of a phone number
TRACE: list | None = None  # a list: each draft's candidates are appended to it (bench/typed_accept.py measures them)
_BACK = re.compile(r"\b(?:he|she|they|his|her|hers|their|theirs|him|them)\b", re.IGNORECASE)  # a clause's pronoun


def _header(ev) -> str:
    """The header lines of the note `ev` opens (HEADER above); "" when it does not open it or HEADER is off."""
    if not HEADER or ev.hit.start:
        return ""
    lines = [x for x in _clean_markdown(ev.text).split("\n") if x.strip()][:2]
    return " ".join(itertools.takewhile(lambda x: ":" not in x and not values("money", x), lines))


# ... and a total is also known by its sum: an amount equal to the sum of two or more of the (at most SUM_SPAN) amounts
# written before it in its note, the one just before among them ("Annual charge £2,092.15" under four council charges);
# amounts with a currency sign only, to the penny. Off: its words only.
TOTAL_SUM = True
SUM_SPAN = 12


def _pence(text: str) -> list[int]:
    """The amounts of `text` written with a currency sign, in pence, in order (a minus sign: negative)."""
    return [round(float(re.sub(r"[^\d.]", "", m) or 0) * 100) * (-1 if "-" in m else 1)
            for m in re.findall(r"-?[£$€]\s?-?\d[\d,]*(?:\.\d\d)?(?![\d.])", text)]


def summed(text: str) -> frozenset[int]:
    """The amounts of `text` in pence that are sums of earlier ones (TOTAL_SUM above); empty when it is off."""
    pence, out = _pence(text) if TOTAL_SUM else [], set()
    for k in range(2, len(pence)):
        one, more = {pence[k - 1]}, set()  # sums of subsets holding the amount just before: of one, of two or more
        for x in pence[max(0, k - SUM_SPAN):k - 1]:
            more |= {y + x for y in one | more}
        if pence[k] in more and pence[k]:
            out.add(pence[k])
    return frozenset(out)


@dataclass
class Typed:
    """A typed draft: `draft` ("TOTAL £24.48. [1]"), the evidence number `n`, the quoted candidate `text`, its local
    `context`, the head words it lacks (`missing_head`), the subject words its note lacks (`missing_subject`), `items`
    for a list answer, and `polar` for a yes/no one."""

    draft: str
    n: int
    text: str
    context: str = ""
    missing_head: list[str] = field(default_factory=list)
    missing_subject: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    polar: str = ""  # a yes/no answer's "Yes" or "No" (answer/yesno.py), said before the quote

    def gap(self, asked: Asked, head: list[str] | None = None) -> list[str]:
        """The words asked that the value is not stated of, as the verdict reads them (answer/checks.py): every
        head word it lacks (`head`, when given, in place of `missing_head`), and the subject words its note lacks
        when more than one of three or more are ("folder 9": a number among them always)."""
        subject = self.missing_subject
        return ((self.missing_head if head is None else head)
                + (subject if len(subject) > (len(asked.subject) >= 3) else [w for w in subject if w.isdigit()]))


def _words(text: str) -> set[str]:
    """Lower-cased words of `text`, hyphenated ones kept whole ("check-out"), less stopwords."""
    keep = set(content_terms(text))
    return {w for w in re.findall(r"[\w]+(?:-[\w]+)*", text.lower()) if w in keep or "-" in w}


# A date or time question's verb with no object is its role ("what time do the Corrigan Sisters *finish*"; not a
# subject word the note may lack: a time of their set that no label says finishes is their start).
LIGHT_ROLE = True


# A paragraph hard-wrapped in the note ("... within" / "15 working days of receiving it."): a line of six words or more
# that ends no sentence (no . ! ? : ;) and is no field ("Pick-up: 2 June, 10:00") runs on into a next line that goes
# on with the sentence (opens in lower case, a digit or a currency sign; no field, no numbered item); read as one line,
# so a value is read with the words it is said of.
UNWRAP = True


def _unwrap(text: str) -> str:
    """`text` with each line break inside a hard-wrapped sentence (above) replaced by a space, same length."""
    lines = text.split("\n")
    if not UNWRAP or len(lines) < 2:
        return text
    out = []
    for line, nxt in zip(lines, lines[1:]):
        soft = (len(line.split()) >= 6 and not re.search(r"[.!?:;]\s*$", line) and not re.match(r"\s*[#|]", line)
                and not LABEL_VALUE.fullmatch(line) and re.match(r"\s*[a-z0-9£$€]", nxt)
                and not re.match(r"\s*\d+[.)]\s", nxt) and not LABEL_VALUE.fullmatch(nxt))
        out.append(line + (" " if soft else "\n"))
    return "".join(out) + lines[-1]


def candidates(asked: Asked, evidence: list) -> list[tuple[int, str, str, str, str]]:
    """(evidence n, candidate text, local context, passage context, own line) of every line, sentence of a long line,
    and table row of the notes among `evidence` holding a value of `asked.kind` (module doc); the own line is the whole
    line, row or "label: value" pair the candidate stands in."""
    out = []
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        text = _unwrap(_clean_markdown(ev.text))
        title = ev.hit.title or ""
        passage = f"{title}\n{text}"
        rows = table_rows(text)
        out += [(ev.n, r.text, f"{title} {r.text}", passage, r.text) for r in rows if values(asked.kind, r.text)]
        in_table = [(r.table_start, r.table_end) for r in rows]
        lines = text.split("\n")
        pos = 0
        for i, line in enumerate(lines):
            start, pos = pos, pos + len(line) + 1
            if any(a <= start < b for a, b in in_table) or re.match(r"^[ \t]*#", line) or not line.strip():
                continue
            prev = next((p for p in reversed(lines[:i]) if p.strip()), "")
            # a bare word on the line before ("Labour": a table's header cell, flattened one cell a line by a PDF's text
            # layer) names another cell, not this value
            cell = _LABEL_ONLY.match(prev) and not prev.strip().endswith(":")
            # a field whose key names a thing ("Practice: Willow Lane Vets, 01632 950 377") is about that thing, not the
            # line above; a key naming only a type ("Date: ...") is not (FIELD_KEY)
            field_text = (_ITEM.match(line) or re.match(r"\s*(.*)", line)).group(1)  # a numbered item's field too
            key = LABEL_VALUE.fullmatch(field_text) if FIELD_KEY else None
            named = key and any(stem(w) not in TYPE_WORDS for w in content_terms(key.group(1)))
            local = f"{title} {heading_above(NL.join(lines[:i]))} {'' if cell or named else prev}"
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
            pieces = [body[s:e] for s, e in sentences(body)] or [body]  # its other sentences: context ("Q: ...?")
            out += [(ev.n, _clean(p), f"{local} {body}", passage, body) for p in pieces if values(asked.kind, p)]
    if asked.units:  # a value of the quantity named, in its units (search/asked.units_of)
        out = [c for c in out if re.search(asked.units, c[1], re.IGNORECASE)]
    return out


def typed_draft(question: str, asked: Asked, evidence: list, embedder) -> Typed | None:
    """The best candidate of the asked type (module doc), or None when no note among `evidence` holds a value of
    `asked.kind`."""
    if asked.kind == "person" and (keyed := keyed_person(question, asked.head, evidence)):  # answer/rota.py
        return Typed(f"{keyed[1].rstrip('.')}. [{keyed[0]}]", *keyed)
    if drop := unasked(question):  # CLOSED, PERIOD
        asked = replace(asked, head=tuple(w for w in asked.head if w not in drop),
                        subject=tuple(w for w in asked.subject if w not in drop))
    cands = candidates(asked, evidence)[:200]
    if CODE_NO_PHONE and asked.kind == "code" and not re.search(r"\bn(?:o|umbers?)\b", question, re.I):
        cands = [c for c in cands if any(not any(a <= s < e <= b for a, b in values("phone", c[1])) for s, e in values("code", c[1]))]
    if not cands:
        return None
    vecs = embed_cached(embedder, [question] + [c[1][:500] for c in cands])
    cos = vecs[1:] @ vecs[0]
    best: dict[int, tuple] = {}
    words = _words(question)
    titles = {ev.n: ev.hit.title or "" for ev in evidence}
    kind_words = KIND_WORDS.get(asked.kind or "", set())
    kinds = functools.cache(lambda: compound_kinds(question))  # tagged only once a subject word is missing
    nominal = functools.cache(lambda: nominal_head(question, asked.head))  # ... or a head word
    light = functools.cache(lambda: light_verbs(question))
    names = functools.cache(lambda: {stem(w.lower()) for ev in evidence  # written capitalised inside a line
                                     for w in re.findall(r"(?<=[a-z,] )[A-Z][a-z]+", ev.text)})
    role = role_of(question, replace(asked, subject=tuple(w for w in asked.subject if w not in light()))
                   if LIGHT_ROLE and asked.kind in ("date", "time") else asked)
    fits = role_fits(asked.kind, role, [c[1] for c in cands], embedder)
    if role and all(stem(w) in light() for w in role):  # the verb's role ("finish"): a span of the thing asked holds it
        about = [w for w in asked.head + asked.subject if w not in light()]
        fits = [1.0 if _span(asked.kind, c[1]) and not missing(about, f"{titles[c[0]]} {c[1]}") else f
                for c, f in zip(cands, fits)]
    lines = {n: [c[4] for c in cands if c[0] == n] for n in titles} if TOTAL and asked.kind == "money" else {}
    sums = {ev.n: summed(ev.text) for ev in evidence} if lines else {}
    totals = {n: [x for x in ls if _TOTAL.search(x) or set(_pence(x)[-1:]) & sums[n]] for n, ls in lines.items()}
    own = note = {ev.n: f"{titles[ev.n]} {_header(ev)}" for ev in evidence}  # the note's own thing: its title (HEADER)
    item = {n: [w for w in asked.head + asked.subject if w not in light() and missing((w,), own[n]) and all(
        missing((w,), x) for x in totals[n]) and not all(missing((w,), x) for x in ls)]
        for n, ls in lines.items() if totals[n]}
    per_note: dict[int, list[float]] = {}
    scored: list[tuple[int, str, float, tuple]] = []  # (n, text, score, what it was scored of) of each candidate (TRACE)
    for c, f in zip(cands, fits):
        per_note.setdefault(c[0], []).append(f)
    top_two = {n: sorted(fs, reverse=True)[:2] for n, fs in per_note.items()}  # each note's best two fits
    for (n, text, local, passage, line), c, fit in zip(cands, cos, fits):
        head = nominal() if asked.kind in VALUE_KINDS and missing(asked.head, local) else asked.head  # less its verbs
        head_gap = missing(head, local)
        if head_gap and asked.kind in VALUE_KINDS:
            head_gap = [w for w in head_gap if w not in light() or w in names()]
        # the head said on the candidate's own line counts as much as in its surroundings: the line before another value
        # ("Last descaled: ..." above "Anode check due in 2027") must not lend that value its head
        line_share = (1 - len(missing(head, line)) / len(head)) if head else 1.0
        if OWN_LINE and not head_gap:  # OWN_LINE: words asked the note's own thing lacks, of another line or clause
            bare = len(line.split()) < 4 or not re.search(r"[.!?]\s*$", line) or LABEL_VALUE.fullmatch(line.strip())
            said = [x for x in text.split(";") if values(asked.kind, x)]  # clauses holding a value
            back = any(_BACK.search(x) for x in said)  # "Giedre Marsh teaches it; her mobile is ...": hers
            head_gap = [w for w in head + asked.subject if missing((w,), note[n]) and (w not in light() or w in names())
                        and (w in head and len(missing(head, line)) == len(head) and not bare  # a field or row
                             or w in asked.subject and not back and not missing((w,), text)
                             and all(missing((w,), x) for x in said))]
        if asked.verb and head_gap and not missing((asked.verb,), line):
            head_gap, line_share = [], 1.0  # the count stated by the verb asked: "Serves 8"
        subj_gap = missing(asked.subject, local if OWNED and asked.kind in ("phone", "email") else passage)  # OWNED
        if OWNED and asked.kind == "code":  # what a code opens, not whose it is (a name: anywhere in the note)
            subj_gap += [w for w in missing(asked.subject, local) if w not in subj_gap and not re.search(
                rf"\b{w[:1].upper()}{w[1:]}", passage)]
        if subj_gap and asked.kind in VALUE_KINDS:  # less the verb asked with (LIGHT_VERBS); not a name written
            subj_gap = [w for w in subj_gap if w not in light() or w in names()]  # capitalised in the note
        if subj_gap:  # a compound's kind noun, every modifier of which names the note (its title, HEADER: the
            subj_gap = [w for w in subj_gap  # note's own thing; search/asked.compound_kinds)
                        if not any(k == w and mods and not missing(mods, note[n]) for k, mods in kinds())]
        own = _words(text)
        score = (HEAD * 0.5 * (((1 - len(head_gap) / len(head)) if head else 1.0) + line_share)
                 + SUBJECT * ((1 - len(subj_gap) / len(asked.subject)) if asked.subject else 1.0)
                 + LEXICAL * (len(words & own) / len(words) if words else 0)
                 + KIND_WORD * bool(kind_words & own)
                 + SEMANTIC * float(c))
        named = (set(missing(asked.head, titles[n])) - set(missing(asked.head, line))) if role and asked.head else set()
        top = top_two[n]  # module doc: its words, near it, or the nearest of its note's labels by a lead
        held = not (ROLE and role) or bool(named) or fit >= ROLE_COS or len(per_note[n]) < 2 \
            or (fit == top[0] and fit - top[1] >= ROLE_MARGIN)
        if n in item and (line in totals[n]) == bool(item[n]):  # a total for an item, an item for the total
            held, head_gap = False, head_gap + (item[n] or ["total"])
        gap = bool(head_gap)  # (a note's value holding the role is not passed over for another note's lacking the head)
        if not held:
            head_gap = head_gap + list(role)  # its label states another role than one of its note's values
        # in one note, a value holding the role first, then the nearest it; between notes, the score
        if TRACE is not None:  # what it was scored of (its features: bench/typed_accept.py `shares`)
            scored.append((n, text, score + ROLE * fit, (head, head_gap, line_share, asked, subj_gap, words, own, float(c), fit if role else 1.0, local)))
        if n not in best or (held, score + ROLE * fit) > best[n][0]:
            best[n] = ((held, score + ROLE * fit), n, text, local, head_gap, subj_gap, (held and not gap, score))
    _, n, text, local, head_gap, subj_gap, _ = max(best.values(), key=lambda b: b[-1])
    if TRACE is not None:  # bench/typed_accept.py: every candidate's score and features, and the one chosen
        TRACE.append((asked.kind, scored, n, text))
    sent = text.rstrip() + ("" if re.search(r"[.!?]$", text.rstrip()) else ".")
    return Typed(f"{sent} [{n}]", n, text, local, head_gap, subj_gap)


def value_labels(kind: str | None, text: str) -> list[str]:
    """The label of each value of `kind` in `text`: the words before it back to the previous value or clause mark (, ;
    parentheses), or when none, the words after it up to the next ("Please pay by 24 April" -> "Please pay by"; "10:30
    departs, 12:21 arrives" -> "departs", "arrives"), less the capitalised words after its first ("departs Leeds" ->
    "departs")."""
    spans = values(kind, text)
    out, prev = [], 0
    for k, (s, e) in enumerate(spans):
        before = re.split(r"[,;()]", text[prev:s])[-1]
        if not re.search(r"[^\W\d_]", before):
            before = re.split(r"[,;()]", text[e:spans[k + 1][0] if k + 1 < len(spans) else len(text)])[0]
        words = before.strip(" :.-–\t£$€").split()  # a name after the first word is a place, not the role
        out.append(" ".join(w for i, w in enumerate(words) if not i or not w[:1].isupper()))
        prev = e
    return out


def role_fits(kind: str | None, role: tuple[str, ...], texts: list[str], embedder) -> list[float]:
    """For each candidate text, how well a label of its values of `kind` states `role` (the question's, search/asked.role_of;
    module doc, ROLE): 1.0 when a label holds every role word (types.missing), else the best cosine of the role
    phrase and a label; 0.0 for each when no role is asked or ROLE is 0."""
    if not (ROLE and role and texts):
        return [0.0] * len(texts)
    want = [w for r in role for w in r.split("-")]
    labels = [value_labels(kind, t) or [t] for t in texts]

    def held(label: str) -> bool:
        have = {stem(w) for w in re.findall(r"[a-z]+", label.lower())}
        return all(stem(w) in have or not missing((stem(w),), label) for w in want)
    flat = list(dict.fromkeys(x for ls in labels for x in ls if x))
    vecs = embed_cached(embedder, [" ".join(role)] + flat) if flat else None
    cos = dict(zip(flat, (vecs[1:] @ vecs[0]).tolist())) if flat else {}
    return [max((1.0 if held(x) else cos.get(x, 0.0) for x in ls), default=0.0) for ls in labels]


def _span(kind: str | None, text: str) -> bool:
    """True when `text` states a span of two values of `kind` ("from 4.15pm to 4.45pm", "9:00-17:00"): its start and
    its end, whichever role of the two is asked (a role that is the question's verb, LIGHT_ROLE, when the line or its
    note's title names the thing asked)."""
    spans = values(kind, text)
    return any(re.fullmatch(r"\s*(?:to|until|till|[-–])\s*", text[e:s], re.IGNORECASE)
               for (_, e), (s, _) in zip(spans, spans[1:]))


# "what do I need to bring / take": with no list for it, the sentence of its note that says what to bring, take or
# need and lists it (a comma)
PROSE_LIST = True
_CARRY = r"\b(?:bring|brings|bringing|take|takes|taking|need|needs|needed|pack|packing)\b"
FIELD_LIST = True  # a "Key: a, b, c" field is a list of its own, its key read as its introducing line
# ... and a field whose key holds every word asked is one even with one item ("Drizzle: the juice of a lemon mixed with
# 85g sugar" for "what goes in the drizzle"); a list's section is the heading above it, not the note's title heading
# ("# Lemon drizzle cake" is no section of drizzle items). Off: two items at least; any heading above.
OWN_KEY = True


def _section(lines: list[str], i: int) -> str:
    """The heading above `lines[i]`, "" when it is the note's first line, its title (OWN_KEY)."""
    above = NL.join(lines[:i])
    first = next((x for x in lines if x.strip()), "")
    return "" if OWN_KEY and heading_above(above) and HEADING.match(first) and \
        HEADING.findall(above) == HEADING.findall(first) else heading_above(above)


def list_draft(question: str, asked: Asked, evidence: list) -> Typed | None:
    """Every item of the list (markdown "- item" or "1. item" lines, or a field's comma-separated value: FIELD_LIST) whose
    introducing line ("What to bring:"; the field's key) or section heading holds most of the question's head and
    subject words, when it holds at least one of them besides the note title (on a tie, the first in the note); None when
    no list qualifies. Each item is quoted and cited."""
    terms = tuple(dict.fromkeys(asked.head + asked.subject))
    if not terms:
        return None
    best = None
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        lines = _clean_markdown(ev.text).split("\n")
        for i, line in enumerate(lines if FIELD_LIST else ()):  # a field whose value is a list ("Topping: 175 g
            key = LABEL_VALUE.fullmatch(line.strip())  # flour, 100 g butter")
            items = [x.strip() for x in re.split(r",|;", key.group(2)) if x.strip()] if key else []
            held = len(terms) - len(missing(terms, f"{key.group(1)} {_section(lines, i)}")) if len(items) >= 2 or (
                key and OWN_KEY and not missing(terms, key.group(1))) else 0
            whole = len(terms) - len(missing(terms, f"{ev.hit.title or ''} {key.group(1)}")) if held else 0
            if held and (best is None or (whole, held) > best[0]):
                best = ((whole, held), ev.n, line.strip(), [_clean(x) for x in items])
        for listed, run in itertools.groupby(range(len(lines)), key=[bool(_ITEM.match(x)) for x in lines].__getitem__):
            run = list(run)
            if not listed:
                continue
            i, j = run[0], run[-1] + 1
            intro = next((p for p in reversed(lines[:i]) if p.strip()), "")
            own = f"{intro} {_section(lines, i)}"
            held = len(terms) - len(missing(terms, own))
            whole = len(terms) - len(missing(terms, f"{ev.hit.title or ''} {own}"))
            if held and (best is None or (whole, held) > best[0]):
                items = [_clean(_ITEM.match(x).group(1)) for x in lines[i:j]]
                best = ((whole, held), ev.n, intro.strip(" #"), items)
    if best is None and PROSE_LIST and re.search(_CARRY, question, re.I):  # "Children need a packed lunch, a coat ..."
        found = [(len(terms) - len(missing(terms, f"{ev.hit.title or ''} {ev.text}")), ev.n, _clean(ev.text[a:b]))
                 for ev in evidence if ev.hit.speaker is None for a, b in sentences(_unwrap(ev.text))
                 if re.search(_CARRY, ev.text[a:b], re.I) and "," in ev.text[a:b]]
        top = max(found, default=None, key=lambda f: f[0])
        if top and top[0]:
            return Typed(f"{top[2].rstrip('.')}. [{top[1]}]", top[1], top[2], top[2])
    if best is None:
        return None
    _, n, intro, items = best
    draft = " ".join(f"{it.rstrip('.')}. [{n}]" for it in items)
    return Typed(draft, n, intro, intro, items=items)
