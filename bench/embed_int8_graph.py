#!/usr/bin/env python3
"""The shipped MiniLM graph as shipped (float32 arithmetic) against its integer-arithmetic
conversion (cairn.embed.int8_graph, what `make install` installs since session 16), in one run:
CPU per chunk and the cosine between their vectors, both through `Embedder` with its defaults
(the converted graph one text per run, the float graph batches of 8; 2 threads).

    CAIRN_DATA=/work/shared/data PYTHONPATH=src python bench/embed_int8_graph.py [--scifact 300] [--reps 2] [--docs N]

Texts: the chunks of this repository's docs/ folder as ingest makes them (chunk_body +
embed_text) and the first --scifact SciFact abstracts of bench/models.py's 600-document subset.
Both model folders are installed into a temporary folder from the installed packages. Each set
is embedded --reps times per model, the order alternating; the best (lowest) CPU of each is
compared. Nothing asserts; figures are printed with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO  # noqa: E402

import numpy as np  # noqa: E402


def docs_chunks() -> list[str]:
    from cairn.chunk import chunk_body
    from cairn.ingest.embedding import embed_text
    out = []
    for p in sorted((REPO / "docs").rglob("*.md")):
        out += [embed_text(p.stem, c) for c in chunk_body(p.read_text(encoding="utf-8"))]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scifact", type=int, default=300, help="SciFact abstracts (0: skip)")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--docs", type=int, default=0, help="only the first N docs/ chunks (0: all)")
    args = ap.parse_args()
    from cairn.embed import shipped
    from cairn.embed.minilm import Embedder
    sets = {"docs": docs_chunks()[:args.docs or None]}
    if args.scifact:
        from models import scifact_data
        sets["scifact"] = scifact_data(600, 300)[3][:args.scifact]
    for name, texts in sets.items():
        print(f"{name}: {len(texts)} texts, mean {np.mean([len(t) for t in texts]):.0f} chars")
    with tempfile.TemporaryDirectory(prefix="cairn-int8graph-") as tmp:
        dirs = {"float": shipped.install_shipped(Path(tmp) / "float", float_graph=True),
                "int8": shipped.install_shipped(Path(tmp) / "int8")}
        embs = {k: Embedder(d, auto_export=False) for k, d in dirs.items()}
        for e in embs.values():
            e.embed(["warm up", "and save the optimized copy"])
        cpu: dict = {}
        vecs: dict = {}
        for name, texts in sets.items():
            for rep in range(args.reps):
                for k in (list(embs) if rep % 2 == 0 else list(embs)[::-1]):
                    load = os.getloadavg()[0]
                    c0, w0 = time.process_time(), time.perf_counter()
                    vecs[(k, name)] = embs[k].embed(texts)
                    c, w = time.process_time() - c0, time.perf_counter() - w0
                    cpu.setdefault((k, name), []).append(c)
                    print(f"  {name} rep {rep} {k:5s}: CPU {c:6.1f} s ({1000 * c / len(texts):5.1f} ms/chunk), "
                          f"wall {w:6.1f} s, load {load:.2f}", flush=True)
        print("\n| set | texts | float CPU ms/chunk | int8 CPU ms/chunk | CPU ratio float/int8 | cosine mean | cosine min |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, texts in sets.items():
            f, i = min(cpu[("float", name)]), min(cpu[("int8", name)])
            cos = np.sum(vecs[("float", name)] * vecs[("int8", name)], axis=1)
            print(f"| {name} | {len(texts)} | {1000 * f / len(texts):.1f} | {1000 * i / len(texts):.1f} | "
                  f"{f / i:.2f}x | {cos.mean():.4f} | {cos.min():.4f} |")
        for k, d in dirs.items():
            size = sum(p.stat().st_size for p in Path(d).iterdir() if p.is_file())
            opt = sum(p.stat().st_size for p in Path(d).glob("model.opt-*.onnx"))
            print(f"{k} model folder: {size / 2**20:.0f} MiB (optimized copy {opt / 2**20:.0f} MiB)")
    print(f"load average at the end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
