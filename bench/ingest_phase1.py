#!/usr/bin/env python3
"""Phase-1 ingest time (parse, vault note, index text — everything but embedding).

    python bench/ingest_phase1.py [--vault DIR] [--runs 3]
    python bench/ingest_phase1.py --text-only [--src OTHER_CHECKOUT/src] [--runs 3]

Runs `Cairn.ingest` on the notes vault (default: the Dendron vault) into a fresh temp home
with a zero-vector embedder, so the figure is the per-file pipeline alone (the job queue's
bookkeeping included), not the embedding model; then the same ingest again with nothing
changed. Prints wall and process CPU seconds per run and the medians. Use it to compare
two trees in the same time window (run it from each checkout, alternately): machine load
moves wall times a lot, CPU seconds less.

--text-only: phase 1 alone, as `cairn ingest` runs it (the parse pool and its text lane
included, no embedding: `ingest_paths(..., embed=False)`), on a temp copy of the vault's
text files (.md, .markdown, .txt, .yml, .yaml), so no image waits behind it: wall seconds
and the ingest process's CPU seconds (all its threads; not the workers'). --src imports
cairn from another checkout's src folder, so one command compares two trees: run it with
and without --src, alternately.
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
from _common import data_dir, need  # noqa: E402  (also puts <repo>/src on sys.path)


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


TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".yml", ".yaml")


def text_copy(vault: Path, dest: Path) -> int:
    """Copy the text files under `vault` (TEXT_SUFFIXES, hidden folders left out) to `dest`,
    keeping their relative paths; returns how many."""
    n = 0
    for f in vault.rglob("*"):
        rel = f.relative_to(vault)
        if f.is_file() and f.suffix.lower() in TEXT_SUFFIXES and not any(p.startswith(".") for p in rel.parts):
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dest / rel)
            n += 1
    return n


def text_only_run(folder: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, notes added) of phase 1 on `folder` into a fresh temp home."""
    from cairn.ingest.run import ingest_paths
    from cairn.service import Cairn

    tmp = Path(tempfile.mkdtemp(prefix="cairn-p1t-"))
    try:
        with Cairn(tmp / "home", embedder=ZeroEmbedder()) as app:
            w0, c0 = time.perf_counter(), time.process_time()
            rep = ingest_paths(app.conn, app.settings, [folder], None, embed=False)
            return time.perf_counter() - w0, time.process_time() - c0, len(rep.added)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vault", type=Path, default=None)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--text-only", action="store_true", help="phase 1 alone on a copy of the text files")
    ap.add_argument("--src", type=Path, default=None, help="import cairn from this src folder (another checkout)")
    args = ap.parse_args()
    if args.src is not None:
        sys.path.insert(0, str(args.src.resolve()))
    vault = need(args.vault or data_dir() / "notes-dendron-vault" / "vault", "notes vault")
    if args.text_only:
        import cairn
        folder = Path(tempfile.mkdtemp(prefix="cairn-p1text-"))
        try:
            n = text_copy(vault, folder / "vault")
            runs = [text_only_run(folder / "vault") for _ in range(args.runs)]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"phase 1 of {n} text files, cairn from {Path(cairn.__file__).parent}")
        print("wall " + " ".join(f"{w:.2f}" for w, _, _ in runs) + f" (median {statistics.median(r[0] for r in runs):.2f} s)"
              " | cpu " + " ".join(f"{c:.2f}" for _, c, _ in runs) + f" (median {statistics.median(r[1] for r in runs):.2f} s)"
              f" | added {runs[0][2]}")
        return 0
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
