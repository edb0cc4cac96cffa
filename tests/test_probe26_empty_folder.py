"""Session 26 (probe26): `cairn ingest FOLDER` of a folder holding nothing Cairn reads (empty, or
only hidden files) printed "added 0, updated 0, unchanged 0, skipped 0, failed 0" and nothing else —
a new user could not tell a wrong path from a folder read. It now warns naming the folder and why."""

from __future__ import annotations

from cairn.service import Cairn


def test_a_folder_with_nothing_to_ingest_is_named(tmp_path, real_embedder):
    empty, hidden, fine = tmp_path / "empty", tmp_path / "hidden", tmp_path / "fine"
    empty.mkdir()
    (hidden / ".obsidian").mkdir(parents=True)
    (hidden / ".obsidian" / "a.md").write_text("settings\n")
    (hidden / ".draft.md").write_text("a draft\n")
    fine.mkdir()
    (fine / "a.md").write_text("# A\n\nThe heron nests by the pond.\n")
    with Cairn(tmp_path / "home", embedder=real_embedder) as app:
        rep = app.ingest([empty, hidden, fine])
    warned = {name: why for name, why in rep.warnings}
    assert set(warned) == {str(empty), str(hidden)}, rep.warnings
    assert all("holds no file to ingest" in why and "hidden" in why for why in warned.values())
    assert len(rep.added) == 1
