"""Captures from the browser (highlights, bookmarks, quick notes) become tagged notes; bad
input is refused with the reason and stores nothing."""

from __future__ import annotations

import pytest

from cairn.capture import capture_note
from cairn.errors import InvalidInput, TooLarge
from cairn.tools import registry


def test_capture_kinds_become_tagged_notes(app):
    h = app.capture("highlight", "https://example.org/birds", "Herons nest in tall alders.\nThey return in March.",
                    "Birds of the valley", "check in spring")
    b = app.capture("bookmark", "https://example.org/ferns", title="Fern guide")
    n = app.capture("note", "https://example.org/x", comment="ask Ana about this page")
    notes = {x["id"]: x for x in app.notes_list(tag="capture")["notes"]}
    assert set(notes) == {h.id, b.id, n.id}
    assert "highlight" in notes[h.id]["tags"] and notes[h.id]["path"].startswith("captures/")
    body = app.note_show(h.id)["body"]
    assert "> Herons nest in tall alders.\n> They return in March." in body
    assert "[Birds of the valley](https://example.org/birds)" in body and "check in spring" in body
    hits = app.search("herons alders", mode="keyword").hits
    assert hits[0].note_id == h.id
    # the same highlight twice is the same title: refused, nothing duplicated
    with pytest.raises(ValueError):
        app.capture("highlight", "https://example.org/birds", "Herons nest in tall alders.\nThey return in March.",
                    "Birds of the valley", "check in spring")
    assert app.notes_list(tag="capture")["total"] == 3


@pytest.mark.parametrize("kind, url, text, err", [
    ("quote", "https://a.org", "x", "kind must be"),
    ("highlight", "file:///etc/passwd", "x", "http(s) URL"),
    ("highlight", "javascript:alert(1)", "x", "http(s) URL"),
    ("highlight", "https://a.org", "", "needs the selected text"),
    ("note", "https://a.org", "", "needs some text"),
])
def test_bad_captures_are_refused(kind, url, text, err):
    with pytest.raises(InvalidInput, match=err.replace("(", r"\(").replace(")", r"\)")):
        capture_note(kind, url, text)
    with pytest.raises(TooLarge):
        capture_note("highlight", "https://a.org", "x" * 100_001)


def test_capture_tool_validates_before_writing(app):
    reg = registry()
    with pytest.raises(InvalidInput):
        reg.call(app, "capture", {"kind": "highlight", "url": "ftp://a.org", "text": "x"})
    assert app.notes_list()["total"] == 0
    out = reg.call(app, "capture", {"kind": "bookmark", "url": "https://a.org/p", "title": "P"})
    assert out["action"] == "created" and reg.get("capture").risk == "medium"


def test_a_highlight_ranks_above_a_page_visit_with_the_same_words(app, tmp_path):
    """The source boost (cairn.graph.signal): what the person highlighted outranks a page
    they only visited, when both say the same thing."""
    from cairn.graph.signal import source_score
    page = tmp_path / "heron-page.html"
    page.write_text("<html><head><title>Heron page</title></head><body><p>Grey herons nest in tall alders "
                    "near the river and return in March.</p></body></html>")
    others = ["Swallows nest under the barn roof every summer.", "The river floods the lower meadow in February.",
              "Alders grow fast in wet ground near water.", "Kingfishers dig nest tunnels in sandy river banks.",
              "Ducks gather on the mill pond in winter.", "March is when the frogs spawn in the ditch."]
    for i, text in enumerate(others):
        (tmp_path / f"o{i}.md").write_text(f"# Note {i}\n\n{text}\n")
    app.ingest([page] + [tmp_path / f"o{i}.md" for i in range(len(others))])
    h = app.capture("highlight", "https://example.org/herons", "Grey herons nest in tall alders near the river "
                    "and return in March.", "Heron notes")
    hits = app.search("where do grey herons nest", mode="hybrid").hits
    assert hits[0].note_id == h.id and hits[0].signals["source"] == 1.0
    assert [x.signals["source"] for x in hits[1:2]] == [0.3]
    assert source_score("html", "https://example.org/herons", []) == 0.0  # a page fetched from the web
