"""Session 26 (probe26), `cairn import notion` of a hostile zip: one page holding NUL bytes made
the index refuse its note part way through, and the whole import stopped with "error: binary data
(NUL bytes), not text" — naming no page, importing none of the good ones. That page is now skipped
by name (as a page that cannot be rendered), the others are imported. A member that would unpack to
more than MAX_MEMBER_BYTES (a zip bomb) is refused naming it before it is read into memory."""

from __future__ import annotations

import zipfile

import pytest

from cairn.errors import InvalidInput
from cairn.ingest.importing import items
from cairn.service import Cairn


def _export(path, bomb: bytes = b"\0" * 5000):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("Export/Attic 0123456789abcdef0123456789abcdef.md", "# Attic\n\nThe attic key is blue.\n")
        z.writestr("Export/Bomb fedcba9876543210fedcba9876543210.md", bomb)
        z.writestr("../../../escape.md", "# Escape\n\nA name that climbs out.\n")
    return path


def test_a_binary_page_is_skipped_by_name_and_the_others_are_imported(tmp_path, real_embedder):
    export = _export(tmp_path / "notion.zip")
    with Cairn(tmp_path / "home", embedder=real_embedder) as app:
        rep = app.import_export("notion", export)
        titles = {n["title"] for n in app.notes_list()["notes"]}
    assert titles == {"Attic", "Escape"}, titles
    assert any("Bomb" in name and "binary data (NUL bytes)" in why for name, why in rep.skipped), rep.skipped
    assert not (tmp_path / "escape.md").exists()
    assert sorted(p.name for p in (tmp_path / "home" / "vault").rglob("*.md")) == \
        sorted(p.name for p in (tmp_path / "home" / "vault" / "imports" / "notion").glob("*.md"))


def test_a_zip_bomb_member_is_refused_by_name(tmp_path, real_embedder, monkeypatch):
    monkeypatch.setattr(items, "MAX_MEMBER_BYTES", 4000)
    export = _export(tmp_path / "notion.zip")
    with Cairn(tmp_path / "home", embedder=real_embedder) as app:
        with pytest.raises(InvalidInput, match=r"Bomb .*\.md unpacks to 5,000 bytes, more than the 4,000"):
            app.import_export("notion", export)
        assert app.notes_list()["total"] == 0
