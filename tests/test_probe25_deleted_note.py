"""probe25: a note deleted on disk stayed in the index until the next sync, and every door kept
using it: `ask` (CLI, REST under a running `cairn serve`, which does not watch the vault) cited
it — "The boathouse key is under the green pot [1]" with its file gone; `search` listed it;
`note create` of its title was refused "exists already … update it", and `note update` then
said the note was not found; `note show` on a vault emptied on disk printed "error:
/abs/path/Boathouse.md: no such file or directory". Now a search (and so an answer) leaves out
hits whose file is gone, with a warning naming them and `cairn sync`; a title held by a note
whose file is gone is freed by reconciling first (as `note show` did already); a file sync
keeps indexed (an emptied vault) is named as gone."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from conftest import home_with_notes
from cairn.errors import Conflict, NotFound
from cairn.interfaces.rest.app import create_app
from cairn.ops import search as search_ops
from cairn.service import Cairn

KEY = "The boathouse key is under the green pot."


def _home(tmp_path, embedder):
    return home_with_notes(tmp_path, embedder, {"Boathouse": KEY, "Garden": "The garden hose hangs in the shed."})


def test_ask_and_search_leave_out_a_note_deleted_on_disk(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    with Cairn(home, embedder=real_embedder) as app:
        assert app.ask("where is the boathouse key", llm="none").verdict == "pass"
        (home / "vault" / "Boathouse.md").unlink()
        ans = app.ask("where is the boathouse key", llm="none")
        res = app.search("boathouse key")
        listed = {n["path"] for n in app.notes_list()["notes"]}
    assert not any(c["path"] == "Boathouse.md" for c in ans.citations), ans.answer
    assert "green pot" not in ans.answer
    assert not any(h.path == "Boathouse.md" for h in res.hits)
    assert listed == {"Garden.md"}  # session 26: the read followed the delete (test_probe26_moved_note.py)


def test_the_filter_is_what_leaves_it_out(tmp_path, real_embedder, monkeypatch):
    """Without gone_notes (the fault) the deleted note is cited."""
    monkeypatch.setattr(search_ops, "gone_notes", lambda vault, hits: set())
    home = _home(tmp_path, real_embedder)
    with Cairn(home, embedder=real_embedder) as app:
        (home / "vault" / "Boathouse.md").unlink()
        ans = app.ask("where is the boathouse key", llm="none")
    assert any(c["path"] == "Boathouse.md" for c in ans.citations)


def test_rest_ask_under_serve_does_not_cite_a_deleted_note(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    with TestClient(create_app(home, embedder=real_embedder), base_url="http://127.0.0.1",
                    client=("127.0.0.1", 50000)) as c:
        body = json.dumps({"question": "where is the boathouse key", "llm": "none"})
        before = c.post("/api/ask", content=body, headers={"content-type": "application/json"}).json()
        (home / "vault" / "Boathouse.md").unlink()
        after = c.post("/api/ask", content=body, headers={"content-type": "application/json"}).json()
        hits = c.get("/api/search", params={"q": "boathouse key"}).json()
    assert [x["path"] for x in before["citations"]] == ["Boathouse.md"]
    assert after["citations"] == [] and after["verdict"] == "abstain", after
    assert "Boathouse.md" not in json.dumps(hits)


def test_a_title_whose_file_was_deleted_can_be_created_again(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    (home / "vault" / "Boathouse.md").unlink()
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boathouse", "The key is now in the kitchen drawer.")
        assert "kitchen drawer" in app.note_show("Boathouse")["body"]
        assert "Garden.md" in {n["path"] for n in app.notes_list()["notes"]}  # nothing else lost


def test_rename_onto_the_title_of_a_deleted_note(tmp_path, real_embedder):
    home = _home(tmp_path, real_embedder)
    (home / "vault" / "Boathouse.md").unlink()
    with Cairn(home, embedder=real_embedder) as app:
        app.note_rename("Garden", "Boathouse")
        assert app.note_show("Boathouse")["path"] == "Garden.md"


def test_an_emptied_vault_names_the_gone_file(tmp_path, real_embedder):
    """Sync keeps the index of a vault with no notes (an unmounted drive must not wipe it): the
    note's doors say its file is gone, with no absolute path."""
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boathouse", KEY)
    (home / "vault" / "Boathouse.md").unlink()
    with Cairn(home, embedder=real_embedder) as app:
        with pytest.raises(NotFound) as shown:
            app.note_show("Boathouse")
        with pytest.raises(Conflict) as created:
            app.note_create("Boathouse", "again")
    for exc in (shown.value, created.value):
        assert "Boathouse.md" in str(exc) and "gone from the vault" in str(exc) and str(home) not in str(exc)


def test_an_unmounted_vault_keeps_its_results_with_a_warning(tmp_path, real_embedder):
    """No note file left at all (a drive not mounted): sync keeps the index, and so does search,
    saying the files cannot be opened."""
    home = _home(tmp_path, real_embedder)
    for f in (home / "vault").glob("*.md"):
        f.unlink()
    with Cairn(home, embedder=real_embedder) as app:
        res = app.search("boathouse key")
    assert [h.path for h in res.hits][:1] == ["Boathouse.md"]
    assert any("holds no notes" in w and "unmounted" in w for w in res.warnings), res.warnings
