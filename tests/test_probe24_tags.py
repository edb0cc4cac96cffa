"""probe24: `cairn note create T --tag "" --tag "  "` (also REST `POST /api/notes` and MCP
`create_note` with tags ["", " "]) wrote `tags: ['', '  ']` into the note's file while the
index read no tags; a tag holding a line break was written as a two-line YAML string and
indexed with it; "#x" went to the file while the index holds "x". A new note's tags are now
written as the index reads them, and a blank tag or one with a control character is refused,
named, with nothing written."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from cairn.vault import split_frontmatter


@pytest.mark.parametrize("tags, words", [
    (["ok", ""], ("tag 2", "empty")),
    ([" "], ("tag 1", "empty")),
    (["#"], ("tag 1", "empty")),
    (["a\nb"], ("tag 1", "U+000A")),
    (["x\x1b[2J"], ("tag 1", "U+001B")),
])
def test_a_blank_or_control_tag_is_refused_and_nothing_is_written(tmp_path, tags, words):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        with pytest.raises(InvalidInput) as err:
            app.note_create("Heron", "The heron nests by the mill pond.", tags=tags)
        for w in words:
            assert w in str(err.value)
        assert not (app.settings.vault / "Heron.md").exists()
        assert app.notes_list()["total"] == 0


def test_the_file_holds_the_tags_the_index_reads(tmp_path):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        note = app.note_create("Heron", "The heron nests.", tags=[" birds ", "#pond", "Birds", "a,b"])
        fm, _ = split_frontmatter((app.settings.vault / note.path).read_text(encoding="utf-8"))
        assert fm["tags"] == ["birds", "pond", "a,b"]
        assert app.note_show("Heron")["tags"] == fm["tags"]
        app.reindex()
        assert app.note_show("Heron")["tags"] == fm["tags"]
