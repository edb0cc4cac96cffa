"""A symbolic link loop (a -> b -> a) where Cairn expects a file or folder is skipped or
refused by name, never a crash: on Python 3.11 `Path.resolve()` raises RuntimeError
("Symlink loop from ...") before any per-file check runs, which made a loop swapped in for a
source between the folder walk and the job a dead letter, and `note create` / `sync` of a
loop a traceback. cairn.paths.resolved never raises; the read names the loop."""

from __future__ import annotations

import pytest

from cairn import paths as P
from cairn.service import Cairn

from conftest import HashEmbedder, write


def _loop(a, b):
    """Make `a` and `b` symlinks to each other (removing a file at `a` first)."""
    if a.exists() or a.is_symlink():
        a.unlink()
    a.symlink_to(b)
    b.symlink_to(a)


@pytest.fixture
def fast(tmp_path):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as a:
        yield a


def _no_dead_letters(app):
    counts = app.jobs()["counts"]
    assert counts["dead"] == 0 and counts["queued"] == 0, counts


def test_resolved_never_raises_on_a_loop_and_is_loop_names_it(tmp_path):
    _loop(tmp_path / "a", tmp_path / "b")
    write(tmp_path / "real.md", "x")
    assert P.is_loop(tmp_path / "a") and P.is_loop(tmp_path / "a" / "below")
    assert not P.is_loop(tmp_path / "real.md") and not P.is_loop(tmp_path / "missing")
    assert P.resolved(tmp_path / "a").parent == P.resolved(tmp_path)  # followed as far as it goes
    assert P.resolved(tmp_path / "real.md") == (tmp_path / "real.md").resolve()


def test_a_loop_in_the_folder_is_skipped_and_leaves_no_dead_letter(fast, tmp_path):
    src = tmp_path / "src"
    write(src / "keep.md", "# Keep\n\nA note about herons.\n")
    _loop(src / "a.md", src / "b.md")
    report = fast.ingest([str(src)])
    assert report.added == [str(src / "keep.md")] and not report.failed
    assert dict(report.skipped)[str(src / "a.md")] == "symlink loop, skipped"
    _no_dead_letters(fast)


def test_a_loop_swapped_in_after_the_walk_is_skipped_and_the_stored_note_kept(fast, tmp_path, monkeypatch):
    """The loop replaces a source between listing (enqueue) and reading (its job): the job
    skips it by name, the rest of the ingest goes on, the note made from the file before
    stays, and nothing ends in the dead-letter queue (it was a RuntimeError there)."""
    import cairn.ingest.run as R
    src = tmp_path / "src"
    write(src / "a.md", "# Alpha\n\nA note about kayaks.\n")
    write(src / "c.md", "# Gamma\n\nA note about canoes.\n")
    assert len(fast.ingest([str(src)]).added) == 2
    write(src / "a.md", "# Alpha\n\nA new version about paddles.\n")
    write(src / "c.md", "# Gamma\n\nA new version about rafts.\n")
    listed = R.enqueue_sources

    def enqueue_then_swap(*args, **kwargs):
        ids = listed(*args, **kwargs)
        _loop(src / "a.md", src / "z.md")  # after the walk, before the job reads it
        return ids
    monkeypatch.setattr(R, "enqueue_sources", enqueue_then_swap)
    report = fast.ingest([str(src)])
    assert report.skipped == [(str(src / "a.md"), "symlink loop, skipped")]
    assert report.updated == [str(src / "c.md")] and not report.failed
    _no_dead_letters(fast)
    assert fast.search("kayaks", mode="keyword").hits  # the note made before is kept
    assert fast.search("rafts", mode="keyword").hits


def test_ingest_file_skips_a_loop_even_when_the_job_asks_for_errors(fast, tmp_path):
    """The job worker passes raise_errors=True: an ELOOP is not an error to retry."""
    from cairn.ingest.files import ingest_file
    from cairn.report import IngestReport
    _loop(tmp_path / "a.md", tmp_path / "b.md")
    report = IngestReport()
    ingest_file(fast.conn, fast.settings, tmp_path / "a.md", tmp_path, report, raise_errors=True)
    assert report.skipped == [(str(tmp_path / "a.md"), "symlink loop, skipped")] and not report.failed


def test_a_heavy_source_swapped_for_a_loop_before_phase_two_is_skipped(fast, tmp_path, monkeypatch):
    """Before phase 2, run_jobs asks `_needs_parse` of every heavy source (a PDF by its
    name): a RuntimeError there stopped the whole run, text sources' embedding included."""
    import cairn.ingest.run as R
    src = tmp_path / "src"
    write(src / "scan.pdf", b"%PDF-1.4 not read")
    write(src / "note.md", "# Note\n\nA note about herons.\n")
    listed = R.enqueue_sources

    def enqueue_then_swap(*args, **kwargs):
        ids = listed(*args, **kwargs)
        _loop(src / "scan.pdf", src / "other.pdf")
        return ids
    monkeypatch.setattr(R, "enqueue_sources", enqueue_then_swap)
    report = fast.ingest([str(src)])
    assert report.skipped == [(str(src / "scan.pdf"), "symlink loop, skipped")]
    assert report.added == [str(src / "note.md")] and not report.failed and report.embedded
    _no_dead_letters(fast)


def test_a_loop_named_on_the_command_line_is_failed_as_a_loop(fast, tmp_path):
    _loop(tmp_path / "a.md", tmp_path / "b.md")
    report = fast.ingest([str(tmp_path / "a.md")])
    assert report.failed == [(str(tmp_path / "a.md"), "symlink loop: nothing to read")]
    _no_dead_letters(fast)


def test_note_create_into_a_loop_folder_is_refused_by_name(fast):
    from cairn.errors import InvalidInput
    vault = fast.settings.vault
    _loop(vault / "l1", vault / "l2")
    with pytest.raises(InvalidInput, match="folder 'l1' is a symlink loop in the vault"):
        fast.note_create("Plan", body="x", folder="l1")


def test_sync_of_a_loop_path_outside_the_vault_is_left_alone(fast, tmp_path):
    _loop(tmp_path / "a", tmp_path / "b")
    report = fast.sync([str(tmp_path / "a")])
    assert not report.failed and not report.added


def test_the_assistant_file_checks_take_a_loop_as_no_file(fast, tmp_path):
    from cairn.assistant.judge import _inside
    from cairn.errors import NotFound
    from cairn.tools.files import _read_file
    vault = fast.settings.vault
    _loop(vault / "l1.md", vault / "l2.md")
    assert _inside(str(vault / "l1.md"), vault) is True  # a loop inside leads nowhere else
    _loop(tmp_path / "o1.md", tmp_path / "o2.md")
    assert _inside(str(tmp_path / "o1.md"), vault) is False
    with pytest.raises(NotFound, match="no file"):
        _read_file(fast, {"path": "l1.md"})


def test_a_plugin_entry_that_is_a_loop_is_not_a_plugin(fast):
    from cairn.plugin_host.host import discover
    folder = fast.settings.home / "plugins"
    folder.mkdir(parents=True, exist_ok=True)
    _loop(folder / "cairn-plugin-loop", folder / "cairn-plugin-back")
    assert discover(fast.settings) == []
