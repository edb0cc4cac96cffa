"""The program's fast path for `search` (cli_program, cli_fast) ends as typer's `search`
does when the command is cut short: a reader that went away (`cairn search ... | head`)
and a Ctrl-C outside the service. Each case runs the real program and the typer-only
application in new processes and compares exit code and stderr."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROGRAM = [sys.executable, "-m", "cairn"]
TYPER_ONLY = [sys.executable, "-c", "import sys; from cairn.cli import app; app(sys.argv[1:], prog_name='cairn')"]


def _run_with_closed_stdout(cmd: list[str]) -> subprocess.CompletedProcess:
    """Run `cmd` with stdout a pipe whose reader is already gone, unbuffered, so the first
    write of the output fails with EPIPE (as `| head -1` does to a long output)."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run(cmd, stdout=w, stderr=subprocess.PIPE, text=True, timeout=600,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    finally:
        os.close(w)


@pytest.mark.parametrize("output", [["--json"], []])
def test_a_closed_pipe_ends_the_fast_search_as_it_ends_typers(tmp_path, output):
    args = ["--home", str(tmp_path / "home"), "search", "heron", "--mode", "keyword", *output]
    fast = _run_with_closed_stdout(PROGRAM + args)
    typer = _run_with_closed_stdout(TYPER_ONLY + args)
    assert "Traceback" not in fast.stderr, fast.stderr
    assert fast.returncode == typer.returncode == 1, (fast.returncode, typer.returncode, fast.stderr)


# A Ctrl-C that lands outside the service (here: while --since is checked, before the index
# opens) in the program's fast path and in typer's command.
_INTERRUPT = """
import sys
import cairn.validate

def interrupted(*args, **kwargs):
    raise KeyboardInterrupt

cairn.validate.check_since = interrupted
if sys.argv[1] == "program":
    from cairn.interfaces.cli_program import main
    sys.exit(main(["cairn"] + sys.argv[2:]))
from cairn.cli import app
app(sys.argv[2:], prog_name="cairn")
"""


def test_a_ctrl_c_outside_the_service_ends_the_fast_search_as_it_ends_typers(tmp_path):
    args = ["--home", str(tmp_path / "home"), "search", "heron", "--mode", "keyword"]
    fast, typer = (subprocess.run([sys.executable, "-c", _INTERRUPT, which, *args], capture_output=True,
                                  text=True, timeout=600) for which in ("program", "typer"))
    assert (fast.returncode, fast.stderr, fast.stdout) == (typer.returncode, typer.stderr, typer.stdout)
    assert fast.returncode == 130


# A real SIGINT and SIGTERM during a fast search: the handler in place leaves at once (130),
# so an interrupt never lands inside an import (which can hang the process: cli_program).
_SIGNALLED = """
import os, signal, sys, time
import cairn.interfaces.cli_search as cs
SIGNAL = getattr(signal, sys.argv[1])

def search(*args, **kwargs):
    print(signal.getsignal(signal.SIGINT).__name__, signal.getsignal(signal.SIGTERM).__name__, flush=True)
    os.kill(os.getpid(), SIGNAL)
    time.sleep(60)
    print("not reached", flush=True)

cs.run_search = search
from cairn.interfaces.cli_program import main
sys.exit(main(["cairn"] + sys.argv[2:]))
"""


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_a_signal_during_a_fast_search_ends_it_at_once(tmp_path, signame):
    r = subprocess.run([sys.executable, "-c", _SIGNALLED, signame, "--home", str(tmp_path / "h"), "search", "heron"],
                       capture_output=True, text=True, timeout=50)
    assert r.returncode == 130, r.stderr
    assert r.stdout == "_quit_at_once _quit_at_once\n" and "Traceback" not in r.stderr


def test_other_commands_get_ctrl_c_back(tmp_path):
    code = ("import signal, sys\nimport cairn.cli\n"
            "from cairn.interfaces.cli_program import main\n"
            "cairn.cli.app = lambda **kw: print(signal.getsignal(signal.SIGINT).__name__) or 0\n"
            "sys.exit(main(['cairn', 'status']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    # Python's own handler, over which asyncio.run / anyio.run (`cairn mcp`) put their graceful one
    assert r.returncode == 0 and r.stdout.strip() == "default_int_handler", r.stderr


def test_an_ask_gets_the_handler_that_leaves_while_its_model_loads(tmp_path):
    code = ("import signal, sys\nimport cairn.cli\n"
            "from cairn.interfaces.cli_program import main\n"
            "cairn.cli.app = lambda **kw: print(signal.getsignal(signal.SIGINT).__name__) or 0\n"
            f"sys.exit(main(['cairn', '--home', {str(tmp_path / 'h')!r}, 'ask', 'heron?']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "interrupt", r.stderr


def test_ctrl_c_while_the_command_line_is_built_leaves_at_once(tmp_path):
    """Ctrl-C while `cairn.cli` (typer, every command's module) is imported, before any
    command runs: exit 130 at once, with no traceback (it was a KeyboardInterrupt traceback
    out of typer's Option(), seen 1 run in 114 of an `ask` stopped 0.4-0.9 s after it started
    in the session-11 review)."""
    code = ("import os, signal, sys, time\n"
            "class Finder:\n"
            "    @staticmethod\n"
            "    def find_spec(name, path=None, target=None):\n"
            "        if name == 'cairn.cli':\n"
            "            os.kill(os.getpid(), signal.SIGINT)\n"
            "            time.sleep(5)\n"
            "        return None\n"
            "sys.meta_path.insert(0, Finder)\n"
            "from cairn.interfaces.cli_program import main\n"
            f"sys.exit(main(['cairn', '--home', {str(tmp_path / 'h')!r}, 'status']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 130 and "Traceback" not in r.stderr, (r.returncode, r.stderr)


def test_an_interrupted_command_does_not_wait_for_a_thread_nobody_stops(tmp_path):
    """A command stopped by Ctrl-C (exit 130) leaves even when a thread it started is left
    running with nobody to stop it (a KeyboardInterrupt inside ThreadPoolExecutor's
    Thread.start: the interpreter then waited for that thread at exit for ever)."""
    code = ("import sys, threading\nimport cairn.cli\n"
            "from cairn.interfaces.cli_program import main\n"
            "def app(**kw):\n"
            "    threading.Thread(target=threading.Event().wait).start()  # never ends\n"
            "    print('stored', flush=False)\n"
            "    raise SystemExit(130)\n"
            "cairn.cli.app = app\n"
            "sys.exit(main(['cairn', 'status']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 130 and r.stdout == "stored\n", (r.returncode, r.stderr)
