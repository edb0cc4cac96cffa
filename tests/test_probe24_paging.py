"""probe24: a page offset past SQLite's 64-bit integers (`GET /api/notes?offset=10**23`, the web
page's `/notes?offset=`, an MCP resources cursor) raised OverflowError: a 500 "internal error".
An offset past the last note is an empty page, however large."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cairn.interfaces.rest.app import create_app
from cairn.service import Cairn

HUGE = 10**23


def test_a_huge_offset_is_an_empty_page(tmp_path, real_embedder):
    with Cairn(tmp_path / "home", embedder=real_embedder) as app:
        app.note_create("Heron", "The heron nests by the mill pond.")
        page = app.notes_list(offset=HUGE)
        assert page["total"] == 1 and page["notes"] == [] and page["offset"] == HUGE
        assert app.notes_list(offset=2**63 - 1)["notes"] == []
        assert [n["title"] for n in app.notes_list()["notes"]] == ["Heron"]


def test_rest_and_web_answer_a_huge_offset(tmp_path, real_embedder):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Heron", "The heron nests by the mill pond.")
    with TestClient(create_app(home, embedder=real_embedder), base_url="http://127.0.0.1",
                    client=("127.0.0.1", 50000)) as c:
        r = c.get(f"/api/notes?offset={HUGE}")
        assert r.status_code == 200, r.text
        assert r.json()["notes"] == [] and r.json()["total"] == 1
        assert c.get(f"/notes?offset={HUGE}").status_code == 200
        assert "Heron" in c.get("/notes").text
