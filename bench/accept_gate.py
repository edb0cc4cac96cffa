#!/usr/bin/env python3
"""One learned acceptance gate for every answer quoted from notes (wrongpass29, issue 33)

    python bench/accept_gate.py rows bench/out/typed_dev29.pkl bench/out/gate_rows.pkl [--off checks.UNTYPED_FIT ...]
    python bench/accept_gate.py fit bench/out/gate_rows.pkl [--features f0,f1,...]   # leave-one-set-out figures
    python bench/accept_gate.py write bench/out/gate_rows.pkl   # fit on all sets, write the constants into fit.py

`rows` replays every recorded question (bench/typed_accept.py record) through `answer_question` with the code as it is
(and the --off switches), and for every answer that passes from notes keeps its gate features (answer/fit.py
`gate_features`) and whether it is right (an answerable question whose answer holds every expected string); declined
answers are kept with no features (the gate only declines). `fit` fits a logistic regression (answer_pairs.train,
classes balanced, L2) on the passes of all sets but one, picks the threshold maximising the summed net of those sets
(right with pass - COST x wrong with pass + unanswerable declined, per set, as bench/typed_accept.py), and scores the
set left out with them: the out-of-set figures. `write` writes the weights and threshold fitted on every set into
src/cairn/answer/fit.py (GATE_WEIGHTS, GATE_BIAS, GATE_THRESHOLD).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import switch_off  # noqa: E402

COST = 2.0
L2 = 0.01


def rows(src: Path, out: Path) -> None:
    """Replay `src`; write [{set, expect, verdict, outcome, features or None}] to `out`."""
    from answers_replay import DROPPED
    from answers_typed import judge
    from typed_accept import set_of
    import cairn.answer as A
    from cairn.answer import checks, parts
    from cairn.embed import get_embedder
    from cairn.search.asked import asked
    emb = get_embedder()
    with open(src, "rb") as fh:
        recorded = pickle.load(fh)
    res, seen = [], []
    real = checks.GATE_TRACE
    checks.GATE_TRACE = seen
    try:
        for r in recorded:
            seen.clear()
            question, hits, _, llm, kw = r["inputs"]
            ans = A.answer_question(question, hits, emb, llm, **{k: v for k, v in kw.items() if k not in DROPPED})
            feats = seen[-1] if seen else None  # the features of the last answer the gate read (a part's: its last)
            res.append({"set": set_of(r), "q": question, "expect": r["expect"], "verdict": ans.verdict,
                        "outcome": judge(r, ans.verdict, ans.answer), "answer": ans.answer,
                        "features": feats[0] if feats else None, "score": feats[1] if feats else None,
                        "gated": bool(feats and feats[2]), "why": r.get("why"), "typed": ans.typed is not None,
                        "kind": (a := asked(question)).kind, "no_head": not a.head,
                        "parts": len(parts.split(question))})
    finally:
        checks.GATE_TRACE = real
    with open(out, "wb") as fh:
        pickle.dump(res, fh)
    print(f"{len(res)} questions, {sum(x['features'] is not None for x in res)} read by the gate -> {out}")


def figures(res: list[dict], keep=None) -> tuple[int, int, int, int, int, int]:
    """(right with pass, answerable, wrong with pass, all, unanswerable declined, unanswerable); keep(x) -> False
    declines a pass the gate read (None: as replayed)."""
    def passed(x):
        return x["verdict"] == "pass" and (keep is None or x["features"] is None or keep(x))
    ans = [x for x in res if x["expect"] is not None]
    un = [x for x in res if x["expect"] is None]
    return (sum(passed(x) and x["outcome"] == "right" for x in ans), len(ans),
            sum(passed(x) and x["outcome"] != "right" for x in res), len(res),
            sum(not passed(x) for x in un), len(un))


def net(f) -> float:
    return f[0] / max(f[1], 1) - COST * f[2] / max(f[3], 1) + f[4] / max(f[5], 1)


def fit_on(res: list[dict], cols: list[int]):
    """(w, b, threshold) fitted on the passes the gate read in `res`; threshold of the best summed net per set."""
    from answer_pairs import train
    sel = [x for x in res if x["features"] is not None and x["verdict"] == "pass"]
    X = np.array([[x["features"][i] for i in cols] for x in sel])
    y = np.array([float(x["outcome"] == "right") for x in sel])
    w, b = train(X, y, l2=L2)
    w, b = np.round(w, 3), round(float(b), 3)
    sets = list(dict.fromkeys(x["set"] for x in res))
    best = (None, 0.0)
    for at in np.round(np.arange(0.0, 0.951, 0.025), 3):
        keep = gate(w, b, at, cols)
        total = sum(net(figures([x for x in res if x["set"] == s], keep)) for s in sets)
        if best[0] is None or total > best[0] + 1e-9:
            best = (total, float(at))
    return w, b, best[1]


def gate(w, b, at, cols):
    return lambda x: 1 / (1 + np.exp(-(np.array([x["features"][i] for i in cols]) @ w + b))) >= at


def total(figs) -> str:
    s = [sum(f[i] for f in figs) for i in range(6)]
    return f"{s[0]}/{s[1]} / {s[2]}/{s[3]} / {s[4]}/{s[5]}"


def cause(x: dict) -> str | None:
    """Why a pass is wrong: U-<why> for an unanswerable question (U-attribute split by an empty head), typed for a wrong
    value of the kind asked, multi-part, else untyped-<kind> (a what/which/where/yes-no sentence); None if right."""
    if x["verdict"] != "pass" or x["outcome"] == "right":
        return None
    if x["expect"] is None:
        return f"U-{x['why'] or '?'}" + (" (empty head)" if x["why"] == "attribute" and x["no_head"] else "")
    if x["parts"] > 1:
        return "multi-part"
    return "typed" if x["typed"] and x["kind"] not in ("yesno", "procedure") else f"untyped-{x['kind']}"


def causes(res: list[dict]) -> None:
    """The wrong passes by cause and set (markdown)."""
    from collections import Counter
    sets = list(dict.fromkeys(x["set"] for x in res))
    by = Counter((x["set"], cause(x)) for x in res if cause(x))
    cols = sorted({c for _, c in by}, key=lambda c: -sum(v for (_, k), v in by.items() if k == c))
    print("| set | " + " | ".join(cols) + " | all |\n|---|" + "---|" * (len(cols) + 1))
    for s in sets + ["all"]:
        row = [sum(v for (t, k), v in by.items() if k == c and s in (t, "all")) for c in cols]
        print(f"| {s} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("rows", "fit", "write", "causes"))
    ap.add_argument("file")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--off", action="append", default=[], metavar="MODULE.SWITCH")
    ap.add_argument("--features", default="")
    args = ap.parse_args(argv)
    switch_off("cairn.answer", args.off, "--off", ap.error)
    if args.action == "rows":
        rows(Path(args.file), Path(args.out))
        return 0
    with open(args.file, "rb") as fh:
        res = pickle.load(fh)
    if args.action == "causes":
        causes(res)
        return 0
    from cairn.answer import fit
    res = [dict(x, features=fit.gate_vector(x["features"])) if x["features"] is not None else x for x in res]
    names = list(fit.GATE_FEATURES) + [f"typed x {f}" for f in fit.GATE_FEATURES]
    n = len(next(x["features"] for x in res if x["features"] is not None))
    cols = [names.index(f) for f in args.features.split(",")] if args.features else list(range(n))
    sets = list(dict.fromkeys(x["set"] for x in res))
    if args.action == "write":
        w, b, at = fit_on(res, cols)
        import re
        import textwrap
        body = textwrap.fill(", ".join(f"{v:g}" for v in w.tolist()), 116, initial_indent="    ",
                             subsequent_indent="    ")
        consts = f"GATE_WEIGHTS = (\n{body})\nGATE_BIAS = {b:g}\nGATE_THRESHOLD = {at:g}\n"
        src = Path(fit.__file__)
        src.write_text(re.sub(r"GATE_WEIGHTS = .*?GATE_THRESHOLD = [^\n]*\n", lambda _: consts, src.read_text(),
                              flags=re.S))
        print(consts + f"(written into {src})")
        print(f"(fitted on {sum(x['features'] is not None and x['verdict'] == 'pass' for x in res)} passes of "
              f"{len(sets)} sets)")
        print("by feature: " + ", ".join(f"{names[c]} {v:+.3f}" for c, v in zip(cols, w)))
        return 0
    base = {s: figures([x for x in res if x["set"] == s]) for s in sets}
    lo = {}
    for s in sets:
        w, b, at = fit_on([x for x in res if x["set"] != s], cols)
        lo[s] = figures([x for x in res if x["set"] == s], gate(w, b, at, cols))
        print(f"  {s:11s} as replayed {base[s][0]:3d}/{base[s][1]:3d} {base[s][2]:3d}/{base[s][3]:3d} "
              f"{base[s][4]:3d}/{base[s][5]:3d}   gate (fitted without it, threshold {at:.3f}) "
              f"{lo[s][0]:3d} {lo[s][2]:3d} {lo[s][4]:3d}")
    print(f"as replayed: right/answerable / wrong/all / declined/unanswerable = {total(base.values())}; "
          f"summed net {sum(map(net, base.values())):.3f}")
    print(f"gate, leave-one-set-out:                                        {total(lo.values())}; "
          f"summed net {sum(map(net, lo.values())):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
