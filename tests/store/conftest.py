"""Fixtures of the store suite: `backend` runs a test once on the embedded SQLite index and
once on PostgreSQL + pgvector (one bundled server per session, a fresh database per test)."""

from __future__ import annotations

import pytest

from cairn.config import load_settings
from cairn.store import backend as B


@pytest.fixture(scope="session")
def pg_server():
    from pg_server import PgServer
    server = PgServer()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    return pg_server.fresh_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path, monkeypatch):
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    if request.param == "postgresql":
        settings.store_url = request.getfixturevalue("pg_url")
    opened = B.open_backend(settings)
    assert opened.name == request.param
    yield opened
    opened.close()
