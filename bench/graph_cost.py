#!/usr/bin/env python3
"""CPU cost of the entity graph pass inside an ingest (issue 17).

    python bench/graph_cost.py FOLDER [--no-ner]

Ingests FOLDER into a fresh temporary home in-process (`Cairn.ingest`, the real embedder)
with the graph pass (graph/update.update_graph) timed on its own: prints the whole
ingest's CPU seconds, the graph pass's CPU seconds (spaCy load included, once) and
their ratio, and the mentions/entities made. CPU seconds, not wall time: the machine is shared.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--no-ner", action="store_true", help="structural names only (no spaCy)")
    args = ap.parse_args(argv)
    import cairn.graph.update as U
    from cairn.service import Cairn
    inner = U.update_graph
    spent = [0.0]

    def timed(conn, use_ner=True):
        t = time.process_time()
        try:
            return inner(conn, use_ner=use_ner and not args.no_ner)
        finally:
            spent[0] += time.process_time() - t

    U.update_graph = timed
    with tempfile.TemporaryDirectory() as tmp:
        t0, w0 = time.process_time(), time.perf_counter()
        with Cairn(Path(tmp) / "home") as app:
            rep = app.ingest([args.folder])
            total = time.process_time() - t0
            m = app.conn.execute("SELECT count(*), count(DISTINCT entity_id) FROM entity_mentions").fetchone()
        print(f"ingested {len(rep.added)} notes: {total:.1f} CPU s ({time.perf_counter() - w0:.1f} s wall); "
              f"graph pass {spent[0]:.1f} CPU s = {spent[0] / total:.0%} of the ingest; "
              f"{m[0]} mentions of {m[1]} entities")
    return 0


if __name__ == "__main__":
    sys.exit(main())
