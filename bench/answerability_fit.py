#!/usr/bin/env python3
"""Fit the person check's learned decision (answer/answerability.py `WEIGHTS`, `BIAS`) on LoCoMo's tune half.

    python bench/answerability_fit.py features bench/out/replay.pkl     # the check's scores -> bench/answerability_rows.json
    python bench/answerability_fit.py fit [--write]                     # fit on those rows; --write puts the weights in code

`features` re-runs `answerability.check` on the recorded `ask` inputs (bench/answers_replay.py collect) of the tune
half only (conversations 1-2, conv-26 and conv-30; the held half is never read) and writes, for every question the
check scores (one chat participant named, key terms left; not a hypothetical question, which the check never
declines: "Would Melanie go on another roadtrip soon?"), its `answerability.features` and whether LoCoMo files it as
unanswerable (category 5). The rows are numbers derived by Cairn's own code, no text of the data set.

`fit` is an L2-regularised logistic regression (Newton's method, numpy; `LAMBDA`, the bias unpenalised) over those
rows, with category 5 weighted so that both classes weigh the same (the decision is read at probability 0.5). It prints
the fit's figures on its own rows and leave-one-conversation-out (fit on one conversation, scored on the other); the
end-to-end figures come from `bench/answers_replay.py score`. tests/test_answerability_fit.py refits from the rows
and fails when the weights in code drift from them.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from pathlib import Path

import numpy as np

ROWS = Path(__file__).resolve().parent / "answerability_rows.json"
TUNE = {1, 2}
# The L2 strength: of LAMBDAS, the smallest whose leave-one-conversation-out figures are best (`select_lambda`; session
# 27: 1.0 declined 18 answerable, 10.0 15, both 60 of 70 unanswerable). tests/test_answerability_fit.py fails when the
# selection drifts from it.
LAMBDA = 10.0
LAMBDAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)


def features(replay: Path, out: Path = ROWS) -> None:
    """Write {"features": FEATURES, "rows": [[conversation, unanswerable 0/1, *features]]} for the tune half."""
    from answers_replay import DROPPED
    from cairn.answer import answerability as AB
    from cairn.embed import get_embedder
    from cairn.search.asked import is_hypothetical
    embedder = get_embedder()
    with open(replay, "rb") as fh:
        records = [r for r in pickle.load(fh) if r["conversation"] in TUNE and r["inputs"]]
    rows = []
    for r in records:
        kw = {k: v for k, v in r["inputs"].items() if k not in DROPPED}
        check = AB.check(r["question"], r["inputs"]["hits"], embedder, kw.get("context"), replies=kw.get("replies"))
        if "support_person" in check.scores and not is_hypothetical(r["question"]):  # never declined by it
            rows.append([r["conversation"], int(r["category"] == 5)] + [round(x, 4) for x in AB.features(check.scores)])
    out.write_text(dump(list(AB.FEATURES), rows))
    print(f"{len(rows)} scored questions of {len(records)} (tune half) written to {out}")


def dump(names: list[str], rows: list[list]) -> str:
    """The rows file's text: the feature names, then one row a line."""
    return ('{"features": ' + json.dumps(names) + ',\n "rows": [\n'
            + ",\n".join(json.dumps(r) for r in rows) + "\n]}\n")


def fit(x: np.ndarray, y: np.ndarray, lam: float = LAMBDA) -> tuple[np.ndarray, float]:
    """(weights, bias) of a logistic regression of `y` (0/1) on `x` (n, d): balanced class weights, L2 `lam` on the
    weights, 50 Newton steps (the loss is convex; converged well before)."""
    n, d = x.shape
    a = np.hstack([x, np.ones((n, 1))])
    cw = np.where(y == 1, n / (2 * max(y.sum(), 1)), n / (2 * max(n - y.sum(), 1)))
    w = np.zeros(d + 1)
    reg = np.diag([lam] * d + [0.0])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        grad = a.T @ (cw * (p - y)) + reg @ w
        hess = (a * (cw * p * (1 - p))[:, None]).T @ a + reg + 1e-9 * np.eye(d + 1)
        w -= np.linalg.solve(hess, grad)
    return w[:-1], float(w[-1])


def loco(conv: np.ndarray, y: np.ndarray, x: np.ndarray, lam: float) -> tuple[int, int]:
    """(unanswerable declined, answerable declined) summed over the conversations, each scored by the fit (`lam`) of
    the others' rows."""
    caught = false = 0
    for c in sorted(set(conv)):
        w, b = fit(x[conv != c], y[conv != c], lam)
        dec = x[conv == c] @ w + b >= 0
        caught += int((dec & (y[conv == c] == 1)).sum())
        false += int((dec & (y[conv == c] == 0)).sum())
    return caught, false


def select_lambda(conv: np.ndarray, y: np.ndarray, x: np.ndarray) -> float:
    """The smallest of LAMBDAS maximising the leave-one-conversation-out share of unanswerable rows declined less the
    share of answerable rows declined (Youden's J, the balanced classes' criterion)."""
    score = {lam: (lambda c, f: c / max(y.sum(), 1) - f / max((y == 0).sum(), 1))(*loco(conv, y, x, lam))
             for lam in LAMBDAS}
    best = max(score.values())
    return min(lam for lam, j in score.items() if j >= best - 1e-12)


def load(path: Path = ROWS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(conversation, y, x) of the rows file."""
    data = np.array(json.loads(path.read_text())["rows"], dtype=float)
    return data[:, 0].astype(int), data[:, 1], data[:, 2:]


def rates(w: np.ndarray, b: float, x: np.ndarray, y: np.ndarray) -> str:
    """'unanswerable declined a/b, answerable declined c/d' at probability 0.5."""
    dec = (x @ w + b) >= 0
    return (f"unanswerable declined {int((dec & (y == 1)).sum())}/{int(y.sum())}, "
            f"answerable declined {int((dec & (y == 0)).sum())}/{int((y == 0).sum())}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("features", "fit"))
    ap.add_argument("file", nargs="?", help="features: bench/answers_replay.py collect's pickle")
    ap.add_argument("--write", action="store_true", help="fit: write WEIGHTS and BIAS into answer/answerability.py")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if args.action == "features":
        if not args.file or not Path(args.file).is_file():
            ap.error(f"features needs the replay pickle; no such file: {args.file}")
        features(Path(args.file))
        return 0
    if not ROWS.is_file():
        ap.error(f"no rows file {ROWS}: run `features` first")
    conv, y, x = load()
    for lam in LAMBDAS:
        caught, false = loco(conv, y, x, lam)
        print(f"L2 {lam:g}: leave-one-conversation-out unanswerable declined {caught}/{int(y.sum())}, "
              f"answerable declined {false}/{int((y == 0).sum())}")
    if (chosen := select_lambda(conv, y, x)) != LAMBDA:
        print(f"warning: the selection picks L2 {chosen:g}, LAMBDA is {LAMBDA:g}: set LAMBDA to it before --write")
    w, b = fit(x, y)
    print("weights " + ", ".join(f"{n}={v:.3f}" for n, v in zip(json.loads(ROWS.read_text())["features"], w))
          + f"; bias {b:.3f}")
    print(f"on its own rows: {rates(w, b, x, y)}")
    for c in sorted(set(conv)):
        wc, bc = fit(x[conv != c], y[conv != c])
        print(f"fitted without conversation {c}, scored on it: {rates(wc, bc, x[conv == c], y[conv == c])}")
    if args.write:
        path = Path(__file__).resolve().parent.parent / "src/cairn/answer/answerability.py"
        text = path.read_text()
        text = re.sub(r"^WEIGHTS = \(.*?\)$", "WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")", text, flags=re.M)
        text = re.sub(r"^BIAS = .*$", f"BIAS = {b:.3f}", text, flags=re.M)
        path.write_text(text)
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
