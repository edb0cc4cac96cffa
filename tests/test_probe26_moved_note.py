"""Session 26 (probe26): a note moved on disk (in an editor, a file manager) was left out of
`search` and `ask` until `cairn sync` (its old path gone, its new one not indexed), and `note
list` / GET /api/notes / `cairn links` listed a note whose file was deleted. A read that meets a
note whose file is gone now reconciles the vault first (the REST server on its writer thread)
and asks again: the moved note is found under its new path, the deleted one is not listed."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from conftest import home_with_notes
from cairn.interfaces.rest.app import create_app
from cairn.service import Cairn

KEY = "The boathouse key is under the green pot."


def _home(tmp_path, embedder):
    return home_with_notes(tmp_path, embedder, {"Boathouse": KEY + " See [[Garden]].",
                                                "Garden": "The garden hose hangs in the shed. [[Boathouse]]",
                                                "Shed": "The shed is painted green."})


def _move(home):
    (home / "vault" / "places").mkdir()
    (home / "vault" / "Boathouse.md").rename(home / "vault" / "places" / "Boathouse.md")


def test_search_and_ask_find_a_note_moved_on_disk(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    _move(home)
    with Cairn(home, embedder=real_embedder) as app:
        res = app.search("boathouse key")
        ans = app.ask("where is the boathouse key", llm="none")
    assert [h.path for h in res.hits][:1] == ["places/Boathouse.md"], [h.path for h in res.hits]
    assert any("followed 1 note file" in w and "Boathouse.md" in w for w in res.warnings), res.warnings
    assert [c["path"] for c in ans.citations] == ["places/Boathouse.md"] and "green pot" in ans.answer


def test_lists_and_links_leave_out_a_deleted_file_and_follow_a_move(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    _move(home)
    (home / "vault" / "Shed.md").unlink()
    with Cairn(home, embedder=real_embedder) as app:
        listed = {n["path"] for n in app.notes_list()["notes"]}
        links = app.links("Garden")
    assert listed == {"Garden.md", "places/Boathouse.md"}
    assert [v.resolved_path for v in links["outgoing"]] == ["places/Boathouse.md"]
    assert [v.source_path for v in links["backlinks"]] == ["places/Boathouse.md"]


def test_rest_under_serve_follows_a_move_and_a_delete(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    with TestClient(create_app(home, embedder=real_embedder), base_url="http://127.0.0.1",
                    client=("127.0.0.1", 50000)) as c:
        assert c.get("/api/notes").json()["total"] == 3
        _move(home)
        (home / "vault" / "Shed.md").unlink()
        page = c.get("/api/notes").json()
        hits = c.get("/api/search", params={"q": "boathouse key"}).json()
        body = json.dumps({"question": "where is the boathouse key", "llm": "none"})
        ans = c.post("/api/ask", content=body, headers={"content-type": "application/json"}).json()
    assert page["total"] == 2 and {n["path"] for n in page["notes"]} == {"Garden.md", "places/Boathouse.md"}
    assert "places/Boathouse.md" in json.dumps(hits)
    assert [x["path"] for x in ans["citations"]] == ["places/Boathouse.md"], ans


def test_a_note_written_on_disk_is_found_by_reference_before_any_sync(tmp_path, real_embedder):
    """MCP `get_note` / `update_note` of a note saved in an editor since the last sync: "no note
    with id, path, title or alias" (only a note whose indexed file was gone was followed)."""
    home = _home(tmp_path, real_embedder)
    (home / "vault" / "Pantry.md").write_text("# Pantry\n\nThe flour is on the top shelf.\n")
    with Cairn(home, embedder=real_embedder) as app:
        shown = app.note_show("Pantry.md")
        app.note_update("Pantry", "And the sugar beside it.", mode="append")
        links = app.links("Pantry")
    assert "top shelf" in shown["body"] and links["note"]["path"] == "Pantry.md"
    assert "sugar beside it" in (home / "vault" / "Pantry.md").read_text()
