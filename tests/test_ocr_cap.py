"""`[ingest] max_ocr_pages`: a scanned PDF is OCR'd for its first N pages without a text
layer only; the rest are left out with one warning that names the setting. Scans are
generated with the helpers of tests/test_formats.py (Pillow text rendered into a PDF page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import write
from test_formats import make_pdf, text_image, words
from cairn.config import ConfigError, load_settings
from cairn.parse import EmptyDocument, parse_file
from cairn.service import Cairn

PAGES = [["Ferry timetable for Skerrow Island"], ["Tide table for the causeway"], ["Harbour dues for moorings"]]
STOPPED = "OCR stopped after 1 of 3 scanned pages; raise [ingest] max_ocr_pages"


@pytest.fixture(scope="module")
def scans(tmp_path_factory):
    d = tmp_path_factory.mktemp("scans")
    from PIL import Image

    blank = Image.new("RGB", (600, 300), "white")
    return {"three": make_pdf(d / "timetables.pdf", [text_image(lines) for lines in PAGES]),
            "blank_first": make_pdf(d / "blank-first.pdf", [blank, text_image(PAGES[1]), text_image(PAGES[2])])}


def test_ocr_stops_after_max_ocr_pages(scans):
    doc = parse_file(scans["three"], max_ocr_pages=1)
    assert doc.meta["ocr_pages"] == [1] and doc.meta["pages_not_ocred"] == [2, 3]
    assert doc.meta["pages_without_text"] == [2, 3] and [p.page for p in doc.pages] == [1]
    assert "skerrow island" in words(doc.body) and "causeway" not in words(doc.body)
    assert doc.warnings == [STOPPED]


def test_cap_at_or_above_the_scanned_pages_reads_them_all(scans):
    doc = parse_file(scans["three"], max_ocr_pages=3)
    assert doc.meta["ocr_pages"] == [1, 2, 3] and "pages_not_ocred" not in doc.meta
    assert doc.warnings == [] and "harbour dues" in words(doc.body)


def test_nothing_read_before_the_cap_is_skipped_with_the_reason(scans):
    with pytest.raises(EmptyDocument, match=r"no text in 3 pages: .*OCR stopped after 1 of 3 scanned pages; "
                                            r"raise \[ingest\] max_ocr_pages"):
        parse_file(scans["blank_first"], max_ocr_pages=1)


def test_ingest_reads_the_setting_and_warns(scans, tmp_path, embedder):
    home = tmp_path / "home"
    write(home / "config.toml", "[ingest]\nmax_ocr_pages = 1\n")
    with Cairn(home, embedder=embedder) as app:
        report = app.ingest([scans["three"]])
        assert [Path(n).name for n in report.added] == ["timetables.pdf"]
        assert [(Path(n).name, w) for n, w in report.warnings] == [("timetables.pdf", STOPPED)]
        assert [h.page for h in app.search("Skerrow", mode="keyword").hits] == [1]
        assert app.search("causeway", mode="keyword").hits == []
        note = (app.settings.vault / app.find_note("timetables").path).read_text(encoding="utf-8")
        assert STOPPED in note  # kept in the note's `warnings`


def test_max_ocr_pages_default_and_range(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    assert load_settings(home).ingest.max_ocr_pages == 50
    for value, message in (("0", "ingest.max_ocr_pages must be at least 1, got 0"),
                           ('"ten"', "ingest.max_ocr_pages must be a number"),
                           ("2.5", "ingest.max_ocr_pages must be a whole number")):
        (home / "config.toml").write_text(f"[ingest]\nmax_ocr_pages = {value}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=message):
            load_settings(home)
