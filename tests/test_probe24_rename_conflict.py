"""probe24: `cairn note rename A1 B1` while a note titled "B1" existed succeeded: two notes
with one title, [[B1]] ambiguous, while `note create B1` is refused for the same reason. A
rename onto another note's title (any case) is now a conflict naming it, with nothing
written; a note may still take its own title in another case."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.noteops import NoteConflict
from cairn.service import Cairn


def test_a_rename_onto_another_notes_title_is_refused(tmp_path):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        a = app.note_create("A1", "alpha")
        app.note_create("B1", "beta")
        before = (app.settings.vault / a.path).read_bytes()
        with pytest.raises(NoteConflict, match="a note titled 'b1' exists already .*B1.md"):
            app.note_rename("A1", "b1")
        assert (app.settings.vault / a.path).read_bytes() == before
        assert app.find_note("A1").id == a.id
        assert app.note_rename("A1", "a1").title == "a1"  # its own title, another case
        assert app.note_rename("a1", "C1").title == "C1"
