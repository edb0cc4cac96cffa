"""Session 26 (probe26): parse/pdf.py `_tables` read a page's layout text under `except Exception`,
silently: a page whose layout pypdf could not read lost its tables with no word, and a bug anywhere in
the table step was hidden. Now only what pypdf raises on a malformed page is caught, and the page's
warnings say its plain text was kept. Fixtures generated here (reportlab)."""

from __future__ import annotations

import pytest
from pypdf import PageObject

from cairn.parse.pdf import parse_pdf


def _pdf(tmp_path) -> bytes:
    from reportlab.pdfgen import canvas
    path = tmp_path / "t.pdf"
    c = canvas.Canvas(str(path))
    for i, line in enumerate(["Item", "Qty", "Price", "Skip", "1", "£265.00"]):
        c.drawString(72, 760 - 14 * i, line)
    c.save()
    return path.read_bytes()


def _layout_fails(exc: Exception):
    plain = PageObject.extract_text

    def extract_text(self, *args, **kwargs):
        if kwargs.get("extraction_mode") == "layout":
            raise exc
        return plain(self, *args, **kwargs)
    return extract_text


def test_an_unreadable_layout_keeps_the_plain_text_and_says_so(tmp_path, monkeypatch):
    data = _pdf(tmp_path)
    monkeypatch.setattr(PageObject, "extract_text", _layout_fails(ZeroDivisionError("float division by zero")))
    doc = parse_pdf(data, "t.pdf")
    assert "Skip" in doc.body and "£265.00" in doc.body
    assert any(w.startswith("page 1: its layout could not be read for tables") and "plain text is kept" in w
               for w in doc.warnings), doc.warnings


def test_a_fault_that_is_not_a_malformed_page_is_not_hidden(tmp_path, monkeypatch):
    data = _pdf(tmp_path)
    monkeypatch.setattr(PageObject, "extract_text", _layout_fails(MemoryError()))
    with pytest.raises(MemoryError):
        parse_pdf(data, "t.pdf")
