#!/usr/bin/env python3
"""Does a learned acceptance score for the typed answer generalise better than the rules? (typed26, issue 33)

    python bench/typed_accept.py record bench/out/typed_dev.pkl     # ask every dev typed set once (~4 min)
    python bench/typed_accept.py fit bench/out/typed_dev.pkl         # rules vs learned gates, leave-one-set-out
    python bench/typed_accept.py ablate bench/out/typed_dev.pkl [--rules typed.TOTAL,...]  # each rule off, per set
    python bench/typed_accept.py fit bench/out/typed_dev.pkl --off typed.TOTAL   # with a rule of answer/ off

`record` asks each dev typed set (bench/typed_set*.py: main ... tenth, typed25; never a held-out set not yet run)
through `Cairn.ask` as bench/answers_typed.py does and keeps what `answer_question` was handed (the format of
bench/answers_ablation.py's --typed-cache, which can read this file). `fit` replays every question with typed.TRACE
on: for each question answered by one typed value that reached the checks (answer/checks.py) it takes the features of
the chosen candidate among all candidates (`signals`: head, subject and lexical shares, cosine, role fit, subject share
in its context, share of the asked words in its text, MARGIN of its score over the best candidate stating another
value, close rivals, date/time asked, cosine margin) and whether the rules found a gap (declined it), and labels it
right when the value drafted holds every expected string. A logistic regression (answer_pairs.train: numpy gradient
descent, classes balanced) is fitted and its threshold picked to maximise, summed over the sets fitted on, the net per
set: right with pass - COST x wrong with pass + unanswerable declined. Each variant (VARIANTS: a gate that only
declines what the rules pass, or one replacing the rules' gap with the score, the gap one of its features) is scored
leave-one-set-out: each set's figures with weights and threshold fitted on the other sets only; printed against the
rules' own figures (the generalisation check). `ablate` switches each rule (RULES) off in turn and prints the sets its
net pays on and hurts on.
"""

from __future__ import annotations

import argparse
import importlib
from collections import Counter
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, switch_off, table  # noqa: E402

SETS = ("main", "new", "third", "fourth", "fifth", "sixth", "typed22", "typed22b", "seventh", "eighth", "ninth",
        "tenth", "typed25")
COST = 2.0  # a wrong pass costs as much as two right passes lost (the targets: wrong <= 0.03 is the stricter)
L2 = 0.01


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


def shares(raw: tuple, text: str) -> list[float]:
    """A candidate's seven features from what typed.TRACE recorded it was scored of (`raw`: head, head gap, line share,
    asked, subject gap, words asked, its words, cosine, role fit, local context) and its `text`: head, subject and
    lexical shares, cosine, role fit, subject share in its context, share of the words asked in its text."""
    from cairn.answer.types import missing
    head, head_gap, line_share, asked, subj_gap, words, own, c, fit, local = raw
    share = lambda ws, t: (1 - len(missing(ws, t)) / len(ws)) if ws else 1.0  # noqa: E731
    return [0.5 * ((1 - len(head_gap) / len(head) if head else 1.0) + line_share),
            1 - len(subj_gap) / len(asked.subject) if asked.subject else 1.0,
            len(words & own) / len(words) if words else 0.0, c, fit,
            share(asked.subject, local), share(asked.head + asked.subject, text)]


def signals(kind, scored: list, n: int, text: str) -> list[float]:
    """The features of the answer (evidence `n`, candidate `text`) among all `scored` candidates (typed.TRACE: n, text,
    score, what it was scored of, read by `shares` as [head share, subject share, lexical share, cosine, role fit, subject share in its context, share of the
    words asked in its text]): those seven, its MARGIN over the best candidate stating another value (1.0 when none
    does), how many others state another value within 0.1 of it (at most 3, / 3), a date or time asked, and its
    cosine's margin over the other values' best."""
    import re
    from cairn.answer.types import values
    norm = lambda t: {re.sub(r"\W", "", t[a:b].lower()) for a, b in values(kind, t)}  # noqa: E731
    scored = [(a, t, sc, shares(raw, t) if isinstance(raw, tuple) else raw) for a, t, sc, raw in scored]
    mine = next(x for x in scored if x[0] == n and x[1] == text)
    vals = norm(text)
    rivals = [x for x in scored if not (norm(x[1]) & vals)]
    margin = min(1.0, mine[2] - max(x[2] for x in rivals)) if rivals else 1.0
    close = sum(mine[2] - x[2] < 0.1 for x in rivals)
    cos = min(1.0, mine[3][3] - max(x[3][3] for x in rivals)) if rivals else 1.0
    return [*mine[3], margin, min(close, 3) / 3, float(kind in ("date", "time")), cos]


def nearness(question: str, text: str, embedder) -> float:
    """The least cosine of an asked word the candidate `text` lacks (types.missing of the question's head and subject)
    and `text` (the packaged embedder); 1.0 when it lacks none: how far the note's words are from the question's."""
    from cairn.answer import types
    from cairn.embed.cache import embed_cached
    from cairn.search.asked import asked
    a = asked(question)
    gap = types.missing(tuple(dict.fromkeys(a.head + a.subject)), text)
    if not gap:
        return 1.0
    vecs = embed_cached(embedder, [text[:500]] + types.words_of(gap, question))
    return float(min(vecs[1:] @ vecs[0]))


def replay(rows: list[dict], embedder) -> list[dict]:
    """Each row's verdict and outcome as the rules give them, and for a question answered by one typed value that
    reached the checks (answer/checks.py): its features (`signals`, then 1.0 when the checks found a gap, i.e. declined
    it), whether type and completeness held (`other_ok`) and whether the drafted value is right (`draft`)."""
    from answers_replay import DROPPED
    from answers_typed import judge
    import cairn.answer as A
    from cairn.answer import typed
    out = []
    try:
        for r in rows:
            typed.TRACE = []
            question, hits, _, llm, kw = r["inputs"]
            ans = A.answer_question(question, hits, embedder, llm, **{k: v for k, v in kw.items() if k not in DROPPED})
            x = {"set": set_of(r), "expect": r["expect"], "verdict": ans.verdict,
                 "outcome": judge(r, ans.verdict, ans.answer), "signals": None, "other_ok": 0, "draft": ""}
            if len(typed.TRACE) == 1 and r["expect"] is not None:  # where a right value was among the candidates
                _, scored, _, text = typed.TRACE[0]
                elsewhere = any(judge(r, "pass", c[1]) == "right" for c in scored)
                x["cause"] = "chosen right" if judge(r, "pass", text) == "right" else \
                    "right elsewhere" if elsewhere else "no right candidate"
            if len(typed.TRACE) == 1 and ans.checks is not None and ans.checks.get("support"):
                kind, scored, n, text = typed.TRACE[0]
                x.update(signals=signals(kind, scored, n, text) + [nearness(question, text, embedder),
                                                                    float(not ans.checks["subject"])],
                         other_ok=int(ans.checks["type"] and ans.checks["completeness"]),
                         draft=x["outcome"] if ans.verdict == "pass" else judge(r, "pass", text))
            out.append(x)
        return out
    finally:
        typed.TRACE = None


def figures(res: list[dict], keep=None) -> tuple[float, float, float]:
    """(right with pass, wrong with pass, unanswerable declined) of `res`; keep(row) -> False turns a pass into a
    decline (the gate)."""
    def passed(x):  # a typed value with features: the gate decides (with type and completeness), else as replayed
        return x["verdict"] == "pass" if keep is None or x["signals"] is None else bool(keep(x) and x["other_ok"])

    def is_right(x):
        return (x["outcome"] if keep is None or x["signals"] is None else x["draft"]) == "right"
    ans = [x for x in res if x["expect"] is not None]
    un = [x for x in res if x["expect"] is None]
    right = sum(passed(x) and is_right(x) for x in ans)
    wrong = sum(passed(x) and not is_right(x) for x in res)
    declined = sum(not passed(x) for x in un)
    return right / max(len(ans), 1), wrong / max(len(res), 1), declined / max(len(un), 1)


def net(f: tuple[float, float, float]) -> float:
    return f[0] - COST * f[1] + f[2]


FEATURES = ("head", "subject", "lexical", "cosine", "role", "subject_local", "asked_in_text", "margin", "close",
            "date_time", "cos_margin", "nearness", "gap")


def data(res: list[dict], cols: list[int], mode: str):
    """(X, y) of the typed answers the gate decides: features recorded, type and completeness held; for mode "decline"
    only those the rules pass (no gap). y 1.0 when the value drafted is right."""
    import numpy as np
    sel = [x for x in res if x["signals"] is not None and x["other_ok"] and (mode != "decline" or not x["signals"][-1])]
    return (np.array([[x["signals"][i] for i in cols] for x in sel]).reshape(len(sel), len(cols)),
            np.array([float(x["draft"] == "right") for x in sel]))


def gate(w, b, at, cols: list[int], mode: str):
    """keep(row): the logistic of w . features + b at least `at` (mode "decline": and the rules found no gap)."""
    import numpy as np
    return lambda x: (mode != "decline" or not x["signals"][-1]) and \
        1 / (1 + np.exp(-(np.array([x["signals"][i] for i in cols]) @ np.array(w) + b))) >= at


def fit_on(res: list[dict], cols: list[int], mode: str):
    """(weights, bias, threshold) fitted on `res`: the regression, then the threshold of the best summed net."""
    import numpy as np
    from answer_pairs import train
    X, y = data(res, cols, mode)
    w, b = train(X, y, l2=L2)
    w, b = np.round(w, 3), round(float(b), 3)
    best = (None, 0.0)
    sets = list(dict.fromkeys(x["set"] for x in res))
    for at in np.round(np.arange(0.0, 0.951, 0.025), 3):
        keep = gate(w, b, at, cols, mode)
        total = sum(net(figures([x for x in res if x["set"] == s], keep)) for s in sets)
        if best[0] is None or total > best[0] + 1e-9:
            best = (total, float(at))
    return w, b, best[1]


def loso(res: list[dict], cols: list[int], mode: str) -> dict[str, tuple[float, float, float]]:
    """{set: its figures with the gate fitted on the other sets only}."""
    out = {}
    for s in dict.fromkeys(x["set"] for x in res):
        fitted = fit_on([x for x in res if x["set"] != s], cols, mode)
        out[s] = figures([x for x in res if x["set"] == s], gate(*fitted, cols, mode))
    return out


RULES = ("typed.UNWRAP", "typed.FIELD_KEY", "typed.TOTAL", "typed.TOTAL_SUM", "typed.OWNED", "typed.HEADER",
         "typed.OWN_LINE", "typed.LIGHT_ROLE",
         "typed.FIELD_LIST", "typed.PROSE_LIST", "typed.OWN_KEY", "types.AGENT", "types.SPACED", "checks.GATE",
         "typed.CODE_NO_PHONE", "rota.KEYED", "rota.BY_WORK",
         "yesno.PREDICATE")


def ablate(rows: list[dict], base: list[dict], emb, rules: list[str]) -> int:
    """Switch each rule off in turn; print the summed net over the sets and the sets it pays on / hurts (net per set
    with the rule on minus off)."""
    import importlib
    sets = list(dict.fromkeys(x["set"] for x in base))

    def nets(res):
        return {s: net(figures([x for x in res if x["set"] == s])) for s in sets}
    b0 = nets(base)
    out = [["(all on)", f"{sum(b0.values()):.3f}", "", "", ""]]
    for rule in rules:
        module, _, name = rule.rpartition(".")
        mod = importlib.import_module(f"cairn.answer.{module}")
        old = getattr(mod, name)
        setattr(mod, name, False)
        try:
            n0 = nets(replay(rows, emb))
        finally:
            setattr(mod, name, old)
        d = {s: b0[s] - n0[s] for s in sets}
        out.append([rule, f"{sum(n0.values()):.3f}", f"{sum(d.values()):+.3f}",
                    ", ".join(f"{s} {v:+.3f}" for s, v in d.items() if v > 1e-9) or "none",
                    ", ".join(f"{s} {v:+.3f}" for s, v in d.items() if v < -1e-9) or "none"])
        print(f"  {rule}: done", file=sys.stderr, flush=True)
    header(f"Rules of answer/ switched off ({len(rows)} dev typed questions); net = right - {COST:g} x wrong + "
           "unanswerable declined")
    print(table(["rule off", "summed net", "pays", "pays on", "hurts on"], out, "lrrll"))
    return 0


VARIANTS = {  # name: (feature names, mode)
    "decline: margin": (["margin"], "decline"),
    "decline: margin, cosine": (["margin", "cosine"], "decline"),
    "decline: all but gap": (list(FEATURES[:-1]), "decline"),
    "replace gap: all": (list(FEATURES), "replace"),
    "replace gap: margin, cosine, lexical, gap": (["margin", "cosine", "lexical", "gap"], "replace"),
    "replace gap: nearness, gap": (["nearness", "gap"], "replace"),
    "replace gap: all but nearness": ([f for f in FEATURES if f != "nearness"], "replace"),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("record", "fit", "ablate"))
    ap.add_argument("file")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--dump", help="fit: also write the replayed rows (features, labels) to this pickle")
    ap.add_argument("--off", action="append", default=[], metavar="MODULE.SWITCH")
    ap.add_argument("--rules", default=",".join(RULES), help="ablate: the MODULE.SWITCH rules switched off in turn")
    args = ap.parse_args(argv)
    switch_off("cairn.answer", args.off, "--off", ap.error)
    sets = args.sets.split(",")
    if args.action == "record":
        record(Path(args.file), sets)
        return 0
    from cairn.embed import get_embedder
    emb = get_embedder()
    with open(args.file, "rb") as fh:
        rows = [r for r in pickle.load(fh) if set_of(r) in sets]
    res = replay(rows, emb)
    if args.dump:
        with open(args.dump, "wb") as fh:
            pickle.dump(res, fh)
    if args.action == "ablate":
        return ablate(rows, res, emb, args.rules.split(","))
    names = list(dict.fromkeys(x["set"] for x in res))
    fmt = "{:.3f}/{:.3f}/{:.3f}".format
    rules = {s: figures([x for x in res if x["set"] == s]) for s in names}
    out = [["rules (no gate)", f"{sum(map(net, rules.values())):.3f}"] + [fmt(*rules[s]) for s in ("ninth", "tenth")
                                                                          if s in rules]]
    for label, (feats, mode) in VARIANTS.items():
        cols = [FEATURES.index(f) for f in feats]
        lo = loso(res, cols, mode)
        out.append([label, f"{sum(map(net, lo.values())):.3f}"] + [fmt(*lo[s]) for s in ("ninth", "tenth") if s in lo])
        w, b, at = fit_on(res, cols, mode)
        print(f"{label}: fitted on all sets: weights {dict(zip(feats, w.tolist()))}, bias {b}, threshold {at}")
    X, y = data(res, list(range(len(FEATURES))), "replace")
    header(f"Typed acceptance, leave-one-set-out: {len(res)} questions of {len(names)} sets, {len(y)} typed answers "
           f"the gate decides ({int(y.sum())} right); net = right - {COST:g} x wrong + unanswerable declined per set")
    print(table(["decision", "summed net (loso)"] + [f"{s} r/w/u (loso)" for s in ("ninth", "tenth") if s in rules],
                out, "lrrr"))
    print("per set, rules: " + "; ".join(f"{s} {fmt(*f)}" for s, f in rules.items()))
    causes = Counter((x["verdict"], x["cause"]) for x in res if "cause" in x)
    print("answerable questions with one typed value, by verdict and where a right value was: "
          + "; ".join(f"{v} / {c}: {k}" for (v, c), k in sorted(causes.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
