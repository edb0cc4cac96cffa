"""hygiene27's new-user trial: MCP `ingest_text` (and `cairn capture`-like callers of
Cairn.ingest_text) of a text holding a NUL, without a title, said "the note title 'a\\x00b' holds
control characters (U+0000)": the person gave no title, the title is made from the text's first
line. A title made from the text now leaves control characters out, and the text itself is
refused by name, nothing written."""

from __future__ import annotations

import pytest

from cairn.errors import InvalidInput


def test_ingest_text_without_a_title_names_the_nul_in_the_text(app):
    with pytest.raises(InvalidInput) as err:
        app.ingest_text("a\x00b")
    msg = str(err.value)
    assert msg.startswith("the note body holds a NUL character (U+0000)") and "title" not in msg, msg
    assert app.notes_list()["total"] == 0


def test_a_title_made_from_the_text_leaves_control_characters_out(app):
    note = app.ingest_text("\x1b[1mKiln\x07 schedule\nFire on Tuesday.")
    assert note.title == "[1mKiln schedule", note.title  # ESC and BEL left out, runs of space as one
