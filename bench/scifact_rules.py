#!/usr/bin/env python3
"""SciFact train nDCG@10 of search settings, in one process on the cached SciFact home,
tuned on one half of the queries and reported on the other (issue 17).

    python bench/scifact.py --allow-stale --modes hybrid     # builds / checks the cached home
    python bench/scifact_rules.py --points "keyword_weight=1.0;keyword_weight=1.2"
                                  [--home bench/out/scifact-home] [--set cairn.graph.signal.TOP_HITS=5]

A point is a comma-separated list of `SearchSettings` overrides (NAME=VALUE); the first
point is the baseline. Every train query with qrels runs through `Cairn.search(query,
k=100)` (hybrid) with the home's settings plus the point's overrides; nDCG@10 and
recall@100 are computed as in `scifact.py`. Halves: queries with an even id (the tuning
half) and an odd id (held out). `--set MODULE.NAME=VALUE` sets a module constant for the
whole run (a tuple constant takes comma-separated numbers, e.g.
`--set cairn.search.hybrid.BM25_WEIGHTS=3,1,1`; a string one the text). `--k N` asks N hits
per search (default 100, as scifact.py; nDCG@10 is read from the first 10). Per-query warm latency (p50, ms) is printed per point, measured in the same
interleaved loop (queries alternate between points), so the ratio to the baseline is
the figure to read.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT, data_dir, header, need, read_jsonl, table  # noqa: E402
from scifact import load_qrels, ndcg_at, ranked_ids, recall_at  # noqa: E402


def parse_point(text: str) -> dict:
    out = {}
    for item in text.split(","):
        if item.strip():
            k, v = item.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def typed(base, name: str, value: str):
    cur = getattr(base, name)
    return type(cur)(float(value)) if isinstance(cur, (int, float)) and not isinstance(cur, bool) else type(cur)(value)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", type=Path, default=OUT / "scifact-home")
    ap.add_argument("--points", default="keyword_weight=1.0;keyword_weight=1.2",
                    help='";"-separated points, each "NAME=VALUE,..." (SearchSettings fields); the first is the baseline')
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    ap.add_argument("--limit-queries", type=int, default=0)
    ap.add_argument("--k", type=int, default=100, help="hits asked per search (nDCG@10 from the first 10)")
    args = ap.parse_args(argv)
    for item in args.set:
        name, value = item.split("=", 1)
        mod, attr = name.rsplit(".", 1)
        m = importlib.import_module(mod)
        cur = getattr(m, attr)
        if isinstance(cur, tuple):
            setattr(m, attr, tuple(float(v) for v in value.split(",")))
        elif isinstance(cur, str):
            setattr(m, attr, value)
        else:
            setattr(m, attr, type(cur)(float(value)))
    from cairn.service import Cairn
    root = need(data_dir() / "beir-scifact", "BEIR SciFact")
    qrels = load_qrels(root / "qrels" / "train.tsv")
    queries = [q for q in read_jsonl(root / "queries-train.jsonl") if str(q["_id"]) in qrels]
    if args.limit_queries:
        queries = queries[:args.limit_queries]
    points = [parse_point(p) for p in args.points.split(";") if p.strip()]
    res = {i: {"even": [], "odd": [], "rc": [], "ms": []} for i in range(len(points))}
    t0 = time.perf_counter()
    with Cairn(args.home) as app:
        base = app.settings.search
        settings = [replace(base, **{k: typed(base, k, v) for k, v in p.items()}) for p in points]
        app.search("warm up", k=100)
        for n, q in enumerate(queries):
            qid = str(q["_id"])
            for i, s in enumerate(settings):
                app.settings.search = s
                t = time.perf_counter()
                hits = app.search(q["text"], k=args.k).hits
                res[i]["ms"].append((time.perf_counter() - t) * 1000)
                ranked = ranked_ids([{"source_id": h.source_id} for h in hits])
                res[i]["even" if int(qid) % 2 == 0 else "odd"].append(ndcg_at(ranked, qrels[qid], 10))
                res[i]["rc"].append(recall_at(ranked, qrels[qid], 100))
            if (n + 1) % 200 == 0:
                print(f"{n + 1} queries, {time.perf_counter() - t0:.0f} s", flush=True)
        app.settings.search = base
    header(f"SciFact train hybrid, {len(queries)} queries; tune = even ids, held out = odd ids ({args.home})")
    rows = []
    b50 = statistics.median(res[0]["ms"])
    for i, p in enumerate(points):
        r = res[i]
        allv = r["even"] + r["odd"]
        p50 = statistics.median(r["ms"])
        rows.append([",".join(f"{k}={v}" for k, v in p.items()) or "(home settings)",
                     f"{sum(r['even']) / len(r['even']):.4f}", f"{sum(r['odd']) / len(r['odd']):.4f}",
                     f"{sum(allv) / len(allv):.4f}", f"{sum(r['rc']) / len(r['rc']):.4f}",
                     f"{p50:.1f} ({p50 / b50:.2f}x)"])
    print(table(["point", "nDCG@10 tune (even)", "held out (odd)", "all", "recall@100", "p50 ms"], rows))
    if args.set:
        print("module constants:", ", ".join(args.set))
    return 0


if __name__ == "__main__":
    sys.exit(main())
