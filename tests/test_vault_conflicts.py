"""Re-ingest never overwrites a vault copy the person edited (cairn.conflicts): the edit is
kept, the new version of the source goes beside it as `<stem>.conflict-<UTC time>.md` (a
note of its own) and the report warns. Unedited copies are still updated in place, missing
ones written again, and notes deleted in Cairn stay deleted for the inbox. Real files, real
SQLite, the real embedder; `cairn watch` in a thread for the inbox."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import write
from watching import RunningWatcher, wait_until
from cairn import conflicts as C
from cairn import vault as V
from cairn.service import Cairn

CONFLICT_RE = re.compile(r"\.conflict-\d{8}-\d{6}(-\d+)?\.md$")


def titles(app, q):
    return sorted(h.title for h in app.search(q, mode="keyword").hits)


def conflict_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.md") if CONFLICT_RE.search(p.name))


def edit_warnings(report) -> list[str]:
    return [w for _, w in report.warnings if "edited since last ingest" in w]


@pytest.fixture
def src(tmp_path):
    return write(tmp_path / "docs" / "lease.md", "# Lease\n\nThe deposit is 900 pounds, held by Harbour Lets.\n")


def test_edit_then_reingest_keeps_the_edit_and_writes_a_conflict_copy(app, src):
    vault = app.settings.vault
    assert app.ingest([src]).added == [str(src)]
    copy = vault / "notes" / "lease.md"
    edited = copy.read_text(encoding="utf-8") + "\nMy note: the landlord agreed to repaint the kitchen.\n"
    copy.write_text(edited, encoding="utf-8")
    write(src, "# Lease\n\nThe deposit is 1200 pounds from March, held by Harbour Lets.\n")
    report = app.ingest([src])

    assert copy.read_text(encoding="utf-8") == edited  # the person's copy, byte for byte
    (conflict,) = conflict_files(vault)
    assert conflict.parent == copy.parent and conflict.name.startswith("lease.conflict-")
    crel = V.rel(vault, conflict)
    assert edit_warnings(report) == [
        f"vault copy notes/lease.md edited since last ingest; new version written to {crel} (your copy is kept)"]
    assert json.loads(json.dumps(report.to_json()))["warnings"][0]["name"] == str(src)
    text = conflict.read_text(encoding="utf-8")
    assert "1200 pounds from March" in text and "repaint" not in text
    meta, _ = V.split_frontmatter(text)
    assert meta["cairn_conflict_of"] == "notes/lease.md" and meta["cairn_conflict_source"] == str(src.resolve())
    assert "cairn_source" not in meta and meta["cairn_id"] != app.find_note("notes/lease.md").id
    # both versions are indexed; the source still belongs to the person's copy
    assert titles(app, "repaint kitchen") == ["Lease"]
    assert [h.path for h in app.search("1200", mode="keyword").hits] == [crel]
    assert app.conn.execute("SELECT path FROM notes WHERE source = ?", (str(src.resolve()),)).fetchall()[0][0] \
        == "notes/lease.md"
    assert app.sync().changed is False  # the conflict copy is indexed already

    # the same version again: no second conflict copy, the warning points at the first
    again = app.ingest([src])
    assert again.unchanged == [str(src)] and conflict_files(vault) == [conflict]
    assert edit_warnings(again) == [
        f"vault copy notes/lease.md edited since last ingest; this version is already in {crel} (your copy is kept)"]
    assert copy.read_text(encoding="utf-8") == edited
    # merged by hand and the conflict copy deleted: that version is not written back
    conflict.unlink()
    again = app.ingest([src])
    assert again.unchanged == [str(src)] and again.warnings == [] and conflict_files(vault) == []
    write(src, "# Lease\n\nThe deposit is 1500 pounds.\n")  # a newer version is
    assert len(edit_warnings(app.ingest([src]))) == 1 and len(conflict_files(vault)) == 1
    assert copy.read_text(encoding="utf-8") == edited


def test_edit_indexed_by_sync_or_note_update_is_still_kept(app, src, tmp_path):
    """The index's file hash follows the person's edits (sync, watch, `cairn note update`):
    only the record of what Cairn wrote tells them apart."""
    vault = app.settings.vault
    other = write(tmp_path / "docs" / "boiler.md", "# Boiler\n\nService due in May.\n")
    app.ingest([src, other])
    copy = vault / "notes" / "lease.md"
    copy.write_text(copy.read_text(encoding="utf-8") + "\nPets allowed after asking.\n", encoding="utf-8")
    assert app.sync().updated == ["notes/lease.md"]
    app.note_update("Boiler", "Serviced by Hearth & Co; next visit in November.")
    kept = {p: (vault / p).read_bytes() for p in ("notes/lease.md", "notes/boiler.md")}
    write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")
    write(other, "# Boiler\n\nService due in June.\n")
    report = app.ingest([tmp_path / "docs"])
    assert {p: (vault / p).read_bytes() for p in kept} == kept
    assert sorted(p.name.split(".conflict-")[0] for p in conflict_files(vault)) == ["boiler", "lease"]
    assert len(edit_warnings(report)) == 2
    assert titles(app, "Pets allowed") == ["Lease"] and titles(app, "Hearth") == ["boiler"]  # the body replaced its heading
    assert titles(app, "June") == ["Boiler"]  # the conflict copy keeps the source's title


def test_unedited_copy_is_updated_in_place(app, src):
    vault = app.settings.vault
    app.ingest([src])
    write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")
    report = app.ingest([src])
    assert report.updated == [str(src)] and edit_warnings(report) == []
    assert "1200 pounds" in (vault / "notes" / "lease.md").read_text(encoding="utf-8")
    assert conflict_files(vault) == []
    # and again after a reindex (the record of Cairn's writes survives it)
    app.reindex()
    write(src, "# Lease\n\nThe deposit is 1500 pounds.\n")
    assert app.ingest([src]).updated == [str(src)]
    assert "1500 pounds" in (vault / "notes" / "lease.md").read_text(encoding="utf-8")
    assert conflict_files(vault) == []


def test_edit_survives_a_reindex(app, src):
    vault = app.settings.vault
    app.ingest([src])
    copy = vault / "notes" / "lease.md"
    copy.write_text(copy.read_text(encoding="utf-8") + "\nEdited before the reindex.\n", encoding="utf-8")
    app.reindex()  # the notes table is rebuilt from the edited file
    write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")
    report = app.ingest([src])
    assert "Edited before the reindex." in copy.read_text(encoding="utf-8")
    assert len(conflict_files(vault)) == 1 and len(edit_warnings(report)) == 1


def test_generated_note_edit_is_kept(app, tmp_path):
    """A note Cairn writes itself (text, PDF, ...): the conflict copy has its own id and no
    `source`, so the next ingest still finds the person's copy."""
    vault = app.settings.vault
    src = write(tmp_path / "letter.txt", "Dear tenant, the water will be off on Tuesday morning.\n")
    app.ingest([src])
    note = app.find_note("letter")
    copy = vault / note.path
    copy.write_text(copy.read_text(encoding="utf-8").replace("Tuesday", "Wednesday (corrected)"), encoding="utf-8")
    write(src, "Dear tenant, the water will be off on Thursday afternoon.\n")
    report = app.ingest([src])
    assert "Wednesday (corrected)" in copy.read_text(encoding="utf-8")
    (conflict,) = conflict_files(vault)
    meta, body = V.split_frontmatter(conflict.read_text(encoding="utf-8"))
    assert "Thursday afternoon" in body
    assert meta["generator"] == "cairn" and meta["conflict_of"] == note.path and "source" not in meta
    assert meta["conflict_source"] == str(src.resolve()) and meta["id"] != note.id
    assert app.find_note(note.path).id == note.id
    assert len(report.added) == 1 and len(edit_warnings(report)) == 1
    assert app.ingest([src]).unchanged == [str(src)] and len(conflict_files(vault)) == 1


def test_deleted_vault_copy_is_recreated(app, src):
    vault = app.settings.vault
    write(vault / "mine.md", "# Mine\n\nA note that lives only in the vault.\n")
    app.ingest([src])
    copy = vault / "notes" / "lease.md"
    copy.unlink()  # removed with another tool, index not told yet
    assert app.ingest([src]).failed == []
    assert "900 pounds" in copy.read_text(encoding="utf-8")
    copy.unlink()
    assert app.sync().removed == ["notes/lease.md"]  # the note is gone from the index too
    write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")
    assert app.ingest([src]).added == [str(src)]
    assert "1200 pounds" in copy.read_text(encoding="utf-8")
    assert conflict_files(vault) == []


def test_interrupted_write_is_not_taken_for_an_edit(app, src, monkeypatch):
    """Cairn records a write before it replaces the file: a crash before or after the file
    is replaced never reads as the person's edit on the resumed run."""
    import cairn.ingest.files as ingest_mod  # ingest_file looks index_note_file up in its own module

    vault = app.settings.vault
    app.ingest([src])
    write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")

    def crash(*args, **kwargs):
        raise KeyboardInterrupt("simulated crash")

    monkeypatch.setattr(ingest_mod.V, "atomic_write", crash)  # recorded, not written
    with pytest.raises(KeyboardInterrupt):
        app.ingest([src])
    monkeypatch.undo()
    real = ingest_mod.index_note_file
    monkeypatch.setattr(ingest_mod, "index_note_file", crash)  # written, not indexed
    write(src, "# Lease\n\nThe deposit is 1500 pounds.\n")
    with pytest.raises(KeyboardInterrupt):
        app.jobs_run()
    monkeypatch.setattr(ingest_mod, "index_note_file", real)
    report = app.jobs_run()
    assert edit_warnings(report) == [] and conflict_files(vault) == []
    assert "1500 pounds" in (vault / "notes" / "lease.md").read_text(encoding="utf-8")
    assert titles(app, "1500 pounds") == ["Lease"]


def test_conflict_names_do_not_collide(tmp_path):
    when = datetime(2026, 11, 30, 16, 5, 9, tzinfo=timezone.utc)
    assert C.conflict_relpath(tmp_path, "pdf/2026-11-30-lease.md", when) == \
        "pdf/2026-11-30-lease.conflict-20261130-160509.md"
    write(tmp_path / "pdf" / "2026-11-30-lease.conflict-20261130-160509.md", "x")
    assert C.conflict_relpath(tmp_path, "pdf/2026-11-30-lease.md", when) == \
        "pdf/2026-11-30-lease.conflict-20261130-160509-2.md"


def test_vault_copy_names_skip_other_files_but_reuse_their_own(tmp_path):
    """vault.own_or_unique (through vault.free_relpath): a taken name is reused when it holds
    this note (its id, or exactly the text to write), else the next free `-N` variant."""
    from cairn import vault as V
    assert V.own_or_unique(tmp_path, "notes/plan.md", "n1", "text") == "notes/plan.md"
    write(tmp_path / "notes" / "plan.md", "someone else's plan")
    write(tmp_path / "notes" / "plan-2.md", "---\ncairn_id: n9\n---\nanother note")
    assert V.own_or_unique(tmp_path, "notes/plan.md", "n1", "text") == "notes/plan-3.md"
    assert V.own_or_unique(tmp_path, "notes/plan.md", "n9", "text") == "notes/plan-2.md"
    assert V.own_or_unique(tmp_path, "notes/plan.md", "n1", "someone else's plan") == "notes/plan.md"


def test_inbox_reingest_through_watch_keeps_the_edit(tmp_path, embedder):
    """`cairn watch`: the edit of the vault copy is indexed by the watcher before the
    changed inbox file comes in; a note deleted in Cairn still stays deleted."""
    home, inbox = tmp_path / "home", tmp_path / "drop"
    write(home / "config.toml", f'[sync]\ninbox = ["{inbox}"]\n')
    src = write(inbox / "lease.md", "# Lease\n\nThe deposit is 900 pounds.\n")
    gone = write(inbox / "flyer.md", "# Flyer\n\nPizza coupons, quince.\n")
    with Cairn(home, embedder=embedder) as app, RunningWatcher(app) as w:
        vault = app.settings.vault
        wait_until(lambda: titles(app, "deposit") == ["Lease"], what="inbox file at start")
        app.note_delete("Flyer")
        copy = vault / "notes" / "lease.md"
        copy.write_text(copy.read_text(encoding="utf-8") + "\nSigned on the 3rd.\n", encoding="utf-8")
        wait_until(lambda: titles(app, "Signed") == ["Lease"], what="vault edit indexed")
        write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")
        wait_until(lambda: conflict_files(vault), what="conflict copy written")
        wait_until(lambda: titles(app, "1200") == ["Lease"], what="conflict copy indexed")
        assert "Signed on the 3rd." in copy.read_text(encoding="utf-8")
        def warned():  # the watcher records its event after the ingest it reports on
            return [x for e in list(w.events) if e.kind == "inbox" and e.ingest for x in edit_warnings(e.ingest)]
        wait_until(lambda: warned(), what="inbox event with the warning recorded")
        assert len(warned()) == 1 and "new version written to notes/lease.conflict-" in warned()[0]
    with Cairn(home, embedder=embedder) as app, RunningWatcher(app) as w:  # restart: inbox scan
        assert titles(app, "quince") == [] and gone.exists()
        assert len(conflict_files(app.settings.vault)) == 1
        assert "Signed on the 3rd." in (app.settings.vault / "notes" / "lease.md").read_text(encoding="utf-8")


def test_notes_ingested_before_the_record_existed(app, src, tmp_path):
    """Upgrading to migration 7 takes each ingested note's indexed file as Cairn's version;
    a note with no record at all falls back to the index's file hash, and keeps that as
    Cairn's version once it finds an edit (so a later sync of the edit changes nothing)."""
    from cairn.store import db

    vault = app.settings.vault
    app.ingest([src])
    note = app.find_note("notes/lease.md")
    # the upgrade: back to schema 6 without the table, then migrate
    app.conn.execute("DROP TABLE vault_copies")
    for col in ("impact", "tags"):  # migration 8 runs again too
        app.conn.execute(f"ALTER TABLE memories DROP COLUMN {col}")
    app.conn.execute("PRAGMA user_version = 6")
    db.migrate(app.conn)
    assert db.schema_version(app.conn) == db.MIGRATIONS[-1][0]
    assert [tuple(r) for r in app.conn.execute("SELECT note_id, file_hash FROM vault_copies")] == [
        (note.id, note.file_hash)]

    app.conn.execute("DELETE FROM vault_copies")  # no record: the fallback
    copy = vault / "notes" / "lease.md"
    copy.write_text(copy.read_text(encoding="utf-8") + "\nFirst edit.\n", encoding="utf-8")
    write(src, "# Lease\n\nThe deposit is 1200 pounds.\n")
    assert len(edit_warnings(app.ingest([src]))) == 1
    app.sync()
    write(src, "# Lease\n\nThe deposit is 1500 pounds.\n")
    assert len(edit_warnings(app.ingest([src]))) == 1
    assert "First edit." in copy.read_text(encoding="utf-8") and len(conflict_files(vault)) == 2
