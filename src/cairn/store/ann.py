"""Approximate nearest-neighbour search over the stored vectors: an HNSW graph (usearch,
int8 vectors, cosine) kept beside the index and memory-mapped by searching processes.

The `vectors` table stays the source of truth. Every insert, replace or delete of a vector
adds its chunk id to `vector_log` (SQLite triggers, store/db.py migration 10), inside the
same transaction as the vector itself. The HNSW file records the last log entry it holds
(`applied`) and the index database it belongs to (`index_uuid` in `meta`); bringing it up to
date replays the log after `applied` (for each chunk id: remove it, then add its current
vector if it still has one: replaying twice is harmless). The file and its record are
written to temporary names and renamed, the graph first, so a crash at any point leaves
either the old pair or a graph that is ahead of its record, and the next process replays the
log from the record again: no chunk is ever in one and not the other once `sync` returns.
A file of another database, a record ahead of the log, or a missing file means a full
rebuild from the `vectors` table (in batches of BUILD_BATCH rows).

Ordinary writes stay cheap at any size: while at most DELTA_MAX chunk ids are logged after the
file's record, `sync` leaves the file alone and keeps those ids as a delta in memory (their
current float32 vectors, read from the table); a search then takes the graph's candidates
that are not in the delta and the delta's own best, scored exactly, so it sees every write
without rewriting the graph. Past DELTA_MAX the log is folded into the file (loaded, applied
with every core, saved as above). A bulk load (more logged ids than REBUILD_SHARE of the
graph, or no graph yet) is one build from the `vectors` table instead, adding with every
core (usearch's threads): rows first, then one graph, as PostgreSQL's bulk path builds its
HNSW index after the rows.

Parameters (HNSW, Malkov & Yashunin 2018): CONNECTIVITY 16 links a node, EXPANSION_ADD 128
while building, EXPANSION_SEARCH 96 while searching (recall@10 against exact search:
bench/scale.py --backend sqlite). The graph's int8 distances only choose candidates: the
best k x RERANK are scored again with their float32 vectors from the table, so the scores
returned are exact cosines and near-ties keep exact search's order.

    ann = AnnIndex(conn, home / "vectors.usearch", dim=384)
    ann.sync()
    ann.search(query_vec, 10)        # [(chunk_id, cosine)], best first
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

from cairn.store.ann_view import map_graph

CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 96
BUILD_BATCH = 100_000
DELTA_MAX = 2_000  # logged ids kept out of the file (searched exactly) before a fold
REBUILD_SHARE = 0.5  # more logged ids than this share of the graph: one rebuild, not a fold
OVERSAMPLE = 10  # with a filter: ask the graph for k x OVERSAMPLE (at least 100), keep allowed ids
RERANK = 4  # the graph's k x RERANK best (at least 40) are scored again with their float32 vectors
EXACT_FILTER_MAX = 50_000
LOG_KEEP = 20_000  # while search is exact (no graph yet), the log is trimmed once it is this long  # a filter this small falls back to exact search over its vectors


def usearch_index():
    """usearch's `Index` class, with onnxruntime (the embedder's runtime) imported first when
    it is installed: onnxruntime's native module crashes the process (SIGSEGV in its module
    initialisation, inside libstdc++'s codecvt) when it is loaded after usearch's
    (usearch 2.26.6, onnxruntime 1.32.0: `python -c "import usearch.compiled; import
    onnxruntime"`), and every search process loads both. The other order works. A process
    that only searches maps the graph through usearch's compiled module alone instead
    (store/ann_view.py: this import is ~40 ms of a cold search)."""
    from cairn.store.ann_view import LOAD_LOCK
    with LOAD_LOCK:
        try:
            import onnxruntime  # noqa: F401 - for the load order only
        except ImportError:
            pass
        from usearch.index import Index
    return Index


_ready: dict[str, tuple] = {}  # graph path -> (file identity, mapped index), from prefetch
_ready_lock = threading.Lock()  # held while prefetching: _take waits for a mapping under way
_wanted: set[str] = set()  # graph paths a prefetch has started on and no AnnIndex has taken yet
_PENDING = object()  # AnnIndex._index while the prefetched mapping is still to be taken


def _identity(path: Path) -> tuple[int, int, int]:
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns, st.st_size


def prefetch(cache_dir: Path) -> bool:
    """Import usearch and map the graph file in `cache_dir` ahead of the search (a cold
    `cairn search` calls this on a background thread while the model session is made:
    at 300k chunks the import took ~0.44 s and the mapping ~0.21 s of its first query).
    Returns True when a mapping is ready for the AnnIndex that opens this file next; False
    when there is no graph file or it cannot be read (the search then maps it itself)."""
    path = Path(cache_dir) / "vectors.usearch"
    _wanted.add(str(path))
    with _ready_lock:
        try:
            ident = _identity(path)
            index = map_graph(str(path), lookups=not _current(path))
        except (OSError, ValueError, RuntimeError, ImportError):
            index = None
        if index is None:
            _wanted.discard(str(path))
            return False
        _ready[str(path)] = (ident, index)
        return True


def _current(path: Path) -> bool:
    """Whether the graph file at `path` holds every vector of the index beside it (its
    record's `applied` is the log's last entry): then a search needs no delta, and so no
    lookup of which keys the graph holds (ann_view.map_graph lookups=False). False when
    that cannot be read."""
    try:
        applied = int(json.loads(path.with_name(path.name + ".json").read_text())["applied"])
        conn = sqlite3.connect(f"file:{path.with_name('index.db')}?mode=ro", uri=True)
        try:
            return applied == last_logged(conn)
        finally:
            conn.close()
    except (OSError, ValueError, KeyError, TypeError, sqlite3.Error):
        return False


def _take(path: Path):
    """The mapping `prefetch` made of `path`, once; None when there is none or the file was
    replaced since (another process saved a new graph)."""
    with _ready_lock:
        entry = _ready.pop(str(path), None)
        _wanted.discard(str(path))
    try:
        return entry[1] if entry is not None and _identity(path) == entry[0] else None
    except OSError:
        return None


def index_uuid(conn: sqlite3.Connection) -> str:
    """The random id of this index database (`meta.index_uuid`, set by migration 10)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'index_uuid'").fetchone()
    return row[0] if row else ""


def last_logged(conn: sqlite3.Connection) -> int:
    """The highest `vector_log` sequence number ever given (0 when none): kept by SQLite's
    AUTOINCREMENT in `sqlite_sequence`, so a trimmed, empty log still knows it."""
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'vector_log'").fetchone()
    return int(row[0] if row and row[0] is not None else 0)


def trim_log(conn: sqlite3.Connection, upto: int) -> None:
    """Drop log entries up to `upto` (they are in the HNSW file). A busy index leaves them for
    the next time: they are only replayed again (harmless)."""
    try:
        conn.execute("DELETE FROM vector_log WHERE seq <= ?", (upto,))
    except sqlite3.OperationalError:
        pass



def _stored_vectors(conn: sqlite3.Connection, ids: list[int], dim: int) -> tuple[list[int], list[bytes]]:
    """(chunk ids, float32 little-endian blobs) of the rows of `ids` in the vectors table whose
    blob holds `dim` floats, read 900 ids a statement (SQLite's variable limit)."""
    keys: list[int] = []
    blocks: list[bytes] = []
    for lo in range(0, len(ids), 900):
        part = ids[lo:lo + 900]
        for cid, vec in conn.execute(
                f"SELECT chunk_id, vec FROM vectors WHERE chunk_id IN ({','.join('?' * len(part))})", part):
            if len(vec) == dim * 4:
                keys.append(cid)
                blocks.append(vec)
    return keys, blocks

class AnnIndex:
    """The HNSW graph of one index database's vectors, stored at `path` (+ `.json` record).

    `sync()` brings it up to date with the `vectors` table (see the module docstring);
    `search(query_vec, k, allowed)` returns up to k (chunk_id, cosine) best first. A process
    that only searches keeps the graph memory-mapped (`view`); the first change loads it
    into memory to apply the log, then saves and maps it again.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, dim: int):
        self.conn, self.path, self.dim = conn, Path(path), dim
        self.record_path = self.path.with_name(self.path.name + ".json")
        self._index = None
        self._applied = -1  # the file's record (its last log entry) when mapped
        self._seen = -1  # the last log entry the graph and the delta hold together
        self._changed: set[int] = set()  # the delta: ids logged after the file's record
        self._stale = 0  # how many of them the graph holds (skipped in its answers)
        self._delta_ids = None  # of those, the ones with a vector now (np.int64) ...
        self._delta_mat = None  # ... and their float32 vectors
        self._reader: sqlite3.Connection | None = None  # for filtered exact search (any thread)
        self._reader_lock = threading.Lock()

    # -- state ---------------------------------------------------------------------------
    def _new(self):
        Index = usearch_index()
        return Index(ndim=self.dim, metric="cos", dtype="i8", connectivity=CONNECTIVITY,
                     expansion_add=EXPANSION_ADD, expansion_search=EXPANSION_SEARCH)

    def _record(self) -> dict:
        try:
            return json.loads(self.record_path.read_text())
        except (OSError, ValueError):
            return {}

    def __len__(self) -> int:
        if self._graph() is None:
            return 0
        return len(self._index) - self._stale + (0 if self._delta_ids is None else len(self._delta_ids))

    def keys(self) -> set[int]:
        """The chunk ids searched (after the last sync): the graph's, with the delta's changes."""
        import numpy as np
        if self._graph(keys=True) is None:
            return set()
        keys = {int(k) for k in np.asarray(self._index.keys)} - self._changed
        return keys | ({int(i) for i in self._delta_ids} if self._delta_ids is not None else set())

    def sync(self) -> int:
        """Bring the searched state up to date with the vectors table; returns how many chunk
        ids were applied (a full rebuild counts every vector). Called before each search
        (cheap when nothing changed: one query of the log's maximum). See the module
        docstring for the delta, the fold and the rebuild."""
        last = last_logged(self.conn)
        if self._index is not None and last == self._seen:
            return 0
        rec, uuid = self._record(), index_uuid(self.conn)
        usable = (self.path.is_file() and rec.get("uuid") == uuid and rec.get("dim") == self.dim
                  and 0 <= int(rec.get("applied", -1)) <= last)
        if not usable:
            return self._rebuild(last, uuid)
        applied = int(rec["applied"])
        if self._index is None or self._applied != applied:
            self._map(lazy=True)
            self._applied = applied
        ids = [] if applied == last else [r[0] for r in self.conn.execute(
            "SELECT DISTINCT chunk_id FROM vector_log WHERE seq > ? AND seq <= ?", (applied, last))]
        if len(ids) <= DELTA_MAX:
            self._set_delta(ids)
            self._seen = last
            return len(ids)
        if len(ids) > REBUILD_SHARE * len(self._graph()):
            return self._rebuild(last, uuid)
        Index = usearch_index()
        index = Index.restore(str(self.path), view=False)
        if index is None:
            return self._rebuild(last, uuid)
        self._apply(index, ids)
        self._save(index, last, uuid)
        return len(ids)

    def _set_delta(self, ids: list[int]) -> None:
        """Hold `ids` (logged after the file's record) in memory with their current vectors."""
        import numpy as np
        self._changed = set(ids)
        self._stale = sum(1 for i in ids if i in self._graph(keys=True)) if ids and self._index is not None else 0
        keys, blocks = _stored_vectors(self.conn, ids, self.dim)
        self._delta_ids = np.asarray(keys, dtype=np.int64) if keys else None
        self._delta_mat = (np.frombuffer(b"".join(blocks), dtype="<f4").reshape(len(keys), self.dim)
                           if keys else None)

    def _apply(self, index, ids: list[int]) -> None:
        import numpy as np
        for lo in range(0, len(ids), 1000):
            part = ids[lo:lo + 1000]
            present = [i for i in part if i in index]
            if present:
                index.remove(np.asarray(present, dtype=np.uint64))
            rows = self.conn.execute(
                f"SELECT chunk_id, vec FROM vectors WHERE chunk_id IN ({','.join('?' * len(part))})", part).fetchall()
            rows = [r for r in rows if len(r[1]) == self.dim * 4]
            if rows:
                keys = np.fromiter((r[0] for r in rows), dtype=np.uint64, count=len(rows))
                vecs = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), self.dim)
                index.add(keys, vecs, threads=0)  # every core

    def _rebuild(self, last: int, uuid: str) -> int:
        import numpy as np
        index, n, after = self._new(), 0, -1
        while True:
            rows = self.conn.execute("SELECT chunk_id, vec FROM vectors WHERE chunk_id > ? ORDER BY chunk_id LIMIT ?",
                                     (after, BUILD_BATCH)).fetchall()
            if not rows:
                break
            after = rows[-1][0]
            rows = [r for r in rows if len(r[1]) == self.dim * 4]
            if rows:
                keys = np.fromiter((r[0] for r in rows), dtype=np.uint64, count=len(rows))
                vecs = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), self.dim)
                index.add(keys, vecs, threads=0)  # every core
                n += len(rows)
        self._save(index, last, uuid)
        return n

    def _save(self, index, applied: int, uuid: str) -> None:
        """Write graph then record, each to a temporary name renamed into place, then map it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        index.save(str(tmp))
        os.replace(tmp, self.path)
        rec_tmp = self.record_path.with_name(self.record_path.name + ".tmp")
        rec_tmp.write_text(json.dumps({"uuid": uuid, "applied": applied, "dim": self.dim, "size": len(index)}))
        os.replace(rec_tmp, self.record_path)
        self._index, self._applied, self._seen = None, applied, applied
        self._map()
        self._set_delta([])
        trim_log(self.conn, applied)

    def _map(self, lazy: bool = False, fresh: bool = False) -> None:
        """Map the graph file: the mapping a prefetch made (`_take`) or a new one. lazy: when
        a prefetch of this file has started (a cold `cairn search`), only note that it is to
        be taken: the first use (`_graph`) waits for it, so a search's keyword thread and
        the query's embedding start while the graph is still being mapped (~60 ms at 1M).
        fresh: map the file anew (with key lookups), not taking the prefetched mapping."""
        if lazy and str(self.path) in _wanted:
            self._index = _PENDING
            return
        index = None if fresh else _take(self.path)
        if index is None:
            index = map_graph(str(self.path))
        if index is None:
            raise OSError(f"{self.path}: not a vector index file")
        if hasattr(index, "expansion_search"):
            try:
                index.expansion_search = EXPANSION_SEARCH
            except (AttributeError, TypeError):
                pass
        self._index = index

    def _graph(self, keys: bool = False):
        """The mapped graph, taking a pending prefetched mapping first (see `_map`). keys:
        the caller asks which keys it holds: a mapping made without key lookups (a prefetch
        of a graph with no delta: `_current`) is made again with them."""
        if self._index is _PENDING:
            self._map()
        if keys and getattr(self._index, "lookups", True) is False:
            self._map(fresh=True)
        return self._index

    # -- search --------------------------------------------------------------------------
    def search(self, query_vec, k: int, allowed: set[int] | None = None) -> list[tuple[int, float]]:
        """Up to k (chunk_id, cosine) best first; with `allowed`, only those chunk ids (a small
        set is searched exactly: EXACT_FILTER_MAX). The delta (ids written since the file's
        record) is scored exactly beside the graph's candidates."""
        import numpy as np
        if self._graph() is None or k <= 0 or (len(self._index) == 0 and self._delta_ids is None):
            return []
        q = np.asarray(query_vec, dtype=np.float32)
        if allowed is not None and len(allowed) <= EXACT_FILTER_MAX:
            return self._exact(q, k, allowed)
        keep = max(k * RERANK, 40)
        found: list[int] = []
        if len(self._index):
            count = keep if allowed is None else max(k * OVERSAMPLE, 100)
            m = self._index.search(q, min(count + self._stale, len(self._index)), threads=1)
            found = [int(key) for key in m.keys if (allowed is None or int(key) in allowed)
                     and int(key) not in self._changed][:keep]
        best = self._exact(q, k, set(found))  # int8 scores re-made exactly
        if self._delta_ids is not None:
            ids, scores = self._delta_ids, self._delta_mat @ q
            if allowed is not None:
                keep_rows = np.isin(ids, np.fromiter(allowed, dtype=np.int64, count=len(allowed)))
                ids, scores = ids[keep_rows], scores[keep_rows]
            top = np.argsort(-scores, kind="stable")[:k]
            best = sorted(best + [(int(ids[i]), float(scores[i])) for i in top], key=lambda p: -p[1])[:k]
        return best

    def _exact(self, q, k: int, allowed: set[int]) -> list[tuple[int, float]]:
        """The k best of `allowed` by exact cosine over their stored float32 vectors."""
        import numpy as np
        ids = sorted(allowed)
        with self._reader_lock:  # search may run beside a thread using self.conn (hybrid search)
            if self._reader is None:
                db_file = next(r[2] for r in self.conn.execute("PRAGMA database_list") if r[1] == "main")
                self._reader = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True, check_same_thread=False)
            keys, blocks = _stored_vectors(self._reader, ids, self.dim)
        if not keys:
            return []
        mat = np.frombuffer(b"".join(blocks), dtype="<f4").reshape(len(keys), self.dim)
        scores = mat @ q
        best = np.argsort(-scores, kind="stable")[:k]
        return [(int(keys[i]), float(scores[i])) for i in best]
