"""Chunk vectors on PostgreSQL (pgvector): the twin of store/vectors.py's storage functions,
plus `nearest`, the search SQLite does in memory (store.vectors.VectorIndex).

Vectors travel as pgvector text ('[0.1,0.2,...]'), so no extra client package is needed.
384-dimension rows are searched through the HNSW index (approximate; `hnsw.ef_search` is
at least EF_SEARCH and 4k, so recall at k stays high); other dimensions exactly.

Settings from bench/hnsw_recall.py on real embeddings (6,415 SciFact chunk vectors of the
packaged all-MiniLM-L6-v2, 300 SciFact queries, recall@10 against exact search): with
pgvector's default build (m 16, ef_construction 64) ef_search 10/20/40/100/200 gave
0.935/0.966/0.983/0.997/1.000; m 32 or ef_construction 128 gained under 0.01 at ef_search
>= 40 and took 1.3-3.5x longer to build. So the index keeps the default build and searches
with ef_search 200 (recall 1.000 there, headroom for larger stores). At 1M vectors mixed from
real embeddings plus noise (bench/scale.py --vectors real) recall@10 was 0.754/0.884/0.928/
0.950/0.962 at ef_search 40/100/200/400/800 (p50 2.6-20 ms); 1.000 at 100k. Random vectors,
with no neighbourhood structure, are HNSW's worst case: 0.34 at 100k; not a guide.
"""

from __future__ import annotations

import numpy as np

HNSW_DIM = 384
EF_SEARCH = 200  # HNSW candidate list: recall vs latency (bench/scale.py)


def _text(vec) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in np.asarray(vec, dtype=np.float32)) + "]"


def _array(text: str) -> np.ndarray:
    return np.array(text.strip("[]").split(","), dtype=np.float32)


def put_vectors(conn, chunk_ids: list[int], text_hashes: list[str], vecs, model: str) -> None:
    """Store one vector per chunk id (replacing any). Raises ValueError when lengths differ."""
    if not (len(chunk_ids) == len(vecs) == len(text_hashes)):
        raise ValueError(f"{len(chunk_ids)} chunk ids, {len(text_hashes)} hashes, {len(vecs)} vectors")
    if not chunk_ids:
        return
    conn.execute(  # one statement for the batch (vectors as pgvector text, cast server-side)
        """INSERT INTO vectors(chunk_id, model, text_hash, dim, vec)
           SELECT t.id, %s, t.h, t.d, t.v::vector FROM unnest(%s::bigint[], %s::text[], %s::int[], %s::text[])
                AS t(id, h, d, v)
           ON CONFLICT (chunk_id) DO UPDATE SET model = excluded.model, text_hash = excluded.text_hash,
               dim = excluded.dim, vec = excluded.vec""",
        (model, [int(c) for c in chunk_ids], list(text_hashes), [len(v) for v in vecs], [_text(v) for v in vecs]))


def cached_vectors(conn, text_hashes: list[str], model: str) -> dict[str, np.ndarray]:
    """Vectors of deleted chunks with the same embedded text (hash -> float32 vector)."""
    if not text_hashes:
        return {}
    rows = conn.execute("SELECT text_hash, vec::text FROM vector_cache WHERE model = %s AND text_hash = ANY(%s)",
                        (model, list(text_hashes))).fetchall()
    return {r[0]: _array(r[1]) for r in rows}


def clear_vector_cache(conn) -> None:
    conn.execute("DELETE FROM vector_cache")


def stored_vector_model(conn) -> str | None:
    row = conn.execute("SELECT model FROM vectors LIMIT 1").fetchone()
    return row[0] if row else None


def other_model_count(conn, model: str) -> int:
    return conn.execute("SELECT count(*) FROM vectors WHERE model != %s", (model,)).fetchone()[0]


def drop_other_models(conn, model: str) -> None:
    conn.execute("DELETE FROM vectors WHERE model != %s", (model,))


def nearest(conn, query_vec, k: int, allowed: set[int] | None = None) -> list[tuple[int, float]]:
    """Top-k (chunk id, cosine similarity) for an L2-normalised (dim,) query vector, best
    first; `allowed` restricts the candidates to those chunk ids."""
    q = np.asarray(query_vec, dtype=np.float32)
    if k <= 0:
        return []
    where, args = "", []
    if allowed is not None:
        if not allowed:
            return []
        where, args = " AND chunk_id = ANY(%s)", [list(allowed)]
    if len(q) == HNSW_DIM:
        conn.execute(f"SET LOCAL hnsw.ef_search = {max(EF_SEARCH, min(1000, 4 * k))}")
        expr = f"vec::vector({HNSW_DIM})"
        sql = (f"SELECT chunk_id, 1 - ({expr} <=> %s::vector({HNSW_DIM})) FROM vectors WHERE dim = {HNSW_DIM}{where} "
               f"ORDER BY {expr} <=> %s::vector({HNSW_DIM}) LIMIT %s")
    else:
        sql = (f"SELECT chunk_id, 1 - (vec <=> %s::vector) FROM vectors WHERE dim = {len(q)}{where} "
               f"ORDER BY vec <=> %s::vector LIMIT %s")
    text = _text(q)
    args = [text, *args, text, k]
    return [(int(r[0]), float(r[1])) for r in conn.execute(sql, args).fetchall()]


class PgVectorIndex:
    """The service's vector index on PostgreSQL (the twin of store.vectors.VectorIndex):
    `search` runs `nearest` (HNSW) in the database, nothing is held in memory.
    conn: a store.postgres.handle.PgConn."""

    def __init__(self, conn, cache_dir=None) -> None:
        self.conn = conn

    def __len__(self) -> int:
        with self.conn.session.connection() as pg:
            return pg.execute("SELECT count(*) FROM vectors").fetchone()[0]

    def refresh(self) -> None:
        """Nothing to reload: every search reads the database."""

    def search(self, query_vec, k: int, allowed: set[int] | None = None,
               refresh: bool = True) -> list[tuple[int, float]]:
        """Top-k (chunk id, cosine similarity), best first (see `nearest`)."""
        with self.conn.session.connection() as pg:
            return nearest(pg, query_vec, k, allowed)


def chat_context_rows(conn, chunk_ids: list[int]) -> dict[int, list]:
    """As store.vectors.chat_context_rows."""
    out: dict[int, list] = {}
    if not chunk_ids:
        return out
    rows = conn.execute(
        """SELECT c.id AS of_id, o.id, o.text, o.heading, o.speaker, n.title, fk.facts
           FROM chunks c JOIN notes n ON n.id = c.note_id AND n.type = 'chat'
           LEFT JOIN chunks o ON o.note_id = c.note_id AND o.ord IN (c.ord - 1, c.ord + 1)
           LEFT JOIN fact_keys fk ON fk.note_id = o.note_id AND fk.source_id = o.source_id
           WHERE c.id = ANY(%s) ORDER BY c.id, o.ord""", ([int(c) for c in chunk_ids],)).fetchall()
    for r in rows:
        lst = out.setdefault(r["of_id"], [])
        if r["id"] is not None:
            lst.append(r)
    return out


def neighbour_keys_state(conn) -> float:
    row = conn.execute("SELECT value FROM meta WHERE key = 'neighbour_keys'").fetchone()
    return float(row[0]) if row else 0.0


def set_neighbour_keys(conn, alpha: float) -> int:
    """As store.vectors.set_neighbour_keys."""
    ids = [r[0] for r in conn.execute(
        "SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.type = 'chat'").fetchall()]
    n = release_vectors(conn, ids)
    conn.execute("""INSERT INTO meta(key, value) VALUES ('neighbour_keys', %s)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value""", (repr(float(alpha)),))
    return n


def release_vectors(conn, chunk_ids: list[int]) -> int:
    """As store.vectors.release_vectors."""
    if not chunk_ids:
        return 0
    ids = [int(c) for c in chunk_ids]
    conn.execute("""INSERT INTO vector_cache(text_hash, model, vec)
                    SELECT DISTINCT ON (text_hash) text_hash, model, vec FROM vectors WHERE chunk_id = ANY(%s)
                    ON CONFLICT (text_hash) DO UPDATE SET model = excluded.model, vec = excluded.vec""", (ids,))
    n = conn.execute("DELETE FROM vectors WHERE chunk_id = ANY(%s)", (ids,)).rowcount
    if n:
        conn.execute("""INSERT INTO meta(key, value) VALUES ('vector_generation', '1')
                        ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text""")
    return n
