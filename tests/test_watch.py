"""`cairn watch` in a thread: editors' atomic saves (case B20), moves, deletes, inbox
folders, symlink loops, no loop on its own writes, and a clean stop."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import write
from watching import RunningWatcher, wait_until
from cairn.service import Cairn

SIMULATE = Path(__file__).parent / "cases" / "B20-vim-atomic-save" / "simulate_editor_saves.py"
PATTERNS = ["vim", "rename", "gedit", "jetbrains", "truncate"]


def titles(app, q, mode="keyword"):
    return [h.title for h in app.search(q, mode=mode).hits]


def indexed_paths(app):
    return {r[0] for r in app.conn.execute("SELECT path FROM notes")}


def test_b20_editor_saves_keep_the_note(app):
    vault = app.settings.vault
    with RunningWatcher(app) as w:
        note = app.note_create("Groceries", "- oat milk")
        assert note.path == "Groceries.md"
        assert titles(app, "oat milk") == ["Groceries"]
        for pattern in PATTERNS + ["vim"]:  # vim twice: the second save must be seen too
            proc = subprocess.Popen([sys.executable, str(SIMULATE), str(vault), "Groceries.md", pattern],
                                    stdout=subprocess.PIPE, text=True)
            if pattern == "truncate":
                time.sleep(0.5)  # the file is 0 bytes now, for 1 s: the note must stay
                assert titles(app, "oat milk") == ["Groceries"]
            assert proc.wait(30) == 0
            wait_until(lambda: titles(app, pattern) == ["Groceries"], what=f"{pattern} save indexed")
            current = app.find_note("Groceries")
            assert current.id == note.id and current.path == "Groceries.md"
            assert "lemons" in (vault / "Groceries.md").read_text()
            assert titles(app, "lemons") == ["Groceries"]
            assert indexed_paths(app) == {"Groceries.md"}  # no 4913, ~, tmp, jb files
        assert w.removed() == []  # never a "deleted" state for the note
        assert not any(p for s in w.syncs() for p in s.added if p != "Groceries.md")


def test_watch_follows_edit_move_and_delete(app, embedder):
    vault = app.settings.vault
    write(vault / "a" / "boiler.md", "# Boiler\n\nThe boiler pressure should sit at 1.5 bar.\n")
    write(vault / "links.md", "# Index\n\nSee [[Boiler]].\n")
    with RunningWatcher(app) as w:
        assert titles(app, "pressure") == ["Boiler"]  # initial reconcile
        boiler = app.find_note("Boiler")
        write(vault / "a" / "boiler.md", "# Boiler\n\nThe boiler was serviced by Hearth & Co in May.\n")
        wait_until(lambda: titles(app, "Hearth") == ["Boiler"], what="edit indexed")
        assert titles(app, "pressure bar") == []
        (vault / "b").mkdir()
        os.rename(vault / "a" / "boiler.md", vault / "b" / "heating.md")
        wait_until(lambda: app.find_note("Boiler").path == "b/heating.md", what="move followed")
        assert app.find_note("Boiler").id == boiler.id
        assert [b.source_path for b in app.links("Boiler")["backlinks"]] == ["links.md"]
        (vault / "b" / "heating.md").unlink()
        wait_until(lambda: "b/heating.md" not in indexed_paths(app), what="delete followed")
        assert titles(app, "Hearth") == []
        assert "Boiler" not in titles(app, "boiler service company", mode="semantic")
        assert app.status()["orphan_vectors"] == 0
        wait_until(lambda: w.removed() == ["b/heating.md"], what="removal reported")


def test_watch_survives_symlink_loops_and_unreadable_files(app):
    vault = app.settings.vault
    os.symlink(vault, vault / "loop")
    os.symlink("x.md", vault / "y.md")
    os.symlink("y.md", vault / "x.md")
    with RunningWatcher(app) as w:
        first = w.syncs()[0]
        assert {"loop", "x.md", "y.md"} <= {p for p, _ in first.failed}
        write(vault / "ok.md", "# Fine\n\nThe sourdough starter lives in the fridge.\n")
        wait_until(lambda: titles(app, "sourdough") == ["Fine"], what="note after loops indexed")
        assert w.thread.is_alive()


def test_inbox_files_are_ingested_once(tmp_path, embedder):
    home, inbox = tmp_path / "home", tmp_path / "drop"
    write(home / "config.toml", f'[sync]\ninbox = ["{inbox}"]\n')
    write(inbox / "before.md", "# Before\n\nWaiting in the inbox since yesterday: cedar planks.\n")
    with Cairn(home, embedder=embedder) as app, RunningWatcher(app) as w:
        wait_until(lambda: titles(app, "cedar planks") == ["Before"], what="inbox file at start")
        write(inbox / ".partial.md.tmp", "# Temp\n\nnever indexed zebra\n")
        write(inbox / "letter.txt", "Dear tenant, the water will be off on Tuesday morning.\n")
        wait_until(lambda: any(e.kind == "inbox" and e.ingest and any("letter.txt" in a for a in e.ingest.added)
                               for e in w.events), what="dropped file ingested")
        assert titles(app, "water tuesday")
        n = len(indexed_paths(app))
        settled = len(w.events)
        time.sleep(2.0)  # the watcher's own vault writes must not trigger more work
        assert [e.kind for e in w.events[settled:]] == []
        assert len(indexed_paths(app)) == n == 2
        assert titles(app, "zebra") == []
        # deleted in Cairn: a restart's inbox scan must not bring it back
        app.note_delete("Before")
    with Cairn(home, embedder=embedder) as app, RunningWatcher(app) as w:
        inbox_events = [e for e in w.events if e.kind == "inbox"]
        assert any(str(inbox / "before.md") in (e.skipped or []) for e in inbox_events)
        assert titles(app, "cedar planks") == []


def test_stop_event_ends_the_loop_quickly(app):
    w = RunningWatcher(app)
    with w:
        pass
    assert not w.thread.is_alive()
    assert [e.kind for e in w.events][-1] == "ready"


def test_folder_rename_under_watch_keeps_ids(app):
    vault = app.settings.vault
    write(vault / "proj.v1" / "plan.md", "# Plan\n\nPour the slab in April.\n")
    write(vault / "proj.v1" / "sub" / "costs.md", "# Costs\n\nConcrete 2,300 EUR.\n")
    with RunningWatcher(app) as w:
        ids = {app.find_note(t).id for t in ("Plan", "Costs")}
        os.rename(vault / "proj.v1", vault / "proj.v2")
        wait_until(lambda: indexed_paths(app) == {"proj.v2/plan.md", "proj.v2/sub/costs.md"},
                   what="folder rename followed")
        assert {app.find_note(t).id for t in ("Plan", "Costs")} == ids
        assert w.removed() == []
        os.rename(vault / "proj.v2", vault / ".hidden")  # out of sight: notes removed
        wait_until(lambda: indexed_paths(app) == set(), what="folder removal followed")


@contextmanager
def _cli_watch(home):
    """`cairn watch` in a subprocess, killed on leaving the block if still running; yields
    (process, list its stdout lines are appended to, the not yet started reader thread that
    appends them)."""
    import signal
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    # A shell runs background jobs with SIGINT ignored, and Python then keeps it ignored:
    # give the child the default disposition, as a terminal would, so Ctrl-C reaches it.
    proc = subprocess.Popen([sys.executable, "-m", "cairn.cli", "--home", str(home), "watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    try:
        yield proc, lines, reader
    finally:
        if proc.poll() is None:
            proc.kill()


def _interrupt(proc) -> str:
    """Send Ctrl-C (SIGINT) to a `_cli_watch` process and wait for it (60 s at most);
    returns its stderr."""
    import signal
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return err


def test_cli_watch_indexes_edits_and_stops_on_ctrl_c(tmp_path, embedder):
    home = tmp_path / "home"
    with _cli_watch(home) as (proc, lines, reader):
        assert "watching the vault" in proc.stderr.readline()
        reader.start()
        write(home / "vault" / "fern.md", "# Fern\n\nRepot the fern into peat-free compost.\n")
        wait_until(lambda: "added    fern.md\n" in lines, what="watch reported the new note")
        with Cairn(home, embedder=embedder) as app:
            assert titles(app, "fern repot") == ["Fern"]
        err = _interrupt(proc)
    assert proc.returncode == 0, err
    assert "stopped" in err and "Traceback" not in err


def test_periodic_rescan_repairs_a_missed_change(tmp_path, embedder):
    home = tmp_path / "home"
    write(home / "config.toml", "[sync]\nrescan_s = 1\n")
    write(home / "vault" / "pump.md", "# Pump\n\nThe sump pump float sticks in winter.\n")
    with Cairn(home, embedder=embedder) as app, RunningWatcher(app) as w:
        assert titles(app, "sump") == ["Pump"]
        with app.conn:  # the index loses the note behind the watcher's back (a dropped event)
            app.conn.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks)")
            app.conn.execute("DELETE FROM notes")
        assert titles(app, "sump") == []
        wait_until(lambda: titles(app, "sump") == ["Pump"], what="periodic rescan")
        wait_until(lambda: any("pump.md" in s.added for s in w.syncs()[1:]), what="rescan reported")


def test_inbox_scan_and_inbox_events_take_the_same_files(tmp_path, embedder):
    """The start-up scan and the event filter both follow ingest.iter_sources (hidden files
    and folders, node_modules skipped) minus temp files."""
    from cairn.watch import _Watcher

    home, inbox = tmp_path / "home", tmp_path / "drop"
    write(home / "config.toml", f'[sync]\ninbox = ["{inbox}"]\n')
    names = ["a.txt", "sub/b.md", ".hidden.txt", ".git/c.md", "node_modules/pkg/d.md",
             "sub/e.md~", "f.pdf.part", "sub/4913"]
    for n in names:
        write(inbox / n, "text\n")
    wanted = [inbox / "a.txt", inbox / "sub" / "b.md"]
    seen = []
    with Cairn(home, embedder=embedder) as app:
        w = _Watcher(app.settings, None, app.conn, lambda conn, files: seen.extend(files), None)
        w.start()
        assert seen == wanted
        w.note_changes({(1, str(inbox / n)) for n in names}, 0.0)
        assert sorted(w.pending_inbox) == wanted


def test_cli_watch_names_a_deleted_inbox_file_once_in_a_mixed_batch(tmp_path, embedder):
    """A start-up batch with a new inbox file and one deleted in Cairn before: the deleted
    one is reported on one line, not twice (once by the ingest report, once as skipped)."""
    home, inbox = tmp_path / "home", tmp_path / "drop"
    write(home / "config.toml", f'[sync]\ninbox = ["{inbox}"]\n')
    gone = write(inbox / "gone.md", "# Gone\n\nThe old shed key hangs by the back door.\n")
    with Cairn(home, embedder=embedder) as app:
        app.ingest([str(gone)])
        app.note_delete("Gone")
    write(inbox / "fresh.md", "# Fresh\n\nThe plum tree needs pruning in late summer.\n")
    with _cli_watch(home) as (proc, lines, reader):
        reader.start()
        wait_until(lambda: any(line.startswith("added 1,") for line in lines), what="inbox batch reported")
        err = _interrupt(proc)
    assert proc.returncode == 0, err
    assert err.count("gone.md") == 1, err
    assert "deleted in Cairn before" in err


def test_inbox_scan_names_a_subfolder_it_cannot_list(tmp_path, embedder, monkeypatch):
    """The start-up scan of an inbox says which subfolder it could not list (as `cairn ingest`
    does), not silently leaves its files out; the rest is ingested."""
    import os

    from cairn.watch import _Watcher

    home, inbox = tmp_path / "home", tmp_path / "drop"
    write(home / "config.toml", f'[sync]\ninbox = ["{inbox}"]\n')
    write(inbox / "a.txt", "text\n")
    write(inbox / "locked" / "b.md", "text\n")
    real_scandir = os.scandir

    def scandir(path="."):  # the test runs as root, whom chmod 000 does not stop
        if os.fspath(path) == str(inbox / "locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)
    monkeypatch.setattr(os, "scandir", scandir)
    seen, events = [], []
    with Cairn(home, embedder=embedder) as app:
        w = _Watcher(app.settings, embedder, app.conn, lambda conn, files: seen.extend(files), events.append)
        w.start()
    assert seen == [inbox / "a.txt"]
    assert [e.message for e in events if e.kind == "error"] == [
        f"inbox: {inbox / 'locked'}: cannot list folder: Permission denied"]
