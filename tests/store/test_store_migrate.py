"""`cairn migrate --to postgresql://...`: a home's index (notes, chunks, keyword rows,
vectors, links, memories) is copied into PostgreSQL with verified counts, searches the same
there, and a non-empty target is refused unless --replace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cairn.service import Cairn
from cairn.search.query import build_match_query
from cairn.store.postgres import PostgresBackend
from cairn.store.vectors import VectorIndex

SRC = str(Path(__file__).resolve().parents[2] / "src")


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": ""}
    env.pop("CAIRN_STORE_URL", None)
    return subprocess.run([sys.executable, "-m", "cairn", *args], capture_output=True, text=True,
                          timeout=600, env=env)


@pytest.fixture
def filled_home(tmp_path, hash_embedder):
    vault = tmp_path / "notes"
    vault.mkdir()
    (vault / "herons.md").write_text("# Herons\n\nThe grey heron hunts fish at dawn. See [[Lakes]].\n")
    (vault / "lakes.md").write_text("---\ntags: [water]\n---\n# Lakes\n\nLakes freeze in January.\n")
    (vault / "boiler.md").write_text("# Boiler\n\nThe boiler was serviced on 3 March; pressure 1.5 bar.\n")
    home = tmp_path / "home"
    with Cairn(home, embedder=hash_embedder) as app:
        app.ingest([vault])
        app.remember("I am allergic to peanuts")
    return home


def test_migrate_copies_the_index_and_verifies_counts(filled_home, pg_url):
    r = cli("--home", str(filled_home), "migrate", "--to", pg_url, "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["verified"] is True
    rows = report["rows"]
    assert rows["notes"] == 3 and rows["chunks"] >= 3 and rows["vectors"] == rows["chunks"]
    assert rows["memories"] == 1 and rows["links"] >= 1

    with Cairn(filled_home) as app:
        sqlite = app.store
        pg = PostgresBackend(pg_url)
        try:
            assert pg.notes.counts() == sqlite.notes.counts()
            for query in ("heron", "boiler pressure", "title:lakes", "january freeze"):
                match = build_match_query(query)
                want = [i for i, _ in sqlite.keywords.bm25(match, (3, 1, 2), 5)]
                got = [i for i, _ in pg.keywords.bm25(match, (3, 1, 2), 5)]
                assert got[:1] == want[:1], query
            q = np.frombuffer(app.conn.execute("SELECT vec FROM vectors LIMIT 1").fetchone()[0], dtype="<f4")
            want = VectorIndex(app.conn, None).search(q, 3)
            got = pg.vectors.nearest(q, 3)
            assert [i for i, _ in got] == [i for i, _ in want]
            assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
            assert [m["text"] for m in pg.memories.memory_rows()] == ["I am allergic to peanuts"]
            # new chunks never take a copied id
            _, notes = pg.notes.list_notes()
            copied = max(pg.keywords.chunk_details(range(1, 1000)))
            from cairn.model import Chunk
            with pg.transaction():
                new = pg.notes.insert_chunks(notes[0].id, "t", [], [Chunk(ord=99, text="new", start=0, end=3)])
            assert new[0] > copied
        finally:
            pg.close()


def test_a_non_empty_target_is_refused_unless_replace(filled_home, pg_url):
    assert cli("--home", str(filled_home), "migrate", "--to", pg_url).returncode == 0
    again = cli("--home", str(filled_home), "migrate", "--to", pg_url)
    assert again.returncode != 0 and "not empty" in again.stderr and "--replace" in again.stderr
    replaced = cli("--home", str(filled_home), "migrate", "--to", pg_url, "--replace")
    assert replaced.returncode == 0 and "counts verified: 3 notes" in replaced.stdout


def test_a_bad_target_is_a_clear_error_and_loses_nothing(filled_home):
    r = cli("--home", str(filled_home), "migrate", "--to", "mysql://root@localhost/cairn")
    assert r.returncode != 0 and "--to must be a postgresql:// URL" in r.stderr
    with Cairn(filled_home) as app:
        assert app.store.notes.counts()["notes"] == 3


def test_reindex_rebuilds_the_postgresql_store_from_the_vault(filled_home, pg_url):
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": "", "CAIRN_STORE_URL": pg_url}
    vault = filled_home / "vault"
    boiler = next(vault.rglob("boiler.md"))
    boiler.unlink()
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(filled_home), "reindex"],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    pg = PostgresBackend(pg_url)
    try:
        assert pg.notes.counts()["notes"] == 2
        assert pg.keywords.bm25(build_match_query("boiler"), (3, 1, 2), 5) == []
        assert pg.keywords.bm25(build_match_query("heron"), (3, 1, 2), 5) != []
        assert [m["text"] for m in pg.memories.memory_rows()] == ["I am allergic to peanuts"]
    finally:
        pg.close()
