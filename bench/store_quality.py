"""Keyword-channel quality on both store backends: SciFact nDCG@10 of the SQLite index
(FTS5 BM25, porter) against PostgreSQL (tsvector "english", BM25 over its positions), same documents,
same query (search/query.py parse_query, rendered by store.fts.render: FTS5 text on SQLite, a
tsquery rendered from the same store.fts.Match on PostgreSQL), same column weights as search
(search/hybrid.py BM25_WEIGHTS).

Each SciFact abstract is one chunk (title in the title column, abstract in the body),
written through the store interfaces; the train queries with qrels are scored with
bench/scifact.py's nDCG@10. Semantic search is not part of this figure (its PostgreSQL
counterpart, HNSW, is measured for recall against exact search in bench/scale.py), and this
is not the full hybrid pipeline: the service's search still runs on SQLite.

    python bench/store_quality.py [--limit-docs N] [--limit-queries N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "store"))
sys.path.insert(0, str(ROOT / "bench"))

from cairn.model import Chunk  # noqa: E402
from cairn.search.hybrid import BM25_WEIGHTS  # noqa: E402
from cairn.search.query import parse_query  # noqa: E402
from cairn.store import fts  # noqa: E402
from cairn.store.notes import NoteRow  # noqa: E402
from scifact import load_qrels, ndcg_at  # noqa: E402
from _common import data_dir  # noqa: E402


def read_jsonl(path: Path):
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def load(backend, docs) -> dict[int, str]:
    """Write one note with one chunk per doc; returns {chunk id: doc id}."""
    out: dict[int, str] = {}
    with backend.transaction():
        for d in docs:
            did = str(d["_id"])
            backend.notes.upsert_note(NoteRow(
                id=f"d{did}", path=f"{did}.md", title=d.get("title") or "", type="markdown", source=None,
                source_hash=None, file_hash=did, body_hash=did, mtime_ns=0, size=0, created=None, updated=None,
                event_time=None, tags=[], aliases=[], meta={}, warnings=[], encoding=None))
            ids = backend.notes.insert_chunks(f"d{did}", d.get("title") or "", [],
                                              [Chunk(ord=0, text=d["text"], start=0, end=len(d["text"]))])
            out[ids[0]] = did
    return out


def score(backend, ids: dict[int, str], queries, qrels) -> float:
    total = 0.0
    for q in queries:
        match = fts.render(parse_query(q["text"]).or_words())  # as search does: parsed once, rendered by the store
        hits = backend.keywords.bm25(match, BM25_WEIGHTS, 10) if match else []
        total += ndcg_at([ids[c] for c, _ in hits], qrels[str(q["_id"])], 10)
    return total / len(queries)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit-docs", type=int, default=0)
    ap.add_argument("--limit-queries", type=int, default=0)
    args = ap.parse_args()
    root = data_dir() / "beir-scifact"
    docs = list(read_jsonl(root / "corpus.jsonl"))
    qrels = load_qrels(root / "qrels" / "train.tsv")
    queries = [q for q in read_jsonl(root / "queries-train.jsonl") if str(q["_id"]) in qrels]
    if args.limit_queries:
        queries = queries[:args.limit_queries]
    if args.limit_docs:
        keep = {d for q in queries for d in qrels[str(q["_id"])]}
        docs = [d for d in docs if str(d["_id"]) in keep] + [d for d in docs if str(d["_id"]) not in keep]
        docs = docs[:args.limit_docs]

    from cairn.store import db
    from cairn.store.backend import SQLiteBackend
    result = {"docs": len(docs), "queries": len(queries)}
    tmp = Path(tempfile.mkdtemp(prefix="cairn-quality-"))
    sqlite = SQLiteBackend(db.connect(tmp / "index.db"))
    result["sqlite_fts5_bm25_ndcg@10"] = round(score(sqlite, load(sqlite, docs), queries, qrels), 4)
    from pg_server import PgServer
    from cairn.store.postgres import PostgresBackend
    server = PgServer()
    try:
        pg = PostgresBackend(server.fresh_url())
        result["postgresql_tsvector_ndcg@10"] = round(score(pg, load(pg, docs), queries, qrels), 4)
        pg.close()
    finally:
        server.stop()
    result["difference"] = round(result["postgresql_tsvector_ndcg@10"] - result["sqlite_fts5_bm25_ndcg@10"], 4)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
