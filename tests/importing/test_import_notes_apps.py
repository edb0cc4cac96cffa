"""`cairn import keep|notion`: Google Keep Takeout notes (text, checklists, labels, shared
people, attachments; trash skipped) and a Notion Markdown & CSV export (pages, links between
pages as wikilinks, databases); idempotent; a broken zip or another export is refused."""

from __future__ import annotations

import json

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import imported_notes, keep_note, vault_snapshot, write_zip

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
A, B, D = "a" * 32, "b" * 32, "d" * 32


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with Cairn(tmp_path_factory.mktemp("apps") / "home", embedder=HashEmbedder()) as a:
        yield a


def keep_zip(path, shopping_items):
    return write_zip(path, {
        "Takeout/archive_browser.html": "<html></html>",
        "Takeout/Keep/Shopping.json": json.dumps(keep_note("Shopping", items=shopping_items, labels=["home"])),
        "Takeout/Keep/Shopping.html": "<html>Shopping</html>",
        "Takeout/Keep/Trip.json": json.dumps(keep_note("Trip", text="Ferry to Cíes at 9.", created=1_740_100_000_000_000,
                                                        attachments=["Trip.png"], sharees=["ben@example.org"])),
        "Takeout/Keep/Trip.png": PNG,
        "Takeout/Keep/Old.json": json.dumps(keep_note("Old", text="gone", created=1_700_000_000_000_000, trashed=True)),
        "Takeout/Keep/Broken.json": "{not json",
        "Takeout/Keep/Deep.json": "[" * 100_000 + "]" * 100_000,
    })


def test_keep_takeout(app, tmp_path):
    path = keep_zip(tmp_path / "takeout-20250301.zip", [("rye flour", False), ("eggs", True)])
    r = app.import_export("keep", path)
    assert (len(r.added), len(r.skipped)) == (2, 3)
    assert any("Deep.json" in name and "nested too deeply" in why for name, why in r.skipped)
    notes = imported_notes(app, "keep")
    fm, text = notes["Shopping"]
    assert "- [ ] rye flour" in text and "- [x] eggs" in text and fm["tags"] == ["home"]
    assert fm["created"] == "2025-02-19T21:20:00Z"
    trip = notes["Trip"][0]
    assert trip["people"] == ["ben@example.org"] and (app.settings.vault / trip["files"][0]).read_bytes() == PNG
    changed = keep_zip(tmp_path / "later.zip", [("rye flour", True), ("eggs", True)])
    again = app.import_export("keep", changed)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 1, 1)


def notion_zip(path, extra_row=False):
    rows = "Name,Status\nPlant kale,Done\n" + ("Order seeds,Todo\n" if extra_row else "")
    return write_zip(path, {
        f"Garden {A}.md": f"# Garden\n\nPlot 14 at Hillside. See [Seeds](Garden%20{A}/Seeds%20{B}.md) and "
                          f"[site](https://example.org).\n\n![plot](Garden%20{A}/plot.png)\n",
        f"Garden {A}/Seeds {B}.md": f"# Seeds\n\nLacinato kale from the co-op. Back to [Garden](../Garden%20{A}.md).\n",
        f"Garden {A}/plot.png": PNG,
        f"Garden {A}/Tasks {D}.csv": "Name,Status\nPlant kale,Done\n",
        f"Garden {A}/Tasks {D}_all.csv": rows,
    })


def test_notion_export(app, tmp_path):
    path = notion_zip(tmp_path / "Export-1234.zip")
    r = app.import_export("notion", path)
    assert len(r.added) == 3
    notes = imported_notes(app, "notion")
    fm, text = notes["Garden"]
    assert fm["source_id"] == A and "[[Seeds]]" in text and "[site](https://example.org)" in text
    assert "[attachment: plot.png]" in text and fm["files"]
    assert "[[Garden]]" in notes["Seeds"][1]
    assert "| [[Plant kale]] | Done |" in notes["Tasks"][1]
    garden_id = app.search("Hillside", mode="keyword").hits[0].note_id
    [seeds] = [v for v in app.links(garden_id).outgoing if v.target == "Seeds"]
    assert seeds.kind == "resolved" and seeds.resolved_path.startswith("imports/notion/")
    again = app.import_export("notion", notion_zip(tmp_path / "Export-5678.zip", extra_row=True))
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 1, 2)


def test_broken_zip_and_wrong_export(app, tmp_path):
    before = vault_snapshot(app)
    data = notion_zip(tmp_path / "n.zip").read_bytes()
    cut = tmp_path / "cut.zip"
    cut.write_bytes(data[: len(data) // 2])
    for source in ("notion", "keep"):
        with pytest.raises(InvalidInput, match="zip") as err:
            app.import_export(source, cut)
        assert str(cut) in err.value.message
    with pytest.raises(InvalidInput, match="no Google Keep notes"):
        app.import_export("keep", tmp_path / "n.zip")
    inner = write_zip(tmp_path / "split.zip", {f"Page {B}.md": "# Page\n\nhello\n", "Part-2.zip": b"PK\x03\x04garbage"})
    with pytest.raises(InvalidInput, match="Part-2.zip") as err:
        app.import_export("notion", inner)
    assert str(inner) in err.value.message and "zip" in err.value.message
    assert vault_snapshot(app) == before


@pytest.mark.parametrize("field", ["labels", "listContent", "attachments", "sharees", "annotations"])
def test_a_keep_note_with_a_field_of_the_wrong_type_is_still_read(tmp_path, field):
    note = {**keep_note("Odd", text="Oil the gate hinge."), field: 5}
    path = write_zip(tmp_path / "takeout.zip", {"Takeout/Keep/Odd.json": json.dumps(note)})
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        assert len(app.import_export("keep", path).added) == 1
        assert "gate hinge" in imported_notes(app, "keep")["Odd"][1]
