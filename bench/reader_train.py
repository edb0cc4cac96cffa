#!/usr/bin/env python3
"""Fit the reader's weights (answer/reader.py WEIGHTS) on chats written for it, never LoCoMo.

    python bench/reader_train.py [--conversations 8] [--seed 7] [--out /tmp/reader-traces.pkl [--traces]]
        [--replay /tmp/tune.pkl [--locomo 1,2]]

Generates `--conversations` two-person chats (bench/reader_chats.py), imports each into its
own temporary home and asks every answerable question through `Cairn.ask` (extractive, the
hand rank: reader.LEARNED off), recording each chat answer's candidate sentences and their
features (reader.TRACE). A pair is (the gold message's best candidate by the hand rank,
another message's candidate) of one question; pairwise logistic regression without intercept
(scikit-learn, C=1) on feature differences, both orders, fits the weights (RankNet's linear
case). The weights are scaled so that the sentence score's weight is 1 (HAND's scale: the
answerer's PAD_MARGIN is read on that scale). Printed: the weights, and on a held-out
quarter of the conversations (fitted on the rest) the share of questions whose top-ranked
candidate is gold, hand weights vs learned; then the weights fitted on all conversations,
the ones to write into reader.WEIGHTS.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_jsonl  # noqa: E402
from reader_chats import conversations  # noqa: E402


def collect(n: int, seed: int) -> list[dict]:
    """[{conversation, question, gold, traces}] for the answerable questions of `n` chats."""
    from cairn.answer import reader
    from cairn.service import Cairn
    reader.LEARNED = False
    out = []
    with tempfile.TemporaryDirectory(prefix="cairn-reader-") as tmp:
        for i, (rows, qs) in enumerate(conversations(n, seed)):
            chat = Path(tmp) / f"syn-{i}.jsonl"
            write_jsonl(chat, rows)
            with Cairn(Path(tmp) / f"home-{i}") as app:
                app.import_chat(chat)
                for q in qs:
                    reader.TRACE = []
                    ans = app.ask(q["question"], llm="none")
                    out.append({"conversation": i, **q, "traces": reader.TRACE,
                                "cited": [c.get("source_id") for c in ans.citations], "abstain": ans.abstained})
            reader.TRACE = None
            print(f"  chat {i}: {len(qs)} questions", file=sys.stderr, flush=True)
    return out


USE: set[str] = set()  # the features fitted (--drop takes some out: their weight 0); empty: all


def pairs(records: list[dict]):
    """(X, y): feature differences gold - other (y 1) and other - gold (y 0); a feature not
    in USE (when USE is set) is zero."""
    import numpy as np
    from cairn.answer import reader
    X, y = [], []
    for r in records:
        if r["category"] == 5:
            continue
        for trace in r["traces"]:
            gold = [f for sid, _, f in trace if sid in r["evidence"]]
            if not gold:
                continue
            g = max(gold, key=lambda f: sum(a * b for a, b in zip(reader.HAND, f)))
            for sid, _, f in trace:
                if sid not in r["evidence"]:
                    d = np.array(g) - np.array(f)
                    d = d * np.array([not USE or name in USE for name in reader.FEATURES])
                    X += [d, -d]
                    y += [1, 0]
    return np.array(X), np.array(y)


def fit(records: list[dict], offset: bool = False) -> tuple[float, ...]:
    """The pairwise logistic-regression weights, scaled to a sentence-score weight of 1 (when
    the fit gives it a positive one). offset: the hand rank is one feature (its four hand
    weights kept in ratio) and the new features are fitted beside it: HAND + what they add."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from cairn.answer import reader
    X, y = pairs(records)
    hand = np.array(reader.HAND)
    if offset:
        new = [i for i, v in enumerate(reader.HAND) if v == 0]
        Z = np.column_stack([X @ hand, X[:, new]])
        w = LogisticRegression(fit_intercept=False, C=1.0, max_iter=5000).fit(Z, y).coef_[0]
        out = hand.copy()
        out[new] += w[1:] / w[0]
        return tuple(round(float(v), 3) for v in out)
    w = LogisticRegression(fit_intercept=False, C=1.0, max_iter=5000).fit(X, y).coef_[0]
    return tuple(round(float(v / w[0]), 3) for v in w) if w[0] > 0 else tuple(round(float(v), 3) for v in w)


def locomo(path: Path, conversations: set[int], weights: dict[str, tuple]) -> None:
    """The LoCoMo replay figures (bench/answers_replay.py `figures`) of `path`'s records of
    `conversations`, once per named set of reader weights."""
    import answers_replay as R
    from _common import table
    from cairn.answer import reader
    rows = []
    reader.LEARNED = True  # collect() switched it off
    for label, w in weights.items():
        with open(path, "rb") as fh:
            recs = [r for r in pickle.load(fh) if r["conversation"] in conversations]
        reader.WEIGHTS = w
        for r in recs:  # one at a time, to keep each answer's reader candidates
            reader.TRACE = []
            R.replay([r])
            r["traces"] = reader.TRACE
        reader.TRACE = None
        rows.append([label] + R.figures(recs) + [ceiling(recs, w)])
    print(table(["reader weights", "cat 5 declined", "cat 1-4 wrongly declined", "all gold", "one gold",
                 "gold a candidate: picked / of"], rows, "lrrrrr"))


def ceiling(recs: list[dict], weights) -> str:
    """Over answered answerable records: how many had a gold message among the reader's
    candidates, and how many of those the reader with `weights` ranked first ("p / n"): a
    reader picking gold whenever it is a candidate gains n - p answers citing only gold."""
    n = p = 0
    for r in recs:
        if r["category"] == 5 or r["now"]["abstain"] or not r["evidence"] or not r["traces"]:
            continue
        trace = r["traces"][0]
        if any(sid in r["evidence"] for sid, _, _ in trace):
            n += 1
            p += max(trace, key=lambda c: sum(a * b for a, b in zip(weights, c[2])))[0] in r["evidence"]
    return f"{p} / {n}"


def top_gold(records: list[dict], weights) -> tuple[int, int]:
    """(questions whose best candidate by `weights` is a gold message, questions with a gold candidate)."""
    hit = n = 0
    for r in records:
        if r["category"] == 5:
            continue
        for trace in r["traces"][:1]:
            if not any(sid in r["evidence"] for sid, _, _ in trace):
                continue
            n += 1
            best = max(trace, key=lambda c: sum(a * b for a, b in zip(weights, c[2])))
            hit += best[0] in r["evidence"]
    return hit, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--conversations", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", help="write the traces here (pickle); with --traces, read them instead")
    ap.add_argument("--traces", action="store_true", help="read the traces from --out instead of collecting")
    ap.add_argument("--replay", help="a LoCoMo replay file (bench/answers_replay.py collect): its figures per weights")
    ap.add_argument("--locomo", default="1,2", metavar="I,J", help="with --replay: the conversations (default 1,2: tune)")
    ap.add_argument("--drop", default="", metavar="NAME,NAME", help="features left out of the fit (weight 0)")
    args = ap.parse_args(argv)
    from cairn.answer import reader
    dropped = {x for x in args.drop.split(",") if x}
    if dropped:
        USE.update(set(reader.FEATURES) - dropped)
    t0 = time.perf_counter()
    if args.traces:
        with open(args.out, "rb") as fh:
            records = pickle.load(fh)
    else:
        records = collect(args.conversations, args.seed)
        if args.out:
            with open(args.out, "wb") as fh:
                pickle.dump(records, fh)
    held = {i for i in range(args.conversations) if i % 4 == 3}
    train = [r for r in records if r["conversation"] not in held]
    test = [r for r in records if r["conversation"] in held]
    print("features:", ", ".join(reader.FEATURES))
    for offset in (False, True):
        kind = "beside the hand rank" if offset else "all features"
        w = fit(train, offset)
        print(f"weights fitted on 3/4 of the chats ({kind}):", w)
        for label, weights in (("hand", reader.HAND), ("learned", w)):
            h, n = top_gold(test, weights)
            print(f"  held-out quarter, {label}: best candidate gold {h}/{n} ({h / max(n, 1):.3f})")
    fitted = {"hand (reader off)": reader.HAND, "learned, all features": fit(records),
              "learned, beside the hand rank": fit(records, True)}
    for label, w in fitted.items():
        print(f"fitted on all chats, {label}: {w}")
    if args.replay:
        locomo(Path(args.replay), {int(x) for x in args.locomo.split(",")}, fitted)
    print(f"total time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
