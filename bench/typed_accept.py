#!/usr/bin/env python3
"""Does a typed value answer? Fit answer/fit.py's acceptance score (typed26) and check it leave-one-set-out.

    python bench/typed_accept.py record bench/out/typed_dev.pkl     # ask every dev typed set once (slow)
    python bench/typed_accept.py fit bench/out/typed_dev.pkl         # figures: as shipped, no gate, leave-one-set-out
    python bench/typed_accept.py fit bench/out/typed_dev.pkl --write # also write the fixture and print the constants
    python bench/typed_accept.py fit bench/out/typed_dev.pkl --off typed.TOTAL   # with a rule of answer/ off

`record` asks each dev typed set (bench/typed_set*.py: main ... tenth, typed25; never a held-out set not yet run)
through `Cairn.ask` as bench/answers_typed.py does and keeps what `answer_question` was handed (the format of
bench/answers_ablation.py's --typed-cache, which can read this file). `fit` replays every question with the gate
(checks.ACCEPT) off and takes, for each answer the typed pipeline passes, the features typed.accept_signals gives it
(head share, subject share, lexical share, cosine, role fit, MARGIN over the best candidate of another value, close
competitors, date/time asked) and its label (right: every expected string in the answer; wrong: not, or the question
is unanswerable). It fits a logistic regression (answer_pairs.train: numpy gradient descent, classes balanced) and
picks the threshold maximising, summed over the sets fitted on, the bench's net per set: right with pass - COST x wrong
with pass + unanswerable declined. Printed per set: the figures without the gate, with the shipped constants, and
leave-one-set-out (weights and threshold fitted on the other sets only: the generalisation check).

--write writes the feature table to bench/fixtures/typed_accept.tsv (tests/test_typed_accept.py refits it and fails
when answer/fit.py's ACCEPT_* constants drift from it) and prints the constants for answer/fit.py.
"""

from __future__ import annotations

import argparse
import importlib
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, switch_off, table  # noqa: E402

SETS = ("main", "new", "third", "fourth", "fifth", "sixth", "typed22", "typed22b", "seventh", "eighth", "ninth",
        "tenth", "typed25")
COST = 2.0  # a wrong pass costs as much as two right passes lost (the targets: wrong <= 0.03 is the stricter)
L2 = 0.01
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "typed_accept.tsv"


def load_fixture(path: Path = FIXTURE) -> list[dict]:
    """The rows --write wrote: {set, expect (None: unanswerable), verdict, outcome, signals}."""
    out = []
    for line in path.read_text().splitlines()[1:]:
        s, a, v, o, *f = line.split("\t")
        out.append({"set": s, "expect": [] if a == "1" else None, "verdict": v, "outcome": o,
                    "signals": None if f == ["-"] else [float(x) for x in f]})
    return out


def set_of(row: dict) -> str:
    return "main" if row["part"] in ("tune", "held") else row["part"]


def record(out: Path, sets: list[str]) -> None:
    """Ask every question of `sets`; write the rows with their answer_question inputs (embedder dropped)."""
    from answers_typed import run
    rows = [r for name in sets
            for r in run(speed=False, qset=None if name == "main" else importlib.import_module(f"typed_set_{name}"))
            if r["inputs"] is not None]
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        pickle.dump([{**r, "inputs": (r["inputs"][0], r["inputs"][1], None, *r["inputs"][3:])} for r in rows], fh)
    print(f"recorded {len(rows)} questions of {len(sets)} sets into {out}")


def replay(rows: list[dict], embedder, gate: bool) -> list[dict]:
    """Each row's verdict, outcome and typed signals (None when the answer is no typed value) with the gate on/off."""
    from answers_replay import DROPPED
    from answers_typed import judge
    import cairn.answer as A
    from cairn.answer import checks
    old, checks.ACCEPT = checks.ACCEPT, gate
    try:
        out = []
        for r in rows:
            question, hits, _, llm, kw = r["inputs"]
            ans = A.answer_question(question, hits, embedder, llm, **{k: v for k, v in kw.items() if k not in DROPPED})
            t = getattr(ans, "typed", None)
            out.append({"set": set_of(r), "expect": r["expect"], "verdict": ans.verdict,
                        "outcome": judge(r, ans.verdict, ans.answer),
                        "signals": list(t.signals) if t is not None and t.signals else None})
        return out
    finally:
        checks.ACCEPT = old


def figures(res: list[dict], keep=None) -> tuple[float, float, float]:
    """(right with pass, wrong with pass, unanswerable declined) of `res`; keep(row) -> False turns a pass into a
    decline (the gate)."""
    def passed(x):
        return x["verdict"] == "pass" and (keep is None or x["signals"] is None or keep(x))
    ans = [x for x in res if x["expect"] is not None]
    un = [x for x in res if x["expect"] is None]
    right = sum(passed(x) and x["outcome"] == "right" for x in ans)
    wrong = sum(passed(x) and x["outcome"] != "right" for x in res)
    declined = sum(not passed(x) for x in un)
    return right / max(len(ans), 1), wrong / max(len(res), 1), declined / max(len(un), 1)


def net(f: tuple[float, float, float]) -> float:
    return f[0] - COST * f[1] + f[2]


def data(res: list[dict]):
    """(X, y) of the passing typed answers of `res`."""
    import numpy as np
    sel = [x for x in res if x["verdict"] == "pass" and x["signals"] is not None]
    return (np.array([x["signals"] for x in sel]).reshape(len(sel), -1),
            np.array([float(x["outcome"] == "right") for x in sel]))


def fit_on(res: list[dict]):
    """(weights, bias, threshold) fitted on `res`: the regression, then the threshold of the best summed net."""
    import numpy as np
    from answer_pairs import train
    X, y = data(res)
    w, b = train(X, y, l2=L2)
    w, b = np.round(w, 3), round(float(b), 3)
    best = (None, 0.0)
    for at in np.round(np.arange(0.0, 0.951, 0.025), 3):
        keep = lambda x, at=at: 1 / (1 + np.exp(-(np.array(x["signals"]) @ w + b))) >= at  # noqa: E731
        total = sum(net(figures([x for x in res if x["set"] == s], keep)) for s in dict.fromkeys(x["set"] for x in res))
        if best[0] is None or total > best[0] + 1e-9:
            best = (total, float(at))
    return w, b, best[1]


def gate(w, b, at):
    import numpy as np
    return lambda x: 1 / (1 + np.exp(-(np.array(x["signals"]) @ np.array(w) + b))) >= at


RULES = ("typed.UNWRAP", "typed.FIELD_KEY", "typed.TOTAL", "typed.TOTAL_SUM", "typed.OWNED", "typed.HEADER",
         "typed.OWN_LINE", "typed.LIGHT_ROLE", "typed.SYNONYM", "typed.FIELD_LIST", "typed.PROSE_LIST", "typed.OWN_KEY",
         "types.MORPHOLOGY", "checks.ATTR_STATED", "checks.WHO_NAMED", "checks.SAID_BY", "contrast.CONTRAST",
         "rota.KEYED", "rota.BY_WORK", "yesno.PREDICATE", "procedure.IMPERATIVE")


def loso(res: list[dict]) -> dict[str, tuple[float, float, float]]:
    """{set: its figures with the gate fitted on the other sets}."""
    out = {}
    for s in dict.fromkeys(x["set"] for x in res):
        out[s] = figures([x for x in res if x["set"] == s], gate(*fit_on([x for x in res if x["set"] != s])))
    return out


def ablate(rows: list[dict], base: list[dict], emb, rules: list[str]) -> int:
    """Switch each rule off in turn; print the summed net of every set, without the gate and leave-one-set-out (the
    gate refitted without the rule: does the rule still pay once the learned score decides?)."""
    import importlib
    def nets(res):
        return (sum(net(figures([x for x in res if x["set"] == s])) for s in dict.fromkeys(x["set"] for x in res)),
                sum(map(net, loso(res).values())))
    b0, b1 = nets(base)
    out = [["(all on)", f"{b0:.3f}", f"{b1:.3f}", "", ""]]
    for rule in rules:
        module, _, name = rule.rpartition(".")
        mod = importlib.import_module(f"cairn.answer.{module}")
        old = getattr(mod, name)
        setattr(mod, name, False)
        try:
            n0, n1 = nets(replay(rows, emb, gate=False))
        finally:
            setattr(mod, name, old)
        out.append([rule, f"{n0:.3f}", f"{n1:.3f}", f"{b0 - n0:+.3f}", f"{b1 - n1:+.3f}"])
        print(f"  {rule}: done", file=sys.stderr, flush=True)
    header(f"Rules of answer/ switched off ({len(rows)} dev typed questions); net = right - {COST:g} x wrong + "
           "unanswerable declined, summed over the sets")
    print(table(["rule off", "net no gate", "net loso gate", "pays (no gate)", "pays (loso gate)"], out, "lrrrr"))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("record", "fit", "ablate"))
    ap.add_argument("file")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--off", action="append", default=[], metavar="MODULE.SWITCH")
    ap.add_argument("--rules", default=",".join(RULES), help="ablate: the MODULE.SWITCH rules switched off in turn")
    args = ap.parse_args(argv)
    switch_off("cairn.answer", args.off, "--off", ap.error)
    sets = args.sets.split(",")
    if args.action == "record":
        record(Path(args.file), sets)
        return 0
    from cairn.answer import fit
    from cairn.embed import get_embedder
    emb = get_embedder()
    with open(args.file, "rb") as fh:
        rows = [r for r in pickle.load(fh) if set_of(r) in sets]
    res = replay(rows, emb, gate=False)
    if args.action == "ablate":
        return ablate(rows, res, emb, args.rules.split(","))
    w, b, at = fit_on(res)
    shipped = gate(fit.ACCEPT_WEIGHTS, fit.ACCEPT_BIAS, fit.ACCEPT_AT)
    out, sums = [], {"none": 0.0, "shipped": 0.0, "loso": 0.0}
    for s in dict.fromkeys(x["set"] for x in res):
        part = [x for x in res if x["set"] == s]
        lw, lb, lat = fit_on([x for x in res if x["set"] != s])
        f0, f1, f2 = figures(part), figures(part, shipped), figures(part, gate(lw, lb, lat))
        sums["none"] += net(f0)
        sums["shipped"] += net(f1)
        sums["loso"] += net(f2)
        out.append([s, str(len(part))] + ["{:.3f}/{:.3f}/{:.3f}".format(*f) for f in (f0, f1, f2)] + [f"{lat:.3f}"])
    allf = [figures(res), figures(res, shipped)]
    X, y = data(res)
    header(f"Typed acceptance (fit.accepts): {len(res)} questions, {len(y)} passing typed answers "
           f"({int(y.sum())} right); net = right - {COST:g} x wrong + unanswerable declined")
    print(table(["set", "n", "no gate r/w/u", "shipped r/w/u", "leave-one-out r/w/u", "loso threshold"], out, "lrrrrr"))
    print("all: no gate {:.3f}/{:.3f}/{:.3f}; shipped {:.3f}/{:.3f}/{:.3f}".format(*allf[0], *allf[1]))
    print("summed net: " + ", ".join(f"{k} {v:.3f}" for k, v in sums.items()))
    print("fitted on all:", "ACCEPT_WEIGHTS = (" + ", ".join(f"{x:.3f}" for x in w) + ")",
          f"ACCEPT_BIAS = {b:.3f}", f"ACCEPT_AT = {at:.3f}")
    print("shipped:", fit.ACCEPT_WEIGHTS, fit.ACCEPT_BIAS, fit.ACCEPT_AT)
    if args.write:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        with open(FIXTURE, "w") as fh:
            fh.write("# set\tanswerable\tverdict\toutcome\t8 features or - (bench/typed_accept.py)\n")
            for x in res:
                fh.write("\t".join([x["set"], str(int(x["expect"] is not None)), x["verdict"], x["outcome"]]
                                   + ([f"{v:.6f}" for v in x["signals"]] if x["signals"] else ["-"])) + "\n")
        print(f"wrote {FIXTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
