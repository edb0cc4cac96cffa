"""`cairn import enex`: ENML text, tags, times, links to other notes as wikilinks, resources
(base64, matched by MD5) kept and read; idempotent; a truncated file is refused and loses nothing."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import enex_note, imported_notes, vault_snapshot, write_enex

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cf"
                    "c0f01f0005000200fe0a7f0c1c0000000049454e44ae426082")
NOTES = [
    enex_note("Garden plan", '<div>Plant <b>kale</b> in plot 14.</div>{md5:plot.png}<div>See '
              '<a href="evernote:///view/123/s1/abc/abc/">Seed list</a>.</div>{md5:seeds.txt}',
              tags=["garden", "2025"], resources=[("plot.png", PNG, "image/png"),
                                                  ("seeds.txt", b"Lacinato kale, ruby chard\n", "text/plain")]),
    enex_note("Seed list", "<div>Order from the Hillside co-op.</div>", created="20250302T080000Z"),
    enex_note("", ""),
]


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("enex")
    path = write_enex(tmp / "My Notes.enex", NOTES)
    with Cairn(tmp / "home", embedder=HashEmbedder()) as app:
        yield app, tmp, path, app.import_export("enex", path)


def test_notes_links_and_attachments(imported):
    app, _, _, r = imported
    assert (len(r.added), len(r.skipped)) == (2, 1)
    fm, text = imported_notes(app, "enex")["Garden plan"]
    assert fm["tags"] == ["garden", "2025"] and fm["created"] == "2025-03-01T10:10:10Z"
    assert "kale" in text and "[[Seed list]]" in text and "[attachment: plot.png]" in text
    assert "## Attachment: seeds.txt" in text and "ruby chard" in text
    kept = [app.settings.vault / f for f in fm["files"]]
    assert kept[0].read_bytes() == PNG and kept[0].suffix == ".png"
    [link] = app.links(app.search("kale", mode="keyword").hits[0].note_id).outgoing
    assert link.target == "Seed list" and link.kind == "resolved"


def test_reimport_and_truncated(imported, tmp_path):
    app, _, path, _ = imported
    assert app.import_export("enex", path).to_json()["counts"]["unchanged"] == 2
    before = vault_snapshot(app)
    data = path.read_bytes()
    cut = tmp_path / "cut.enex"
    cut.write_bytes(data[: len(data) - 200])
    with pytest.raises(InvalidInput, match="truncated") as err:
        app.import_export("enex", cut)
    assert str(cut) in err.value.message
    html = tmp_path / "page.enex"
    html.write_text("<html><body>hi</body></html>")
    with pytest.raises(InvalidInput, match="not an Evernote export"):
        app.import_export("enex", html)
    assert vault_snapshot(app) == before
