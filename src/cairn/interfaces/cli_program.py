"""The `cairn` program (console script and `python -m cairn`): starts what a command will
need early (cli_start), runs a plain `search` command line without typer (cli_fast), and
hands everything else to the typer application (cairn.cli).

Importing this module does nothing; `main()` runs the program.
"""

from __future__ import annotations

import os
import sys

#: Exit status when stdout cannot be flushed at the end (a closed pipe), as Python's own.
FLUSH_FAILED = 120


def main(argv: list[str] | None = None) -> int:
    """Run the `cairn` command line `argv` (default sys.argv; argv[0] is the program) and
    return its exit code (typer's commands exit through SystemExit). A plain `search`
    (cli_fast) ends the process itself once its output is flushed: see `_finish`. A fast
    search cut short ends as typer's would: a Ctrl-C outside the service exits 130 with no
    message, a closed stdout (EPIPE while writing) exits 1 with no traceback."""
    import signal

    from cairn.interfaces.cli_start import start_early
    if argv is not None:
        sys.argv[:] = argv
    sys.argv[0] = sys.argv[0].removesuffix(".exe")
    signal.signal(signal.SIGINT, _quit_at_once)  # until the command is known: see _quit_at_once
    start_early()  # the model session of a search starts now, before any other import
    from cairn.interfaces.cli_fast import parse_search, run
    line = parse_search(sys.argv[1:])
    if line is None:
        from cairn.cli import app  # still under _quit_at_once: no command has run yet
        from cairn.interfaces.cli_start import started
        # Ctrl-C is the command's again: Python's own handler (asyncio.run and anyio.run, as
        # in `cairn mcp`, install their graceful one only over it), or `interrupt` for a
        # command whose model cli_start is loading on a thread (an `ask`).
        signal.signal(signal.SIGINT, interrupt if started() else signal.default_int_handler)
        try:
            return app(prog_name="cairn")
        except SystemExit as exc:
            if exc.code == 130:  # interrupted: see _interrupted
                _interrupted()
            raise
    try:
        run(line, on_signal=_quit_at_once)
        code = 0
    except SystemExit as exc:  # an error, reported by cli_io with its exit code
        code = _exit_status(exc.code)
    except KeyboardInterrupt:  # outside the service (which reports its own): as typer 0.29 does, 130, silently
        code = 130
    except BrokenPipeError:  # the reader went away while the output was written (`| head -1`): as typer, 1
        code = 1
    _finish(code)
    return code  # not reached


def interrupt(signum: int, frame: object) -> None:
    """Ctrl-C while a command other than a plain search runs: KeyboardInterrupt, as Python's
    default handler raises it, except while a thread cli_start started is still loading the
    model (an `ask` that has only just begun), or when the signal lands in Python's import
    machinery itself (`in_import`): then leave at once with 130, for the reason given in
    `_quit_at_once` (the command has answered nothing yet: it needs the model first; raised
    there, KeyboardInterrupt would leave the import lock held). The signal is noted in
    cli_io.SIGNALLED (a library may turn the KeyboardInterrupt into an error of its own).
    Raises KeyboardInterrupt."""
    from cairn.interfaces.cli_start import loading  # imported already by main: no import runs here
    if loading() or in_import(frame):
        os._exit(130)
    from cairn.interfaces.cli_io import SIGNALLED  # imported already with cairn.cli
    SIGNALLED.append(signum)
    raise KeyboardInterrupt


def in_import(frame: object) -> bool:
    """Whether `frame`, the frame a signal interrupted, is code of importlib's bootstrap
    (frozen or not). There KeyboardInterrupt can fall between `_imp.acquire_lock()` and the
    `try` that releases it (`_get_module_lock` and its weakref callback) or between taking a
    module's lock and the `with` that gives it back: the lock then stays held, and the next
    import in another thread (the search's BM25 thread of an `ask`, which the interpreter
    joins at exit) waits for ever. Seen after the model had loaded: 1 hang in 150 Ctrl-Cs of
    an `ask` 0.05-0.9 s after it started (the session-11 review). A module's own code run by
    an import is not bootstrap code: KeyboardInterrupt there unwinds the import cleanly."""
    code = getattr(frame, "f_code", None)
    name = getattr(code, "co_filename", "") or ""
    return name.startswith("<frozen importlib._bootstrap") or name.replace("\\", "/").endswith(
        ("importlib/_bootstrap.py", "importlib/_bootstrap_external.py"))


def _interrupted() -> None:
    """Leave a command that Ctrl-C stopped (exit 130: cli_io has closed the service, so
    everything stored is committed) with os._exit once stdout and stderr are flushed, without
    waiting for the other threads: a KeyboardInterrupt raised inside `Thread.start()` (while
    a ThreadPoolExecutor, the search's BM25 pool, starts its thread) leaves that thread
    unknown to the executor, never told to stop, and the interpreter waited for it at exit
    for ever (1 `ask` in 300 stopped 0.4-0.9 s after it started, the session-11 review)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)


def _quit_at_once(signum: int, frame: object) -> None:
    """SIGINT or SIGTERM while the program starts, or during a fast-path search: leave at
    once with status 130 (typer's for Ctrl-C), without raising KeyboardInterrupt. Raised
    inside an import while a loader thread (cli_start) imports too, KeyboardInterrupt can
    leave Python's import lock held and hang the process for good (seen in 5 of 74 runs
    under load by the session-10 review; gdb showed both threads waiting on the import
    lock). A search only reads, and the index survives a stop at any point (SQLite), so
    nothing is lost; every other command gets Ctrl-C back before it runs (it may have
    writes to put back: ingest requeues its jobs)."""
    os._exit(130)


def _exit_status(code: object) -> int:
    """SystemExit.code as a process exit status, as Python reads it (None 0, an int itself,
    anything else printed to stderr and 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def _finish(code: int) -> None:
    """End the process after a search: flush stdout and stderr, wait for the threads
    cli_start started, and leave with os._exit, skipping the interpreter's teardown (every
    module's objects freed one by one: ~80-110 ms after a search on the 2-core machine,
    more than the search itself; measured with the program against os._exit, bench/README.md
    session 10). Nothing is lost: the index was closed by the search (cli_io._service), and
    no file is open for writing. Only errors that are bugs (a traceback) end the normal way."""
    from cairn.interfaces.cli_start import join_early
    try:
        sys.stdout.flush()
    except (OSError, ValueError):  # the reader went away (`| head`): as Python's own exit
        code = code or FLUSH_FAILED
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    join_early()
    os._exit(code)
