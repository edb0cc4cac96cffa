#!/usr/bin/env python3
"""LoCoMo with fact-augmented keys: evidence hit@5 / hit@10 per category, without and with
the facts extracted from each message in its key (same homes, same run = the baseline).

    python bench/locomo_memory.py                           # rules, all conversations, hybrid
    python bench/locomo_memory.py --modes keyword,semantic,hybrid
    python bench/locomo_memory.py --llm-conversations 1     # also the embedded LLM on conv 1
    python bench/locomo_memory.py --limit-conversations 1 --misses 20

Per conversation of `locomo/locomo-dev.json` (same chat rows as bench/locomo.py):
1. `cairn import chat FILE --no-extract` into its own home; `cairn search --batch` per mode:
   the "message" keys (baseline);
2. `cairn extract --llm none --json` (rule-based extractor) — facts stored as keys, changed
   messages re-embedded; the same batch again: the "message + facts" keys.
With --llm-conversations N, the first N conversations are also imported into a second home
and extracted with `--llm embedded` (SmolLM2-135M, grounded, rules for windows without a
grounded fact); its wall time, LLM calls and grounding rejection rate are printed, with
its hit@k.

hit@k as in bench/locomo.py (categories 1-4, evidence ids normalised, questions without
valid evidence dropped).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CairnError, batch_search, fmt_s, header, run_cairn, table, work_dir, write_jsonl  # noqa: E402
from locomo import (KS, category_rows, chat_rows, load_samples, new_score, print_misses,  # noqa: E402
                    questions_of, tally)


def search_all(home: Path, batch: Path, modes: list[str], tag: str, workdir: Path, k: int = 10) -> dict:
    per_mode = {}
    for mode in modes:
        results, warns, _ = batch_search(home, batch, workdir / f"{home.name}-{tag}-{mode}.jsonl",
                                         k=k, mode=mode)
        if warns:
            print(f"  {tag}/{mode}: {len(warns)} warning(s), e.g. {warns[:2]}")
        per_mode[mode] = {qid: [h.get("source_id") for h in hits] for qid, hits in results.items()}
    return per_mode


def extraction_stats(rows: list[dict]) -> dict:
    agg = defaultdict(float)
    methods = defaultdict(int)
    for s in rows:
        for key, val in (s.get("stats") or {}).items():
            if isinstance(val, (int, float)):
                agg[key] += val
        agg["facts"] += len(s["facts"])
        agg["problems"] += len(s["problems"])
        agg["messages_with_facts"] += s["keys"]["messages_with_facts"]
        methods[s["method"]] += 1
    agg["sessions"] = len(rows)
    return {"agg": dict(agg), "methods": dict(methods)}


def run_conversation(sample: dict, modes: list[str], workdir: Path, llm: str | None) -> dict:
    sid = sample["sample_id"]
    rows = chat_rows(sample)
    chat = workdir / f"{sid}-chat.jsonl"
    write_jsonl(chat, rows)
    qs, dropped = questions_of(sample, {r["id"] for r in rows})
    batch = workdir / f"{sid}-questions.jsonl"
    write_jsonl(batch, ({"id": q["id"], "query": q["query"]} for q in qs))
    home = workdir / f"home-{sid}"
    run_cairn(home, ["import", "chat", str(chat), "--no-extract", "--json", "--quiet"])
    base = search_all(home, batch, modes, "message", workdir)
    out, _, wall = run_cairn(home, ["extract", "--llm", "none", "--json"])
    rules = extraction_stats(json.loads(out))
    rules["wall"] = wall
    keyed = search_all(home, batch, modes, "facts", workdir)
    res = {"sid": sid, "messages": len(rows), "questions": qs, "dropped": dropped,
           "hits": {"message": base, "message+rule facts": keyed}, "extract": {"rules": rules}}
    if llm:
        home2 = workdir / f"home-{sid}-llm"
        run_cairn(home2, ["import", "chat", str(chat), "--no-extract", "--json", "--quiet"])
        out, _, wall = run_cairn(home2, ["extract", "--llm", llm, "--json"])
        sessions = json.loads(out)
        st = extraction_stats(sessions)
        st["wall"] = wall
        st["examples"] = [f for s in sessions for f in s["facts"] if f["method"] == "llm"][:8]
        st["problem_examples"] = [p for s in sessions for p in s["problems"]][:3]
        res["extract"][llm] = st
        res["hits"][f"message+{llm} facts"] = search_all(home2, batch, modes, "llm", workdir)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit-conversations", type=int, default=0, metavar="N")
    ap.add_argument("--modes", default="hybrid", help="comma-separated search modes (default hybrid)")
    ap.add_argument("--llm-conversations", type=int, default=0, metavar="N",
                    help="also extract with the embedded LLM on the first N conversations")
    ap.add_argument("--llm", default="embedded", help="LLM spec for --llm-conversations")
    ap.add_argument("--keep", action="store_true", help="keep homes in bench/out/locomo-memory-*")
    ap.add_argument("--misses", type=int, default=0, metavar="N",
                    help="print N questions missed@10 in hybrid with rule-fact keys")
    args = ap.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    t0 = time.perf_counter()
    path, samples = load_samples(args.limit_conversations)
    header(f"LoCoMo memory — {path} ({len(samples)} conversation(s))")
    convs = []
    with work_dir(args.keep, "locomo-memory-", "cairn-locomo-memory-") as workdir:
        for n, sample in enumerate(samples):
            llm = args.llm if n < args.llm_conversations else None
            try:
                res = run_conversation(sample, modes, workdir, llm)
            except CairnError as exc:
                print(f"{sample['sample_id']}: FAILED: {exc}")
                continue
            for name, st in res["extract"].items():
                a = st["agg"]
                line = (f"{res['sid']}: {name}: {int(a['facts'])} facts on {int(a['messages_with_facts'])}/"
                        f"{res['messages']} messages, {int(a['sessions'])} sessions {st['methods']}, "
                        f"extract {fmt_s(st['wall'])}")
                if name != "rules":
                    judged = a.get("llm_facts", 0) + a.get("rejected", 0)
                    line += (f"; {int(a.get('llm_calls', 0))} LLM calls, {int(a.get('llm_facts', 0))} grounded "
                             f"LLM facts, {int(a.get('rejected', 0))} rejected "
                             f"(rejection rate {a.get('rejected', 0) / judged if judged else 0:.2f}), "
                             f"{int(a.get('windows_on_rules', 0))}/{int(a.get('windows', 0))} windows on rules")
                print(line, flush=True)
                for ex in st.get("examples", [])[:5]:
                    print(f"    llm fact {ex['source_ids']}: {ex['text']}")
                for p in st.get("problem_examples", [])[:2]:
                    print(f"    problem: {p[:300]}")
            convs.append(res)
    if not convs:
        return 1
    variants = list(convs[0]["hits"])
    for m in modes:
        # score[variant][k][cat] = [hits, n]; a variant is scored only on conversations that ran it
        score = {v: new_score() for v in variants}
        misses = []
        for res in convs:
            for q in res["questions"]:
                for v, per_mode in res["hits"].items():
                    got = per_mode[m].get(q["id"], [])
                    if not tally(score.setdefault(v, new_score()), q, got)[10] and v == "message+rule facts":
                        misses.append((res["sid"], q, got))
        header(f"evidence hit@k, mode {m} (fraction of questions)")
        for v in score:
            print(f"\nkeys: {v}")
            print(table(["category", "n"] + [f"hit@{k}" for k in KS], category_rows([score[v]])))
        if args.misses and m == "hybrid":
            header(f"first {args.misses} misses@10 with rule-fact keys")
            print_misses(misses, args.misses)
    print(f"total time {fmt_s(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
