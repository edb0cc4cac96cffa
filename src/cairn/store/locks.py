"""Advisory locks between processes sharing one Cairn home.

`exclusive(conn, name)` holds an exclusive `flock` on `<index file>.<name>.lock` for the
duration of a `with` block, so work that must not run twice at once (embedding the chunks
that lack vectors; running the ingest queue) is done by one process while the others wait
and then find it done. The kernel drops the lock when its holder dies (kill -9 included),
so a crash never leaves a stale lock. Re-entrant within a process (a nested `with` on the
same name in the same thread does not wait on itself; other threads wait like other processes). An in-memory index has no file: no lock is taken.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
from typing import Iterator

_held: dict[tuple[str, int], int] = {}  # (lock path, thread) -> nesting depth
_guard = threading.RLock()


def lock_path(conn: sqlite3.Connection, name: str) -> str | None:
    """`<main database file>.<name>.lock`, or None for an in-memory database."""
    for row in conn.execute("PRAGMA database_list"):
        if row[1] == "main":
            return f"{row[2]}.{name}.lock" if row[2] else None
    return None


@contextlib.contextmanager
def exclusive(conn: sqlite3.Connection, name: str) -> Iterator[None]:
    """Hold the process-shared lock `name` of this index while the block runs (blocking
    until it is free). Raises OSError only if the lock file cannot be created."""
    path = lock_path(conn, name)
    if path is None:
        yield
        return
    key = (path, threading.get_ident())
    with _guard:
        depth = _held.get(key, 0)
        _held[key] = depth + 1
    if depth:
        try:
            yield
        finally:
            with _guard:
                _held[key] -= 1
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        with _guard:
            _held.pop(key, None)
        os.close(fd)  # releases the flock


def busy(conn: sqlite3.Connection, name: str) -> bool:
    """Whether another thread or process holds the lock `name` of this index right now (a
    non-blocking probe; the lock is not kept). False for an in-memory index. PostgreSQL:
    the twin in store/postgres/handle.py (an advisory-lock probe)."""
    path = lock_path(conn, name)
    if path is None:
        return False
    with _guard:
        if _held.get((path, threading.get_ident())):
            return False  # this thread holds it: not busy for us
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "locks")  # PostgreSQL twins when conn is a PgConn (store/route.py)


@contextlib.contextmanager
def file_lock(path: os.PathLike[str] | str) -> Iterator[None]:
    """An exclusive `flock` on the file `path` (created, mode 0600, with its folder) held while
    the block runs, blocking until it is free: one read-modify-write of a file beside it at a
    time across processes. Raises OSError when the lock file cannot be created."""
    os.makedirs(os.path.dirname(os.fspath(path)) or ".", exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the flock


IN_USE = ".in-use.lock"


def hold_home(home: os.PathLike[str] | str) -> int:
    """Mark the home as in use by this process for as long as the returned descriptor is
    open: a shared `flock` on `<home>/.in-use.lock` (many processes may hold it at once;
    it waits while a restore holds it exclusively). Close the descriptor with `release`.
    Raises OSError when the lock file cannot be created."""
    fd = os.open(os.path.join(home, IN_USE), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
    except BaseException:
        os.close(fd)
        raise
    return fd


def try_home_alone(home: os.PathLike[str] | str) -> int | None:
    """The exclusive `flock` on `<home>/.in-use.lock` without waiting: its descriptor when
    no other process has the home open (see `hold_home`), else None."""
    fd = os.open(os.path.join(home, IN_USE), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def release(fd: int | None) -> None:
    """Close a descriptor from `hold_home` / `try_home_alone` (dropping its lock); None is a no-op."""
    if fd is not None:
        os.close(fd)
