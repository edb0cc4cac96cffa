#!/usr/bin/env python3
"""LoCoMo answerability: does `cairn ask` abstain on unanswerable questions, and only there?

    python bench/locomo_ask.py                              # all 5 dev conversations, --llm none
    python bench/locomo_ask.py --limit-conversations 1
    python bench/locomo_ask.py --per-category 10 --llm embedded   # sample: the model is slow

Each conversation is converted and imported as in `locomo.py` (chat JSONL, one home per
conversation; here through the Python API, `Cairn.import_chat`). Every question of
categories 1-5 (or `--per-category N` of each category per conversation, drawn with a fixed
seed) is asked in-process with `Cairn.ask(question, llm=...)`. In the same run, with the
same hits, the *baseline* is the answerer without the answerability checks
(`answer_question(..., check_answerability=False)`, i.e. the behaviour before
src/cairn/answer/answerability.py); `--no-baseline` skips it.

Printed, per category and per conversation:
- abstain: fraction of questions where the answer's verdict is "abstain". For category 5
  (adversarial / unanswerable) this should be high (target >= 0.8); for categories 1-4 it
  is *wrong* abstention (target <= 0.15).
- cites gold: an honest accuracy proxy for answerable questions — the fraction whose
  answer cites at least one gold `evidence` message (a citation's `source_id`); questions
  with no valid evidence id are left out of this column. It does not judge the wording.
- cat-5 "cites adv.": fraction of category-5 questions answered with a citation of the
  message the question was built from (the other speaker's message), i.e. a misattribution.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT, fmt_s, header, table, write_jsonl  # noqa: E402
from locomo import CATEGORY_NAMES as LOCOMO_CATEGORY_NAMES  # noqa: E402
from locomo import chat_rows, load_samples, normalise_evidence  # noqa: E402

CATS = (1, 2, 3, 4, 5)
CATEGORY_NAMES = {**LOCOMO_CATEGORY_NAMES, 5: "adversarial"}


def pick_questions(sample: dict, per_category: int, seed: int) -> list[dict]:
    """The questions of one conversation (categories 1-5), or `per_category` of each drawn
    with random.Random(seed + conversation index-free hash of the sample id)."""
    known = set()
    for key, msgs in sample["conversation"].items():
        if key.startswith("session_") and isinstance(msgs, list):
            known.update(m["dia_id"] for m in msgs)
    by_cat: dict[int, list[dict]] = defaultdict(list)
    for i, qa in enumerate(sample["qa"]):
        cat = int(qa.get("category", 0))
        if cat in CATS:
            by_cat[cat].append({"id": f"{sample['sample_id']}:{i}", "question": qa["question"], "category": cat,
                                "evidence": normalise_evidence(qa.get("evidence") or [], known)})
    out = []
    rng = random.Random(f"{seed}:{sample['sample_id']}")
    for cat in CATS:
        qs = by_cat[cat]
        if per_category and len(qs) > per_category:
            qs = sorted(rng.sample(qs, per_category), key=lambda q: int(q["id"].rsplit(":", 1)[1]))
        out.extend(qs)
    return out


def _record(ans, q: dict) -> dict:
    cited = [c.get("source_id") for c in ans.citations]
    return {"abstain": ans.verdict == "abstain", "verdict": ans.verdict, "answer": ans.answer,
            "cited": cited, "gold": bool(set(q["evidence"]) & set(cited)), "problems": ans.problems,
            "mode": ans.mode, "fallback": ans.fallback}


def run_conversation(sample: dict, questions: list[dict], llm: str, baseline: bool, workdir: Path,
                     progress: bool) -> dict:
    """Import one conversation into its own home and ask its questions both ways."""
    from cairn.answer import answer_question
    from cairn.llm import get_llm
    from cairn.service import Cairn

    sid = sample["sample_id"]
    chat = workdir / f"{sid}-chat.jsonl"
    rows = chat_rows(sample)
    write_jsonl(chat, rows)
    t0 = time.perf_counter()
    with Cairn(workdir / f"home-{sid}") as app:
        app.import_chat(chat)
        import_wall = time.perf_counter() - t0
        model = get_llm(llm)
        t1 = time.perf_counter()
        for j, q in enumerate(questions):
            ans = app.ask(q["question"], llm=llm)
            q["new"] = _record(ans, q)
            if baseline:
                res = app.search(q["question"], k=8, group=False)
                old = answer_question(q["question"], res.hits, app.embedder, model,
                                      floor=app.settings.search.answer_floor, check_answerability=False)
                q["old"] = _record(old, q)
            if progress and (j + 1) % 50 == 0:
                print(f"  {sid}: {j + 1}/{len(questions)} asked", file=sys.stderr, flush=True)
        ask_wall = time.perf_counter() - t1
    return {"sid": sid, "messages": len(rows), "questions": questions, "import_wall": import_wall,
            "ask_wall": ask_wall}


def _rates(qs: list[dict], key: str) -> tuple[int, float, str]:
    """(n, abstain rate, cites-gold rate as text) for `qs` under answerer `key`."""
    n = len(qs)
    if not n:
        return 0, 0.0, "-"
    abst = sum(q[key]["abstain"] for q in qs) / n
    with_ev = [q for q in qs if q["evidence"]]
    gold = f"{sum(q[key]['gold'] for q in with_ev) / len(with_ev):.3f}" if with_ev else "-"
    return n, abst, gold


def report(convs: list[dict], keys: list[str], title: str) -> None:
    qs = [q for c in convs for q in c["questions"]]
    header(title)
    headers = ["category", "n"]
    for key in keys:
        name = "baseline" if key == "old" else "now"
        headers += [f"{name} abstain", f"{name} cites gold"]
    rows = []
    groups = [(f"{c} {CATEGORY_NAMES[c]}", [q for q in qs if q["category"] == c]) for c in CATS]
    groups.insert(4, ("1-4 answerable (wrong abstention)", [q for q in qs if q["category"] != 5]))
    for label, group in groups:
        if not group:
            continue
        row = [label, len(group)]
        for key in keys:
            n, abst, gold = _rates(group, key)
            row += [f"{abst:.3f}", gold if not label.startswith("5") else "-"]
        rows.append(row)
    print(table(headers, rows, "l" + "r" * (len(headers) - 1)))
    cat5 = [q for q in qs if q["category"] == 5]
    if cat5:
        parts = []
        for key in keys:
            name = "baseline" if key == "old" else "now"
            adv = sum(q[key]["gold"] for q in cat5) / len(cat5)
            parts.append(f"{name} {adv:.3f}")
        print("cat 5 answered citing the message the question was built from (misattribution): " + ", ".join(parts))
    answered = [q for q in qs if not q["new"]["abstain"]]
    if answered:
        llm_kept = sum(q["new"]["mode"] == "llm" for q in answered)
        print(f"answers written by the LLM (its draft verified), now: {llm_kept}/{len(answered)}; "
              f"the rest are extractive (--llm none, or the draft fell back)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit-conversations", type=int, default=0, metavar="N", help="only the first N conversations")
    ap.add_argument("--conversations", default="", metavar="I,J",
                    help="1-based conversation numbers to run (e.g. 4,5); default all")
    ap.add_argument("--per-category", type=int, default=0, metavar="N",
                    help="sample N questions of each category per conversation (fixed --seed)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--llm", default="none", help="none | embedded | openai:BASE_URL:MODEL (default none)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the answerer without the checks")
    ap.add_argument("--dump", metavar="FILE", help="write every question's record as JSONL")
    ap.add_argument("--show", type=int, default=0, metavar="N",
                    help="print N wrong abstentions and N answered category-5 questions")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    path, samples = load_samples()
    numbered = list(enumerate(samples, 1))
    if args.conversations:
        wanted = {int(x) for x in args.conversations.split(",") if x.strip()}
        numbered = [(i, s) for i, s in numbered if i in wanted]
    if args.limit_conversations:
        numbered = numbered[:args.limit_conversations]
    keys = ["new"] if args.no_baseline else ["old", "new"]
    header(f"LoCoMo ask — {path} ({len(numbered)} conversation(s), llm={args.llm}, "
           f"per-category={args.per_category or 'all'}, seed={args.seed})")
    convs = []
    with tempfile.TemporaryDirectory(prefix="cairn-locomo-ask-") as tmp:
        for i, sample in numbered:
            qs = pick_questions(sample, args.per_category, args.seed)
            res = run_conversation(sample, qs, args.llm, not args.no_baseline, Path(tmp), progress=True)
            res["index"] = i
            print(f"conversation {i} {res['sid']}: {res['messages']} messages, import {fmt_s(res['import_wall'])}; "
                  f"{len(qs)} questions, ask {fmt_s(res['ask_wall'])} "
                  f"({res['ask_wall'] / max(1, len(qs)):.2f} s/question incl. baseline)", flush=True)
            convs.append(res)
    report(convs, keys, "all conversations run")
    if len(convs) > 1:
        header("per conversation (abstain on cat 5 / wrong abstention on cat 1-4 / cites gold on cat 1-4)")
        rows = []
        for c in convs:
            row = [f"{c['index']} {c['sid']}"]
            for key in keys:
                qs5 = [q for q in c["questions"] if q["category"] == 5]
                qs14 = [q for q in c["questions"] if q["category"] != 5]
                _, a5, _ = _rates(qs5, key)
                _, a14, g14 = _rates(qs14, key)
                row += [f"{a5:.3f}", f"{a14:.3f}", g14]
            rows.append(row)
        hdr = ["conversation"]
        for key in keys:
            name = "baseline" if key == "old" else "now"
            hdr += [f"{name} cat5 abstain", f"{name} cat1-4 abstain", f"{name} cites gold"]
        print(table(hdr, rows))
    if args.show:
        qs = [q for c in convs for q in c["questions"]]
        header(f"first {args.show} wrong abstentions (now)")
        for q in [q for q in qs if q["category"] != 5 and q["new"]["abstain"]][:args.show]:
            print(f"{q['id']} cat{q['category']} {q['question']!r} evidence={q['evidence']} -> {q['new']['problems']}")
        header(f"first {args.show} answered category-5 questions (now)")
        for q in [q for q in qs if q["category"] == 5 and not q["new"]["abstain"]][:args.show]:
            print(f"{q['id']} {q['question']!r} evidence={q['evidence']} -> {q['new']['answer'][:160]!r}")
    if args.dump:
        OUT.mkdir(parents=True, exist_ok=True)
        write_jsonl(Path(args.dump), (q for c in convs for q in c["questions"]))
        print(f"records written to {args.dump}")
    print(f"total time {fmt_s(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
