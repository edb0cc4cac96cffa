"""The service's index handle on PostgreSQL, and the store functions that need the handle
itself rather than one borrowed connection (store/route.py passes it for `takes_handle`
functions): transactions, advisory locks, the index state, the schema version.

    conn = PgConn(PostgresBackend(url))      # what Cairn.conn is with a store url set
    with notes.transaction(conn):            # one PostgreSQL transaction for this thread
        notes.upsert_note(conn, row)         # runs store/postgres/notes.upsert_note
"""

from __future__ import annotations

import contextlib
import threading
import zlib
from typing import Any, Iterator

_held: dict[tuple[int, str, int], int] = {}  # (handle, lock name, thread) -> depth
_guard = threading.RLock()


def takes_handle(fn):
    """Mark a twin that receives the PgConn itself (store/route.py)."""
    fn.takes_handle = True
    return fn


class PgConn:
    """An index handle on a PostgresBackend: what the store modules get as `conn` when a
    PostgreSQL store is configured. `execute(sql, args)` runs one statement (psycopg
    placeholders) on the thread's transaction or a pooled connection and returns the rows."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.session = backend.session
        self.url = backend.url

    def execute(self, sql: str, args: Any = ()) -> list:
        with self.session.connection() as conn:
            return conn.execute(sql, args).fetchall()

    def close(self) -> None:
        self.backend.close()


@takes_handle
@contextlib.contextmanager
def transaction(conn: PgConn) -> Iterator[PgConn]:
    """As store.notes.transaction: one transaction for every store call of this thread in
    the block; rolled back (and the exception re-raised) if it raises."""
    with conn.session.transaction():
        yield conn


@takes_handle
def busy(conn: PgConn, name: str) -> bool:
    """As store.locks.busy: whether another session holds the advisory lock `name` now (a
    pg_try_advisory_lock probe, released at once); False when this thread holds it."""
    with _guard:
        if _held.get((id(conn), name, threading.get_ident())):
            return False
    lock = zlib.crc32(f"cairn:{name}".encode())
    with conn.session.pool.connection() as pg:
        pg.autocommit = True
        try:
            got = pg.execute("SELECT pg_try_advisory_lock(%s)", (lock,)).fetchone()[0]
            if got:
                pg.execute("SELECT pg_advisory_unlock(%s)", (lock,))
            return not got
        finally:
            pg.autocommit = False


@takes_handle
@contextlib.contextmanager
def exclusive(conn: PgConn, name: str) -> Iterator[None]:
    """As store.locks.exclusive, with a session-level PostgreSQL advisory lock (key: crc32
    of "cairn:" + name) held on a connection of its own for the block: processes on any
    machine using this database wait for each other. Re-entrant within a thread; the server
    drops the lock when its holder's connection dies."""
    key = (id(conn), name, threading.get_ident())
    with _guard:
        depth = _held.get(key, 0)
        _held[key] = depth + 1
    try:
        if depth:
            yield
            return
        lock = zlib.crc32(f"cairn:{name}".encode())
        with conn.session.pool.connection() as pg:
            pg.autocommit = True
            try:
                pg.execute("SELECT pg_advisory_lock(%s)", (lock,))
                try:
                    yield
                finally:
                    pg.execute("SELECT pg_advisory_unlock(%s)", (lock,))
            finally:
                pg.autocommit = False
    finally:
        with _guard:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]


def index_state(conn) -> tuple[int, int]:
    """As store.db.index_state: changes whenever the index may have changed. The next
    transaction id (xmax of the current snapshot) moves only when some transaction writes."""
    return int(str(conn.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())").fetchone()[0])), 0


def schema_version(conn) -> int:
    from cairn.store.postgres.schema import schema_version as version
    return version(conn)
