#!/usr/bin/env python3
"""Run every Cairn benchmark in sequence and print all their output (`make bench`).

    python bench/run_all.py            # quick defaults (~10 min on 2 idle cores; SciFact's
                                       # first import adds several minutes, then it is cached)
    python bench/run_all.py --full     # all LoCoMo conversations, all SciFact queries,
                                       # latency on a home padded to ~100k chunks
    python bench/run_all.py --only locomo,scifact --fusion rrf

Quick defaults: sample_docs; locomo --limit-conversations 1; scifact --limit-queries 300
(cached home); ingest_speed without padding. bench/bench_embed.py is not run here.
A failing benchmark is reported and the others still run; the exit code is 1 if any failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from _common import fmt_s, table  # noqa: E402


def plan(full: bool, fusion: str | None) -> list[tuple[str, list[str]]]:
    fus = ["--fusion", fusion] if fusion else []
    return [
        ("sample_docs", []),
        ("locomo", ([] if full else ["--limit-conversations", "1"]) + fus),
        ("scifact", ([] if full else ["--limit-queries", "300"]) + fus),
        ("ingest_speed", ["--pad-scifact"] if full else []),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="full-size runs (much slower)")
    ap.add_argument("--fusion", default=None, help="passed to locomo and scifact (default: Cairn's default)")
    ap.add_argument("--only", default="", help="comma-separated subset: sample_docs,locomo,scifact,ingest_speed")
    args = ap.parse_args(argv)
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    steps = [(n, a) for n, a in plan(args.full, args.fusion) if not only or n in only]
    summary = []
    t0 = time.perf_counter()
    print(f"Cairn benchmarks ({'full' if args.full else 'quick'}), {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    for name, extra in steps:
        cmd = [sys.executable, str(BENCH / f"{name}.py"), *extra]
        print(f"\n######## {name}: {' '.join(Path(c).name if i < 2 else c for i, c in enumerate(cmd))}", flush=True)
        t = time.perf_counter()
        rc = subprocess.call(cmd)
        summary.append([name, " ".join(extra) or "-", "ok" if rc == 0 else f"FAILED (exit {rc})",
                        fmt_s(time.perf_counter() - t)])
    print("\n######## summary")
    print(table(["benchmark", "options", "result", "time"], summary, aligns="lllr"))
    print(f"total {fmt_s(time.perf_counter() - t0)}")
    return 0 if all(r[2] == "ok" for r in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
