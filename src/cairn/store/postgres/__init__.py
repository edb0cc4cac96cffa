"""The PostgreSQL + pgvector backend: the six storage interfaces of store/backend.py on one
psycopg 3 connection pool (psycopg_pool), chosen by `[store] url = "postgresql://..."` in
config.toml or the environment variable CAIRN_STORE_URL.

    from cairn.store.postgres import PostgresBackend
    backend = PostgresBackend("postgresql://user@host/db")   # migrates on open
    with backend.transaction():                               # all or nothing
        backend.notes.upsert_note(row); backend.notes.insert_chunks(...)

Modules (each function takes a psycopg connection first, the SQLite twin's parameters after):
    schema.py    versioned migrations (advisory-locked, idempotent)
    session.py   the pool, rows by index and name, the per-thread transaction
    notes.py     notes, chunks + tsvector keyword rows, tombstones, vault copies, links
    keyword.py   tsquery rendering of store/fts.py's Match (a parsed query); bm25.py ranks in SQL
    vectors.py   pgvector storage, HNSW cosine search (`nearest`)
    jobs.py      the job queue, claimed with FOR UPDATE SKIP LOCKED
    bulk.py      bulk loads: COPY, postings and search indexes built once at the end
    memories.py  memories, core blocks, entities, fact keys

Text search configuration of chunks: `cairn` (schema migration 5: the default parser, the
original Porter stemmer, no stop words), the match of SQLite's `porter unicode61` tokenizer;
the text goes through store.fts.index_text first, exactly as for SQLite, so a CJK run is indexed one character per token and a CJK
query is a phrase of single characters (`字 <-> 符`), which the default parser keeps.

CJK plan: character-phrase matching (above) finds words of any length but ranks by
character proximity only. The next step is the `pg_bigm` extension (2-gram GIN index, LIKE
'%词%' with similarity ranking) when the server has it, chosen per database at migration
time; `zhparser`/`pgroonga` give word segmentation but are not in the bundled server.
Not done: accent folding (SQLite's remove_diacritics 2) needs the `unaccent` extension.
"""

from __future__ import annotations

from contextlib import contextmanager
from types import ModuleType
from typing import Iterator

from cairn.store.postgres.session import Session


class PgBound:
    """The functions of Postgres store modules with their connection supplied per call:
    the thread's open transaction, else a pooled connection committed on return."""

    def __init__(self, session: Session, *modules: ModuleType) -> None:
        self._session = session
        self._modules = modules

    def __getattr__(self, name: str):
        for module in self._modules:
            fn = getattr(module, name, None)
            if callable(fn) and not name.startswith("_") and not isinstance(fn, type) \
                    and getattr(fn, "__module__", "") == module.__name__:
                def call(*args, _fn=fn, **kwargs):
                    with self._session.connection() as conn:
                        return _fn(conn, *args, **kwargs)
                return call
        raise AttributeError(f"no store function {name!r}")


class PostgresBackend:
    """Every storage interface on one PostgreSQL database (`url`: a postgresql:// URL).
    Opening migrates the schema. Raises psycopg.OperationalError when the server cannot be
    reached (open_backend turns it into Unavailable)."""

    name = "postgresql"

    def __init__(self, url: str, *, max_size: int = 8) -> None:
        from cairn.store.postgres import jobs, keyword, memories, notes, schema, vectors
        self.url = url
        self.session = Session(url, max_size=max_size)
        with self.session.pool.connection() as conn:
            conn.autocommit = True
            try:
                schema.migrate(conn)
            finally:
                conn.autocommit = False
        self.notes = PgBound(self.session, notes)
        self.keywords = PgBound(self.session, keyword)
        self.vectors = PgBound(self.session, vectors)
        self.links = PgBound(self.session, notes)
        self.jobs = PgBound(self.session, jobs)
        self.memories = PgBound(self.session, memories)
        # No entity graph here: it is derived from the working SQLite index and lives only
        # there (store/backend.py, GraphStore); None says so to any caller.
        self.graph = None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction for every store call of this thread inside the block: committed
        at its end, rolled back (and the exception re-raised) if it raises."""
        with self.session.transaction():
            yield

    def schema_version(self) -> int:
        from cairn.store.postgres.schema import schema_version
        with self.session.connection() as conn:
            return schema_version(conn)

    def close(self) -> None:
        self.session.close()
