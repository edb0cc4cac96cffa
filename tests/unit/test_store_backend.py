"""The storage boundary (store/backend.py): each interface's methods exist in the SQLite
implementation with the same parameters (so the Protocols cannot drift from the code), and
the factory opens the configured backend on a real index."""

from __future__ import annotations

import inspect
import types

import pytest

from cairn.config import ConfigError, load_settings
from cairn.store import backend as B
from cairn.store.keyword import KeywordQueryError

INTERFACES = {"notes": B.NoteStore, "keywords": B.KeywordIndex, "vectors": B.VectorStore,
              "links": B.LinkStore, "jobs": B.JobStore, "memories": B.MemoryStore}


def protocol_methods(proto) -> dict[str, inspect.Signature]:
    return {n: inspect.signature(f) for n, f in vars(proto).items()
            if callable(f) and not n.startswith("_")}


def params(sig: inspect.Signature, drop_first: int) -> list[str]:
    return [p.name for p in list(sig.parameters.values())[drop_first:]
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


@pytest.mark.parametrize("attr", sorted(INTERFACES))
def test_sqlite_implements_every_interface_method_with_its_parameters(attr, tmp_path):
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    backend = B.open_backend(settings)
    try:
        bound = getattr(backend, attr)
        assert isinstance(bound, INTERFACES[attr])  # runtime_checkable: every name present
        for name, sig in protocol_methods(INTERFACES[attr]).items():
            fn = next(getattr(m, name) for m in bound._modules if hasattr(m, name))
            want = params(sig, 1)  # drop self
            have = params(inspect.signature(fn), 1)  # drop conn
            assert have[:len(want)] == want, f"{attr}.{name}: {have} vs {want}"
    finally:
        backend.close()


def test_the_factory_opens_a_working_sqlite_index(tmp_path):
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    backend = B.open_backend(settings)
    try:
        assert backend.name == "sqlite"
        assert backend.notes.counts()["notes"] == 0
        assert backend.keywords.chunk_count() == 0
        assert backend.keywords.bm25('"heron"', (1.0, 1.0, 1.0), 10) == []
        assert backend.memories.core_blocks() == {}
        assert backend.jobs.counts() == {"queued": 0, "running": 0, "done": 0, "dead": 0}
        with pytest.raises(KeywordQueryError):
            backend.keywords.bm25('"unbalanced', (1.0, 1.0, 1.0), 10)
    finally:
        backend.close()


def test_an_unknown_backend_is_refused(tmp_path):
    settings = types.SimpleNamespace(store="postgres", index_path=tmp_path / "index.db")
    with pytest.raises(ConfigError, match="store must be one of sqlite, postgresql, got 'postgres'"):
        B.open_backend(settings)


def test_a_store_url_that_is_not_postgresql_is_refused(tmp_path, monkeypatch):
    settings = types.SimpleNamespace(store="sqlite", store_url="", index_path=tmp_path / "index.db")
    monkeypatch.setenv("CAIRN_STORE_URL", "mysql://root@localhost/cairn")
    with pytest.raises(ConfigError, match="store url must start with postgresql://, got 'mysql'"):
        B.open_backend(settings)


def test_an_unreachable_postgresql_server_is_unavailable_without_its_password(tmp_path, monkeypatch):
    from cairn.errors import Unavailable
    from cairn.store import postgres
    monkeypatch.setattr(postgres, "Session", _refusing_session)
    settings = types.SimpleNamespace(store="sqlite", store_url="postgresql://ana:s3cret@db.invalid/cairn",
                                     index_path=tmp_path / "index.db")
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)
    with pytest.raises(Unavailable, match="db.invalid/cairn") as info:
        B.open_backend(settings)
    assert "s3cret" not in str(info.value)


def _refusing_session(url, **kwargs):
    import psycopg
    raise psycopg.OperationalError("connection refused")


def test_the_store_setting_is_checked_when_config_loads(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('store = "postgres"\n')
    with pytest.raises(ConfigError, match="store must be \"sqlite\""):
        load_settings(home)
    (home / "config.toml").write_text('store = "sqlite"\n')
    assert load_settings(home).store == "sqlite"
    (home / "config.toml").write_text('[store]\nurl = "postgresql://ana@db.example/cairn"\n')
    loaded = load_settings(home)
    assert (loaded.store, loaded.store_url) == ("postgresql", "postgresql://ana@db.example/cairn")
    (home / "config.toml").write_text('[store]\nurl = "sqlite:///x"\n')
    with pytest.raises(ConfigError, match=r"\[store\] url must be a postgresql:// URL"):
        load_settings(home)
    (home / "config.toml").write_text('[store]\nurl = "postgresql://h/d"\npool = 3\n')
    with pytest.raises(ConfigError, match="unknown key"):
        load_settings(home)
