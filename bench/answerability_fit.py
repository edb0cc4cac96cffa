#!/usr/bin/env python3
"""Fit the person check's learned decision (answer/answerability.py `WEIGHTS`, `BIAS`) on LoCoMo's tune half.

    python bench/answerability_fit.py features bench/out/replay.pkl     # the check's scores -> bench/answerability_rows.json
    python bench/answerability_fit.py swapped                           # the same of the name-swapped questions (asks)
    python bench/answerability_fit.py fit [--write]                     # fit on those rows; --write puts the weights in code

`features` re-runs `answerability.check` on the recorded `ask` inputs (bench/answers_replay.py collect) of the tune
half only (conversations 1-2, conv-26 and conv-30; the held half is never read) and writes, for every question the
check scores (one chat participant named, key terms left; not a hypothetical question, which the check never
declines: "Would Melanie go on another roadtrip soon?"), its `answerability.features` and whether LoCoMo files it as
unanswerable (category 5). The rows are numbers derived by Cairn's own code, no text of the data set.

`swapped` writes more rows, generated (session 28): every tune question naming one of the two participants is asked
again (through `Cairn.ask`, in a fresh import of its conversation) with the other participant's first name in its
place (`swap_name`): LoCoMo's own way of making unanswerable questions ("What did Caroline realize after her charity
race?" from Melanie's), so a swapped answerable question is labelled unanswerable and a swapped category-5 question
answerable (noisy: both may have done it). They are training rows only: leave-one-conversation-out scores the
original rows of the left-out conversation.

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
# 27: 1.0 declined 18 answerable, 10.0 15, both 60 of 70 unanswerable; session 28, with the swapped rows: 10.0 14, 30.0
# 13). tests/test_answerability_fit.py fails when the selection drifts from it.
LAMBDA = 30.0
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
    swapped = json.loads(out.read_text()).get("swapped", []) if out.is_file() else []
    out.write_text(dump(list(AB.FEATURES), rows, swapped))
    print(f"{len(rows)} scored questions of {len(records)} (tune half) written to {out}")


def swap_name(question: str, a: str, b: str) -> str | None:
    """`question` with the first name of the one participant of `a`, `b` it names (a whole word, case kept) replaced
    by the other's; None when it names both or neither."""
    first = {a.split()[0]: b.split()[0], b.split()[0]: a.split()[0]} if a.split() and b.split() else {}
    named = [n for n in first if re.search(rf"\b{re.escape(n)}\b", question)]
    if len(named) != 1 or len(first) != 2:
        return None
    return re.sub(rf"\b{re.escape(named[0])}\b", first[named[0]], question)


def swapped(out: Path = ROWS) -> None:
    """Ask the tune half's name-swapped questions (module doc) and write their rows as the rows file's "swapped"
    ([conversation, unanswerable 0/1, *features], the label the opposite of the original's category 5)."""
    import tempfile
    import cairn.answer as A
    from cairn.answer import answerability as AB
    from cairn.embed import get_embedder
    from cairn.search.asked import is_hypothetical
    from cairn.service import Cairn
    from _common import write_jsonl
    from locomo import chat_rows, load_samples
    from locomo_ask import pick_questions
    embedder, (_, samples), real, seen, rows = get_embedder(), load_samples(), A.answer_question, [], []

    def spy(question, hits, embedder, llm=None, **kw):
        seen.append({"hits": hits, **kw})
        return real(question, hits, embedder, llm, **kw)
    A.answer_question = spy
    with tempfile.TemporaryDirectory(prefix="cairn-swap-") as tmp:
        for i, sample in enumerate(samples, 1):
            if i not in TUNE:
                continue
            chat = Path(tmp) / f"{sample['sample_id']}.jsonl"
            write_jsonl(chat, chat_rows(sample))
            with Cairn(Path(tmp) / f"home-{i}") as app:
                app.import_chat(chat)
                for q in pick_questions(sample, 0, 7):
                    asked = swap_name(q["question"], sample["conversation"]["speaker_a"],
                                      sample["conversation"]["speaker_b"])
                    seen.clear()
                    if asked is None or is_hypothetical(asked) or app.ask(asked, llm="none", k=8) is None or not seen:
                        continue
                    inp = seen[0]
                    check = AB.check(asked, inp["hits"], embedder, inp.get("context"), replies=inp.get("replies"))
                    if "support_person" in check.scores:
                        rows.append([i, int(q["category"] != 5)] + [round(x, 4) for x in AB.features(check.scores)])
    A.answer_question = real
    data = json.loads(out.read_text())
    out.write_text(dump(data["features"], data["rows"], rows))
    print(f"{len(rows)} swapped questions scored (tune half), written to {out}")


def dump(names: list[str], rows: list[list], swapped: list[list] | None = None) -> str:
    """The rows file's text: the feature names, then one row a line (the swapped rows after, when any)."""
    text = '{"features": ' + json.dumps(names) + ',\n "rows": [\n' + ",\n".join(json.dumps(r) for r in rows) + "\n]"
    if swapped:
        text += ',\n "swapped": [\n' + ",\n".join(json.dumps(r) for r in swapped) + "\n]"
    return text + "}\n"


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


def loco(conv: np.ndarray, y: np.ndarray, x: np.ndarray, lam: float, aug: np.ndarray | None = None) -> tuple[int, int]:
    """(unanswerable declined, answerable declined) summed over the conversations, each's rows scored by the fit
    (`lam`) of the others' rows; aug: 1 marks a generated row (`swapped`), fitted on but never scored."""
    aug = np.zeros(len(y), dtype=bool) if aug is None else aug.astype(bool)
    caught = false = 0
    for c in sorted(set(conv)):
        w, b = fit(x[conv != c], y[conv != c], lam)
        scored = (conv == c) & ~aug
        dec = x[scored] @ w + b >= 0
        caught += int((dec & (y[scored] == 1)).sum())
        false += int((dec & (y[scored] == 0)).sum())
    return caught, false


def select_lambda(conv: np.ndarray, y: np.ndarray, x: np.ndarray, aug: np.ndarray | None = None) -> float:
    """The smallest of LAMBDAS maximising the leave-one-conversation-out share of unanswerable rows declined less the
    share of answerable rows declined (Youden's J, the balanced classes' criterion), over the rows not generated."""
    own = y if aug is None else y[~aug.astype(bool)]
    score = {lam: (lambda c, f: c / max(own.sum(), 1) - f / max((own == 0).sum(), 1))(*loco(conv, y, x, lam, aug))
             for lam in LAMBDAS}
    best = max(score.values())
    return min(lam for lam, j in score.items() if j >= best - 1e-12)


def load(path: Path = ROWS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(conversation, y, x, aug) of the rows file, its "rows" then its "swapped" (aug 1: generated)."""
    raw = json.loads(path.read_text())
    rows, more = raw["rows"], raw.get("swapped", [])
    data = np.array(rows + more, dtype=float)
    return data[:, 0].astype(int), data[:, 1], data[:, 2:], np.array([0] * len(rows) + [1] * len(more))


def rates(w: np.ndarray, b: float, x: np.ndarray, y: np.ndarray) -> str:
    """'unanswerable declined a/b, answerable declined c/d' at probability 0.5."""
    dec = (x @ w + b) >= 0
    return (f"unanswerable declined {int((dec & (y == 1)).sum())}/{int(y.sum())}, "
            f"answerable declined {int((dec & (y == 0)).sum())}/{int((y == 0).sum())}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("features", "swapped", "fit"))
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
    if args.action == "swapped":
        swapped()
        return 0
    conv, y, x, aug = load()
    own = aug == 0
    print(f"{int(own.sum())} rows, {int((~own).sum())} swapped (fitted on, not scored)")
    for lam in LAMBDAS:
        caught, false = loco(conv, y, x, lam, aug)
        print(f"L2 {lam:g}: leave-one-conversation-out unanswerable declined {caught}/{int(y[own].sum())}, "
              f"answerable declined {false}/{int((y[own] == 0).sum())}")
    if (chosen := select_lambda(conv, y, x, aug)) != LAMBDA:
        print(f"warning: the selection picks L2 {chosen:g}, LAMBDA is {LAMBDA:g}: set LAMBDA to it before --write")
    w, b = fit(x, y)
    print("weights " + ", ".join(f"{n}={v:.3f}" for n, v in zip(json.loads(ROWS.read_text())["features"], w))
          + f"; bias {b:.3f}")
    print(f"on its own rows (not swapped): {rates(w, b, x[own], y[own])}")
    for c in sorted(set(conv)):
        wc, bc = fit(x[conv != c], y[conv != c])
        print(f"fitted without conversation {c}, scored on it: {rates(wc, bc, x[(conv == c) & own], y[(conv == c) & own])}")
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
