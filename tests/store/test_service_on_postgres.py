"""The whole service on PostgreSQL: with CAIRN_STORE_URL set, ingest, search (keyword,
semantic, hybrid), ask, remember/recall, sync, reindex and status run on the PostgreSQL
store end to end, and no SQLite index is created in the home. An index operation with no
PostgreSQL implementation fails naming itself, never falls back to SQLite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.errors import Unavailable
from cairn.service import Cairn
from cairn.store import db
from cairn.store.postgres import PostgresBackend

SRC = str(Path(__file__).resolve().parents[2] / "src")
TOPICS = [("Herons", "The grey heron hunts fish at dawn by the mill pond."),
          ("Boiler", "The boiler was serviced on 3 March; the pressure is 1.5 bar."),
          ("Passport", "My passport expires in June 2031; it is kept in the blue folder."),
          ("Tomatoes", "Tomato seedlings go into the greenhouse after the last frost in May."),
          ("Bicycle", "The bicycle chain was oiled and the rear brake pads replaced."),
          ("Lakes", "Lakes freeze in January. See [[Herons]].")]


@pytest.fixture
def pg_home(tmp_path, pg_url, monkeypatch):
    monkeypatch.setenv("CAIRN_STORE_URL", pg_url)
    src = tmp_path / "in"
    src.mkdir()
    for title, body in TOPICS:
        (src / f"{title.lower()}.md").write_text(f"# {title}\n\n{body}\n")
    return tmp_path / "home", src


def test_the_whole_pipeline_runs_on_postgresql(pg_home, pg_url, hash_embedder):
    home, src = pg_home
    with Cairn(home, embedder=hash_embedder) as app:
        assert app.on_postgres
        report = app.ingest([src])
        assert len(report.added) == len(TOPICS) and not report.failed
        status = app.status().to_json()
        assert status["backend"] == "postgresql" and status["index"].startswith("postgresql://")
        assert status["notes"] == len(TOPICS) and status["missing_vectors"] == 0
        assert status["embedded_chunks"] == status["chunks"] >= len(TOPICS)
        for mode in ("keyword", "semantic", "hybrid"):
            res = app.search("boiler pressure serviced", mode=mode, k=3)
            assert res.hits and res.hits[0].title == "Boiler", (mode, [h.title for h in res.hits])
        assert app.search("passport", mode="keyword", tag="nope").hits == []
        ans = app.ask("What is the boiler pressure?", llm="none")
        assert ans.citations and ans.citations[0]["path"].endswith("boiler.md") and "1.5 bar" in ans.answer
        app.remember("I am allergic to peanuts")
        assert [r.memory.text for r in app.recall("peanuts")][:1] == ["I am allergic to peanuts"]
        links = app.links("Lakes").to_json()
        assert [link["target"] for link in links["outgoing"]] == ["Herons"], links
        assert app.sync().to_json()["unchanged"] == len(TOPICS)
    # the rows are in PostgreSQL, and no SQLite index was made in the home
    assert not (home / "index.db").exists()
    pg = PostgresBackend(pg_url)
    try:
        assert pg.notes.counts()["notes"] == len(TOPICS)
        assert [m["text"] for m in pg.memories.memory_rows()] == ["I am allergic to peanuts"]
    finally:
        pg.close()

    # reindex rebuilds the PostgreSQL store from the vault: a note deleted from it is gone
    next((home / "vault").rglob("bicycle.md")).unlink()
    with Cairn(home, embedder=hash_embedder) as app:
        report = app.reindex()
        assert not report.failed
        assert app.status().to_json()["notes"] == len(TOPICS) - 1
        assert all(h.title != "Bicycle" for h in app.search("bicycle chain", mode="keyword").hits)
        assert app.search("heron", mode="hybrid").hits[0].title == "Herons"
        assert [m.text for m in app.memories()] == ["I am allergic to peanuts"]
    assert not (home / "index.db").exists()


def test_the_cli_searches_postgresql(pg_home, pg_url, hash_embedder):
    home, src = pg_home
    with Cairn(home, embedder=hash_embedder) as app:
        app.ingest([src])
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": "", "CAIRN_STORE_URL": pg_url}
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "search", "--mode", "keyword",
                        "greenhouse frost", "--json"], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hits"][0]["title"] == "Tomatoes"
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "status", "--json"],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["backend"] == "postgresql" and out["notes"] == len(TOPICS)
    assert not (home / "index.db").exists()


def test_an_operation_postgresql_lacks_names_itself(pg_home, hash_embedder):
    home, _ = pg_home
    with Cairn(home, embedder=hash_embedder) as app:
        with pytest.raises(Unavailable, match=r"db\.set_busy_timeout is not supported on the PostgreSQL store"):
            db.set_busy_timeout(app.conn, 5)
    assert not (home / "index.db").exists()


def test_a_chat_answer_on_postgresql_knows_the_turn_replied_to(tmp_path, pg_url, monkeypatch, hash_embedder):
    """store.graph.replied_to (the message a chat hit replies to, for the extractive answer)
    runs on PostgreSQL through the graph module's SQL adapter."""
    from cairn.store.graph import replied_to
    monkeypatch.setenv("CAIRN_STORE_URL", pg_url)
    rows = [("b1", "Rosa", "What did you learn from the pottery class?"),
            ("b2", "Ivo", "Patience, mostly, and how to centre the clay."),
            ("b3", "Ivo", "The kiln was hot.")]
    chat = tmp_path / "c8.jsonl"
    chat.write_text("".join(json.dumps({"conversation": "c8", "session": "s1", "id": i, "speaker": who,
                                        "time": f"2024-06-01T09:0{n}", "text": text}) + "\n"
                            for n, (i, who, text) in enumerate(rows)), encoding="utf-8")
    with Cairn(tmp_path / "home", embedder=hash_embedder) as app:
        assert app.on_postgres
        app.import_chat(chat)
        hits = app.search("pottery class clay kiln", k=5, group=False).hits
        ids = {h.source_id: int(h.id[1:]) for h in hits}
        assert set(ids) == {"b1", "b2", "b3"}
        got = replied_to(app.conn, ids.values())
        assert got == {ids["b2"]: "What did you learn from the pottery class?"}
        # ask looks the turns up for its chat hits on this store too (ops/search.py)
        ans = app.ask("What did Ivo learn from the pottery class?", llm="none")
        assert ans.answerability and ans.answerability["person"] == "Ivo"
