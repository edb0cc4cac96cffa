"""Session 26 (probe26): `PUT /api/notes/{ref}` had no `expected_hash` (the service and the web
editor had it; REST refused the key as extra), so two REST clients editing one note overwrote each
other's text without a word. The body now takes the `file_hash` GET /api/notes/{ref} gave: a file
changed since is 409 and nothing is written."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cairn.interfaces.rest.app import create_app


def test_a_stale_expected_hash_is_a_conflict_and_writes_nothing(tmp_path, real_embedder):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with TestClient(create_app(home, embedder=real_embedder), base_url="http://127.0.0.1",
                    client=("127.0.0.1", 50000)) as c:
        assert c.post("/api/notes", json={"title": "Boat", "body": "The oars are in the shed."}).status_code == 201
        first = c.get("/api/notes/Boat").json()["file_hash"]
        ok = c.put("/api/notes/Boat", json={"body": "The oars are in the garage.", "expected_hash": first})
        stale = c.put("/api/notes/Boat", json={"body": "The oars are lost.", "expected_hash": first})
        bad = c.put("/api/notes/Boat", json={"body": "x", "expected_hash": "nothex"})
        body = c.get("/api/notes/Boat").json()["body"]
    assert ok.status_code == 200, ok.text
    assert stale.status_code == 409 and "changed" in stale.json()["message"], stale.text
    assert bad.status_code == 400 and "expected_hash" in bad.json()["message"], bad.text
    assert body == "The oars are in the garage."
