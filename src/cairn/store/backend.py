"""The storage boundary: what the layers above `store/` need from an index, as narrow
`typing.Protocol` interfaces, and the one factory that opens the configured backend.

    from cairn.store.backend import open_backend
    backend = open_backend(settings)          # SQLiteBackend for "sqlite" (the default)
    backend.notes.get_note("n123")            # NoteStore
    backend.keywords.bm25(match, (3, 1, 2), 50)

Interfaces (each method is the store module function of the same name without its first
`conn` argument; rows come back addressable by column name):

    NoteStore      notes, chunks, tombstones, vault-copy hashes     store/notes.py, copies.py
    KeywordIndex   BM25 over chunks, document frequencies, filters  store/keyword.py (+ fts.py)
    VectorStore    chunk vectors, the text-hash cache               store/vectors.py
    LinkStore      wikilinks and the names they resolve against     store/links.py
    JobStore       the ingest job queue                             store/jobs.py
    MemoryStore    memories, core blocks, entities, aliases         store/memories.py, fact_keys.py
    GraphStore     entity mentions and co-occurrence (issue 17)     store/graph.py

The entity graph is derived from the notes of the working SQLite index (graph/update.py
fills it after every ingest; `cairn reindex` rebuilds it), so it lives only there: the
PostgreSQL backend has no graph tables and its `graph` is None (the service always runs its
operations on the SQLite index, see `open_backend`).

Today's code is the SQLite implementation: one SQLite file (`<home>/index.db`, store/db.py),
FTS5 for keywords (store/fts.py renders a parsed query, search/query.py, as MATCH syntax: CJK split into characters, every
term quoted), float32 blobs for vectors searched exactly in memory (store/vectors.py).
`SQLiteBackend` binds those module functions to one connection.

Adding PostgreSQL later touches nothing above `store/`:
- a `store/postgres/` package implements the same six interfaces on one psycopg connection
  pool: notes, chunks, links, jobs and memories as ordinary tables (the same columns;
  `transaction` becomes a transaction block; `claim_batch` uses SELECT ... FOR UPDATE SKIP
  LOCKED);
- the keyword index is a `tsvector` column on chunks (and on memories) with a GIN index,
  `ts_rank_cd` in place of BM25 and `websearch_to_tsquery`-style query building in place
  of store/fts.py — query syntax is the backend's, so a `store.fts.Match` is rendered as a tsquery
  there and nothing above changes;
- vectors go to a `vector(384)` column (pgvector) with an HNSW or IVFFlat index, cosine
  distance `<=>` replacing the in-memory matrix product;
- `open_backend` returns it when a URL is configured (`[store] url = "postgresql://..."`
  in config.toml or env CAIRN_STORE_URL); the layers above keep calling the interfaces.
  That package exists now: store/postgres/ (see its docstring).
"""

from __future__ import annotations

import sqlite3
from types import ModuleType
from typing import Any, Iterable, Protocol, runtime_checkable


@runtime_checkable
class NoteStore(Protocol):
    """Notes and their chunks: read, write, delete, count (store/notes.py, store/copies.py)."""

    def get_note(self, note_id: str) -> Any: ...
    def get_note_by_path(self, path: str) -> Any: ...
    def get_note_by_source(self, source: str) -> Any: ...
    def list_notes(self, *, type: str | None = None, tag: str | None = None, limit: int = 50,
                   offset: int = 0) -> tuple[int, list]: ...
    def upsert_note(self, note: Any) -> None: ...
    def delete_note(self, note_id: str) -> None: ...
    def insert_chunks(self, note_id: str, title: str, tags: list[str], chunks: list, *args, **kwargs) -> Any: ...
    def delete_chunks(self, note_id: str) -> int: ...
    def replace_links(self, note_id: str, links: list) -> None: ...
    def counts(self) -> dict[str, int]: ...
    def recent_notes(self, since: str, limit: int = 10) -> list[dict]: ...
    def has_notes_under(self, prefix: str) -> bool: ...
    def chat_notes(self) -> list: ...
    def index_profile(self, embed_max_chunks: int) -> dict: ...
    def note_aliases(self) -> list[str]: ...
    def message_rows(self, note_id: str) -> list: ...
    def record_write(self, note_id: str, file_hash: str) -> None: ...
    def conflict_hash(self, note_id: str) -> str | None: ...


@runtime_checkable
class KeywordIndex(Protocol):
    """Keyword search over chunks (store/keyword.py)."""

    def bm25(self, match: Any, weights: tuple[float, float, float], limit: int) -> list[tuple[int, float]]: ...  # store.fts.Match or its text
    def document_frequency(self, word: str, prefix: bool = False) -> int: ...
    def filtered_chunk_ids(self, types: list[str] | None, since: str | None, until: str | None = None,
                           tag: str | None = None, person: str | None = None,
                           status: str | None = None, input_source: str | None = None) -> set[int] | None: ...
    def chunk_units(self, ids: Iterable[int]) -> set[tuple[str, str | None]]: ...
    def max_chunk_id(self) -> int: ...
    def chunk_details(self, ids: Iterable[int]) -> dict: ...
    def chunk_count(self) -> int: ...


@runtime_checkable
class VectorStore(Protocol):
    """Chunk vectors (store/vectors.py)."""

    def put_vectors(self, chunk_ids: list[int], text_hashes: list[str], vecs: Any, model: str) -> None: ...
    def cached_vectors(self, text_hashes: list[str], model: str) -> dict: ...
    def clear_vector_cache(self) -> None: ...
    def release_vectors(self, chunk_ids: list[int]) -> int: ...
    def chat_context_rows(self, chunk_ids: list[int]) -> dict: ...
    def neighbour_keys_state(self) -> float: ...
    def set_neighbour_keys(self, alpha: float) -> int: ...


@runtime_checkable
class LinkStore(Protocol):
    """Wikilinks (store/links.py)."""

    def note_names(self) -> list: ...
    def links_of(self, note_id: str) -> list: ...
    def links_elsewhere(self, note_id: str) -> list: ...
    def all_links(self) -> list: ...


@runtime_checkable
class JobStore(Protocol):
    """The ingest job queue (store/jobs.py)."""

    def enqueue(self, kind: str, source: str, payload: dict, *args, **kwargs) -> Any: ...
    def claim_batch(self, pid: int, start: str | None, lease_s: float, *args, **kwargs) -> list: ...
    def mark_done(self, job: Any, outcome: str) -> bool: ...
    def mark_retry(self, job: Any, error: str, next_attempt_at: float) -> bool: ...
    def mark_dead(self, job: Any, error: str) -> bool: ...
    def requeue_dead(self, ids: list[int] | None) -> list[int]: ...
    def get(self, job_id: int) -> Any: ...
    def by_state(self, state: str, limit: int | None = None) -> list: ...
    def counts(self) -> dict[str, int]: ...
    def media_counts(self) -> dict[str, int]: ...


@runtime_checkable
class MemoryStore(Protocol):
    """Memories, core blocks, entities and fact keys (store/memories.py, store/fact_keys.py)."""

    def memory_row(self, memory_id: str) -> Any: ...
    def insert_memory_row(self, values: tuple, keyword_text: str, model: str | None, vec: bytes | None) -> None: ...
    def update_memory_row(self, memory_id: str, **fields) -> None: ...
    def memory_rows(self, *, kind: str | None = None, scope: str | None = None,
                    include_inactive: bool = False) -> list: ...
    def recall_rows(self, scope: str, include_history: bool) -> list: ...
    def keyword_scores(self, match: str) -> dict[int, float]: ...
    def core_blocks(self) -> dict[str, str]: ...
    def put_core_block(self, name: str, text: str, updated: str) -> None: ...
    def alias_entity(self, alias_key: str) -> str | None: ...
    def alias_names(self) -> list[str]: ...
    def list_entities(self) -> list[dict]: ...
    def replace_fact_keys(self, note_id: str, facts: dict, method: str) -> None: ...


@runtime_checkable
class GraphStore(Protocol):
    """The entity graph: mentions of entities by notes and chat messages, co-occurrence
    counts (store/graph.py)."""

    def stale_notes(self, limit: int | None = None) -> list: ...
    def replace_mentions(self, note_id: str, file_hash: str, rows: Iterable) -> None: ...
    def notes_of_entity(self, entity_id: str, limit: int = 50) -> list[dict]: ...
    def neighbours(self, entity_id: str, limit: int) -> list: ...
    def chunk_ids_of_entity(self, entity_id: str) -> set[int]: ...
    def move_entity(self, src: str, dst: str) -> None: ...
    def clear_graph(self) -> None: ...


class Bound:
    """The functions of store modules with their first argument (the connection) bound:
    `Bound(conn, "notes", "copies").get_note(id)` is `store.notes.get_note(conn, id)`. The
    first module that has a name wins. Modules are imported on first use (store.vectors
    needs numpy, which `cairn status` never loads)."""

    def __init__(self, conn: sqlite3.Connection, *names: str) -> None:
        self._conn = conn
        self._names = names
        self._loaded: tuple[ModuleType, ...] | None = None

    @property
    def _modules(self) -> tuple[ModuleType, ...]:
        if self._loaded is None:
            import importlib
            self._loaded = tuple(importlib.import_module(f"cairn.store.{n}") for n in self._names)
        return self._loaded

    def __getattr__(self, name: str):
        for module in self._modules:
            fn = getattr(module, name, None)
            if callable(fn) and not name.startswith("_") and not isinstance(fn, type):
                return lambda *args, **kwargs: fn(self._conn, *args, **kwargs)
        raise AttributeError(f"no store function {name!r}")

    def __dir__(self) -> list[str]:
        return sorted({n for m in self._modules for n in vars(m)
                       if not n.startswith("_") and callable(getattr(m, n)) and not isinstance(getattr(m, n), type)})


class SQLiteBackend:
    """The SQLite implementation of every interface, on one index connection."""

    name = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.notes: NoteStore = Bound(conn, "notes", "copies")  # type: ignore[assignment]
        self.keywords: KeywordIndex = Bound(conn, "keyword")  # type: ignore[assignment]
        self.vectors: VectorStore = Bound(conn, "vectors")  # type: ignore[assignment]
        self.links: LinkStore = Bound(conn, "links")  # type: ignore[assignment]
        self.jobs: JobStore = Bound(conn, "jobs")  # type: ignore[assignment]
        self.memories: MemoryStore = Bound(conn, "memories", "fact_keys")  # type: ignore[assignment]
        self.graph: GraphStore = Bound(conn, "graph")  # type: ignore[assignment]

    def transaction(self):
        """BEGIN IMMEDIATE ... COMMIT around the block (store.notes.transaction)."""
        from cairn.store.notes import transaction
        return transaction(self.conn)

    def close(self) -> None:
        self.conn.close()


BACKENDS = ("sqlite", "postgresql")


def store_url(settings: Any) -> str:
    """The PostgreSQL URL the person configured: env CAIRN_STORE_URL, else config.toml's
    `[store] url`; "" for the embedded SQLite index."""
    import os
    return os.environ.get("CAIRN_STORE_URL", "").strip() or (getattr(settings, "store_url", "") or "")


def open_backend(settings: Any, conn: sqlite3.Connection | None = None):
    """The storage backend the settings choose: PostgresBackend (store/postgres/) when a
    postgresql:// URL is configured (`store_url`) and no `conn` is given, else
    SQLiteBackend on the home's index (`conn`: an open index connection to use instead of
    opening one; the service passes its own, see the note in the body).
    Raises ConfigError for a backend name Cairn does not have or a URL that is not
    postgresql://, Unavailable when the PostgreSQL server cannot be reached."""
    from cairn.config import ConfigError
    url = store_url(settings)
    name = getattr(settings, "store", "sqlite") or "sqlite"
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"store url must start with postgresql://, got {url.split(':', 1)[0]!r}")
    if conn is not None and is_postgres(conn):
        return conn.backend  # the service's PostgreSQL handle (open_index)
    if url and conn is None:
        return open_postgres(url)
    if url:
        # A SQLite connection given while a store url is set: `cairn migrate` reading the
        # home's SQLite index to copy it.
        return SQLiteBackend(conn)
    if name != "sqlite":
        raise ConfigError(f"config.toml: store must be one of {', '.join(BACKENDS)}, got {name!r}")
    if conn is None:
        from cairn.store import db
        conn = db.connect(settings.index_path)
    return SQLiteBackend(conn)


def open_index(settings: Any):
    """The index handle every store function takes first: a `store.postgres.handle.PgConn`
    when a PostgreSQL store is configured (`store_url`: the store functions then run their
    PostgreSQL twins, store/route.py), else a SQLite connection on `<home>/index.db`.
    Raises ConfigError for a URL that is not postgresql://, Unavailable when the server
    cannot be reached, db.IndexOpenError / sqlite3 errors for the SQLite file."""
    from cairn.config import ConfigError
    url = store_url(settings)
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(f"store url must start with postgresql://, got {url.split(':', 1)[0]!r}")
        from cairn.store.postgres.handle import PgConn
        return PgConn(open_postgres(url))
    from cairn.store import db
    return db.connect(settings.index_path)


def is_postgres(conn: Any) -> bool:
    """True when `conn` is a PostgreSQL index handle (open_index)."""
    return type(conn).__name__ == "PgConn"


def open_postgres(url: str):
    """PostgresBackend on `url` (migrated). Raises Unavailable naming the host (never the
    password) when the server cannot be reached or psycopg is not installed."""
    from cairn.errors import Unavailable
    try:
        import psycopg
        from cairn.store.postgres import PostgresBackend
    except ImportError as exc:  # pragma: no cover - psycopg is a declared dependency
        raise Unavailable(f"the PostgreSQL backend needs psycopg: {exc}") from exc
    try:
        return PostgresBackend(url)
    except (psycopg.Error, Exception) as exc:
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        safe = url.split("@")[-1]
        raise Unavailable(f"cannot open the PostgreSQL store at {safe}: {type(exc).__name__}: {exc}") from exc
