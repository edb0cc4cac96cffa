"""Connections of the PostgreSQL backend: a psycopg_pool pool, rows addressable by index
and by column name (like sqlite3.Row), and the transaction each store call runs in.

A store call outside `Session.transaction()` borrows a pooled connection for that one call
and commits when it returns (rolls back if it raises). Inside `transaction()` every call on
that thread uses the same connection and one transaction: an ingest is all or nothing,
as `store.notes.transaction` gives on SQLite. Nested `transaction()` blocks are savepoints.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator, Sequence


class Row(tuple):
    """A result row: `row[0]` and `row["name"]` both work; `dict(row)` gives {name: value}."""

    _names: tuple[str, ...] = ()

    def __new__(cls, names: tuple[str, ...], values: Sequence[Any]) -> "Row":
        row = super().__new__(cls, values)
        row._names = names
        return row

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            try:
                return tuple.__getitem__(self, self._names.index(key))
            except ValueError:
                raise IndexError(f"no column {key!r}") from None
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def row_factory(cursor):
    """psycopg row factory making `Row`s."""
    names = tuple(d.name for d in cursor.description or ())
    return lambda values: Row(names, values)


def _configure(conn) -> None:
    conn.row_factory = row_factory


class Session:
    """The pool of one database URL (min 1, max `max_size` connections) and the current
    thread's transaction. Raises psycopg.OperationalError when the server cannot be reached
    within `timeout` seconds."""

    def __init__(self, url: str, *, max_size: int = 8, timeout: float = 30.0) -> None:
        from psycopg_pool import ConnectionPool
        self.url = url
        self.pool = ConnectionPool(url, min_size=1, max_size=max_size, timeout=timeout,
                                   configure=_configure, open=False)
        self.pool.open(wait=True, timeout=timeout)
        self._local = threading.local()

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """The thread's transaction connection, or a pooled one committed on return."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            yield conn
            return
        with self.pool.connection() as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """One transaction (a savepoint when nested) for every store call of this thread."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            with conn.transaction():
                yield conn
            return
        with self.pool.connection() as conn:
            self._local.conn = conn
            try:
                with conn.transaction():
                    yield conn
            finally:
                self._local.conn = None

    def in_transaction(self) -> bool:
        return getattr(self._local, "conn", None) is not None

    def close(self) -> None:
        self.pool.close()
