"""hygiene27: a note saved as UTF-16 (Windows Notepad's "Unicode", with its byte-order mark) or
in a legacy code page was written back as UTF-8 by every rewrite (`note rename`, `note update`,
`note mark`, `enrich`): a Windows editor that had the file open then read it in the wrong
encoding. Each rewrite now keeps the file's encoding and byte-order mark, so the bytes of the
parts not changed stay as they were; text the encoding cannot hold is refused by name and
nothing is written."""

from __future__ import annotations

import codecs

import pytest

from cairn.errors import InvalidInput
from cairn.parse.text import encode_like, note_encoding

BODY = "# Alarm\r\nThe alarm code is 9931 – café.\r\n"


def test_rename_update_mark_and_enrich_keep_a_utf16_note_utf16(app):
    path = app.settings.vault / "win.md"
    path.write_bytes(codecs.BOM_UTF16_LE + BODY.encode("utf-16-le"))
    app.sync()
    app.note_rename("win.md", "Alarm code")
    app.note_update("win.md", "Parking bay 12.", mode="append")
    app.note_mark("win.md", "read")
    app.enrich("win.md", llm="none")
    data = path.read_bytes()
    assert data.startswith(codecs.BOM_UTF16_LE) and not data.startswith(codecs.BOM_UTF16_LE * 2)
    text = data[2:].decode("utf-16-le")
    assert "title: Alarm code\r\n" in text and "status: read\r\n" in text and "enrichment:" in text, text
    assert text.endswith("The alarm code is 9931 – café.\r\n\r\nParking bay 12.\r\n"), text
    assert "The alarm code is 9931 – café.".encode("utf-16-le") in data  # its bytes as they were
    shown = app.note_show("Alarm code")
    assert shown["body"] == "# Alarm\nThe alarm code is 9931 – café.\n\nParking bay 12."
    assert [h.title for h in app.search("parking bay", mode="keyword").hits] == ["Alarm code"]


def test_a_big_endian_utf16_note_keeps_its_byte_order(app):
    path = app.settings.vault / "be.md"
    path.write_bytes(codecs.BOM_UTF16_BE + "---\ntitle: Gate\n---\n\nThe gate code is 4512.\n".encode("utf-16-be"))
    app.sync()
    app.note_rename("Gate", "Gate code")
    data = path.read_bytes()
    assert data.startswith(codecs.BOM_UTF16_BE)
    assert data[2:].decode("utf-16-be") == "---\ntitle: Gate code\n---\n\nThe gate code is 4512.\n"


def test_a_cp1252_note_stays_cp1252_and_refuses_what_cp1252_cannot_hold(app):
    path = app.settings.vault / "old.md"
    path.write_bytes("Café Rouge on Friday – table for two.\n".encode("cp1252"))
    app.sync()
    app.note_update("old.md", "Bring the voucher: 20 € off.", mode="append")
    data = path.read_bytes()
    assert data.decode("cp1252") == "Café Rouge on Friday – table for two.\n\nBring the voucher: 20 € off.\n"
    before = path.read_bytes()
    with pytest.raises(InvalidInput) as err:
        app.note_update("old.md", "Booked 🎉", mode="append")
    msg = str(err.value)
    # the code page is the one the index reads the file in (a guess: cp1250 reads these bytes alike)
    assert msg.startswith("old.md: the file is saved as cp125") and "which cannot hold '🎉' (U+1F389)" in msg, msg
    assert "nothing was written" in msg
    with pytest.raises(InvalidInput, match="cannot hold '🎉'"):
        app.note_rename("old.md", "Café 🎉")
    assert path.read_bytes() == before
    assert "voucher" in app.note_show("old.md")["body"]


def test_note_encoding_names_the_codec_and_its_mark():
    assert note_encoding("plain é".encode("utf-8")) == ("utf-8", b"")
    assert note_encoding(codecs.BOM_UTF8 + b"x") == ("utf-8", b"")  # the mark is part of the text read
    assert note_encoding(codecs.BOM_UTF16_LE + "héllo".encode("utf-16-le")) == ("utf-16-le", codecs.BOM_UTF16_LE)
    assert note_encoding("no mark here, plain".encode("utf-16-le")) == ("utf-16-le", b"")
    assert encode_like("x\n", codecs.BOM_UTF16_BE + "y\n".encode("utf-16-be"), "n.md") == (
        codecs.BOM_UTF16_BE + "x\n".encode("utf-16-be"))
