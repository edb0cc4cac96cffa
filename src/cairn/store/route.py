"""Route the store module functions to the configured backend.

The layers above `store/` call module functions with an index handle first
(`notes.get_note(conn, id)`, `jobs.claim_batch(conn, ...)`). With the embedded default the
handle is a sqlite3 connection and the function runs as written. With a PostgreSQL store
configured (`[store] url` / CAIRN_STORE_URL) the service's handle is a
`store.postgres.handle.PgConn`, and the same call runs the PostgreSQL twin of the same name
(store/postgres/*): nothing above `store/` changes, and nothing silently falls back to
SQLite.

    route(globals(), "notes")     # at the end of store/notes.py

A function with no PostgreSQL twin raises `Unsupported` naming it, when called with a
PgConn (never a silent SQLite fallback).
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, Callable

from cairn.errors import Unavailable


class Unsupported(Unavailable):
    """An index operation the PostgreSQL store does not implement (yet)."""


# SQLite store module -> the PostgreSQL modules holding its twins, searched in order.
TWINS: dict[str, tuple[str, ...]] = {
    "notes": ("handle", "notes", "extra"),
    "copies": ("handle", "notes", "extra"),
    "links": ("notes",),
    "keyword": ("keyword", "extra"),
    "vectors": ("vectors", "extra"),
    "jobs": ("handle", "jobs", "extra"),
    "memories": ("memories", "extra"),
    "fact_keys": ("memories", "extra"),
    "locks": ("handle",),
    "graph": ("graph",),
    "db": ("handle",),
}

_PG_CONN: type | None = None


def _pg_conn_type() -> type:
    global _PG_CONN
    if _PG_CONN is None:
        from cairn.store.postgres.handle import PgConn
        _PG_CONN = PgConn
    return _PG_CONN


def twin(module: str, name: str) -> Callable | None:
    """The PostgreSQL function standing for `store.<module>.<name>`, or None."""
    for part in TWINS.get(module, ()):
        mod = importlib.import_module(f"cairn.store.postgres.{part}")
        fn = getattr(mod, name, None)
        if callable(fn) and not isinstance(fn, type) and getattr(fn, "__module__", "") == mod.__name__:
            return fn
    return None


def _routed(module: str, name: str, fn: Callable) -> Callable:
    @functools.wraps(fn)
    def call(*args, **kwargs):
        conn = args[0] if args else None
        if type(conn).__name__ == "PgConn" and isinstance(conn, _pg_conn_type()):
            other = twin(module, name)
            if other is None:
                raise Unsupported(f"{module}.{name} is not supported on the PostgreSQL store yet "
                                  "(unset CAIRN_STORE_URL / [store] url to use the embedded SQLite index)")
            if getattr(other, "takes_handle", False):
                return other(*args, **kwargs)
            with conn.session.connection() as pg:
                return other(pg, *args[1:], **kwargs)
        return fn(*args, **kwargs)
    call.__wrapped_sqlite__ = fn  # type: ignore[attr-defined]
    return call


def route(namespace: dict[str, Any], module: str) -> None:
    """Replace every public function defined in the store module whose globals are
    `namespace` by one that runs its PostgreSQL twin when its first argument is a PgConn."""
    full = f"cairn.store.{module}"
    for name, fn in list(namespace.items()):
        if (name.startswith("_") or not callable(fn) or isinstance(fn, type)
                or getattr(fn, "__module__", "") != full or hasattr(fn, "__wrapped_sqlite__")):
            continue
        namespace[name] = _routed(module, name, fn)
