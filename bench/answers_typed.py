#!/usr/bin/env python3
"""The typed answer set (bench/typed_set.py, issue 33): are answers right, and honestly declined?

    python bench/answers_typed.py              # both parts: tune and held out
    python bench/answers_typed.py --show       # every question with its answer and verdict
    python bench/answers_typed.py --part tune  # one part only
    python bench/answers_typed.py --off typed.UNWRAP  # with a rule of cairn.answer (or search.asked.X) switched off
    python bench/answers_typed.py --set new    # the second held-out set (bench/typed_set_new.py)
    python bench/answers_typed.py --set third  # the third (bench/typed_set_third.py, session 19)
    python bench/answers_typed.py --set fourth # the fourth (bench/typed_set_fourth.py, session 20)
    python bench/answers_typed.py --set fifth  # the fifth (bench/typed_set_fifth.py, session 20, by the lead)
    python bench/answers_typed.py --set sixth  # the sixth (bench/typed_set_sixth.py, session 21, by heldout21)
    python bench/answers_typed.py --set typed22  # session 22's (bench/typed_set_typed22.py, held out by typed22)
    python bench/answers_typed.py --set typed22b  # bench/typed_set_typed22b.py, held out by typed22b
    python bench/answers_typed.py --set seventh  # the seventh (bench/typed_set_seventh.py, session 22, by heldout22)
    python bench/answers_typed.py --set eighth  # the eighth (bench/typed_set_eighth.py, session 23, by heldout23)
    python bench/answers_typed.py --set ninth  # the ninth (bench/typed_set_ninth.py, session 24, by heldout24)
    python bench/answers_typed.py --set tenth  # the tenth (bench/typed_set_tenth.py, session 25, by heldout25)
    python bench/answers_typed.py --set eleventh  # the eleventh (bench/typed_set_eleventh.py, session 26, by heldout26)
    python bench/answers_typed.py --set twelfth  # the twelfth (bench/typed_set_twelfth.py, session 27, by heldout27)
    python bench/answers_typed.py --set thirteenth  # the thirteenth (bench/typed_set_thirteenth.py, session 28, by heldout28)
    python bench/answers_typed.py --set fourteenth  # the fourteenth (bench/typed_set_fourteenth.py, session 29, by heldout29)
    python bench/answers_typed.py --set typed25  # typed25's private check set (session 25), run at start and end only

The seventh set is held out: written by heldout22 in session 22 without reading the answerer, the
NLU, the assistant or the failure analyses; to be run once, by the lead, at the end of session 22.

Writes the 16 documents (12 notes, 4 PDFs with tables) into a temporary home, ingests them
through `Cairn.ingest`, asks every question through `Cairn.ask` (model-free, `llm="none"`)
and prints per part (tune / held out / all):

- right with pass: answerable questions whose answer holds every expected string and whose
  verdict is "pass" (target >= 0.85);
- wrong with pass: answerable questions answered "pass" without the expected strings, plus
  unanswerable ones answered "pass", over all questions of the part (target <= 0.03);
- unanswerable declined: unanswerable questions whose verdict is "abstain" (target >= 0.90).

Speed: every question is also answered with the typed answer pipeline switched off
(cairn.answer.types.TYPED = False, the answerer as it was before issue 33) over the same hits;
the ratio of the mean seconds of `answer_question` (typed / untyped) is printed. `--speed-switch
checks.GATE` times another switch the same way (here the acceptance gate, on / off).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, switch_off, table  # noqa: E402
from typed_set import QUESTIONS, write  # noqa: E402


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip()


def judge(q: dict, verdict: str, answer: str) -> str:
    """"right" / "wrong" for an answerable question (every expected string in the answer),
    "declined" / "answered" for an unanswerable one."""
    if q["expect"] is None:
        return "declined" if verdict == "abstain" else "answered"
    return "right" if all(_fold(e) in _fold(answer) for e in q["expect"]) else "wrong"


def figures(rows: list[dict]) -> list[str]:
    """[n, right with pass, wrong with pass, unanswerable declined] as 'x.xxx (n/d)'."""
    def share(n, d):
        return f"{n / d:.3f} ({n}/{d})" if d else "-"
    ans = [r for r in rows if r["expect"] is not None]
    un = [r for r in rows if r["expect"] is None]
    right = sum(r["outcome"] == "right" and r["verdict"] == "pass" for r in ans)
    wrong = sum(r["verdict"] == "pass" and r["outcome"] in ("wrong", "answered") for r in rows)
    return [str(len(rows)), share(right, len(ans)), share(wrong, len(rows)),
            share(sum(r["outcome"] == "declined" for r in un), len(un))]


def run(part: str | None = None, show: bool = False, speed: bool = True, qset=None,
        speed_switch: str = "types.TYPED") -> list[dict]:
    """Ask the set (or one part of it); returns the rows with verdict, answer, outcome. qset:
    the module of another set (its `QUESTIONS` and `write`; default bench/typed_set.py). speed:
    time `answer_question` over the recorded inputs with `speed_switch` (a switch of cairn.answer,
    MODULE.NAME) on and off, alternating, and print the mean seconds and their ratio."""
    import cairn.answer as A
    mod_name, _, switch = speed_switch.rpartition(".")
    T = importlib.import_module(f"cairn.answer.{mod_name}")
    from cairn.service import Cairn
    questions = [q for q in (qset.QUESTIONS if qset else QUESTIONS) if part is None or q["part"] == part]
    seen: list[tuple] = []
    real = A.answer_question

    def spy(question, hits, embedder, llm=None, **kw):
        seen.append((question, hits, embedder, llm, kw))
        return real(question, hits, embedder, llm, **kw)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cairn-typed-") as tmp:
        docs = (qset.write if qset else write)(Path(tmp) / "docs")
        with Cairn(Path(tmp) / "home") as app:
            app.ingest(docs)
            app.ask("warm-up question", llm="none")
            A.answer_question = spy
            try:
                for q in questions:
                    seen.clear()
                    ans = app.ask(q["question"], llm="none")
                    rows.append({**q, "verdict": ans.verdict, "answer": ans.answer,
                                 "checks": getattr(ans, "checks", None), "inputs": seen[0] if seen else None,
                                 "outcome": judge(q, ans.verdict, ans.answer)})
            finally:
                A.answer_question = real
            if speed:
                secs = {True: 0.0, False: 0.0}
                for on in (False, True, False, True):  # alternate: neither side gets a warm cache only
                    setattr(T, switch, on)
                    for r in rows:
                        if r["inputs"] is None:
                            continue
                        question, hits, embedder, llm, kw = r["inputs"]
                        t0 = time.perf_counter()
                        real(question, hits, embedder, llm, **kw)
                        secs[on] += time.perf_counter() - t0
                setattr(T, switch, True)
                n = 2 * sum(r["inputs"] is not None for r in rows)
                print(f"answer_question mean seconds: {speed_switch} on {secs[True] / n:.4f}, off {secs[False] / n:.4f}; "
                      f"ratio {secs[True] / max(secs[False], 1e-9):.2f}")
    if show:
        for r in rows:
            print(f"[{r['id']:>2} {r['part']:4} {r['outcome']:8} {r['verdict']:7}] {r['question']}\n"
                  f"      -> {r['answer'][:220]}\n      checks {r['checks']}")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=("tune", "held"))
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--speed-switch", default="types.TYPED", metavar="MODULE.SWITCH",
                    help="the switch of cairn.answer whose cost the speed run times, on against off (default types.TYPED)")
    ap.add_argument("--off", action="append", default=[], metavar="MODULE.SWITCH",
                    help="switch a rule of cairn.answer off for this run, e.g. typed.UNWRAP, search.asked.HEAD_NOUNS (repeatable)")
    ap.add_argument("--set", choices=("main", "new", "third", "fourth", "fifth", "sixth", "typed22", "typed22b", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "typed25"), default="main",
                    help="new / third / fourth / fifth / sixth / typed22 / typed22b / seventh / eighth / ninth / tenth / eleventh / twelfth / thirteenth / fourteenth / typed25: the held-out sets, "
                         "bench/typed_set_new.py / typed_set_third.py / typed_set_fourth.py / typed_set_fifth.py / "
                         "typed_set_sixth.py / typed_set_typed22.py / typed_set_typed22b.py / typed_set_seventh.py / "
                         "typed_set_eighth.py / typed_set_ninth.py / typed_set_tenth.py / typed_set_eleventh.py / typed_set_twelfth.py / "
                         "typed_set_thirteenth.py / typed_set_fourteenth.py / typed_set_typed25.py")
    args = ap.parse_args(argv)
    switch_off("cairn.answer", args.off, "--off", ap.error)
    module, _, name = args.speed_switch.rpartition(".")
    try:
        known = isinstance(getattr(importlib.import_module(f"cairn.answer.{module}"), name, None), bool)
    except ImportError:
        known = False
    if not known:
        ap.error(f"--speed-switch {args.speed_switch}: no True/False switch of cairn.answer")
    t0 = time.perf_counter()
    qset = None
    if args.set != "main":
        qset = importlib.import_module(f"typed_set_{args.set}")
    rows = run(args.part, args.show, not args.no_speed, qset, args.speed_switch)
    docs = len(qset.NOTES) + len(qset.PDFS) if qset else 16
    header(f"Typed answer set: {len(rows)} questions over {docs} documents "
           f"(bench/{qset.__name__ if qset else 'typed_set'}.py)")
    out = []
    for label, part in (("tune", "tune"), ("held out", "held"), ("new (held out)", "new"),
                        ("third (held out)", "third"),
                        ("fourth (held out)", "fourth"), ("fifth (held out)", "fifth"),
                        ("sixth (held out)", "sixth"), ("typed22 (held out)", "typed22"), ("typed22b (held out)", "typed22b"),
                        ("seventh (held out)", "seventh"), ("eighth (held out)", "eighth"),
                        ("ninth (held out)", "ninth"), ("tenth (held out)", "tenth"), ("eleventh (held out)", "eleventh"),
                        ("twelfth (held out)", "twelfth"), ("thirteenth (held out)", "thirteenth"), ("fourteenth (held out)", "fourteenth"),
                        ("typed25 (private check)", "typed25"), ("all", None)):
        sel = [r for r in rows if part is None or r["part"] == part]
        if sel:
            out.append([label] + figures(sel))
    print(table(["part", "n", "right with pass", "wrong with pass", "unanswerable declined"], out, "lrrrr"))
    print(f"total time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
