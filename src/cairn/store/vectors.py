"""Vector storage and cosine search: exact below ANN_MIN_VECTORS, approximate above.

Vectors live in the index database (`vectors` table, float32 blobs, L2-normalised), so they
are written in the same transaction as their chunks. Below ANN_MIN_VECTORS, search runs over a
dense float32 matrix in memory: an exact dot product (cosine, since rows are normalised) is
~7 ms at 100k x 384 on 2 cores (measured on the development machine). To keep a cold start
fast the matrix is cached beside the index as `vectors.npy` + `vector_ids.npy`, tagged with
the index's vector generation and memory-mapped when it is current. From ANN_MIN_VECTORS on,
an HNSW graph of int8 vectors (store/ann.py, usearch) answers instead, memory-mapped from
`vectors.usearch` beside the index, so a cold process never loads the whole matrix.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from cairn.store import matrix_cache
from cairn.store.notes import bump_vector_generation, vector_generation


def put_vectors(conn: sqlite3.Connection, chunk_ids: list[int], text_hashes: list[str],
                vecs: np.ndarray, model: str) -> None:
    """Store one vector per chunk id (replacing any previous one).

    vecs: (n, dim) float32, L2-normalised; text_hashes: sha1 of each embedded text.
    Raises ValueError when the three lengths differ.
    """
    import numpy as np
    if not (len(chunk_ids) == len(vecs) == len(text_hashes)):
        raise ValueError(f"{len(chunk_ids)} chunk ids, {len(text_hashes)} hashes, {len(vecs)} vectors")
    conn.executemany(
        "INSERT OR REPLACE INTO vectors(chunk_id, model, text_hash, vec) VALUES (?,?,?,?)",
        [(cid, model, h, np.asarray(v, dtype="<f4").tobytes())
         for cid, h, v in zip(chunk_ids, text_hashes, vecs)],
    )
    bump_vector_generation(conn)


def cached_vectors(conn: sqlite3.Connection, text_hashes: list[str], model: str) -> dict[str, np.ndarray]:
    """Vectors of recently deleted chunks with the same embedded text (hash -> vector)."""
    import numpy as np
    out: dict[str, np.ndarray] = {}
    for i in range(0, len(text_hashes), 500):
        part = text_hashes[i:i + 500]
        rows = conn.execute(
            f"SELECT text_hash, vec FROM vector_cache WHERE model = ? AND text_hash IN ({','.join('?' * len(part))})",
            [model, *part]).fetchall()
        out.update({r[0]: np.frombuffer(r[1], dtype="<f4") for r in rows})
    return out


def clear_vector_cache(conn: sqlite3.Connection) -> None:
    """Forget the vectors of deleted chunks (called at the end of every ingest run)."""
    conn.execute("DELETE FROM vector_cache")


# From this many vectors on, search uses the HNSW graph (store/ann.py); below, the exact
# matrix product is fast enough and needs no upkeep (bench/scale.py --backend sqlite prints
# both at each size).
ANN_MIN_VECTORS = 50_000
ANN_FILE = "vectors.usearch"


class VectorIndex:
    """Cosine search over all stored vectors of one index file: exact below `ann_min`
    vectors (default ANN_MIN_VECTORS), the HNSW graph of store/ann.py from there on (only
    with a `cache_dir` to keep it in).

    `search(query_vec, k, allowed=None)` -> list of (chunk_id, cosine) best first.
    `allowed` (optional set of chunk ids) restricts the candidates (filters).
    """

    def __init__(self, conn: sqlite3.Connection, cache_dir: Path | None, ann_min: int | None = None):
        import numpy as np
        self.conn = conn
        self.cache_dir = cache_dir
        self.ann_min = ANN_MIN_VECTORS if ann_min is None else ann_min
        self._gen = -1
        self._ids = np.zeros(0, dtype=np.int64)
        self._mat = np.zeros((0, 0), dtype=np.float32)
        self._ann = None  # store.ann.AnnIndex when in use

    @property
    def approximate(self) -> bool:
        """True when searches go through the HNSW graph (after the last refresh)."""
        return self._ann is not None

    def _large_graph_dim(self) -> int:
        """The graph's dimension when its file's record says it holds at least `ann_min`
        vectors of this index, else 0: then a cold search need not count the vectors table's
        first `ann_min` rows (~1.6 KB each: 25-190 ms at 50k rows, measured at 1M chunks)."""
        import json
        from cairn.store.ann import index_uuid
        try:
            rec = json.loads((Path(self.cache_dir) / (ANN_FILE + ".json")).read_text())
            large = rec.get("uuid") == index_uuid(self.conn) and int(rec.get("size", 0)) >= max(self.ann_min, 1)
            return int(rec.get("dim", 0)) if large else 0
        except (OSError, ValueError, TypeError, AttributeError):
            return 0

    def _use_ann(self) -> bool:
        import numpy as np
        dim = self._large_graph_dim() if self.cache_dir else 0
        if dim:
            count = max(self.ann_min, 1)
        else:
            count = self.conn.execute("SELECT count(*) FROM (SELECT 1 FROM vectors LIMIT ?)",
                                      (max(self.ann_min, 1),)).fetchone()[0]
        if not self.cache_dir or count < self.ann_min or not count:
            self._ann = None
            if self.cache_dir and not (Path(self.cache_dir) / ANN_FILE).exists():
                from cairn.store.ann import LOG_KEEP, last_logged, trim_log
                last = last_logged(self.conn)
                first = self.conn.execute("SELECT min(seq) FROM vector_log").fetchone()[0]
                if first is not None and last - first > LOG_KEEP:  # no graph to replay it into
                    trim_log(self.conn, last)
            return False
        from cairn.store.ann import AnnIndex
        if not dim:
            dim = int(self.conn.execute("SELECT length(vec) FROM vectors LIMIT 1").fetchone()[0]) // 4
        if self._ann is None or self._ann.dim != dim:
            self._ann = AnnIndex(self.conn, Path(self.cache_dir) / ANN_FILE, dim)
        self._ann.sync()
        self._ids = np.zeros(0, dtype=np.int64)  # the exact matrix is not kept in memory
        self._mat = np.zeros((0, 0), dtype=np.float32)
        return True

    def _load(self) -> None:
        import numpy as np
        gen = vector_generation(self.conn)
        if gen == self._gen:
            if self._ann is not None:
                self._ann.sync()  # the log tells every change (a cascade delete bumps no generation)
            return
        if self._use_ann():
            self._gen = gen
            return
        if self.cache_dir and self._load_cache(gen):
            self._gen = gen
            return
        rows = self.conn.execute("SELECT chunk_id, vec FROM vectors ORDER BY chunk_id").fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        if rows:
            mat = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), -1)
        else:
            mat = np.zeros((0, 0), dtype=np.float32)
        self._ids, self._mat, self._gen = ids, mat, gen
        if self.cache_dir:
            self._write_cache(gen)

    def _paths(self) -> tuple[Path, Path, Path]:
        assert self.cache_dir is not None
        return matrix_cache.paths(self.cache_dir)

    def _load_cache(self, gen: int) -> bool:
        import numpy as np
        mat_p, ids_p, gen_p = self._paths()
        try:
            if int(gen_p.read_text()) != gen:
                return False
            mat = matrix_cache.take(mat_p)  # mapped and read in ahead by a cold search (cli_start)
            self._mat = mat if mat is not None else np.load(mat_p, mmap_mode="r")
            # Read through BytesIO, not np.load(path): numpy.fromfile (np.load's path for a real
            # file) turns a Ctrl-C landing in it into "TypeError: expected str, bytes or
            # os.PathLike object, not BufferedReader" (its isinstance check on os.PathLike runs
            # Python code, where the KeyboardInterrupt is raised, and its error is then
            # dropped): the command then failed with a traceback instead of exiting 130.
            self._ids = np.load(io.BytesIO(ids_p.read_bytes()))
            return len(self._ids) == len(self._mat)
        except (OSError, ValueError):
            return False

    def _write_cache(self, gen: int) -> None:
        import numpy as np
        mat_p, ids_p, gen_p = self._paths()
        try:
            tmp = mat_p.with_suffix(".tmp.npy")
            np.save(tmp, self._mat)
            tmp.replace(mat_p)
            tmp = ids_p.with_suffix(".tmp.npy")
            np.save(tmp, self._ids)
            tmp.replace(ids_p)
            gen_p.write_text(str(gen))
        except OSError:
            pass  # the cache is an optimisation only

    def __len__(self) -> int:
        self._load()
        return len(self._ann) if self._ann is not None else len(self._ids)

    def refresh(self) -> None:
        """Reload the matrix if the index's vectors changed since it was loaded."""
        self._load()

    def search(self, query_vec: np.ndarray, k: int, allowed: set[int] | None = None,
               refresh: bool = True) -> list[tuple[int, float]]:
        """Top-k chunk ids by cosine similarity (query_vec: (dim,) L2-normalised float32).
        refresh=False skips the staleness check (no database access: safe while another
        thread uses the connection)."""
        import numpy as np
        if refresh:
            self._load()
        if self._ann is not None:
            return self._ann.search(query_vec, k, allowed)
        if len(self._ids) == 0 or k <= 0:
            return []
        return top_k(self._ids, self._mat @ np.asarray(query_vec, dtype=np.float32), k, allowed)


def top_k(ids: np.ndarray, scores: np.ndarray, k: int, allowed: set[int] | None = None) -> list[tuple[int, float]]:
    """The `k` best (id, score) pairs, best first, of `scores` (shape (n,), row i scoring
    ids[i]); with `allowed`, only ids in it. k >= 1."""
    import numpy as np
    if allowed is not None:
        mask = np.isin(ids, np.fromiter(allowed, dtype=np.int64, count=len(allowed)))
        scores = np.where(mask, scores, -np.inf)
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top])]
    return [(int(ids[i]), float(scores[i])) for i in top if np.isfinite(scores[i])]


def stored_vector_model(conn: sqlite3.Connection) -> str | None:
    """The model (cairn.embed.model_key) of one stored vector, None when there are none. An
    embedding pass replaces every vector of another model before it stores any (ingest
    `_embed_missing`), so one row tells which model the vectors are of."""
    row = conn.execute("SELECT model FROM vectors LIMIT 1").fetchone()
    return row[0] if row else None


def other_model_count(conn: sqlite3.Connection, model: str) -> int:
    """Vectors made by a model (or precision) other than `model`."""
    return conn.execute("SELECT count(*) FROM vectors WHERE model != ?", (model,)).fetchone()[0]


def drop_other_models(conn: sqlite3.Connection, model: str) -> None:
    """Delete the vectors of every other model (inside the caller's transaction)."""
    conn.execute("DELETE FROM vectors WHERE model != ?", (model,))


def chunks_to_embed(conn: sqlite3.Connection, max_chunks_per_note: int,
                    note_id: str | None = None) -> list[sqlite3.Row]:
    """(id, text, heading, speaker, title, facts as JSON or None) of every chunk among the
    first `max_chunks_per_note` of its note that has no vector (of note `note_id` only,
    when given: then through the chunks_note index, not a scan of every chunk — an import
    asks once per note it writes, ingest.embedding.WriteAhead)."""
    one = "AND c.note_id = ?" if note_id is not None else ""
    return conn.execute(
        f"""SELECT c.id, c.text, c.heading, c.speaker, n.title, fk.facts FROM chunks c
            JOIN notes n ON n.id = c.note_id
            LEFT JOIN fact_keys fk ON fk.note_id = c.note_id AND fk.source_id = c.source_id
            WHERE c.ord < {int(max_chunks_per_note)} {one}
              AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)""",
        (note_id,) if note_id is not None else ()).fetchall()


def chat_context_rows(conn: sqlite3.Connection, chunk_ids: list[int]) -> dict[int, list[sqlite3.Row]]:
    """{chunk id: [(id, text, heading, speaker, title, facts) of the chunks just before and
    after it in its chat note, by `ord`]} for the given chunks of chat notes (other notes
    are left out; a message alone in its note maps to [])."""
    out: dict[int, list[sqlite3.Row]] = {}
    for i in range(0, len(chunk_ids), 500):
        part = [int(c) for c in chunk_ids[i:i + 500]]
        rows = conn.execute(
            f"""SELECT c.id AS of_id, o.id, o.text, o.heading, o.speaker, n.title, fk.facts
                FROM chunks c JOIN notes n ON n.id = c.note_id AND n.type = 'chat'
                LEFT JOIN chunks o ON o.note_id = c.note_id AND o.ord IN (c.ord - 1, c.ord + 1)
                LEFT JOIN fact_keys fk ON fk.note_id = o.note_id AND fk.source_id = o.source_id
                WHERE c.id IN ({','.join('?' * len(part))}) ORDER BY c.id, o.ord""", part).fetchall()
        for r in rows:
            lst = out.setdefault(r["of_id"], [])
            if r["id"] is not None:
                lst.append(r)
    return out


def neighbour_keys_state(conn: sqlite3.Connection) -> float:
    """The neighbour-key alpha the stored chat vectors were made with (0.0 when never set:
    plain vectors, as before neighbour keys existed)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'neighbour_keys'").fetchone()
    return float(row[0]) if row else 0.0


def set_neighbour_keys(conn: sqlite3.Connection, alpha: float) -> int:
    """Record `alpha` as the neighbour-key setting of the stored vectors and release every
    chat message's vector into the text-hash cache (`vector_cache`: a message whose key
    does not change gets it back without the model), so the next embedding pass makes them
    with the new rule. Inside the caller's transaction. Returns the vectors released."""
    ids = [r[0] for r in conn.execute(
        "SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.type = 'chat'")]
    n = release_vectors(conn, ids)
    conn.execute("""INSERT INTO meta(key, value) VALUES ('neighbour_keys', ?)
                    ON CONFLICT(key) DO UPDATE SET value = excluded.value""", (repr(float(alpha)),))
    return n


def release_vectors(conn: sqlite3.Connection, chunk_ids: list[int]) -> int:
    """Move the vectors of these chunks into the text-hash cache and delete them (the next
    embedding pass embeds them again, reusing the cached vector when the key is the same).
    Inside the caller's transaction. Returns how many vectors were released."""
    n = 0
    for i in range(0, len(chunk_ids), 500):
        part = [int(c) for c in chunk_ids[i:i + 500]]
        marks = ",".join("?" * len(part))
        conn.execute(f"""INSERT OR REPLACE INTO vector_cache(text_hash, model, vec)
                         SELECT text_hash, model, vec FROM vectors WHERE chunk_id IN ({marks})""", part)
        n += conn.execute(f"DELETE FROM vectors WHERE chunk_id IN ({marks})", part).rowcount
    if n:
        bump_vector_generation(conn)
    return n


def any_chunk_to_embed(conn: sqlite3.Connection, max_chunks_per_note: int) -> bool:
    """True when some chunk that should have a vector has none (an interrupted run)."""
    return conn.execute(
        """SELECT 1 FROM chunks c WHERE c.ord < ? AND NOT EXISTS
           (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id) LIMIT 1""",
        (max_chunks_per_note,)).fetchone() is not None


def claim_chunks_to_embed(conn: sqlite3.Connection, max_chunks_per_note: int, limit: int) -> list[sqlite3.Row]:
    """Up to `limit` rows of `chunks_to_embed`, lowest ids first, for the caller to embed
    inside its transaction (SQLite: the write transaction keeps other writers out; the
    PostgreSQL twin locks the rows, SKIP LOCKED)."""
    return conn.execute(
        f"""SELECT c.id, c.text, c.heading, c.speaker, n.title, fk.facts FROM chunks c
            JOIN notes n ON n.id = c.note_id
            LEFT JOIN fact_keys fk ON fk.note_id = c.note_id AND fk.source_id = c.source_id
            WHERE c.ord < {int(max_chunks_per_note)}
              AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)
            ORDER BY c.id LIMIT {int(limit)}""").fetchall()

from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "vectors")  # PostgreSQL twins when conn is a PgConn (store/route.py)
