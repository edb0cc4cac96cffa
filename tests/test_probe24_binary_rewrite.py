"""probe24: a note whose file became binary data outside Cairn (another program wrote over
it) was still rewritten: `PUT /api/notes/X {"mode": "append"}` (`cairn note update`)
appended to the binary file and then answered 400 "binary data (NUL bytes), not text", the
file changed all the same; `note mark` (REST `/mark`), `note rename` and `enrich` rewrote it
as UTF-8 with U+FFFD for every byte no decoding fits, destroying those bytes, and answered
200. Each is now a Conflict naming the note, and the file keeps its bytes."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import Conflict
from cairn.service import Cairn

BINARY = b"\x00\x01\x02\xff\xfe binary now \x00\x9c"


@pytest.mark.parametrize("change", [
    lambda app: app.note_update("Heron", "more", "append"),
    lambda app: app.note_update("Heron", "new text", "overwrite"),
    lambda app: app.note_mark("Heron", "read"),
    lambda app: app.note_rename("Heron", "Heron 2"),
    lambda app: app.enrich("Heron", llm="none"),
], ids=["append", "overwrite", "mark", "rename", "enrich"])
def test_a_note_turned_binary_on_disk_is_not_rewritten(tmp_path, change):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        note = app.note_create("Heron", "The heron nests by the mill pond.")
        path = app.settings.vault / note.path
        path.write_bytes(BINARY)
        with pytest.raises(Conflict, match="Heron.md: the file is not text now"):
            change(app)
        assert path.read_bytes() == BINARY


def test_a_utf16_note_is_still_rewritten(tmp_path):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        note = app.note_create("Heron", "The heron nests.")
        path = app.settings.vault / note.path
        path.write_bytes("---\ntitle: Heron\n---\n\nCafé by the pond.\n".encode("utf-16"))
        app.note_update("Heron", "More.", "append")
        assert "Café by the pond." in path.read_text(encoding="utf-16") and "More." in path.read_text(encoding="utf-16")
