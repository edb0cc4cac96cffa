#!/usr/bin/env python3
"""Which chat message to quote, learned (issue 33, session 17): LoCoMo "all citations gold".

The extractive answer ranks the sentences it may quote by a hand-weighted sum (cairn.answer
`extractive_draft`: 0.6 cosine + 0.4 term overlap, + HIT_PRIOR x the message's fused search
score over the best, + REPLY_WEIGHT x the score of the question it replies to, + NAME_BONUS
per name). This bench learns those weights instead, from LoCoMo's tune half only, as a
conditional logit (softmax over the candidates of one question; the label: the candidate's
message is gold evidence), and adds the pair figures of bench/answers_judge.py (word
alignment, key terms in the message) to see whether they help.

    python bench/answers_rank.py collect bench/out/replay.pkl bench/out/rank.pkl   # candidates + figures
    python bench/answers_rank.py train   bench/out/rank.pkl     # tune half, out of fold by conversation
    python bench/answers_rank.py heldout bench/out/rank.pkl     # once, at the end

Candidates: the sentences `extractive_draft` may quote for an answered category 1-4 question
(the same call, with the padding rules off, so that every eligible sentence is listed in the
shipped order). Printed: the share of questions whose top candidate's message is gold, for
the shipped order and for the learned one (tune: fitted on one conversation, scored on the
other; held out: fitted on both tune conversations).
"""

from __future__ import annotations

import argparse
import contextlib
import pickle
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answers_abstain import HELD, TUNE  # noqa: E402

RANK = ("cosine", "overlap", "prior", "reply", "names", "align", "keys_message", "semantic", "keyword", "first",
        "eligible")
L2 = 1.0
_DRAFT = re.compile(r"(.+?) \[(\d+)\](?= |$)")


@contextlib.contextmanager
def _capture(store: list, every_sentence: bool = False):
    """cairn.answer.extractive_draft wrapped: each call also lists every eligible sentence
    in the shipped order (padding off) into `store`, with its evidence and scoring text;
    every_sentence: the sentences under the floors too (FALLBACK_FLOOR, SENTENCE_FLOOR off)."""
    import cairn.answer as A
    real = A.extractive_draft

    def wide(question, evidence, embedder, max_sentences=3, about=None, focus=None, replies=None, asked=None):
        old = (A.PAD_MARGIN, A.ONE_PASSAGE, A.FALLBACK_FLOOR, A.SENTENCE_FLOOR)
        A.PAD_MARGIN, A.ONE_PASSAGE = 1e9, False
        if every_sentence:
            A.FALLBACK_FLOOR = A.SENTENCE_FLOOR = -1.0
        try:
            every = real(question, evidence, embedder, 60, about=about, focus=focus, replies=replies, asked=asked)
        finally:
            A.PAD_MARGIN, A.ONE_PASSAGE, A.FALLBACK_FLOOR, A.SENTENCE_FLOOR = old
        store.append({"question": question, "focus": focus, "evidence": evidence, "replies": replies or {},
                      "order": [(m.group(1), int(m.group(2))) for m in _DRAFT.finditer(every)]})
        return real(question, evidence, embedder, max_sentences, about=about, focus=focus, replies=replies,
                    asked=asked)
    A.extractive_draft = wide
    try:
        yield
    finally:
        A.extractive_draft = real


def _figures(cap: dict, embedder) -> np.ndarray:
    """RANK figures of every candidate of one captured call (rows in the shipped order)."""
    import cairn.answer as A
    from cairn.answer.premise import all_names
    from cairn.embed.cache import embed_cached
    from cairn.lexical import content_terms, stem, term_overlap
    from answers_judge import _unit_words
    from cairn.answer import answerability as AB
    q = cap["focus"] or cap["question"]
    ev = {e.n: e for e in cap["evidence"]}
    sents = [s for s, _ in cap["order"]]
    vec = embed_cached(embedder, [q] + [s[:1000] for s in sents])
    cos = vec[1:] @ vec[0]
    fused = {n: e.hit.score for n, e in ev.items() if e.hit.speaker}
    top = max(fused.values(), default=0.0)
    reply = A._reply_scores(q, cap["evidence"], cap["replies"], embedder)
    names = {w.lower() for n in all_names(cap["question"]) for w in re.findall(r"\w+", n)}
    keys = AB.key_terms(q)
    qwords = [t for t in content_terms(q) if stem(t) in keys]
    rows = []
    first = None
    for i, ((s, n), c) in enumerate(zip(cap["order"], cos)):
        eligible = A._sentence_score(float(c), q, s) >= A.FALLBACK_FLOOR
        if eligible and first is None:
            first = i
        hit = ev[n].hit
        swords = content_terms(s)[:60]
        align = 0.0
        if qwords and swords:
            wv = _unit_words(qwords + swords, embedder)
            align = float((np.array([wv[w] for w in qwords]) @ np.array([wv[w] for w in swords]).T).max(1).mean())
        mstems = {stem(t) for t in content_terms(hit.text)}
        rows.append([float(c), term_overlap(q, s), fused.get(n, top) - top, reply.get(n, 0.0),
                     float(sum(bool(re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", s.lower())) for w in names)),
                     align, len(keys & mstems) / len(keys) if keys else 0.0, hit.signals.get("semantic", 0.0),
                     hit.signals.get("keyword", 0.0), float(i == first), float(eligible)])
    return np.array(rows)


def collect(replay: Path, out: Path, every_sentence: bool = False) -> None:
    """Answer every recorded category 1-4 question with the code as it is, capturing the
    candidates of its extractive answer and their figures (every_sentence: `_capture`'s)."""
    from answers_replay import DROPPED
    from cairn.answer import answer_question
    from cairn.embed import get_embedder
    embedder = get_embedder()
    with open(replay, "rb") as fh:
        records = pickle.load(fh)
    rows = []
    for i, r in enumerate(records, 1):
        if r["inputs"] is None or r["category"] == 5 or not r["evidence"]:
            continue
        store: list = []
        kw = {k: v for k, v in r["inputs"].items() if k not in DROPPED}
        with _capture(store, every_sentence):
            ans = answer_question(r["question"], r["inputs"]["hits"], embedder, **kw)
        if ans.verdict == "abstain" or not store or not store[-1]["order"]:
            continue
        cap = store[-1]
        ev = {e.n: e.hit.source_id for e in cap["evidence"]}
        rows.append({"id": r["id"], "conversation": r["conversation"], "X": _figures(cap, embedder),
                     "gold": np.array([ev[n] in r["evidence"] for _, n in cap["order"]], dtype=float),
                     "shipped_gold": bool(ans.citations) and all(c.get("source_id") in r["evidence"]
                                                                 for c in ans.citations)})
        if i % 200 == 0:
            print(f"  {i} of {len(records)}", file=sys.stderr, flush=True)
    with open(out, "wb") as fh:
        pickle.dump({"features": RANK, "rows": rows}, fh)
    print(f"{len(rows)} answered questions written to {out}")


def fit(rows: list[dict], cols: list[int], l2: float = L2) -> np.ndarray:
    """Conditional logit weights (features `cols`) maximising the log-probability of the gold
    candidates of each question (questions without a gold candidate left out), L2 `l2`;
    gradient ascent with backtracking."""
    data = [(r["X"][:, cols], r["gold"]) for r in rows if r["gold"].any()]
    w = np.zeros(len(cols))

    def loss_grad(w):
        ll, g = -0.5 * l2 * w @ w, -l2 * w
        for X, y in data:
            z = X @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            ll += np.log((p * y).sum() + 1e-12)
            q = p * y / ((p * y).sum() + 1e-12)
            g += X.T @ (q - p)
        return ll, g
    ll, g = loss_grad(w)
    step = 1.0
    for _ in range(300):
        nw = w + step * g / max(1.0, np.abs(g).max())
        nll, ng = loss_grad(nw)
        if nll > ll:
            w, ll, g, step = nw, nll, ng, step * 1.2
        else:
            step *= 0.5
        if step < 1e-6:
            break
    return w


def top_gold(rows: list[dict], w: np.ndarray | None, cols: list[int]) -> tuple[int, int]:
    """(questions whose top candidate is gold, questions): the shipped choice (the first
    eligible candidate: RANK "first") when w is None."""
    hits = 0
    for r in rows:
        i = int(np.argmax(r["X"][:, RANK.index("first")])) if w is None else int(np.argmax(r["X"][:, cols] @ w))
        hits += bool(r["gold"][i])
    return hits, len(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("replay", type=Path)
    c.add_argument("out", type=Path)
    c.add_argument("--every-sentence", action="store_true", help="candidates under the floors too")
    for name in ("train", "heldout"):
        t = sub.add_parser(name)
        t.add_argument("rank", type=Path)
        t.add_argument("--every-sentence", action="store_true", help="the file was collected with it")
    a = ap.parse_args()
    if a.cmd == "collect":
        return collect(a.replay, a.out, a.every_sentence)
    with open(a.rank, "rb") as fh:
        rows = pickle.load(fh)["rows"]
    sets = {"shipped figures (cosine, overlap, prior, reply, names)": [0, 1, 2, 3, 4],
            "shipped + pair figures": [0, 1, 2, 3, 4, 5, 6],
            "all figures": list(range(len(RANK)))}
    if a.every_sentence:  # the shipped choice is known: learn what else to pick
        sets = {"shipped figures + eligible": [0, 1, 2, 3, 4, 10], "all figures but first": list(range(9)) + [10]}
    tune = [r for r in rows if r["conversation"] in TUNE]
    held = [r for r in rows if r["conversation"] in HELD]
    def show(label, f):
        return f"{label}: {f[0] / f[1]:.3f} ({f[0]}/{f[1]})"
    print(show("tune, shipped order", top_gold(tune, None, [])))
    for name, cols in sets.items():
        oof = [0, 0]
        for test in TUNE:
            w = fit([r for r in tune if r["conversation"] != test], cols)
            h, n = top_gold([r for r in tune if r["conversation"] == test], w, cols)
            oof[0] += h
            oof[1] += n
        w = fit(tune, cols)
        print(show(f"tune, learned out of fold, {name}", oof) + "; weights " +
              ", ".join(f"{RANK[c]} {x:+.2f}" for c, x in zip(cols, w)))
        if a.cmd == "heldout":
            print("  " + show("held out, shipped order", top_gold(held, None, [])) + "; " +
                  show("learned", top_gold(held, w, cols)))


if __name__ == "__main__":
    main()
