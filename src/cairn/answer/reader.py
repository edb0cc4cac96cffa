"""The reader: which chat sentence, among those that may be quoted, answers the question.

The extractive answer quotes the best-ranked candidate sentence (answer/__init__.py
`extractive_draft`). For chat messages the rank used to be a hand-weighted sum (sentence score
+ HIT_PRIOR x the message's search-score gap + REPLY_WEIGHT x the score of the question it
replies to + the overlap read with that question). On LoCoMo the quoted message was the gold
one in 92 of 101 answers whose gold was the first hit but in 28 of 81 whose gold was hit 2-6
(bench/README.md, session 19): telling which of several messages on the asked topic states
the asked thing is a reading of the (question, sentence) pair.

`features` describes one candidate by FEATURES (all in about [-1, 1]):

- score: the sentence score (0.6 cosine + 0.4 term overlap, the title lift, the FAQ pair);
- prior: its message's fused search score minus the best message's (<= 0);
- reply: the score of the question its message replies to; read_with: the overlap gained by
  reading the sentence with that question (REPLY_CONTEXT);
- own: 1 when the asked person wrote it, 0 when someone else did, 0.5 with no person;
- second: it speaks to the addressee ("you", "your") with no first-person word;
- idf: the share of the question's key terms (answerability.key_terms, the name left out)
  it holds, read with the question it replies to, each term weighted by its inverse document
  frequency among the evidence's messages (a term every message holds is the topic, one
  only this message holds says what is asked of it);
- msg_cos: the message's own cosine with the question (the search's semantic signal);
- first: 1 for the first evidence message;
- novel: the key terms the sentence adds to the question (an answer states the detail asked).

`rank` is WEIGHTS . features. WEIGHTS were fitted by bench/reader_train.py on chats written
for it (never LoCoMo): pairwise logistic regression, each pair the gold message's best
sentence against another candidate of the same question (RankNet's linear case: Burges et al.
2005). HAND are the hand weights the rank had before (the reader off: `LEARNED` False).
"""

from __future__ import annotations

import math

from cairn.answer.answerability import _FIRST, _SECOND, key_terms
from cairn.lexical import content_terms, stem

FEATURES = ("score", "prior", "reply", "read_with", "own", "second", "idf", "msg_cos", "first", "novel")
# the rank before the reader: score + HIT_PRIOR (1.0) x prior + REPLY_WEIGHT (0.5) x reply + read_with
HAND = (1.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
WEIGHTS = HAND
LEARNED = True  # False: the hand weights (for measuring; bench/answers_ablation.py)
NOVEL_FULL = 4  # new key terms for a full `novel` (a round value)
# A list: extractive_draft appends each chat answer's candidates [(source id, sentence,
# features)] (bench/reader_train.py); None: off.
TRACE: list | None = None


def pool_idf(texts: list[str]) -> dict[str, float]:
    """{stemmed term: log((N + 1) / (df + 0.5))} over `texts` (N of them; df: how many hold it)."""
    df: dict[str, int] = {}
    for t in texts:
        for term in {stem(w) for w in content_terms(t)}:
            df[term] = df.get(term, 0) + 1
    n = len(texts)
    return {term: math.log((n + 1) / (d + 0.5)) for term, d in df.items()}


def idf_overlap(question_terms: set[str], text: str, idf: dict[str, float]) -> float:
    """The idf-weighted share of `question_terms` (stemmed) that `text` holds, in [0, 1]; a
    term missing from the pool weighs as one held by no message."""
    if not question_terms:
        return 0.0
    default = max(idf.values(), default=1.0)
    held = {stem(w) for w in content_terms(text)}
    total = sum(idf.get(t, default) for t in question_terms)
    return sum(idf.get(t, default) for t in question_terms if t in held) / total if total else 0.0


def features(*, score: float, prior: float, reply: float, read_with: float, speaker: str | None,
             person: str | None, sentence: str, replied_question: str,
             question_terms: set[str], idf: dict[str, float], msg_cos: float, first: bool) -> tuple[float, ...]:
    """One candidate's FEATURES (module doc), in that order."""
    own = 0.5 if not person or not speaker else float(speaker == person)
    second = float(bool(_SECOND.search(sentence)) and not _FIRST.search(sentence))
    return (score, prior, reply, read_with, own, second,
            idf_overlap(question_terms, f"{sentence} {replied_question}", idf), msg_cos, float(first),
            novel(sentence, question_terms))


def novel(sentence: str, question_terms: set[str]) -> float:
    """What the sentence adds to the question: its key terms (answerability.key_terms) that the
    question lacks, as min(1, n / NOVEL_FULL). An answer states a detail the question asks for;
    a mention of the topic alone ("I'm off to do some research") adds none."""
    return min(1.0, len(key_terms(sentence) - question_terms) / NOVEL_FULL)


def question_terms(text: str) -> set[str]:
    """The key terms the idf feature reads (answerability.key_terms of the scored text)."""
    return key_terms(text)


def rank(feats: tuple[float, ...]) -> float:
    """WEIGHTS (or HAND when LEARNED is off) . feats."""
    w = WEIGHTS if LEARNED else HAND
    return sum(a * b for a, b in zip(w, feats))


def featurer(question: str, evidence: list, focus: str | None, person: str | None, fused: dict[int, float],
             top: float, reply_to: dict[int, float], read_with: dict, asks: dict[int, str]):
    """`(score, n, sentence) -> features` over extractive_draft's candidates (its names:
    fused search scores of chat evidence by n, the best `top`, the replied questions `asks`
    and their scores `reply_to`, the REPLY_CONTEXT gains `read_with`)."""
    by_n = {ev.n: ev for ev in evidence}
    idf = pool_idf([f"{ev.text} {asks.get(ev.n, '')}" for ev in evidence])
    terms = question_terms(focus or question)

    def feats(x: tuple[float, int, str]) -> tuple[float, ...]:
        ev = by_n[x[1]]
        return features(score=x[0], prior=fused.get(x[1], top) - top, reply=reply_to.get(x[1], 0.0),
                        read_with=read_with.get((x[1], x[2]), 0.0), speaker=ev.hit.speaker, person=person,
                        sentence=x[2], replied_question=asks.get(x[1], ""), question_terms=terms,
                        idf=idf, msg_cos=ev.hit.signals.get("semantic", 0.0), first=x[1] == evidence[0].n)
    return feats


def trace(evidence: list, scored: list, feats, fused: dict, floor: float) -> None:
    """With TRACE a list and chat evidence: append the candidates reaching `floor`."""
    if TRACE is not None and fused:
        by_n = {ev.n: ev for ev in evidence}
        TRACE.append([(by_n[n].hit.source_id, sent, feats((score, n, sent))) for score, n, sent in scored
                      if score >= floor])
