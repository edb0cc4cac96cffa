"""Exit codes of the real `cairn` command (docs/cli.md#exit-codes), in subprocesses:

- 2: a value outside an option's choices is a usage error, named with the allowed values;
- 1: a run in which a source failed (a missing path, a dead letter), after the report,
  with every other source still stored; an unwritable CAIRN_HOME or index file, named with
  the fix.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys

import pytest

from cairn.memory.model import KINDS
from cairn.noteops import MODES as NOTE_MODES
from cairn.search.hybrid import FUSIONS, MODES, NOTE_TYPES
from conftest import write


def cairn(home, *args, preexec_fn=None):
    cmd = [sys.executable, "-m", "cairn.cli", "--home", str(home), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, preexec_fn=preexec_fn)


def flat(text: str) -> str:
    """Error text without the box drawing and line wrapping of the terminal renderer."""
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize("args, option, allowed", [
    (["search", "x", "--mode", "fuzzy"], "--mode", MODES),
    (["search", "x", "--fusion", "borda"], "--fusion", FUSIONS),
    (["search", "x", "--type", "markdown", "--type", "pdfs"], "--type", NOTE_TYPES),
    (["search", "--batch", "q.jsonl", "--mode", "Keyword"], "--mode", MODES),
    (["remember", "x", "--kind", "hobby"], "--kind", KINDS),
    (["memories", "--kind", "hobby"], "--kind", KINDS),
    (["note", "update", "weekly review", "--mode", "replace", "--body", "x"], "--mode", NOTE_MODES),
])
def test_value_outside_the_choices_is_a_usage_error(tmp_path, args, option, allowed):
    home = tmp_path / "h"
    r = cairn(home, *args)
    err = flat(r.stderr)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert f"Invalid value for '{option}'" in err and "is not one of " + ", ".join(f"'{v}'" for v in allowed) in err
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert not home.exists()  # refused before anything was opened or written


def test_valid_choices_pass_through_to_the_service(tmp_path):
    home = tmp_path / "h"
    write(tmp_path / "in" / "heron.md", "# Herons\n\nThe grey heron nests in the alder carr.\n")
    assert cairn(home, "ingest", "-q", str(tmp_path / "in")).returncode == 0
    r = cairn(home, "search", "heron", "--mode", "keyword", "--fusion", "rrf", "--type", "markdown",
              "--type", "text", "--json")
    assert r.returncode == 0, r.stderr
    assert [h["title"] for h in json.loads(r.stdout)["hits"]] == ["Herons"]
    r = cairn(home, "search", "heron", "--mode", "keyword", "--type", "pdf", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["hits"] == []
    r = cairn(home, "note", "update", "Herons", "--mode", "append", "--body", "Seen again in March.")
    assert r.returncode == 0, r.stderr
    r = cairn(home, "remember", "I prefer tea to coffee", "--kind", "preference", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["memory"]["kind"] == "preference"
    r = cairn(home, "memories", "--kind", "preference", "--json")
    assert [m["text"] for m in json.loads(r.stdout)] == ["I prefer tea to coffee"]


def test_python_api_still_checks_the_values(app):
    """The CLI's choices do not replace the service's checks: Python callers get ValueError."""
    with pytest.raises(ValueError, match="unknown search mode 'fuzzy'"):
        app.search("x", mode="fuzzy")
    with pytest.raises(ValueError, match="unknown fusion 'borda'"):
        app.search("x", fusion="borda")
    with pytest.raises(ValueError, match="unknown note type"):
        app.search("x", types=["pdfs"])
    with pytest.raises(ValueError, match="unknown kind 'hobby'"):
        app.remember("x", kind="hobby")


def test_missing_path_fails_the_run_and_the_rest_is_ingested(tmp_path):
    home = tmp_path / "h"
    note = write(tmp_path / "in" / "kayak.md", "# Kayak\n\nThe kayak needs a new spray deck.\n")
    missing = tmp_path / "no" / "such" / "file.md"
    r = cairn(home, "ingest", "-q", str(missing), str(note))
    assert r.returncode == 1, r.stderr
    assert f"{missing}: no such file or directory" in r.stderr and "Traceback" not in r.stderr
    assert "added 1" in r.stdout and "failed 1" in r.stdout  # the summary is printed all the same
    assert json.loads(cairn(home, "status", "--json").stdout)["notes"] == 1
    r = cairn(home, "ingest", "-q", "--json", str(missing))
    assert r.returncode == 1
    assert json.loads(r.stdout)["failed"] == [{"name": str(missing), "reason": "no such file or directory"}]
    r = cairn(home, "ingest", "-q", str(note))  # nothing failed: exit 0
    assert r.returncode == 0 and "unchanged 1" in r.stdout


def test_dead_letter_fails_the_run_and_jobs_shows_one_attempt(tmp_path):
    home = tmp_path / "h"
    note = write(tmp_path / "in" / "kayak.md", "# Kayak\n\nThe kayak needs a new spray deck.\n")
    url = "https://nowhere.invalid/article"
    r = cairn(home, "ingest", "-q", url, str(note))
    assert r.returncode == 1, r.stderr
    assert f"failed  {url}: cannot resolve nowhere.invalid" in r.stderr and "[dead letter: job" in r.stderr
    assert "added 1" in r.stdout
    (dead,) = json.loads(cairn(home, "jobs", "--json").stdout)["dead"]
    assert dead["source"] == url and dead["attempts"] == 1
    r = cairn(home, "jobs", "retry", "-q", "--all")  # still does not resolve: still a failure
    assert r.returncode == 1 and "cannot resolve nowhere.invalid" in r.stderr


def _drop_root_file_override() -> None:
    """In the child: take CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH out of the capability
    bounding set (prctl PR_CAPBSET_DROP), so that root, too, obeys a folder's mode bits
    after exec — as every other user does."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH (linux/capability.h)
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_unwritable_home_is_named_with_the_fix(tmp_path):
    home = tmp_path / "h"
    write(tmp_path / "in" / "kayak.md", "# Kayak\n\nThe kayak needs a new spray deck.\n")
    assert cairn(home, "ingest", "-q", str(tmp_path / "in")).returncode == 0
    drop = _drop_root_file_override if os.geteuid() == 0 else None
    home.chmod(0o555)
    try:
        for args in (["status"], ["search", "kayak"], ["ingest", "-q", str(tmp_path / "in")]):
            r = cairn(home, *args, preexec_fn=drop)
            err = flat(r.stderr)
            assert r.returncode == 1, (args, r.stdout, r.stderr)
            assert f"error: CAIRN_HOME {home} is not writable: permission denied" in err, (args, r.stderr)
            assert f"chmod u+w {home}" in err and "Traceback" not in r.stderr
        r = cairn(home / "sub", "status", preexec_fn=drop)  # a home that cannot be created
        err = flat(r.stderr)
        assert r.returncode == 1 and f"CAIRN_HOME {home / 'sub'} is not writable" in err
        assert f"(chmod u+w {home})" in err
    finally:
        home.chmod(0o755)
    r = cairn(home, "status", "--json")  # nothing was lost
    assert r.returncode == 0 and json.loads(r.stdout)["notes"] == 1


def test_a_folder_that_cannot_be_listed_is_reported_and_not_retried(tmp_path):
    """review3 M5: a subfolder without read permission is named as skipped ("cannot list
    folder: Permission denied"), an unreadable file fails once (no five retries)."""
    home = tmp_path / "h"
    src = tmp_path / "in"
    write(src / "a.md", "# Kayak\n\nThe kayak needs a new spray deck.\n")
    locked_file = write(src / "b.md", "# Canoe\n\nThe canoe paddles hang in the shed.\n")
    locked = src / "locked-dir"
    write(locked / "c.md", "# Dinghy\n\nThe dinghy oars are in the loft.\n")
    drop = _drop_root_file_override if os.geteuid() == 0 else None
    locked.chmod(0o000)
    locked_file.chmod(0o000)
    try:
        r = cairn(home, "ingest", str(src), preexec_fn=drop)
    finally:
        locked.chmod(0o755)
        locked_file.chmod(0o644)
    err = flat(r.stderr)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert f"skipped {locked}: cannot list folder: Permission denied" in flat(r.stdout + " " + r.stderr), r
    assert f"{locked_file}: cannot read: Permission denied" in err and "gave up after" not in err, err
    assert "added 1" in r.stdout and "Traceback" not in r.stderr
    (dead,) = json.loads(cairn(home, "jobs", "--json").stdout)["dead"]
    assert dead["attempts"] == 1


def test_unwritable_index_file_is_named(tmp_path):
    """A leftover read-only `index.db-shm`, or an index file that is a directory: SQLite
    says only "attempt to write a readonly database" / "unable to open database file"; the
    error names the file, the problem and the fix, and nothing stored is lost."""
    import shutil
    import sqlite3

    home = tmp_path / "h"
    note = write(tmp_path / "in" / "kayak.md", "# Kayak\n\nThe kayak needs a new spray deck.\n")
    assert cairn(home, "ingest", "-q", str(note)).returncode == 0
    index, shm, wal = home / "index.db", home / "index.db-shm", home / "index.db-wal"
    # A -shm left behind by a process of another user: taken while a connection is open.
    conn = sqlite3.connect(index)
    conn.execute("SELECT count(*) FROM notes").fetchone()
    shutil.copy(shm, tmp_path / "leftover-shm")
    conn.close()
    shutil.copy(tmp_path / "leftover-shm", shm)
    shm.chmod(0o444)
    drop = _drop_root_file_override if os.geteuid() == 0 else None
    more = write(tmp_path / "in" / "canoe.md", "# Canoe\n\nThe canoe paddles hang in the shed.\n")
    r = cairn(home, "ingest", "-q", str(more), preexec_fn=drop)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert f"error: the index {index} cannot be written (attempt to write a readonly database)" in r.stderr
    assert f"{shm} is read-only; make it writable (chmod u+w {shm})" in r.stderr
    assert "Traceback" not in r.stderr
    shm.unlink()
    shm.mkdir()  # not a file at all (no permissions involved: fails for root too)
    r = cairn(home, "ingest", "-q", str(more))
    assert r.returncode == 1 and f"{shm} is a directory, not a file; move it out of the way" in r.stderr, r.stderr
    shm.rmdir()
    wal.unlink(missing_ok=True)
    wal.mkdir()
    r = cairn(home, "status")
    assert r.returncode == 1, r.stdout
    assert f"{index}: cannot open index database: unable to open database file; {wal} is a directory" in r.stderr
    wal.rmdir()
    r = cairn(home, "search", "kayak", "--mode", "keyword", "--json")  # nothing was lost
    assert r.returncode == 0 and [h["title"] for h in json.loads(r.stdout)["hits"]] == ["Kayak"]
