#!/usr/bin/env python3
"""BEIR SciFact retrieval quality through the CLI: nDCG@10 and recall@100 per search mode.

    python bench/scifact.py                      # reuse the cached home, all train queries
    python bench/scifact.py --fresh              # rebuild the home (imports 5,183 abstracts)
    python bench/scifact.py --fusion rrf --limit-queries 200   # default: Cairn's own fusion
    python bench/scifact.py --store-url postgresql://user@host/postgres   # the same on PostgreSQL

The corpus (`beir-scifact/corpus.jsonl`: _id, title, text) is imported with
`cairn import notes` (id=_id, title, text) into bench/out/scifact-home, which is kept
between runs (rebuilt with --fresh, or when the corpus or Cairn's indexing code changes;
--allow-stale uses it anyway).
The train queries run through `cairn search --batch FILE --k 100 --mode M` for each mode;
hits map to corpus ids via `source_id` (first occurrence only). Metrics follow BEIR
(pytrec_eval): nDCG@10 with graded gains from qrels/train.tsv, log2 discount and the ideal
DCG from the qrels; recall@100 = relevant docs retrieved in the top 100 / relevant docs.
Only queries present in the qrels are scored; a query with no hits scores 0.
"""

from __future__ import annotations

import argparse
import csv
import os
import fcntl
import hashlib
import json
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (MODES, OUT, REPO, CairnError, batch_search, data_dir, fmt_s, fusion_label, header,  # noqa: E402
                     need, parse_json_report, run_cairn, table, write_jsonl, read_jsonl)

HOME = OUT / "scifact-home"
MARKER = ".bench-scifact.json"
# Code whose behaviour is baked into the cached index: a change rebuilds the home. The
# embedder is identified by its exported model's manifest (model, precision, format), not by
# its source, whose edits (batching, threads) do not change the vectors beyond ~1e-5.
# A folder stands for every .py file under it (the ingest package).
INDEX_CODE = ["src/cairn/ingest.py", "src/cairn/ingest", "src/cairn/chunk.py", "src/cairn/vault.py",
              "src/cairn/store/db.py", "src/cairn/store/notes.py", "src/cairn/store/fts.py",
              "src/cairn/parse/markdown.py", "src/cairn/parse/frontmatter.py", "src/cairn/parse/wikilinks.py"]


def _model_manifest() -> str:
    try:
        from cairn.embed import export
        m = export.read_manifest(export.default_model_dir())
        return json.dumps(m, sort_keys=True) if m else "no-manifest"
    except Exception as exc:  # noqa: BLE001 - a fingerprint input only
        return f"unknown: {type(exc).__name__}"


def fingerprint(corpus: Path) -> dict:
    h = hashlib.sha256()
    for rel in INDEX_CODE:
        p = REPO / rel
        files = sorted(p.rglob("*.py")) if p.is_dir() else [p]
        for f in files:
            name = f.relative_to(REPO).as_posix()
            h.update(name.encode() + b"\0" + (f.read_bytes() if f.exists() else b"-") + b"\0")
    h.update(_model_manifest().encode())
    st = corpus.stat()
    return {"corpus": str(corpus), "corpus_size": st.st_size, "corpus_mtime": int(st.st_mtime),
            "code": h.hexdigest()[:16]}


def ensure_home(corpus: Path, fresh: bool, home: Path = HOME, allow_stale: bool = False) -> dict:
    """Import the corpus into `home` unless a complete cached import matches (or, with
    allow_stale, any complete cached import exists). Returns the marker (with import figures).

    Concurrent callers are serialised by a lock file beside the home; the import goes to a
    new folder that replaces `home` only when complete."""
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f".{home.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _ensure_home_locked(corpus, fresh, home, allow_stale)


def _ensure_home_locked(corpus: Path, fresh: bool, home: Path, allow_stale: bool) -> dict:
    fp = fingerprint(corpus)
    marker_path = home / MARKER
    if not fresh and marker_path.exists():
        marker = json.loads(marker_path.read_text())
        if all(marker.get(k) == v for k, v in fp.items()):
            marker["cached"] = True
            return marker
        if allow_stale:
            print(f"warning: cached home {home} was built by other indexing code; used anyway (--allow-stale)")
            marker["cached"] = True
            return marker
        print(f"cached home {home} is stale (corpus or indexing code changed): rebuilding", flush=True)
    build = Path(tempfile.mkdtemp(prefix=f"{home.name}.building-", dir=home.parent))
    try:
        with tempfile.TemporaryDirectory(prefix="cairn-scifact-") as tmp:
            notes = Path(tmp) / "scifact.jsonl"
            n = write_jsonl(notes, ({"id": d["_id"], "title": d.get("title") or "", "text": d["text"]}
                                    for d in read_jsonl(corpus) if str(d.get("text") or "").strip()))
            print(f"importing {n} SciFact abstracts (cairn import notes) into {home} ...", flush=True)
            out, err, wall = run_cairn(build, ["import", "notes", str(notes), "--json", "--quiet"])
        report = parse_json_report(out)
        status = parse_json_report(run_cairn(build, ["status", "--json"])[0])
        marker = {**fp, "docs": n, "import_seconds": round(wall, 1), "report": {
            k: report[k] for k in ("added", "updated", "unchanged", "embedded_chunks")},
            "failed": report.get("failed", [])[:5], "skipped": report.get("skipped", [])[:5],
            "chunks": status.get("chunks"), "embedded": status.get("embedded_chunks"),
            "built": time.strftime("%Y-%m-%d %H:%M:%S")}
        (build / MARKER).write_text(json.dumps(marker, indent=1))
        if home.exists():
            shutil.rmtree(home)
        build.rename(home)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    marker["cached"] = False
    return marker


def load_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    return qrels


def ranked_ids(hits: list[dict]) -> list[str]:
    """Corpus ids of the hits in rank order, first occurrence only."""
    seen: dict[str, None] = {}
    for h in hits:
        sid = h.get("source_id")
        if sid is not None and sid not in seen:
            seen[str(sid)] = None
    return list(seen)


def ndcg_at(ranked: list[str], rels: dict[str, int], k: int) -> float:
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted((r for r in rels.values() if r > 0), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at(ranked: list[str], rels: dict[str, int], k: int) -> float:
    relevant = {d for d, r in rels.items() if r > 0}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fresh", action="store_true", help="rebuild the cached home")
    ap.add_argument("--allow-stale", action="store_true",
                    help="use the cached home even if Cairn's indexing code changed since it was built")
    ap.add_argument("--fusion", default=None,
                    help="passed to `cairn search --fusion` (weighted | rrf); default: Cairn's default")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated search modes")
    ap.add_argument("--limit-queries", type=int, default=0, help="score only the first N queries")
    ap.add_argument("--home", type=Path, default=None, help=f"cached home (default {HOME})")
    ap.add_argument("--store-url", default="",
                    help="run Cairn on PostgreSQL: a postgresql:// URL of a server (any database there); the "
                         "corpus is imported afresh into a new database cairn_scifact (home: scifact-home-pg)")
    args = ap.parse_args(argv)
    if args.store_url:
        from _common import fresh_database
        os.environ["CAIRN_STORE_URL"] = fresh_database(args.store_url, "cairn_scifact")
        args.home = args.home or OUT / "scifact-home-pg"
        args.fresh = True  # the database was just created: the home's marker says nothing about it
    else:
        os.environ.pop("CAIRN_STORE_URL", None)  # the SQLite index, whatever the shell has
    args.home = args.home or HOME
    modes = [m for m in args.modes.split(",") if m]

    t_start = time.perf_counter()
    root = need(data_dir() / "beir-scifact", "BEIR SciFact")
    corpus, qfile, qrels_file = root / "corpus.jsonl", root / "queries-train.jsonl", root / "qrels" / "train.tsv"
    header(f"SciFact (train) — corpus {corpus}; store: {'postgresql' if args.store_url else 'sqlite'}")
    try:
        marker = ensure_home(corpus, args.fresh, args.home, args.allow_stale)
    except CairnError as exc:
        print(f"IMPORT FAILED: {exc}")
        return 1
    how = "cached home, built " + marker.get("built", "?") if marker["cached"] else "imported now"
    print(f"home {args.home}: {marker['docs']} docs, {marker.get('chunks')} chunks, "
          f"{marker.get('embedded')} embedded ({how}; import took {marker['import_seconds']} s)")
    for key in ("failed", "skipped"):
        if marker.get(key):
            print(f"  import {key}: {marker[key]}")

    qrels = load_qrels(qrels_file)
    queries = [q for q in read_jsonl(qfile) if str(q["_id"]) in qrels]
    if args.limit_queries:
        queries = queries[:args.limit_queries]
    unscored = len(qrels) - len({str(q["_id"]) for q in queries}) if not args.limit_queries else 0
    rows, per_mode = [], {}
    with tempfile.TemporaryDirectory(prefix="cairn-scifact-q-") as tmp:
        batch = Path(tmp) / "queries.jsonl"
        write_jsonl(batch, ({"id": str(q["_id"]), "query": q["text"]} for q in queries))
        for mode in modes:
            try:
                results, warnings, wall = batch_search(args.home, batch, Path(tmp) / f"{mode}.jsonl",
                                                       k=100, mode=mode, fusion=args.fusion)
            except CairnError as exc:
                print(f"SEARCH FAILED ({mode}): {exc}")
                continue
            nd, rc, empty = [], [], 0
            for q in queries:
                qid = str(q["_id"])
                ranked = ranked_ids(results.get(qid, []))
                empty += not ranked
                nd.append(ndcg_at(ranked, qrels[qid], 10))
                rc.append(recall_at(ranked, qrels[qid], 100))
            per_mode[mode] = {"ndcg@10": sum(nd) / len(nd), "recall@100": sum(rc) / len(rc),
                              "wall": wall, "empty": empty, "warnings": warnings,
                              "missing": len(queries) - len(results)}
    if not per_mode:
        return 1
    header(f"SciFact train: {len(queries)} queries, fusion={fusion_label(args.fusion)}, `cairn search --batch --k 100`")
    ms = list(per_mode)
    rows = [["nDCG@10", *(f"{per_mode[m]['ndcg@10']:.4f}" for m in ms)],
            ["recall@100", *(f"{per_mode[m]['recall@100']:.4f}" for m in ms)],
            ["queries with no hits", *(per_mode[m]["empty"] for m in ms)],
            ["batch wall (incl. startup)", *(fmt_s(per_mode[m]["wall"]) for m in ms)],
            ["queries/s", *(f"{len(queries) / per_mode[m]['wall']:.1f}" for m in ms)]]
    print(table(["metric", *ms], rows))
    for m in ms:
        if per_mode[m]["missing"]:
            print(f"  {m}: {per_mode[m]['missing']} queries missing from the batch output")
        if per_mode[m]["warnings"]:
            print(f"  {m}: {len(per_mode[m]['warnings'])} warning(s), e.g. {per_mode[m]['warnings'][:3]}")
    if unscored:
        print(f"  ({unscored} qrels queries not in queries-train.jsonl)")
    print(f"total time {fmt_s(time.perf_counter() - t_start)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
