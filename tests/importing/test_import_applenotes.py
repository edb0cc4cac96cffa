"""`cairn import applenotes`: Apple Notes exported by notes-exporter (data/ records with ids and
AppleScript dates, html/ with attachments) or as a plain folder of markdown/HTML notes with a
folder per account and folder: titles, folders as tags, times, note links as wikilinks,
checklists, attachments; idempotent; a changed note updated; bad input refused or skipped."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import apple_notes_export, imported_notes, vault_snapshot, write_zip


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with Cairn(tmp_path_factory.mktemp("apple") / "home", embedder=HashEmbedder()) as a:
        yield a


def test_notes_exporter_folder(app, tmp_path):
    root = apple_notes_export(tmp_path / "AppleNotesExport")
    r = app.import_export("applenotes", root)
    assert (len(r.added), len(r.skipped)) == (2, 1)
    assert "Latin1-4161.html" in r.skipped[0][0] and "UTF-8" in r.skipped[0][1]
    notes = imported_notes(app, "applenotes")
    fm, text = notes["Lentil soup"]
    assert fm["source_id"] == "x-coredata://AB12/ICNote/p4159" and fm["folder"] == "iCloud-Recipes"
    assert fm["tags"] == ["icloud-recipes"]
    assert fm["created"] == "2025-01-06T09:00:00Z" and fm["updated"] == "2025-01-07T18:30:15Z"
    assert "[[Market list]]" in text and "[Dal site](https://example.org/dal)" in text
    assert "[attachment: Lentil-soup-4159-attachment-001.png]" in text and fm["files"]
    mfm, mtext = notes["Market list"]
    assert mfm["source_id"] == "iCloud-Recipes/4160" and mfm["created"] == "2025-01-08T08:15:00Z"
    assert "- [x] red lentils" in mtext and "- [ ] cumin" in mtext
    soup_id = app.search("lentils simmer", mode="keyword").hits[0].note_id
    [link] = [v for v in app.links(soup_id).outgoing if v.target == "Market list"]
    assert link.kind == "resolved"
    # the same export again adds nothing; a changed note is updated and reported
    again = app.import_export("applenotes", root)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 2)
    apple_notes_export(root, recipe_text="Simmer the lentils for 30 minutes with bay leaves.")
    changed = app.import_export("applenotes", root)
    assert (len(changed.added), len(changed.updated), len(changed.unchanged)) == (0, 1, 1)
    assert "Lentil soup" in changed.updated[0] and "bay leaves" in imported_notes(app, "applenotes")["Lentil soup"][1]


def test_markdown_folder_zip_and_bad_input(app, tmp_path):
    md = ("---\ntitle: Ferry times\ncreated: 2025-03-01T08:00:00Z\nmodified: 2025-03-02T09:00:00Z\n---\n"
          "Ferry to the island leaves at 9:10. See [Harbour notes](Harbour%20notes.md) and ![map](map.pdf).\n"
          "Fares: [table](fares.csv).\n")
    path = write_zip(tmp_path / "notes.zip", {
        "Notes/On My Mac/Travel/Ferry times.md": md,
        "Notes/On My Mac/Travel/Ferry times.html": "<div>Ferry times (html copy)</div>",
        "Notes/On My Mac/Travel/Harbour notes.md": "# Harbour notes\n\nThe harbour master is Ines.\n",
        "Notes/On My Mac/Travel/map.pdf": b"%PDF-1.4 not really a pdf",
        "Notes/On My Mac/Travel/fares.csv": "route,fare\nisland,4.50 EUR\n",
    })
    r = app.import_export("applenotes", path)
    assert len(r.added) == 2
    fm, text = imported_notes(app, "applenotes")["Ferry times"]
    assert fm["source_id"] == "Notes/On My Mac/Travel/Ferry times" and fm["tags"] == ["notes/on-my-mac/travel"]
    assert fm["created"] == "2025-03-01T08:00:00Z" and fm["updated"] == "2025-03-02T09:00:00Z"
    assert "[[Harbour notes]]" in text and "[attachment: map.pdf]" in text and "html copy" not in text
    assert "## Attachment: fares.csv" in text and "4.50 EUR" in text  # read by the ingest parsers
    assert app.import_export("applenotes", path).to_json()["counts"]["unchanged"] == 2
    before = vault_snapshot(app)
    cut = tmp_path / "cut.zip"
    cut.write_bytes(path.read_bytes()[:60])
    with pytest.raises(InvalidInput, match="not a readable zip") as err:
        app.import_export("applenotes", cut)
    assert str(cut) in err.value.message
    empty = tmp_path / "photos"
    empty.mkdir()
    (empty / "a.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(InvalidInput, match="not an Apple Notes export"):
        app.import_export("applenotes", empty)
    broken = apple_notes_export(tmp_path / "broken")
    (broken / "data" / "iCloud-Recipes.json").write_text('{"4159": {"filename": ')
    with pytest.raises(InvalidInput, match=r"iCloud-Recipes.json: not readable notes-exporter data"):
        app.import_export("applenotes", broken)
    assert vault_snapshot(app) == before


def test_a_note_notes_exporter_marked_deleted_is_left_out(tmp_path):
    from cairn.ingest.importing import applenotes
    root = apple_notes_export(tmp_path / "export", deleted=True)
    titles = [x.title for x in applenotes.read(root) if not isinstance(x, applenotes.Skip)]
    assert titles == ["Lentil soup"]
    assert applenotes.apple_date("Tuesday, 7 January 2025 at 18:30:15") == "2025-01-07T18:30:15Z"
    assert applenotes.apple_date("no date") is None
