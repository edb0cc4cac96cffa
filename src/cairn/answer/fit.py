"""Does a quoted line answer the question? A small learned scorer for the answers whose kind has no value pattern (issue
33): who, how do I, yes/no, "how did X get on in Y", "what engine oil".

`answers(question, asked, line, title, embedder)` is a logistic regression over `features`:

    f0  cosine(question less the names the line writes, line)  (the packaged sentence embedder)
    f1  share of the question's content words held by the line (stems, word family: types.missing)
    f2  ... held by the line or its note's title
    f3  share of the question's words that the title lacks and the line does not write capitalised (past a field's key:
        "Tobias is ...", "Pet: Mungo"; the asked attribute, not the note's subject or a person named) that the line
        holds; 1.0 when there is none
    f4  the best cosine of one such word (as the question writes it) and the line: the note's own word for a colloquial
        one ("cancel" / "leave")
    f5  share of the line's words written capitalised (a letterhead or heading states nothing)
    f6  1.0 when the kind asked is a person and the line names none but the question's own (types.values, a title, a
        capitalised word inside a clause), or a place and the line says no place (types.says_where); else 0.0
    f7  the line's length in words / 20, at most 1.0

The weights were fitted by bench/answer_pairs.py on (question, line, answers?) pairs written for it (household notes
unlike the typed sets'; every other line of a question's note a negative); a test fails when they drift from what the
pairs fit. Pure given the embedder; ~2 embedder calls of short texts per line scored (cached).
"""

from __future__ import annotations

import math
import re

from cairn.answer import types
from cairn.search.asked import TYPE_WORDS
from cairn.embed.cache import embed_cached
from cairn.lexical import content_terms, stem
from cairn.ner import parts_of_speech
from cairn.ner_written import CALENDAR

# Fitted by `python bench/answer_pairs.py --write` (train notes; held-out figures in bench/README.md).
WEIGHTS = (1.728, 1.215, 1.161, 1.270, 1.341, -0.158, -1.526, 0.223)
BIAS = -1.838
# An untyped answer from notes passes only when its best quoted line scores at least THRESHOLD (checks.py, UNTYPED_FIT);
# below it the answer is declined with pointers.
THRESHOLD = 0.5
_NAMES = re.compile(r"[\w'’-]+")
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})
_UNIT = re.compile(rf"(?:{types._UNITS}|evenings?|mornings?|afternoons?)", re.IGNORECASE)


def _terms(question: str) -> list[str]:
    return list(dict.fromkeys(stem(t) for t in content_terms(question) if stem(t) not in TYPE_WORDS))


def _attribute(terms: list[str], question: str, line: str, title: str) -> tuple[list[str], set[str]]:
    """(the attribute's stems: `terms` the title lacks, less the names; the names: stems of the words capitalised in the
    line past a field's key, or in the question past its first word: the subject)."""
    key = re.match(r"^[^:]{1,40}:\s", line)  # a field's key names the attribute ("Engine oil: ...")
    named = {stem(w.lower()) for x in (line[key.end() if key else 0:], question[1:])
             for w in re.findall(r"\b[A-Z][a-z'’-]+", x)}
    return ([w for w in types.missing(tuple(terms), title) if w not in named] if terms else []), named


def features(question: str, asked, line: str, title: str, embedder) -> list[float]:
    """The 8 features of (question, line) (module doc), each in [0, 1]."""
    terms = _terms(question)
    attr, named = _attribute(terms, question, line, title)
    share = lambda ws, text, none=0.0: 1 - len(types.missing(tuple(ws), text)) / len(ws) if ws else none  # noqa: E731
    held, held_t, own = share(terms, line), share(terms, f"{title} {line}"), share(attr, line, 1.0)
    words = types.words_of(attr, question) if attr else []
    # the question less the names the line writes (the subject): what is asked of it
    focus = " ".join(w for w in question.split() if stem(w.lower().strip("?.,!'’s")) not in named
                     and stem(w.lower().strip("?.,!")) not in named) or question
    vecs = embed_cached(embedder, [focus, line[:500]] + words)
    cos_q = float(vecs[1] @ vecs[0])
    cos_w = max((float(v @ vecs[1]) for v in vecs[2:]), default=cos_q)
    tokens = [w for w in _NAMES.findall(line) if w[:1].isalpha()]
    caps = sum(w[:1].isupper() for w in tokens) / len(tokens) if tokens else 1.0
    miss = float(not names_someone(question, line)) if asked.kind == "person" else \
        float(not types.says_where(line)) if asked.kind == "place" else 0.0
    return [cos_q, held, held_t, own, cos_w, caps, miss, min(len(tokens) / 20, 1.0)]


def _note_names(note: str) -> set[str]:
    """Stems of the words `note` writes capitalised past a line's first word or a field's key ("Patient: Cosmo Vance"):
    its names, though a question types them in lower case."""
    rests = (row[k.end():] if (k := re.match(r"^[^:]{1,40}:\s", row)) else re.sub(r"^\W*[\w'’-]+", "", row)
             for row in note.splitlines())
    return {stem(w.lower()) for rest in rests for w in re.findall(r"(?<![.!?]\s)\b[A-Z][a-z'’-]+", rest)}


def states_attribute(question: str, asked, line: str, title: str, embedder, note: str = "") -> bool:
    """True when `line` states the asked attribute: it holds one of its words (feature f3 above 0: a word of the question
    its note's `title` lacks, not a name), or a word within topic.SYNONYM_COS of one ("pet" / "cat"), or a date or
    weekday for a unit of time ("what nights": "on Tuesdays"); or the question has no such word. note: the text of the
    line's note, whose names (`_note_names`) are no attribute words."""
    from cairn.answer.topic import supported_terms
    attr, _ = _attribute(_terms(question), question, line, title)
    attr = [w for w in attr if len(w) > 1 and w not in _note_names(note)]  # the subject's name, typed in lower case
    if not attr or len(types.missing(tuple(attr), line)) < len(attr):
        return True
    tagged = parts_of_speech(question)  # the attribute is a thing: the question's nouns and adjectives, not its verbs
    attr = [w for w in attr if tagged is None or w in {stem(t.lower()) for t, pos in tagged if pos in _NOMINAL}]
    words = types.words_of(attr, question) if attr else []  # "what nights": a unit of time, held by a weekday or date
    return not attr or bool(types._TIME_RE.search(line) and any(_UNIT.fullmatch(w) for w in words)) \
        or bool(supported_terms(words, line, embedder))


def names_someone(question: str, line: str) -> bool:
    """True when `line` writes a name (a capitalised run, types.values "person"; a title "Dr"; a capitalised word inside
    a clause: "called Radek") other than those `question` writes ("who is treating Benedikt" is not answered by "Client:
    Benedikt Scholl")."""
    asked_of = {w.lower() for w in _NAMES.findall(question)}
    found = [line[a:b] for a, b in types.values("person", line)] + re.findall(r"\b(?:Dr|Mr|Mrs|Ms|Mx)\b", line) \
        + [w for w in re.findall(r"\b[a-z][\w'’-]*,? ([A-Z][a-z'’-]+)", line) if w.lower() not in CALENDAR]
    return any(not ({w.lower() for w in _NAMES.findall(x)} & asked_of) for x in found)


def answers(question: str, asked, line: str, title: str, embedder) -> float:
    """P(the line answers the question), in (0, 1): the logistic of WEIGHTS . features + BIAS."""
    z = BIAS + sum(w * f for w, f in zip(WEIGHTS, features(question, asked, line, title, embedder)))
    return 1 / (1 + math.exp(-z))


GATE_FEATURES = ("cosine", "held", "held_title", "attribute", "attribute_cos", "capitals", "no_one", "length",
                 "typed", "no_head", "semantic", "rank", "lines", "yesno", "untyped", "note_held", "rival", "nearness",
                 "date_time", "line_margin")


def gate_features(question: str, asked, lines: list[tuple[str, str]], typed: bool, semantic: float, rival: float,
                  rank: int, note: str, embedder, others: list[str] = ()) -> list[float]:
    """The acceptance gate's features of an answer quoted from notes (GATE_FEATURES): `features` of its first quoted
    line (`lines`: (line, its note's title)), then typed (a value of the kind asked), no head word asked, the best
    `semantic` retrieval cosine of its cited passages, 1 / the cited evidence `rank`, quoted lines / 3, a yes/no and a
    kind-less (what / which) question, the share of the question's words its cited `note` (title and text) holds, 0.5 +
    its cosine less the best `rival` (a note retrieved, not cited) in [0, 1], the least cosine of an asked word the line
    lacks and the line (1.0: it lacks none), a date or time asked, and 0.5 + the line's cosine with the question less
    the best of the `others` (the other lines of the notes retrieved) in [0, 1]."""
    line, title = lines[0]
    terms = _terms(question)
    gap = types.missing(tuple(dict.fromkeys(asked.head + asked.subject)), line)
    vecs = embed_cached(embedder, [line[:500]] + types.words_of(gap, question)) if gap else None
    cos = embed_cached(embedder, [question, line[:500]] + [x[:500] for x in others if x != line]) @ \
        embed_cached(embedder, [question])[0]
    return features(question, asked, line, title, embedder) + [
        float(typed), float(not asked.head), semantic, 1 / max(rank, 1), min(len(lines), 3) / 3,
        float(asked.kind == "yesno"), float(asked.kind is None),
        1 - len(types.missing(tuple(terms), f"{title} {note}")) / len(terms) if terms else 1.0,
        min(1.0, max(0.0, 0.5 + semantic - rival)), float(min(vecs[1:] @ vecs[0])) if gap else 1.0,
        float(asked.kind in ("date", "time")), min(1.0, max(0.0, 0.5 + cos[1] - max(cos[2:], default=0.0)))]


# Fitted by `python bench/accept_gate.py write bench/out/gate_rows.pkl` (bench/README.md, Session 29 — wrongpass29).
GATE_WEIGHTS = (
    0.653, 0.091, 0.756, 0.595, 0.008, -0.046, 0.005, -0.394, -0.051, -0.048, 0.272, -0.01, -0.045, -0.032, -0.248,
    -0.064, 0.411, 0.123, -0.142, 0.636, 0.319, -0.069, 0.589, 0.244, -0.14, 0.286, -0.045, -0.503, -0.051, -0.073,
    0.409, -0.051, 0.146, -0.032, 0, -0.087, 0.558, -0.123, -0.142, 0.377)
GATE_BIAS = -1.995
GATE_THRESHOLD = 0.35


def gate_vector(feats: list[float]) -> list[float]:
    """`feats` (gate_features), then each again times the typed flag: a typed value's features weigh apart."""
    return list(feats) + [feats[8] * f for f in feats]


def accepts(feats: list[float]) -> float:
    """P(the answer whose `gate_features` are `feats` is right), in (0, 1): the logistic of GATE_WEIGHTS .
    gate_vector(feats) + GATE_BIAS."""
    return 1 / (1 + math.exp(-(GATE_BIAS + sum(w * f for w, f in zip(GATE_WEIGHTS, gate_vector(feats))))))
