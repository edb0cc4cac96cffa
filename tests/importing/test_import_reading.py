"""`cairn import bookmarks|kindle|readwise`: bookmarks with folders and tags, Kindle
clippings and Readwise highlights as one note per book; idempotent; a later export with a
new highlight updates only that book; other formats are refused naming the file."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from conftest import write
from export_fixtures import BOOKMARKS, CLIPPINGS, imported_notes, vault_snapshot, write_readwise


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with Cairn(tmp_path_factory.mktemp("reading") / "home", embedder=HashEmbedder()) as a:
        yield a


def test_bookmarks(app, tmp_path):
    path = write(tmp_path / "bookmarks.html", BOOKMARKS)
    r = app.import_export("bookmarks", path)
    assert len(r.added) == 2 and len(r.skipped) == 2  # a javascript: link, a duplicate URL
    notes = imported_notes(app, "bookmarks")
    fm, text = notes["Heron nesting & alders"]
    assert fm["url"] == "https://example.org/herons" and fm["tags"] == ["birds", "rivers"]
    assert fm["folder"] == "Bookmarks bar" and "where grey herons nest" in text
    assert fm["created"] == "2023-11-14T22:16:40Z"
    assert notes["Rye sourdough — café style"][0]["folder"] == "Bookmarks bar / Recipes"
    again = app.import_export("bookmarks", path)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 2)


def test_kindle_clippings_one_note_per_book(app, tmp_path):
    path = write(tmp_path / "documents" / "My Clippings.txt", CLIPPINGS)
    r = app.import_export("kindle", tmp_path / "documents")
    assert len(r.added) == 2
    fm, text = imported_notes(app, "kindle")["The River Book"]
    assert fm["author"] == "Ana Ribeiro" and fm["source_id"] == "The River Book (Ana Ribeiro)"
    assert "> Herons return to the alders in March." in text and "check the gauge" in text
    assert fm["created"] == "2025-03-03T09:41:07Z"
    more = write(tmp_path / "later.txt", CLIPPINGS + "Bread Basics (Tom Baker)\n- Your Highlight on Location 60 | "
                 "Added on Tuesday, March 4, 2025 8:05:00 PM\n\nSalt slows the starter.\n==========\n")
    again = app.import_export("kindle", more)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 1, 1)
    cut = write(tmp_path / "cut.txt", CLIPPINGS + "Bread Basics (Tom Baker)\n- Your Highlight on Loc")
    with pytest.raises(InvalidInput, match="truncated"):
        app.import_export("kindle", cut)


def test_readwise_csv(app, tmp_path):
    rows = [{"Highlight": "Herons return in March.", "Book Title": "The River Book", "Book Author": "Ana Ribeiro",
             "Note": "compare with 2024", "Tags": "birds", "Location Type": "location", "Location": "170",
             "Highlighted at": "2025-03-03 09:41:07+00:00"},
            {"Highlight": "", "Book Title": "Empty"},
            {"Highlight": "Stone walls hold heat.", "Book Title": "Old Farms", "Book Author": "Li Wei",
             "Highlighted at": "2025-04-01 10:00:00+00:00"}]
    path = write_readwise(tmp_path / "readwise-data.csv", rows)
    r = app.import_export("readwise", path)
    assert (len(r.added), len(r.skipped)) == (2, 1)
    fm, text = imported_notes(app, "readwise")["The River Book"]
    assert fm["source_id"] == "The River Book — Ana Ribeiro" and "Note: compare with 2024" in text
    assert "birds" in fm["tags"] and fm["created"] == "2025-03-03T09:41:07Z"
    assert app.import_export("readwise", path).to_json()["counts"]["unchanged"] == 2


def test_other_formats_are_refused(app, tmp_path):
    before = vault_snapshot(app)
    other = write(tmp_path / "x.csv", "name,age\nAna,3\n")
    for source in ("readwise", "kindle", "bookmarks"):
        with pytest.raises(InvalidInput) as err:
            app.import_export(source, other)
        assert str(other) in err.value.message
    assert vault_snapshot(app) == before


@pytest.mark.parametrize("source,name,text,missing", [
    ("kindle", "My Clippings.txt", CLIPPINGS, "no My Clippings.txt"),
    ("ics", "cal.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", "no .ics file"),
    ("enex", "notes.enex", "<?xml version='1.0'?><en-export></en-export>", "no .enex file"),
])
def test_a_folder_import_does_not_follow_a_symlink_out_of_the_folder(tmp_path, source, name, text, missing):
    outside = write(tmp_path / "elsewhere" / name, text)
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / name).symlink_to(outside)
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        with pytest.raises(InvalidInput, match=missing):
            app.import_export(source, folder)
