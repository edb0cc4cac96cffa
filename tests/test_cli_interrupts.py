"""Ctrl-C during a command ends it with exit 130 and one line on stderr, never a traceback:
also when it lands inside numpy loading the vector index (numpy.fromfile turned it into
"TypeError: expected str, bytes or os.PathLike object, not BufferedReader", exit 1), or in
any library that turns the KeyboardInterrupt into an error of its own."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import write


@pytest.fixture
def searched_home(app, tmp_path):
    """A home with one note whose vectors are in the index's matrix cache (vectors.npy and
    vector_ids.npy, written by the first search), as the real embedder makes them."""
    write(tmp_path / "src" / "herons.md", "# Herons\n\nThe grey heron nests by the river in spring.\n")
    app.ingest([str(tmp_path / "src")])
    app.search("heron", mode="semantic")
    home = app.settings.home
    assert (home / "vectors.npy").exists() and (home / "vector_ids.npy").exists()
    return home


# Run in the child before the program: `fire()` sends this process a real SIGINT once, after
# the model has loaded (so the handler raises KeyboardInterrupt instead of leaving at once).
_PRELUDE = (
    "import abc, io, os, signal, sys, threading, time\n"
    "import numpy as np\n"
    "fired = []\n"
    "def fire():\n"
    "    if fired or threading.current_thread() is not threading.main_thread():\n"
    "        return\n"
    "    from cairn.interfaces.cli_start import join_early\n"
    "    join_early()\n"
    "    fired.append(1)\n"
    "    os.kill(os.getpid(), signal.SIGINT)  # its handler runs at the next bytecode\n"
)


def _ask(home, prelude: str) -> subprocess.CompletedProcess:
    code = (_PRELUDE + prelude + "from cairn.interfaces.cli_program import main\n"
            f"sys.exit(main(['cairn', '--home', {str(home)!r}, 'ask', 'where does the heron nest?', "
            "'--llm', 'none']))\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def _assert_stopped(r: subprocess.CompletedProcess) -> None:
    assert r.returncode == 130, (r.returncode, r.stderr[-3000:])
    assert "Traceback" not in r.stderr and "TypeError" not in r.stderr, r.stderr[-3000:]
    # an `ask` runs no ingest job: the line says nothing of queued jobs
    assert r.stderr.strip().splitlines()[-1] == "interrupted: what was stored so far is kept", r.stderr


def test_ctrl_c_inside_numpy_loading_the_vectors_exits_130(searched_home):
    """The real window: numpy.fromfile's isinstance check against os.PathLike runs Python code
    (ABCMeta.__instancecheck__), where the handler raises KeyboardInterrupt, and fromfile then
    drops it for a TypeError. The SIGINT is sent there when the loader reaches it, else right
    after np.load returns: either way it lands while the vectors are loaded."""
    prelude = (
        "check = abc.ABCMeta.__instancecheck__\n"
        "def trap(cls, inst):\n"
        "    if cls is os.PathLike and isinstance(inst, io.BufferedReader) and inst.name.endswith('.npy'):\n"
        "        fire()\n"
        "    return check(cls, inst)\n"
        "abc.ABCMeta.__instancecheck__ = trap\n"
        "load = np.load\n"
        "def np_load(*args, **kwargs):\n"
        "    out = load(*args, **kwargs)\n"
        "    fire()\n"
        "    return out\n"
        "np.load = np_load\n")
    _assert_stopped(_ask(searched_home, prelude))


def test_ctrl_c_a_library_turns_into_another_error_still_exits_130(searched_home):
    """Whatever library swallows the KeyboardInterrupt for an error of its own, the command
    stops as a Ctrl-C (cli_io.SIGNALLED), not with that error's traceback."""
    prelude = (
        "load = np.load\n"
        "def np_load(*args, **kwargs):\n"
        "    try:\n"
        "        fire()\n"
        "        time.sleep(5)\n"
        "    except KeyboardInterrupt:\n"
        "        raise TypeError('the library lost the interrupt') from None\n"
        "    return load(*args, **kwargs)\n"
        "np.load = np_load\n")
    _assert_stopped(_ask(searched_home, prelude))


def test_an_error_without_a_ctrl_c_still_shows_its_traceback(searched_home):
    """The rule above only applies after a stop: a bug is still a bug (exit 1, traceback)."""
    prelude = (
        "def np_load(*args, **kwargs):\n"
        "    raise TypeError('a bug')\n"
        "np.load = np_load\n")
    r = _ask(searched_home, prelude)
    assert r.returncode == 1 and "a bug" in r.stderr and "interrupted" not in r.stderr, (r.returncode, r.stderr)


def test_a_keyboard_interrupt_inside_the_vector_load_stays_one(searched_home, monkeypatch):
    """Every door (a command with Python's own Ctrl-C handler, the server, a library user)
    gets the KeyboardInterrupt itself from the loader, not numpy.fromfile's TypeError: it is
    raised where fromfile's os.PathLike check runs Python code, if the loader goes there."""
    import abc
    import io
    import os

    from cairn.store import notes as N
    from cairn.store.db import connect
    from cairn.store.vectors import VectorIndex

    check = abc.ABCMeta.__instancecheck__
    raised = []

    def trap(cls, inst):
        if cls is os.PathLike and isinstance(inst, io.BufferedReader) and inst.name.endswith(".npy"):
            raised.append(inst.name)
            raise KeyboardInterrupt
        return check(cls, inst)
    conn = connect(searched_home / "index.db")
    try:
        index = VectorIndex(conn, searched_home)
        monkeypatch.setattr(abc.ABCMeta, "__instancecheck__", trap)
        try:
            index._load()
            outcome = "loaded"
        except KeyboardInterrupt:
            outcome = "interrupted"
        finally:
            monkeypatch.undo()
        assert outcome == ("interrupted" if raised else "loaded"), (outcome, raised)
        assert len(index) == 1 and index._gen == N.vector_generation(conn)
    finally:
        conn.close()


@pytest.mark.parametrize("jobs, line", [
    (False, "interrupted: what was stored so far is kept"),
    (True, "interrupted: what was stored so far is kept; unfinished ingest work "
           "(queued files, chunks not yet embedded) is finished by `cairn jobs run`"),
])
def test_the_interrupted_line_mentions_queued_jobs_only_for_commands_that_run_them(tmp_path, monkeypatch, capsys,
                                                                                    jobs, line):
    from cairn.interfaces import cli_io
    monkeypatch.setitem(cli_io.STATE, "home", tmp_path / "home")
    with pytest.raises(SystemExit) as stop:
        with cli_io._service(jobs=jobs):
            raise KeyboardInterrupt
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip() == line

