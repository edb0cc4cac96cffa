"""Shared fixtures: a real embedder (the packaged MiniLM on onnxruntime) wrapped to count
its work, and fresh Cairn homes in temporary folders."""

from __future__ import annotations

import contextlib
import json
import os
import sys

# Bytecode caches on for the run and for every process a test starts: with
# PYTHONDONTWRITEBYTECODE=1 in the environment (as on the machine the suite is timed on) each
# `cairn` subprocess compiled every module it imported (numpy, spaCy, typer, cairn) from source
# again, ~1 CPU s per command; tests/test_links.py's CLI test took 50-54 s that way and 33-39 s
# with caches, at load 10-18 (bench/README.md, session 21 — speed21). PYTHONPYCACHEPREFIX,
# when set, still says where the caches go.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

import pytest  # noqa: E402

from cairn.embed import get_embedder  # noqa: E402
from cairn.service import Cairn  # noqa: E402


class CountingEmbedder:
    """The real embedder, counting calls and texts so tests can assert 'no embedding work'."""

    def __init__(self, inner):
        self.inner = inner
        self.model_name = inner.model_name
        self.dim = inner.dim
        self.calls = 0
        self.texts = 0

    @property
    def model_id(self):
        return self.inner.model_id

    def embed(self, texts):
        self.calls += 1
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.fixture(scope="session")
def real_embedder():
    return get_embedder()


@pytest.fixture
def embedder(real_embedder):
    return CountingEmbedder(real_embedder)


@pytest.fixture
def home(tmp_path):
    return tmp_path / "home"


@pytest.fixture
def app(home, embedder):
    with Cairn(home, embedder=embedder) as a:
        yield a


def write(path, text, encoding="utf-8"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


@contextlib.contextmanager
def notes_app(root, notes, embedder, veto_s=None):
    """A Cairn under `root`/home with `notes` ({file name: markdown text}) written to `root`/v
    and ingested; closed on exit. For module-scoped fixtures over a vault written by the test.
    `veto_s` (seconds), when given, sets the assistant's veto window (0: a tool runs at once,
    as the assistant tests want)."""
    for name, text in notes.items():
        write(root / "v" / name, text)
    with Cairn(root / "home", embedder=embedder) as app:
        if veto_s is not None:
            app.settings.assistant.veto_s = veto_s
        app.ingest([root / "v"])
        yield app


def home_with_notes(tmp_path, embedder, notes):
    """`tmp_path`/home with config llm "none" and a note per item of `notes` ({title: body},
    made by `note create`), closed again: for tests that open the home themselves (a CLI, a
    server, a second Cairn after changing the vault on disk). Returns the home."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with Cairn(home, embedder=embedder) as app:
        for title, body in notes.items():
            app.note_create(title, body)
    return home


def fail_nth_write(monkeypatch, n):
    """Make the n-th vault write from now on (cairn.vault.atomic_write) raise a full disk
    (OSError 28) and the others write as usual; returns the list of targets tried."""
    import cairn.vault as V
    real_write, calls = V.atomic_write, []

    def failing(target, text):
        calls.append(target)
        if len(calls) == n:
            raise OSError(28, "No space left on device")
        real_write(target, text)

    monkeypatch.setattr(V, "atomic_write", failing)
    return calls


def write_jsonl(path, rows):
    """Write `rows` (JSON-serialisable objects) to `path` as JSONL, one per line, each line
    ended by a newline (the shape `cairn import notes|chat` reads); returns the path."""
    return write(path, "".join(json.dumps(r) + "\n" for r in rows))


class HashEmbedder:
    """A fast deterministic embedder (bag of hashed words, 64-d, unit length) for tests where
    retrieval quality is not the point: no model is loaded."""

    model_name = "test-hash-64"
    dim = 64

    def embed(self, texts):
        import hashlib

        import numpy as np
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


@pytest.fixture
def hash_embedder():
    return HashEmbedder()


# --- the store suite (tests/store): `backend` runs a test once on the embedded SQLite index
# and once on PostgreSQL + pgvector (one bundled server per session, a fresh database per
# test). Here, not in tests/store/conftest.py: two conftest modules would share one name.
@pytest.fixture(scope="session")
def pg_server():
    from pg_server import PgServer  # tests/store/pg_server.py
    server = PgServer()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    return pg_server.fresh_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path, monkeypatch):
    from cairn.config import load_settings
    from cairn.store import backend as B
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    if request.param == "postgresql":
        settings.store_url = request.getfixturevalue("pg_url")
    opened = B.open_backend(settings)
    assert opened.name == request.param
    yield opened
    opened.close()


def check_re_embedded_once(tmp_path, old, new) -> None:
    """An index built with embedder `old` keeps answering searches under `new` (its vectors
    still used), is re-embedded once by the next ingest with progress ("embed"), then not
    again (tests/test_embed_export.py, tests/test_embed_int8_graph.py: a model id changed)."""
    from cairn.service import Cairn
    src = tmp_path / "notes"
    write(src / "boiler.md", "# Boiler\n\nThe boiler was serviced in March by Ana from Porto.\n")
    write(src / "garden.md", "# Garden\n\nThe tomatoes went into the greenhouse in April.\n")
    home = tmp_path / "home"
    with Cairn(home, embedder=old) as a:
        a.ingest([src])
        n = a.status()["chunks"]
        assert a.status()["vector_models"] == {old.model_id: n}
    seen = []
    with Cairn(home, embedder=new) as b:
        hits = b.search("when was the boiler serviced", mode="semantic").hits  # old vectors still answer
        assert hits and hits[0].title == "Boiler"
        report = b.ingest([src], progress=lambda phase, done, total: seen.append((phase, done, total)))
        assert report.embedded == n and b.status()["vector_models"] == {new.model_id: n}
        assert ("embed", n, n) in seen  # the re-embedding reports progress
        assert b.ingest([src]).embedded == 0  # only once
        hits = b.search("when was the boiler serviced", mode="semantic").hits
        assert hits and hits[0].title == "Boiler"

