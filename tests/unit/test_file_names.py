"""File names Cairn makes fit every file system (cairn.paths.fit_name): a title or a client's
file name in a script of several bytes a character (Japanese, emoji) was cut by characters
only, so a 100-character Japanese name (300 bytes) failed with "file name too long" on
upload and export; a Windows device name made a file a synced Windows copy cannot hold."""

from __future__ import annotations

import pytest

from cairn.exports import safe_stem
from cairn.paths import NAME_BYTES, fit_name
from cairn.uploads import safe_name

LONG_JA = "日本語のメモ" * 25  # 150 characters, 450 bytes


@pytest.mark.parametrize("name,expected", [
    ("CON", "CON_"), ("aux.md", "aux_.md"), ("COM1.txt.md", "COM1_.txt.md"), ("lpt9.pdf", "lpt9_.pdf"),
    ("Console.md", "Console.md"), ("nul.", "nul_"), ("report. .md", "report.md"), ("plain", "plain"),
])
def test_device_names_and_trailing_dots(name, expected):
    assert fit_name(name) == expected


def test_a_long_name_is_cut_at_a_character_and_keeps_its_extension():
    for name in (LONG_JA + ".pdf", "🙂" * 120 + ".md", "é" * 300):
        fitted = fit_name(name)
        assert len(fitted.encode("utf-8")) <= NAME_BYTES
        assert name.startswith(fitted.rsplit(".", 1)[0]) and fitted.endswith(name[-4:] if "." in name else "é")
    assert fit_name("short name.md") == "short name.md"


def test_upload_and_export_names_fit():
    up = safe_name(LONG_JA + ".md")
    assert up.endswith(".md") and len(up.encode("utf-8")) <= NAME_BYTES and up.startswith("日本語")
    assert safe_name("../../CON.md") == "CON_.md"
    stem = safe_stem(LONG_JA, "n1")
    assert len((stem + "-12.json").encode("utf-8")) <= NAME_BYTES and stem.startswith("日本語")
