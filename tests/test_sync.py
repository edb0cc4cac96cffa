"""Vault <-> index reconcile (sync.reconcile): fast path, edits, moves, deletes, tombstones,
unreadable files and symlink loops, and a person's own folder as the vault."""

from __future__ import annotations

import os

import pytest

from conftest import write
from cairn.config import ConfigError, load_settings
from cairn.service import Cairn


def titles(app, q, mode="keyword"):
    return [h.title for h in app.search(q, mode=mode).hits]


def rows_of(app, note_id):
    q = lambda sql: app.conn.execute(sql, (note_id,)).fetchone()[0]  # noqa: E731
    return {
        "notes": q("SELECT count(*) FROM notes WHERE id = ?"),
        "chunks": q("SELECT count(*) FROM chunks WHERE note_id = ?"),
        "vectors": q("SELECT count(*) FROM vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.note_id = ?"),
        "links": q("SELECT count(*) FROM links WHERE note_id = ?"),
    }


@pytest.fixture
def vault(app):
    v = app.settings.vault
    write(v / "garden" / "compost.md", "---\ntags: [soil]\n---\n# Compost\n\nTurn the heap every fortnight; "
          "add cardboard when it smells. See [[Worm bin]].\n")
    write(v / "garden" / "worm-bin.md", "---\ntitle: Worm bin\n---\nThe worms get coffee grounds on Sundays.\n")
    write(v / "kitchen.md", "# Kitchen\n\nThe oven thermostat reads 20 degrees low.\n")
    report = app.sync()
    assert sorted(report.added) == ["garden/compost.md", "garden/worm-bin.md", "kitchen.md"]
    return v


def test_no_change_reconcile_reads_nothing_and_embeds_nothing(app, vault, embedder, monkeypatch):
    texts = embedder.texts
    from pathlib import Path
    opened = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: opened.append(self) or real(self))
    report = app.sync()
    assert report.unchanged == 3 and not report.changed and report.failed == []
    assert opened == []  # (mtime_ns, size) matched: no file was read
    assert embedder.texts == texts


def test_touched_file_is_read_once_then_skipped(app, vault):
    os.utime(vault / "kitchen.md", ns=(1, 1_000_000_000))
    first = app.sync()
    assert first.unchanged == 3 and not first.changed
    row = app.conn.execute("SELECT mtime_ns FROM notes WHERE path = 'kitchen.md'").fetchone()
    assert row[0] == 1_000_000_000  # stat figures refreshed, so the next run skips it unread


def test_body_edit_is_reembedded(app, vault, embedder):
    write(vault / "kitchen.md", "# Kitchen\n\nThe dishwasher filter was replaced in May.\n")
    texts = embedder.texts
    report = app.sync()
    assert report.updated == ["kitchen.md"] and report.embedded == 1
    assert embedder.texts > texts
    assert titles(app, "dishwasher filter") == ["Kitchen"]
    assert titles(app, "thermostat") == []


def test_frontmatter_only_edit_is_not_reembedded(app, vault, embedder):
    write(vault / "garden" / "compost.md", "---\ntags: [soil, chores]\n---\n# Compost\n\nTurn the heap every "
          "fortnight; add cardboard when it smells. See [[Worm bin]].\n")
    texts, calls = embedder.texts, embedder.calls
    report = app.sync()
    assert report.metadata == ["garden/compost.md"] and report.embedded == 0
    assert (embedder.texts, embedder.calls) == (texts, calls)
    assert "Compost" in titles(app, "tags:chores")


def test_move_keeps_id_and_backlinks(app, vault, embedder):
    worm = app.find_note("Worm bin")
    assert [b.source_path for b in app.links("Worm bin")["backlinks"]] == ["garden/compost.md"]
    (vault / "archive").mkdir()
    os.rename(vault / "garden" / "worm-bin.md", vault / "archive" / "worms.md")
    texts = embedder.texts
    report = app.sync()
    assert report.moved == [("garden/worm-bin.md", "archive/worms.md")]
    assert report.removed == [] and report.added == []
    moved = app.find_note("Worm bin")
    assert moved.id == worm.id and moved.path == "archive/worms.md"
    assert embedder.texts == texts  # same text: no re-embedding
    assert [b.source_path for b in app.links("Worm bin")["backlinks"]] == ["garden/compost.md"]
    assert titles(app, "coffee grounds") == ["Worm bin"]
    assert app.search("coffee grounds", mode="keyword").hits[0].path == "archive/worms.md"


def test_gone_notes_are_removed_in_one_transaction(app, vault):
    """Every note whose file is gone goes in one transaction per pass (a move in the same
    pass is kept); nothing is left of them and no tombstone is made (deleted outside Cairn)."""
    ids = {t: app.find_note(t).id for t in ("Compost", "Kitchen")}
    (vault / "garden" / "compost.md").unlink()
    (vault / "kitchen.md").unlink()
    os.rename(vault / "garden" / "worm-bin.md", vault / "worms.md")
    statements = []
    app.conn.set_trace_callback(statements.append)
    try:
        report = app.sync()
    finally:
        app.conn.set_trace_callback(None)
    assert report.removed == ["garden/compost.md", "kitchen.md"]
    assert report.moved == [("garden/worm-bin.md", "worms.md")]
    deletes = [i for i, s in enumerate(statements) if s.startswith("DELETE FROM notes WHERE id")]
    assert {statements[i] for i in deletes} == {f"DELETE FROM notes WHERE id = '{i}'" for i in ids.values()}
    between = statements[deletes[0]:deletes[-1]]  # both notes deleted in one transaction
    assert "COMMIT" not in between and "BEGIN IMMEDIATE" not in between
    for note_id in ids.values():
        assert rows_of(app, note_id) == {"notes": 0, "chunks": 0, "vectors": 0, "links": 0}
    assert app.conn.execute("SELECT count(*) FROM tombstones").fetchone()[0] == 0
    assert app.find_note("Worm bin").path == "worms.md"


def test_folder_rename_moves_every_note(app, vault):
    ids = {p: app.find_note(p).id for p in ("garden/compost.md", "garden/worm-bin.md")}
    os.rename(vault / "garden", vault / "yard")
    report = app.sync()
    assert sorted(report.moved) == [("garden/compost.md", "yard/compost.md"),
                                    ("garden/worm-bin.md", "yard/worm-bin.md")]
    assert app.find_note("yard/compost.md").id == ids["garden/compost.md"]
    assert app.find_note("yard/worm-bin.md").id == ids["garden/worm-bin.md"]


def test_deleted_file_leaves_nothing_findable(app, vault):
    note = app.find_note("Compost")
    assert rows_of(app, note.id)["vectors"] > 0 and rows_of(app, note.id)["links"] == 1
    (vault / "garden" / "compost.md").unlink()
    report = app.sync()
    assert report.removed == ["garden/compost.md"]
    assert rows_of(app, note.id) == {"notes": 0, "chunks": 0, "vectors": 0, "links": 0}
    assert "Compost" not in titles(app, "fortnight cardboard")
    assert "Compost" not in titles(app, "turning the compost heap", mode="semantic")
    st = app.status()
    assert st["orphan_vectors"] == 0 and st["orphan_keyword_rows"] == 0
    assert app.links("Worm bin")["backlinks"] == []


def test_partial_reconcile_of_paths(app, vault):
    write(vault / "kitchen.md", "# Kitchen\n\nNew kettle descaled with citric acid.\n")
    write(vault / "new.md", "# Bikes\n\nTandem chain oiled.\n")
    report = app.sync([vault / "new.md"])
    assert report.added == ["new.md"] and report.updated == []  # kitchen.md not looked at
    assert app.sync(["kitchen.md"]).updated == ["kitchen.md"]


def test_unreadable_file_and_symlink_loop_are_reported(app, vault, monkeypatch):
    bad = write(vault / "secret.md", "# Secret\n\nhidden words\n")
    bad.chmod(0)
    if os.geteuid() == 0:  # root reads a mode-000 file anyway: make the read fail as it would
        from pathlib import Path
        real = Path.read_bytes

        def read_bytes(self):
            if self.name == "secret.md":
                raise PermissionError(13, "Permission denied", str(self))
            return real(self)
        monkeypatch.setattr(Path, "read_bytes", read_bytes)
    os.symlink("loop-b.md", vault / "loop-a.md")
    os.symlink("loop-a.md", vault / "loop-b.md")
    os.symlink(vault, vault / "garden" / "again")  # a folder loop
    os.symlink(vault / "nowhere.md", vault / "dangling.md")
    try:
        report = app.sync()
        failed = dict(report.failed)
        assert "secret.md" in failed and "Permission denied" in failed["secret.md"]
        assert failed["loop-a.md"] == "symlink loop" and failed["loop-b.md"] == "symlink loop"
        assert "symlink loop" in failed["garden/again"]
        assert failed["dangling.md"] == "dangling symlink"
        assert report.unchanged == 3  # the rest is intact
        assert titles(app, "oven thermostat") == ["Kitchen"]
    finally:
        bad.chmod(0o644)


def test_a_symlink_to_a_folder_of_the_vault_never_takes_its_notes(app, vault):
    """A symlink to a folder of the vault whose name sorted first ("aa-shared" -> "projects")
    was walked first: the real folder was then reported as a "symlink loop" and its notes
    were removed and indexed again under the link's path (new ids, links and history lost)."""
    write(vault / "projects" / "roof.md", "# Roof\n\nThe gutter over the porch leaks in heavy rain.\n")
    app.sync()
    roof = app.note_show("Roof")
    os.symlink("projects", vault / "aa-shared")
    os.symlink("projects", vault / "zz-shared")
    report = app.sync()
    assert report.added == [] and report.removed == [] and app.note_show("Roof")["id"] == roof["id"]
    assert [h.path for h in app.search("gutter porch", mode="keyword").hits] == ["projects/roof.md"]
    failed = dict(report.failed)
    assert set(failed) == {"aa-shared", "zz-shared"}
    assert all(r == "symlink to projects, a folder indexed there, skipped" for r in failed.values())


def test_own_folder_as_vault(tmp_path, embedder):
    mine = tmp_path / "My Notes"
    write(mine / "trip.md", "# Trip\n\nBook the ferry to the island before June.\n")
    home = tmp_path / "home"
    write(home / "config.toml", f'vault = "{mine}"\n')
    with Cairn(home, embedder=embedder) as app:
        assert app.settings.vault == mine.resolve()
        assert app.sync().added == ["trip.md"]
        assert titles(app, "ferry island") == ["Trip"]
        assert app.status()["vault"] == str(mine.resolve())
    assert (mine / "trip.md").read_text().startswith("# Trip")  # indexed in place, untouched
    assert not (home / "vault").exists()


def test_vault_and_inbox_config_errors(tmp_path):
    home = tmp_path / "h"
    write(home / "config.toml", "vault = 3\n")
    with pytest.raises(ConfigError, match="vault must be a folder path"):
        load_settings(home)
    write(home / "config.toml", f'vault = "{write(tmp_path / "f.txt", "x")}"\n')
    with pytest.raises(ConfigError, match="is not a folder"):
        load_settings(home)
    write(home / "config.toml", "[sync]\ninbox = 5\n")
    with pytest.raises(ConfigError, match="sync.inbox"):
        load_settings(home)
    write(home / "config.toml", 'vault = "notes"\n[sync]\ninbox = ["~/in"]\nsettle_ms = 100\n')
    s = load_settings(home)
    assert s.vault == (home / "notes").resolve() and s.sync.settle_ms == 100
    assert s.inbox_dirs == [(tmp_path / "x").home().joinpath("in").resolve()]


def test_chunk_ids_are_never_reused(app, vault):
    """A reader with a vector matrix from before an edit must not map an old vector onto a
    new chunk (B12: orphan vector re-attached to a reused id)."""
    ids = lambda: [r[0] for r in app.conn.execute(  # noqa: E731
        "SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.path = 'kitchen.md'")]
    old = ids()
    top = app.conn.execute("SELECT max(id) FROM chunks").fetchone()[0]
    write(vault / "kitchen.md", "# Kitchen\n\nThe dishwasher filter was replaced in May.\n")
    app.sync()
    new = ids()
    assert min(new) > top
    app.reindex()
    assert min(ids()) > max(new)
    assert app.status()["orphan_vectors"] == 0 and app.status()["missing_vectors"] == 0


def test_missing_or_empty_vault_never_wipes_the_index(tmp_path, embedder):
    mine = tmp_path / "usb" / "notes"
    write(mine / "trip.md", "# Trip\n\nBook the ferry to the island before June.\n")
    home = tmp_path / "home"
    write(home / "config.toml", f'vault = "{mine}"\n')
    with Cairn(home, embedder=embedder) as app:
        app.sync()
        (mine / "trip.md").rename(tmp_path / "trip.md")  # the vault looks empty
        report = app.sync()
        assert report.removed == [] and "holds no notes" in dict(report.failed)["."]
        assert titles(app, "ferry") == ["Trip"]
    mine.rmdir()  # the drive is not mounted
    with pytest.raises(ConfigError, match="does not exist"):
        Cairn(home, embedder=embedder)


def _count_opens(monkeypatch, target):
    """Count the times `target` is opened for reading (pathlib reads go through io.open)."""
    import builtins
    import io

    opens = []
    for mod in (io, builtins):
        real = mod.open

        def counting(file, mode="r", *args, _real=real, **kwargs):
            if "r" in mode and isinstance(file, (str, os.PathLike)) and os.fspath(file) == os.fspath(target):
                opens.append(mode)
            return _real(file, mode, *args, **kwargs)
        monkeypatch.setattr(mod, "open", counting)
    return opens


def test_sync_and_reindex_read_each_file_once(app, vault, monkeypatch):
    """With tombstones present, sync and reindex hash a new file to check it; the bytes are
    handed to index_note_file instead of being read a second time."""
    app.note_delete("Kitchen")  # a tombstone: new files are now hashed before indexing
    new = write(vault / "shed.md", "# Shed\n\nThe shed roof felt was patched in October.\n")
    opens = _count_opens(monkeypatch, new)
    report = app.sync()
    assert report.added == ["shed.md"] and len(opens) == 1
    opens.clear()
    app.reindex()
    assert titles(app, "roof felt") == ["Shed"] and len(opens) == 1


def test_inbox_ingest_skips_a_source_deleted_in_cairn_on_one_read(app, tmp_path, monkeypatch):
    """skip_tombstoned (the watcher's inbox scan): the tombstone check runs inside ingest_file
    on its one read of the source; an explicit ingest still brings the note back."""
    from cairn.ingest import ingest_paths

    src = write(tmp_path / "drop" / "lease.md", "# Lease\n\nKeyword: greywharf.\n")
    app.ingest([src])
    app.note_delete("Lease")
    opens = _count_opens(monkeypatch, src)
    report = ingest_paths(app.conn, app.settings, [src], app.embedder, skip_tombstoned=True)
    assert report.tombstoned == [str(src)] and report.added == report.skipped == []
    assert report.to_json()["tombstoned"] == [str(src)]
    assert len(opens) == 1 and titles(app, "greywharf") == []
    assert app.conn.execute("SELECT outcome FROM jobs").fetchone()[0] == "skipped: deleted in Cairn before"
    report = ingest_paths(app.conn, app.settings, [src], app.embedder)
    assert report.tombstoned == [] and titles(app, "greywharf") == ["Lease"]


def test_bytes_handed_in_that_no_longer_match_the_file_are_read_again(app, tmp_path):
    """index_note_file stats before it trusts bytes from its caller: a file that changed
    size since the caller read it is read again, so the index never stores old text under
    the file's new (mtime, size) — which would make every later sync skip it."""
    from cairn.ingest import index_note_file
    from cairn import vault as V

    path = write(app.settings.vault / "race.md", "# Race\n\nOld word: amberfold.\n")
    stale = path.read_bytes()
    path.write_text("# Race\n\nNew word: copperlane, written after the caller read the file.\n", encoding="utf-8")
    status, _, _ = index_note_file(app.conn, app.settings, path, data=stale, file_hash=V.sha256_bytes(stale))
    assert status == "added"
    assert titles(app, "copperlane") == ["Race"] and titles(app, "amberfold") == []
