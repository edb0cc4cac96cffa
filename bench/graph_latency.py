#!/usr/bin/env python3
"""Warm hybrid search latency with and without the graph / source / context signals, in
one process on one padded home (issue 17: "no more than 1.3x today's in the same run").

    python bench/scifact.py --fresh --modes hybrid     # builds bench/out/scifact-home (with entities)
    python bench/graph_latency.py [--pad-target 100000] [--queries 200]

The home is a copy of bench/out/scifact-home padded to ~--pad-target chunks by
ingest_speed.pad_index (copies of the SciFact notes, chunks, keyword rows and vectors), and
here also the entity mentions of each copy (so an entity is mentioned ~N times as often,
as in a real home of that size; co-occurrence counts are left as imported). Queries:
--queries SciFact train queries. Each query runs twice in turn (which variant goes first
alternates from query to query), once with the signals off
(`graph_weight = source_weight = context_weight = phrase_weight = 0`: the ranking path of
main before the graph and the phrase pairs) and once with the defaults, after one warm-up query of each; p50 / p95 of both and the
ratio of the p50s are printed. Wall times on a shared machine: only the ratio means much.
The padded copy is removed at the end.

`--compare phrase` runs the defaults with `phrase_weight = 0` ("off", one BM25 query) and
with the defaults ("on", the second BM25 query of the adjacent word pairs); "signals" turns
phrase_weight off too. `--compare time` instead runs the defaults with `time_weight = 0`
("off") and with the defaults ("on"), and `--dated PHRASE` appends PHRASE (e.g. " in 2026") to every query in
both variants, so the time signal's own cost (reading the dates of the query, the date of
every candidate) is what differs.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT, header, table  # noqa: E402
from ingest_speed import pad_index, pct, scifact_queries  # noqa: E402


def pad_mentions(index: Path) -> int:
    """Copy the entity mentions of every original note to its padded copies ('<id>~padN');
    returns the mention rows in the index afterwards."""
    conn = sqlite3.connect(index, isolation_level=None)
    try:
        conn.execute("BEGIN")
        conn.execute("""INSERT OR IGNORE INTO entity_mentions(note_id, source_id, entity_id, method, count)
                        SELECT n.id, m.source_id, m.entity_id, m.method, m.count
                        FROM notes n JOIN entity_mentions m ON m.note_id = substr(n.id, 1, instr(n.id, '~pad') - 1)
                        WHERE instr(n.id, '~pad') > 0""")
        conn.execute("COMMIT")
        return conn.execute("SELECT count(*) FROM entity_mentions").fetchone()[0]
    finally:
        conn.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pad-target", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--source", type=Path, default=OUT / "scifact-home", help="home to pad (default scifact-home)")
    ap.add_argument("--compare", choices=("signals", "time", "phrase"), default="signals",
                    help="off = graph/source/context signals and phrase_weight 0 (signals), time_weight 0 "
                         "(time) or phrase_weight 0 (phrase)")
    ap.add_argument("--dated", default="", help="text appended to every query (e.g. ' in 2026')")
    args = ap.parse_args(argv)
    from cairn.service import Cairn
    src = args.source / "index.db"
    if not src.exists():
        sys.exit(f"error: {src} missing: run bench/scifact.py --fresh first")
    OUT.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="graph-latency-", dir=OUT))
    try:
        shutil.copy(src, home / "index.db")
        info = pad_index(home / "index.db", src, args.pad_target)
        mentions = pad_mentions(home / "index.db")
        print(f"padded {home}: {info['chunks']} chunks, {info['vectors']} vectors, {mentions} mentions "
              f"({info['seconds']:.0f} s)", flush=True)
        qs = [q + args.dated for q in scifact_queries(args.queries)]
        with Cairn(home) as app:
            base = app.settings.search
            off = (replace(base, time_weight=0.0) if args.compare == "time"
                   else replace(base, phrase_weight=0.0) if args.compare == "phrase"
                   else replace(base, graph_weight=0.0, source_weight=0.0, context_weight=0.0,
                                phrase_weight=0.0))
            times = {"off": [], "on": []}
            for name, s in (("off", off), ("on", base)):
                app.settings.search = s
                app.search(qs[0], k=10)  # warm-up: vectors loaded, spaCy-free path
            for i, q in enumerate(qs):
                pair = (("off", off), ("on", base))
                for name, s in (pair if i % 2 == 0 else pair[::-1]):  # each variant first half the time
                    app.settings.search = s
                    t0 = time.perf_counter()
                    app.search(q, k=10)
                    times[name].append((time.perf_counter() - t0) * 1000)
        rows = [[n, f"{pct(v, 50):.1f}", f"{pct(v, 95):.1f}"] for n, v in times.items()]
        header(f"warm hybrid search, {info['chunks']} chunks, {len(qs)} SciFact queries (ms)")
        print(table(["signals", "p50", "p95"], rows))
        print(f"p50 ratio on/off: {pct(times['on'], 50) / pct(times['off'], 50):.2f}x")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
