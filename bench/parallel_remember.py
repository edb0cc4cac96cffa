#!/usr/bin/env python3
"""Parallel `remember` of updates to one fact: is the statement committed last the current one?

    python bench/parallel_remember.py                      # 6 processes x 2 updates, 3 runs
    python bench/parallel_remember.py --procs 8 --rounds 3 --runs 5 --src /other/checkout/src [--show]

Each worker process opens its own `Cairn(home)` (its own SQLite connection), waits at a
barrier with the others, then says "I live in <a town of its own>" `rounds` times. Afterwards
the parent reads the memories of that fact in insertion order (rowid: SQLite serialises the
writers, so insertion order is commit order) and counts, per run: runs whose current memory is
not the last inserted, memories filed as older history ("older than" reasons), and chain steps
whose reason does not name the memory they replaced. `--src` picks the cairn source tree
tested (default: this checkout's src). Exit status 1 if any count is not zero.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _town(wid: int, r: int) -> str:
    return "Ver" + "abcdefghijklmnop"[wid % 16] + "ona" + "rstuvwxyz"[r % 9]


def worker(src: str, home: str, wid: int, rounds: int, barrier) -> None:
    sys.path.insert(0, src)
    from cairn.service import Cairn
    with Cairn(home) as app:
        barrier.wait(300)
        for r in range(rounds):
            app.remember(f"I live in {_town(wid, r)}")


def one_run(src: str, procs: int, rounds: int, show: bool = False) -> tuple[int, int, int]:
    """(current is not the last inserted: 0/1, history-filed memories, steps whose reason
    does not name the memory replaced) for one run on a fresh home."""
    sys.path.insert(0, src)
    from cairn.memory import history
    from cairn.service import Cairn
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        with Cairn(home) as app:
            app.remember("I live in Parma")
        ctx = mp.get_context("spawn")
        barrier = ctx.Barrier(procs)
        ps = [ctx.Process(target=worker, args=(src, str(home), w, rounds, barrier)) for w in range(procs)]
        for p in ps:
            p.start()
        for p in ps:
            p.join()
        assert all(p.exitcode == 0 for p in ps), [p.exitcode for p in ps]
        with Cairn(home) as app:
            rows = app.conn.execute("SELECT id, text, created, superseded_by FROM memories ORDER BY rowid").fetchall()
            for r in rows if show else ():
                print(f"  {r['id']} {r['created']} {r['text']!r} superseded_by={r['superseded_by']}")
            active = [r["id"] for r in rows if r["superseded_by"] is None]
            wrong_current = int(active != [rows[-1]["id"]])
            chain = history(app.conn, rows[-1]["id"])
            filed = sum("older than" in m.log[0].get("reason", "") for m in chain)
            unnamed = sum(after.log[0].get("replaces") != before.id or before.id not in after.log[0]["reason"]
                          for before, after in zip(chain, chain[1:])
                          if "older than" not in after.log[0].get("reason", ""))
    return wrong_current, filed, unnamed


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--src", default=SRC)
    ap.add_argument("--show", action="store_true", help="print each run's memories in commit order")
    args = ap.parse_args()
    t0 = time.time()
    totals = [0, 0, 0]
    for _ in range(args.runs):
        for i, v in enumerate(one_run(args.src, args.procs, args.rounds, args.show)):
            totals[i] += v
    print(f"{args.runs} runs x {args.procs} processes x {args.rounds} updates, src {args.src}, "
          f"wall {time.time() - t0:.1f} s")
    print(f"runs whose current memory is not the last committed {totals[0]}/{args.runs}; "
          f"memories filed as older history {totals[1]}; chain steps not naming what they replaced {totals[2]}")
    return 1 if any(totals) else 0


if __name__ == "__main__":
    sys.exit(main())
