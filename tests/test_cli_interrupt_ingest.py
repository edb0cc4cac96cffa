"""A real Ctrl-C (SIGINT) or SIGTERM in the middle of the commands that store things —
`ingest`, `import notes`, `import chat`, `sync` — ends them with exit 130 and the one line
"interrupted: what was stored so far is kept" (for `ingest`, which runs jobs, with the hint
that the unfinished ones stay queued; an import stopped while it writes puts everything back and
says "nothing from FILE was imported"), never a traceback; nothing is lost: every source is
either indexed or still queued, and running the command again (or `cairn jobs run`) ends
with everything stored. `watch` ends on either signal as documented ("stopped", exit 0).

Each run is a real subprocess of the real program (`python -m cairn`, and `python -m
cairn.cli` for the interpreter quirk below). The signal is sent by the child to itself at
a fixed point of the command's own path (tests/fixtures' sitecustomize, made per test):
when the command opens or renames the file whose name holds FIRE_AT into place, the FIRE_N-th
time, from the main thread of the command's process — so where it lands never depends on
timing. With FIRE_EXEC the signal lands inside code run from a string (`exec(str)`, as
dataclasses and namedtuple run when a module is imported lazily): under `python -m` CPython
then ended the process by SIGINT (-2) although the command had exited 130 (seen once under
load in tests/test_special_files.py)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from conftest import write, write_jsonl

_SITE = r'''
import io, os, signal, threading
_MAIN_PID = os.getpid()
_AT, _N = os.environ["FIRE_AT"], int(os.environ.get("FIRE_N", "1"))
_SIG = getattr(signal, os.environ["FIRE_SIGNAL"])
_seen = []

def _fire(path):
    if _AT not in str(path) or os.getpid() != _MAIN_PID or threading.current_thread() is not threading.main_thread():
        return
    _seen.append(str(path))
    if len(_seen) != _N:
        return
    code = "import os, time\nos.kill(os.getpid(), SIG)\ntime.sleep(30)\n"
    if os.environ.get("FIRE_EXEC"):
        exec(code, {"SIG": _SIG})  # the handler raises inside code run from a string
    else:
        os.kill(os.getpid(), _SIG)
        import time
        time.sleep(30)

_open, _replace = io.open, os.replace

def open_(file, *args, **kwargs):
    _fire(file)
    return _open(file, *args, **kwargs)

def replace(src, dst, *args, **kwargs):
    _fire(dst)
    return _replace(src, dst, *args, **kwargs)

io.open = open_
os.replace = replace
'''

JOBS_LINE = ("interrupted: what was stored so far is kept; unfinished ingest work "
             "(queued files, chunks not yet embedded) is finished by `cairn jobs run`")
PLAIN_LINE = "interrupted: what was stored so far is kept"


def _rolled_back(path) -> str:
    """The line of an import stopped while it wrote: all of it was put back."""
    return f"interrupted: nothing from {path} was imported (the vault and index are as before)"
N = 6


def _run(tmp_path, home, args, *, at: str, n: int = 1, signame: str = "SIGTERM", via_exec: bool = False,
         module: str = "cairn", timeout: float = 300) -> subprocess.CompletedProcess:
    site = tmp_path / "site"
    write(site / "sitecustomize.py", _SITE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
           "FIRE_AT": at, "FIRE_N": str(n), "FIRE_SIGNAL": signame}
    if via_exec:
        env["FIRE_EXEC"] = "1"
    return subprocess.run([sys.executable, "-m", module, "--home", str(home), *args],
                          capture_output=True, text=True, env=env, timeout=timeout)


def _plain(home, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=300)


def _stopped(r: subprocess.CompletedProcess, line: str) -> None:
    assert r.returncode == 130, (r.returncode, r.stderr[-3000:])
    assert "Traceback" not in r.stderr and "Error" not in r.stderr, r.stderr[-3000:]
    assert r.stderr.strip().splitlines()[-1] == line, r.stderr[-3000:]


def _db(home, sql: str):
    with closing(sqlite3.connect(home / "index.db")) as db:
        return db.execute(sql).fetchall()


def _notes_folder(folder) -> None:
    for i in range(N):
        write(folder / f"n{i:03d}.md", f"# Note {i}\n\nThe heron number {i} nests by the mill pond.\n")


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_ingest_stopped_midway_keeps_what_it_stored_and_queues_the_rest(tmp_path, signame):
    home, src = tmp_path / "home", tmp_path / "src"
    _notes_folder(src)
    # the 4th note is read or put in place in the vault: notes before it are stored
    r = _run(tmp_path, home, ["ingest", str(src), "-q"], at="n003.md", signame=signame)
    _stopped(r, JOBS_LINE)
    states = dict(_db(home, "SELECT state, count(*) FROM jobs GROUP BY state"))
    notes = _db(home, "SELECT count(*) FROM notes")[0][0]
    assert "running" not in states, states  # released, not left to a lease
    assert states.get("queued", 0) >= 1 and notes + states.get("queued", 0) >= N, (notes, states)
    done = _plain(home, "jobs", "run", "-q")
    assert done.returncode == 0, done.stderr
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == N


@pytest.mark.parametrize("module", ["cairn", "cairn.cli"])
def test_a_stop_landing_in_code_run_from_a_string_still_exits_130(tmp_path, module):
    """The interpreter quirk: a KeyboardInterrupt raised in `exec(str)` code and caught by
    the command made `python -m ...` die by SIGINT (-2) instead of exiting 130."""
    home, src = tmp_path / "home", tmp_path / "src"
    _notes_folder(src)
    # with the progress bar (no -q), rich is loaded before the stop, as in the run that
    # failed: its import after the stop ran string code again, which hid the quirk
    r = _run(tmp_path, home, ["ingest", str(src)], at="n003.md", via_exec=True, module=module)
    _stopped(r, JOBS_LINE)
    assert "running" not in dict(_db(home, "SELECT state, count(*) FROM jobs GROUP BY state"))


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_import_notes_stopped_midway_exits_130_and_a_rerun_stores_every_note(tmp_path, signame):
    home = tmp_path / "home"
    rows = [{"id": f"r{i}", "title": f"Record {i}", "text": f"The kestrel count was {i}."} for i in range(N)]
    data = write_jsonl(tmp_path / "notes.jsonl", rows)
    r = _run(tmp_path, home, ["import", "notes", str(data), "-q"], at="/r3-", signame=signame)
    _stopped(r, _rolled_back(data))
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == 0  # all or nothing: put back
    again = _plain(home, "import", "notes", str(data), "-q")
    assert again.returncode == 0, again.stderr
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == N


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_import_chat_stopped_midway_exits_130_and_a_rerun_stores_every_session(tmp_path, signame):
    home = tmp_path / "home"
    rows = [{"conversation": "c1", "session": f"s{i}", "id": f"m{i}", "speaker": "Lena",
             "time": f"2025-11-{10 + i:02d}T18:30:00+01:00", "text": f"I walked to the weir on day {i}."}
            for i in range(N)]
    data = write_jsonl(tmp_path / "chat.jsonl", rows)
    r = _run(tmp_path, home, ["import", "chat", str(data), "-q", "--no-extract"], at="chats/",
             n=4, signame=signame)
    _stopped(r, _rolled_back(data))
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == 0
    again = _plain(home, "import", "chat", str(data), "-q", "--no-extract")
    assert again.returncode == 0, again.stderr
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == N


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_sync_stopped_midway_exits_130_and_a_rerun_indexes_every_note(tmp_path, signame):
    home = tmp_path / "home"
    _notes_folder(home / "vault" / "mine")
    r = _run(tmp_path, home, ["sync"], at="n003.md", signame=signame)
    _stopped(r, PLAIN_LINE)
    again = _plain(home, "sync")
    assert again.returncode == 0, again.stderr
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == N


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_watch_ends_on_a_signal_during_its_first_sync_with_its_line(tmp_path, signame):
    """`watch` runs until stopped: a stop is its normal end ("stopped", exit 0), also one
    that lands in the middle of its first sync; the index is whole (a sync finishes it)."""
    home = tmp_path / "home"
    _notes_folder(home / "vault" / "mine")
    r = _run(tmp_path, home, ["watch"], at="n003.md", signame=signame)
    assert r.returncode == 0 and r.stderr.strip().splitlines()[-1] == "stopped", (r.returncode, r.stderr[-3000:])
    assert "Traceback" not in r.stderr
    again = _plain(home, "sync")
    assert again.returncode == 0, again.stderr
    assert _db(home, "SELECT count(*) FROM notes")[0][0] == N
