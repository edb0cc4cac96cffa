#!/usr/bin/env python3
"""Many processes on one Cairn home at once: errors, "database is locked", lost writes.

    python bench/many_processes.py                    # 6 processes, 3 rounds each
    python bench/many_processes.py --procs 10 --rounds 5

Each worker process opens its own `Cairn(home)` (its own SQLite connection, the packaged
embedder) and, per round: ingests a folder of its own (4 files) and a folder shared by every
worker (the same 6 files for all: parallel ingests of one folder), creates a note, remembers
a fact, imports a 3-record JSONL file of its own and runs 3 searches. Afterwards the parent
checks that every write is there exactly once: notes = procs*rounds*(4+1+3) + 6 shared,
memories = procs*rounds, one vector per embeddable chunk, the shared files added exactly once
in total. Printed: errors (any exception), "database is locked" messages, lost or doubled
writes, wall time. Exit status 1 if any is not zero.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def worker(home: str, base: str, wid: int, rounds: int, out: mp.Queue) -> None:
    from cairn.service import Cairn

    errors, locked, added_shared = [], 0, 0
    try:
        with Cairn(home) as app:
            for r in range(rounds):
                own = Path(base) / f"w{wid}r{r}"
                for i in range(4):
                    (own / f"f{i}.md").parent.mkdir(parents=True, exist_ok=True)
                    (own / f"f{i}.md").write_text(f"# W{wid} R{r} F{i}\n\nworker{wid} round{r} file{i} lanternfish\n")
                for op in ("ingest", "shared", "note", "remember", "import", "search"):
                    try:
                        if op == "ingest":
                            app.ingest([str(own)])
                        elif op == "shared":
                            added_shared += len(app.ingest([str(Path(base) / "shared")]).added)
                        elif op == "note":
                            app.note_create(f"Worker {wid} round {r}", f"note body {wid} {r} pelicanoid")
                        elif op == "remember":
                            city = ("Parma", "Lyon", "Turku", "Cork", "Braga", "Ghent", "Split", "Olomouc")[(wid + r) % 8]
                            app.remember(f"Agent{chr(65 + wid)}{chr(65 + r)} lives in {city}.")
                        elif op == "import":
                            f = Path(base) / f"imp{wid}r{r}.jsonl"
                            f.write_text("".join(json.dumps({"id": f"{wid}-{r}-{k}", "text": f"record {k} of {wid}"}) + "\n"
                                                 for k in range(3)))
                            app.import_notes(f)
                        else:
                            for q in ("lanternfish", "pelicanoid", f"worker{wid}"):
                                app.search(q)
                    except Exception as exc:  # noqa: BLE001 — counted
                        text = f"{type(exc).__name__}: {exc}"
                        locked += "database is locked" in text
                        errors.append(f"w{wid} r{r} {op}: {text}")
    except Exception:  # noqa: BLE001
        errors.append(traceback.format_exc())
    out.put((wid, errors, locked, added_shared))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, base = Path(tmp) / "home", Path(tmp) / "src"
        for i in range(6):
            (base / "shared").mkdir(parents=True, exist_ok=True)
            (base / "shared" / f"s{i}.md").write_text(f"# Shared {i}\n\nshared file {i} kittiwake\n")
        from cairn.service import Cairn
        with Cairn(home):
            pass  # the home and index exist before the workers start
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        t0 = time.time()
        procs = [ctx.Process(target=worker, args=(str(home), str(base), w, args.rounds, out))
                 for w in range(args.procs)]
        for p in procs:
            p.start()
        results = [out.get(timeout=3600) for _ in procs]
        for p in procs:
            p.join()
        wall = time.time() - t0
        errors = [e for _, errs, _, _ in results for e in errs]
        locked = sum(r[2] for r in results)
        shared_added = sum(r[3] for r in results)
        with Cairn(home) as app:
            st = app.status()
            notes = st["notes"]
            mems = app.conn.execute("SELECT count(*) FROM memories WHERE valid_to IS NULL").fetchone()[0]
            missing_vec = app.conn.execute(
                "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)"
            ).fetchone()[0]
        want_notes = args.procs * args.rounds * (4 + 1 + 3) + 6
        want_mems = args.procs * args.rounds
        lost = (want_notes - notes) + (want_mems - mems) + missing_vec + (6 - shared_added)
        print(f"processes {args.procs} x rounds {args.rounds} on one home, wall {wall:.1f} s")
        print(f"errors {len(errors)}; 'database is locked' {locked}")
        print(f"notes {notes}/{want_notes}, active memories {mems}/{want_mems}, chunks without a vector "
              f"{missing_vec}, shared files added {shared_added}/6 (once in total)")
        print(f"lost or doubled writes {abs(want_notes - notes) + abs(want_mems - mems) + missing_vec + abs(6 - shared_added)}")
        for e in errors[:10]:
            print("  ", e[:300])
        return 1 if errors or locked or lost else 0


if __name__ == "__main__":
    sys.exit(main())
