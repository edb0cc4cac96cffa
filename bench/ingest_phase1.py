#!/usr/bin/env python3
"""Phase-1 ingest time (parse, vault note, index text — everything but embedding).

    python bench/ingest_phase1.py [--vault DIR] [--runs 3]

Runs `Cairn.ingest` on the notes vault (default: the Dendron vault) into a fresh temp home
with a zero-vector embedder, so the figure is the per-file pipeline alone (the job queue's
bookkeeping included), not the embedding model; then the same ingest again with nothing
changed. Prints wall and process CPU seconds per run and the medians. Use it to compare
two trees in the same time window (run it from each checkout, alternately): machine load
moves wall times a lot, CPU seconds less.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import data_dir  # noqa: E402  (also puts <repo>/src on sys.path)


class ZeroEmbedder:
    """Stands in for the model: unit vectors of zeros+1, no computation."""

    model_name = "zero"
    model_id = "zero"
    dim = 384

    def embed(self, texts):
        v = np.zeros((len(texts), self.dim), dtype=np.float32)
        v[:, 0] = 1.0
        return v


def one_run(vault: Path) -> dict:
    from cairn.service import Cairn

    tmp = Path(tempfile.mkdtemp(prefix="cairn-p1-"))
    try:
        with Cairn(tmp / "home", embedder=ZeroEmbedder()) as app:
            out = {}
            for label in ("fresh", "unchanged"):
                w0, c0 = time.perf_counter(), time.process_time()
                rep = app.ingest([vault])
                out[label] = (time.perf_counter() - w0, time.process_time() - c0,
                              len(rep.added), len(rep.unchanged))
            return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vault", type=Path, default=None)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    vault = args.vault or data_dir() / "notes-dendron-vault" / "vault"
    runs = [one_run(vault) for _ in range(args.runs)]
    for label in ("fresh", "unchanged"):
        walls = [r[label][0] for r in runs]
        cpus = [r[label][1] for r in runs]
        print(f"{label:9} wall " + " ".join(f"{w:.2f}" for w in walls) + f" (median {statistics.median(walls):.2f} s)"
              f" | cpu " + " ".join(f"{c:.2f}" for c in cpus) + f" (median {statistics.median(cpus):.2f} s)"
              f" | added {runs[0][label][2]}, unchanged {runs[0][label][3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
