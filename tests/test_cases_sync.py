"""Bug-log cases about the vault staying in sync, end to end with a running watcher:
B12 (stale vector after an edit in the vault), B22 (overwrite after an external move),
B23 (a deleted note must not come back). B13 is in test_links.py, B20 in test_watch.py.
The steps follow tests/cases/<id>/steps.yaml (copied from ../shared/cases)."""

from __future__ import annotations

import os

from conftest import write
from watching import RunningWatcher, wait_until
from cairn.service import Cairn


def hits(app, q, mode):
    return [h for h in app.search(q, mode=mode).hits]


def vectors_of(app, path):
    return app.conn.execute(
        """SELECT count(*) FROM vectors v JOIN chunks c ON c.id = v.chunk_id
           JOIN notes n ON n.id = c.note_id WHERE n.path = ?""", (path,)).fetchone()[0]


def test_b12_vault_edit_replaces_vectors(app, home, embedder):
    vault = app.settings.vault
    path = "health/allergies.md"
    with RunningWatcher(app):
        write(vault / path, "# Allergies\n\nSevere allergy: peanuts. Carry the auto-injector on hikes.\n")
        wait_until(lambda: [h.path for h in hits(app, "nut allergy", "semantic")][:1] == [path])
        old = hits(app, "peanut allergy auto-injector hikes", "semantic")[0]
        write(vault / path, "# Allergies\n\nCorrection from the clinic in March: the allergy is to shellfish.\n")
        wait_until(lambda: any("shellfish" in h.snippet for h in hits(app, "shellfish allergy", "semantic")[:1]))
        again = [h for h in hits(app, "peanut allergy auto-injector hikes", "semantic") if h.path == path]
        assert not again or again[0].signals["semantic"] < old.signals["semantic"] - 0.1
        n_chunks = app.conn.execute("SELECT count(*) FROM chunks c JOIN notes n ON n.id = c.note_id "
                                    "WHERE n.path = ?", (path,)).fetchone()[0]
        assert vectors_of(app, path) == n_chunks > 0
        (vault / path).unlink()
        wait_until(lambda: not any(h.path == path for h in hits(app, "peanut", "semantic")))
        write(vault / path, "# Allergies\n\nNone known.\n")  # same path re-created
        wait_until(lambda: any(h.path == path for h in hits(app, "none known", "keyword")))
        again = [h for h in hits(app, "peanut auto-injector hike", "semantic") if h.path == path]
        assert not again or again[0].signals["semantic"] < old.signals["semantic"] - 0.1
    with Cairn(home, embedder=embedder) as restarted:  # restart
        restarted.sync()
        st = restarted.status()
        assert st["orphan_vectors"] == 0 and st["missing_vectors"] == 0


def test_b22_update_after_external_move(app):
    vault = app.settings.vault
    with RunningWatcher(app):
        created = app.note_create("Song sketches", "# original\nfirst verse idea", folder="music")
        assert created.path == "music/Song sketches.md"
        (vault / "music" / "archive").mkdir()
        os.rename(vault / "music" / "Song sketches.md", vault / "music" / "archive" / "song-sketches.md")
        wait_until(lambda: app.find_note("Song sketches").path == "music/archive/song-sketches.md")
        updated = app.note_update("Song sketches", "# replacement\nsecond verse idea", mode="overwrite")
        assert updated.id == created.id and updated.path == "music/archive/song-sketches.md"
        assert not (vault / "music" / "Song sketches.md").exists()
        rows = app.conn.execute("SELECT path FROM notes WHERE title = 'Song sketches'").fetchall()
        assert [r[0] for r in rows] == ["music/archive/song-sketches.md"]
        text = (vault / "music" / "archive" / "song-sketches.md").read_text()
        assert "second verse idea" in text and "first verse" not in text
        assert app.note_show("music/archive/song-sketches.md")["body"] == "# replacement\nsecond verse idea"
        assert [h.path for h in hits(app, "second verse", "keyword")] == ["music/archive/song-sketches.md"]
        assert hits(app, "first", "keyword") == []
    # naming-convention change: file name differs from the title
    write(vault / "site-roadmap.md", "---\ntitle: Site Roadmap\n---\nQ3: launch the photo gallery\n")
    app.sync()
    row = app.note_update("Site Roadmap", "Q4: add dark mode", mode="overwrite")
    assert row.path == "site-roadmap.md" and not (vault / "Site Roadmap.md").exists()
    assert (vault / "site-roadmap.md").read_text() == "---\ntitle: Site Roadmap\n---\n\nQ4: add dark mode\n"


def test_b22_update_without_watcher_follows_the_move(app):
    """No watcher ran: the update finds the indexed path gone and reconciles first."""
    vault = app.settings.vault
    note = app.note_create("Song sketches", "first verse idea", folder="music")
    os.rename(vault / "music" / "Song sketches.md", vault / "music" / "song-sketches.md")
    row = app.note_update("Song sketches", "appended line", mode="append")
    assert row.id == note.id and row.path == "music/song-sketches.md"
    assert app.note_show(note.id)["body"] == "first verse idea\n\nappended line"
    assert app.conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 1


def test_b23_deleted_note_stays_deleted(app, home, embedder):
    vault = app.settings.vault
    with RunningWatcher(app) as w:
        note = app.note_create("Old flat lease", "Deposit 1,450 EUR held by Calder Lettings. Keyword: greywharf.")
        info = app.note_delete("Old flat lease")
        assert info["trash_path"] == ".trash/Old flat lease.md" and (vault / info["trash_path"]).exists()
        assert hits(app, "greywharf", "hybrid") == []
        assert not any(h.note_id == note.id for h in hits(app, "deposit for the old flat", "semantic"))
        for table, col in (("chunks", "note_id"), ("links", "note_id"), ("notes", "id")):
            assert app.conn.execute(f"SELECT count(*) FROM {table} WHERE {col} = ?", (note.id,)).fetchone()[0] == 0
        # external delete path
        app.note_create("Temp note", "Keyword: ashbarrow.")
        (vault / "Temp note.md").unlink()
        wait_until(lambda: hits(app, "ashbarrow", "keyword") == [])
        assert hits(app, "ashbarrow", "semantic") == [] or all(
            h.title != "Temp note" for h in hits(app, "ashbarrow", "semantic"))
        assert "Old flat lease.md" not in w.removed()
    with Cairn(home, embedder=embedder) as restarted:  # restart + full reconcile
        report = restarted.sync()
        assert report.added == [] and report.trashed == []
        assert hits(restarted, "greywharf", "hybrid") == []
        # a trashed copy left in the vault on purpose is recognised, not re-imported
        (vault / "restored-copy.md").write_bytes((vault / info["trash_path"]).read_bytes())
        report = restarted.sync()
        assert report.trashed == ["restored-copy.md"] and report.added == []
        assert hits(restarted, "greywharf", "hybrid") == []
        restarted.reindex()
        assert hits(restarted, "greywharf", "hybrid") == []
        ans = restarted.ask("How much was the deposit for the old flat?", llm="none")
        assert all("Old flat lease" not in c["title"] for c in ans.citations)
        # an edited copy is a new note of the person's, and is indexed
        write(vault / "restored-copy.md", (vault / "restored-copy.md").read_text() + "\nRenewed in 2027.\n")
        assert restarted.sync().added == ["restored-copy.md"]


def test_b23_reingest_after_delete_brings_the_source_back(app, tmp_path):
    """An explicit `cairn ingest` of the same source after a delete is a new request: the
    note comes back (documented in docs/concepts.md)."""
    src = write(tmp_path / "in" / "lease.md", "# Lease\n\nKeyword: greywharf.\n")
    app.ingest([src])
    app.note_delete("Lease")
    assert hits(app, "greywharf", "keyword") == []
    app.ingest([src])
    assert [h.title for h in hits(app, "greywharf", "keyword")] == ["Lease"]
    assert app.conn.execute("SELECT count(*) FROM tombstones").fetchone()[0] == 0


def test_an_edit_while_sync_reads_the_note_is_not_lost(app, monkeypatch):
    """A same-size edit landing between sync's read of a new file and the stat it stored
    (an editor saving while `cairn sync` runs) left the old text indexed under the new
    (mtime, size): every later sync trusted it as unchanged and the edit never arrived."""
    import cairn.vault as V
    vault = app.settings.vault
    write(vault / "seen.md", "# Seen\n\nremoved below, so that sync hashes new files (a move?)\n")
    app.sync()
    (vault / "seen.md").unlink()
    path = write(vault / "pantry.md", "# Pantry\n\nallergy: peanuts\n")
    real_hash = V.sha256_bytes

    def hash_then_edit(data):
        if b"peanuts" in data and b"cashews" not in path.read_bytes():
            path.write_bytes(data.replace(b"peanuts", b"cashews"))  # same size, a later mtime
            st = os.stat(path)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
        return real_hash(data)

    monkeypatch.setattr(V, "sha256_bytes", hash_then_edit)
    app.sync()
    monkeypatch.setattr(V, "sha256_bytes", real_hash)
    app.sync()
    assert "cashews" in app.note_show("Pantry")["body"]
    assert [h.path for h in app.search("cashews", mode="keyword").hits] == ["pantry.md"]
