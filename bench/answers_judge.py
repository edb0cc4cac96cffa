#!/usr/bin/env python3
"""A learned judge of whether a quoted sentence answers the question (issue 33, session 17).

The pair model sessions 15-16 suggested: figures of the question read against the cited
sentence (question x sentence), a logistic regression over them, and a decline when the
judge says the quote does not answer. It only adds declines to `answer_question`'s.

    python bench/answers_judge.py pairs   bench/out/replay.pkl bench/out/judge-pairs.pkl   # answer + figures
    python bench/answers_judge.py train   bench/out/judge-pairs.pkl      # tune data only
    python bench/answers_judge.py heldout bench/out/judge-pairs.pkl      # once, at the end

Pair figures (PAIR, per answered question; the quote is every cited sentence, the message
the cited passages whole; q' is the question less the named person's name):
cosine(q', quote) and cosine(q', message) with the shipped integer embedder; a soft word
alignment (the mean over q''s key terms of the best cosine of the term with a word of the
quote, each word embedded alone: a static-embedding BERTScore); the share of q''s key terms
(stemmed) in the quote and in the message; the share of the asked head and of the asked
subject (search/asked.py `asked`) in the quote; whether the quote holds a value of the
asked type (`holds`, `fits_answer_type`); the share of the question's other names
(premise.all_names less the participants) in the quote and message; whether the cited
message is the named person's; whether the quote speaks in the first person from someone
other than the named person; log words of the quote; whether the question is hypothetical.

Training data (never the held-out half): (1) LoCoMo's tune half (conv-26, conv-30), each
answered question labelled "does not answer" for category 5 and "answers" otherwise, plus
the tune half's questions asked of the other participant (bench/answers_abstain.py
`_swapped`, the recipe category 5 was written by; weight SWAP_WEIGHT); (2) questions written
for Cairn over its own documents (bench/typed_set.py, the tune part's questions over its
markdown notes): every line of the question's note is a pair, "answers" when it holds every
expected string, else "does not answer" (an unanswerable question: every line); weight
OWN_WEIGHT per pair. Classes balanced. The threshold: on out-of-fold probabilities of the
tune half (fit without conv-26 -> score conv-26, and the reverse; own pairs always in the
fit), the lowest whose added wrong declines keep tune wrongly declined <= WRONG_MAX.
`heldout` applies the judge fitted on all the training data to conv-41/42/43.
"""

from __future__ import annotations

import argparse
import math
import pickle
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answers_abstain import HELD, TUNE, _show, _swapped, fit, predict  # noqa: E402
from answers_abstain import auc as abstain_auc  # noqa: E402

WRONG_MAX = 0.08
SWAP_WEIGHT = 0.5
OWN_WEIGHT = 0.5
PAIR = ("cos_quote", "cos_message", "align", "keys_quote", "keys_message", "head_quote", "subject_quote",
        "type_holds", "type_fits", "names_quote", "names_message", "by_person", "first_person_other",
        "quote_words", "hypothetical")
_FIRST = re.compile(r"\b(?:I|I'm|I've|my|me|mine)\b")


def _unit_words(words: list[str], embedder) -> dict[str, np.ndarray]:
    from cairn.embed.cache import embed_cached
    words = list(dict.fromkeys(words))
    return dict(zip(words, embed_cached(embedder, words))) if words else {}


def pair_x(question: str, quote: str, message: str, embedder, person: str | None = None,
           speaker: str | None = None, participants: tuple[str, ...] = ()) -> list[float]:
    """The PAIR figures (module doc) of `question` against `quote` (from `message`, said by
    `speaker`; `person`: the chat participant the question is about)."""
    from cairn.answer import answerability as AB, types
    from cairn.search.asked import asked as read_asked, is_hypothetical
    from cairn.answer.premise import all_names
    from cairn.embed.cache import embed_cached
    from cairn.lexical import content_terms, stem
    focus = AB.strip_people(question, [person]) if person else question
    keys = AB.key_terms(focus)
    vec = embed_cached(embedder, [focus or question, quote[:1000] or " ", message[:1000] or " "])
    qwords = [t for t in content_terms(focus) if stem(t) in keys]
    swords = content_terms(quote)[:60]
    align = 0.0
    if qwords and swords:
        wv = _unit_words(qwords + swords, embedder)
        S = np.array([wv[w] for w in qwords]) @ np.array([wv[w] for w in swords]).T
        align = float(S.max(1).mean())
    qstems = {stem(t) for t in swords}
    mstems = {stem(t) for t in content_terms(message)}
    asked = read_asked(question)
    firsts = {p.split()[0].lower() for p in participants}
    names = [n for n in all_names(question) if n.split()[0].lower() not in firsts]
    def share(terms, have):
        return sum(t in have for t in terms) / len(terms) if terms else 0.5
    def named(text):  # the question's other names said in `text`
        return sum(n.lower() in text.lower() for n in names) / len(names) if names else 0.5
    return [float(vec[1] @ vec[0]), float(vec[2] @ vec[0]), align, share(keys, qstems), share(keys, mstems),
            share(asked.head, qstems), share(asked.subject, qstems),
            float(types.holds(asked.kind, quote)) if asked.valued else 0.5,
            float(types.fits_answer_type(quote, asked.sentence_kind)),
            named(quote), named(message),
            0.5 if not person or speaker is None else float(speaker == person),
            float(bool(person and speaker and speaker != person and _FIRST.search(quote))),
            math.log1p(len(quote.split())), float(is_hypothetical(question))]


def _locomo_rows(replay: Path, embedder) -> list[dict]:
    from answers_replay import DROPPED
    from cairn.answer import answer_question
    with open(replay, "rb") as fh:
        records = pickle.load(fh)
    jobs = [(r, r["question"], False) for r in records if r["inputs"] is not None]
    jobs += [(r, q, True) for r in records if r["inputs"] is not None and r["conversation"] in TUNE
             and r["category"] != 5 for q in [_swapped(r)] if q]
    rows = []
    for i, (r, q, swapped) in enumerate(jobs, 1):
        inp = r["inputs"]
        kw = {k: v for k, v in inp.items() if k not in DROPPED}
        if swapped:
            kw["unknown_names"] = []
        ans = answer_question(q, inp["hits"], embedder, **kw)
        row = {"id": r["id"] + ("/swap" if swapped else ""), "source": "locomo", "conversation": r["conversation"],
               "category": 5 if swapped else r["category"], "swapped": swapped,
               "abstain": ans.verdict == "abstain", "x": None}
        if not row["abstain"]:
            by_id = {h.id: h for h in inp["hits"]}
            cited = [by_id[c["chunk_id"]] for c in ans.citations if c["chunk_id"] in by_id]
            quote = " ".join(x["quote"] for c in ans.citations for x in c.get("quotes", [])) or ans.answer
            participants = tuple(sorted({h.speaker for h in inp["hits"] if h.speaker}))
            row["x"] = pair_x(q, quote, " ".join(h.text for h in cited), embedder,
                              (ans.answerability or {}).get("person"), cited[0].speaker if cited else None,
                              participants)
        rows.append(row)
        if i % 200 == 0:
            print(f"  {i} of {len(jobs)}", file=sys.stderr, flush=True)
    return rows


def _own_rows(embedder) -> list[dict]:
    """Pairs over Cairn's own documents (module doc): the typed set's tune questions over its
    markdown notes, every content line of the note."""
    from typed_set import NOTES, QUESTIONS
    rows = []
    for q in QUESTIONS:
        if q["part"] != "tune" or f"{q['doc']}.md" not in NOTES:
            continue
        text = NOTES[f"{q['doc']}.md"]
        for line in (x.strip(" -*") for x in text.split("\n")):
            if not line or line.startswith("#"):
                continue
            hit = q["expect"] is not None and all(e.lower() in line.lower() for e in q["expect"])
            rows.append({"id": f"own-{q['id']}-{len(rows)}", "source": "own", "conversation": 0,
                         "category": 0 if hit else 5, "swapped": False, "abstain": False,
                         "x": pair_x(q["question"], line, text, embedder)})
    return rows


def pairs(replay: Path, out: Path) -> None:
    """Answer every recorded LoCoMo question (and the tune half's swapped ones) with the code
    as it is, and write the pair figures of each answer and of the own-document pairs."""
    from cairn.embed import get_embedder
    embedder = get_embedder()
    rows = _locomo_rows(replay, embedder) + _own_rows(embedder)
    with open(out, "wb") as fh:
        pickle.dump({"features": PAIR, "rows": rows}, fh)
    print(f"{len(rows)} rows ({sum(r['source'] == 'own' for r in rows)} own pairs, "
          f"{sum(r['swapped'] for r in rows)} swapped) written to {out}")


def _train(rows: list[dict], convs: set[int]):
    sel = [r for r in rows if r["x"] is not None and (r["source"] == "own" or r["conversation"] in convs)]
    X = np.array([r["x"] for r in sel])
    y = np.array([float(r["category"] == 5) for r in sel])
    w = np.array([OWN_WEIGHT if r["source"] == "own" else SWAP_WEIGHT if r["swapped"] else 1.0 for r in sel])
    w = w * np.where(y == 1, len(y) / (2 * max(1, y.sum())), len(y) / (2 * max(1, len(y) - y.sum())))
    return X, y, w


def _real(rows: list[dict], convs: set[int]) -> list[dict]:
    return [r for r in rows if r["source"] == "locomo" and r["conversation"] in convs and not r["swapped"]]


def figures(rows: list[dict], convs: set[int], prob: dict[str, float], t: float) -> tuple:
    """((cat-5 declined, n, wrongly declined, n) before, the same after the judge at t)."""
    real = _real(rows, convs)
    c5, ans = [r for r in real if r["category"] == 5], [r for r in real if r["category"] != 5]
    def dec(r, on):
        return r["abstain"] or (on and prob.get(r["id"], 0.0) >= t)
    return tuple((sum(dec(r, on) for r in c5), len(c5), sum(dec(r, on) for r in ans), len(ans)) for on in (False, True))


def choose(rows: list[dict]) -> tuple[float, dict[str, float]]:
    oof: dict[str, float] = {}
    for test in TUNE:
        model = fit(*_train(rows, TUNE - {test}))
        sel = [r for r in _real(rows, {test}) if r["x"] is not None]
        oof.update({r["id"]: float(p) for r, p in zip(sel, predict(model, np.array([r["x"] for r in sel])))})
    best = 1.01
    for t in sorted(set(oof.values()), reverse=True):
        if figures(rows, TUNE, oof, t)[1][2] / figures(rows, TUNE, oof, t)[1][3] > WRONG_MAX:
            break
        best = t
    return best, oof


def auc(rows: list[dict], convs: set[int], prob: dict[str, float]) -> tuple[float, int, int]:
    """answers_abstain.auc over the real LoCoMo questions of `convs` (not the own-document pairs)."""
    return abstain_auc(_real(rows, convs), convs, prob)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pairs")
    p.add_argument("replay", type=Path)
    p.add_argument("out", type=Path)
    for name in ("train", "heldout"):
        sub.add_parser(name).add_argument("pairs", type=Path)
    a = ap.parse_args()
    if a.cmd == "pairs":
        return pairs(a.replay, a.out)
    with open(a.pairs, "rb") as fh:
        rows = pickle.load(fh)["rows"]
    t, oof = choose(rows)
    model = fit(*_train(rows, TUNE))
    print(f"threshold {t:.3f} (out-of-fold on the tune half, wrongly declined <= {WRONG_MAX})")
    print(_show("tune, out-of-fold", figures(rows, TUNE, oof, t)))
    print("tune, out-of-fold AUC %.3f (%d category 5 / %d answerable, answered)" % auc(rows, TUNE, oof))
    own = [r for r in rows if r["source"] == "own"]
    print(f"own pairs: {len(own)} ({sum(r['category'] != 5 for r in own)} answering)")
    print("standardised weights: " + ", ".join(f"{n} {b:+.2f}" for n, b in
                                              sorted(zip(PAIR, model[2]), key=lambda x: -abs(x[1]))))
    if a.cmd == "heldout":
        sel = [r for r in _real(rows, HELD) if r["x"] is not None]
        prob = {r["id"]: float(p) for r, p in zip(sel, predict(model, np.array([r["x"] for r in sel])))}
        print(_show("held out (conv-41/42/43)", figures(rows, HELD, prob, t)))
        print("held out AUC %.3f (%d category 5 / %d answerable, answered)" % auc(rows, HELD, prob))


if __name__ == "__main__":
    main()
