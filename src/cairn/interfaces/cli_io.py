"""The typer-free edge of the `cairn` command line: the consoles, the one JSON printer, the
global options' effect (`apply_globals`), and the error edge (`_service`: CairnError and OSError
become one line and an exit code; anything else is a bug and shows its traceback), progress
bars and the ingest report printer.

Every command module uses these through cli_common; the program's fast path for `search`
(cli_fast) uses them without importing typer at all, so an error reads and exits the same
whichever parser read the command line. An error exits by raising SystemExit(code).
"""

from __future__ import annotations

import json
import os
import logging
import signal
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from cairn.interfaces.terminal_text import printable


class _LazyConsole:
    """A rich Console made on first use: importing rich costs ~60 ms of a cold start (measured
    with `python -X importtime`), and `search --json` or a failing command never need it."""

    def __init__(self, **options) -> None:
        self._options = options
        self._console = None

    def real(self):
        """The rich Console itself (to hand to rich objects such as Progress)."""
        if self._console is None:
            from cairn.interfaces.terminal_text import SafeConsole
            self._console = SafeConsole(**self._options)
        return self._console

    def __getattr__(self, name: str):
        return getattr(self.real(), name)

    def __enter__(self):
        return self.real().__enter__()

    def __exit__(self, *exc):
        return self.real().__exit__(*exc)


def escape(text: str) -> str:
    """rich.markup.escape, imported on first use."""
    from rich.markup import escape as _escape
    return _escape(text)


def Table(*args, **kwargs):  # noqa: N802 (stands in for the class)
    """A rich Table (rich.table imported on first use)."""
    from rich.table import Table as _Table
    return _Table(*args, **kwargs)


out = _LazyConsole(soft_wrap=True)
err = _LazyConsole(stderr=True, soft_wrap=True)
STATE: dict = {"home": None}


def apply_globals(home: str | None, verbose: bool) -> None:
    """What the global options do, for whichever parser read them (cli_common.main, cli_fast):
    `home` (--home or CAIRN_HOME; None: ~/.cairn) must not be blank (exit 1 naming it);
    SIGTERM stops like Ctrl-C; `verbose` logs details to stderr."""
    if home is not None and not home.strip():
        _fail("--home is empty; give a folder (or unset CAIRN_HOME to use ~/.cairn)")
    STATE["home"] = Path(home) if home else None
    # SIGTERM (e.g. from `timeout` or a service manager) stops like Ctrl-C: running ingest
    # jobs are put back in the queue instead of waiting for their lease to expire.
    signal.signal(signal.SIGTERM, _terminate)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    if not verbose:  # the HTML extractor's warnings ("discarding data: None") repeat, cryptically,
        # what the ingest report says itself ("no visible text in the HTML page")
        logging.getLogger("trafilatura").setLevel(logging.ERROR)


def _error_text(exc: Exception) -> str:
    """An error as one line naming the problem: OS errors as "PATH: reason" (no errno).
    The same text every door shows (cairn.errors.user_message)."""
    from cairn.errors import user_message
    return user_message(exc)


#: The signals (Ctrl-C, SIGTERM) turned into KeyboardInterrupt while the current command
#: runs (`_terminate`, cli_program.interrupt): an error raised after one is taken as the stop
#: it stands for (see `_service`).
SIGNALLED: list[int] = []


def _terminate(signum, frame) -> None:
    SIGNALLED.append(signum)
    raise KeyboardInterrupt(f"signal {signum}")


def stdin_text(data: bytes) -> str:
    """Bytes piped on stdin as text, decoded as a file of them would be (cairn.parse.text:
    UTF-8, else a byte-order mark's UTF-16/32, else cp1252/latin-1 and the other legacy
    encodings): `type notes.txt | cairn note create X` from a Windows or PowerShell pipe keeps
    its letters. Python's own stdin decoding turned such bytes into surrogates, which either
    crashed the write (UnicodeEncodeError) or were dropped. Raises ValueError naming the
    problem for binary data."""
    from cairn.parse.errors import UndecodableText
    from cairn.parse.text import decode_bytes
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return decode_bytes(data)[0]
    except UndecodableText as exc:
        raise ValueError(f"the text piped on stdin is not text: {exc}") from None


def read_stdin() -> str:
    """All of stdin as text (`stdin_text`); exits with an error (code 1) for binary data."""
    try:
        return stdin_text(sys.stdin.buffer.read())
    except ValueError as exc:
        _fail(str(exc))
        raise  # not reached: _fail exits


def _arg_text(value: str) -> str:
    """Command-line text as the user typed it: under a non-UTF-8 locale Python decodes argv
    with surrogate escapes, so re-decode those bytes as UTF-8 (e.g. "Děčín" under LC_ALL=C)."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        raw = value.encode(sys.getfilesystemencoding(), "surrogateescape")
        return raw.decode("utf-8", "replace")
    return value


def _arg_path(value: str) -> str:
    """A path argument: kept as given when a file or folder has that name (a name that is not
    valid UTF-8 is the file's own; ingest names the problem), else `_arg_text`."""
    return value if os.path.lexists(value) else _arg_text(value)


def _dump(data, *, compact: bool = False) -> None:
    """The one JSON printer of the command line: `data` (a result's to_json()) on stdout,
    indented by 2, or on one line with `compact` (JSONL rows, note commands); non-ASCII kept."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=None if compact else 2) + "\n")


def say(text: str) -> None:
    """`text` on stdout as it is but for terminal control sequences (terminal_text.printable):
    the plain writer of human-readable output, beside the rich console `out`."""
    sys.stdout.write(printable(text))


def say_err(text: str) -> None:
    """`text` on stderr as `say` writes stdout (notices, pending calls, a diff of a note)."""
    sys.stderr.write(printable(text))


def plain_err(line: str) -> None:
    """`line` on stderr as plain text (no colour, no markup read), without importing rich:
    for output meant for programs (`--json`), where a rich console would cost more than the
    command's own work on a cold start."""
    sys.stderr.write(printable(line) + "\n")


def _fail(message: str, code: int = 1) -> None:
    """Print `message` as an error on stderr and exit with `code` (1: a user error)."""
    err.print(f"[red]error:[/red] {escape(message)}")
    raise SystemExit(code)


def _usage_fail(message: str) -> None:
    """A usage error the argument parser cannot see (a bad `--batch` FILE): printed as by
    `_fail`, exit code 2, before anything is opened."""
    _fail(message, code=2)


def _early(rule, *args, code: int | None = None) -> None:
    """Apply one of the service's input rules (cairn.validate) before the index is opened:
    a refusal prints its message and exits with `code` (default the error's own, 1: as it
    would from inside the service; 2 where the command line treats it as a usage error)."""
    from cairn.errors import CairnError
    try:
        rule(*args)
    except CairnError as exc:
        _fail(exc.message, code=exc.exit_code if code is None else code)


@contextmanager
def _service(preload: str | None = None, query: bool = False, *, jobs: bool = False) -> Iterator["object"]:
    """The service on the home of `--home`, closed on exit; its errors become messages and
    exit codes. preload: a search mode the command will run first; for one that embeds the
    query (hybrid, semantic) the embedding model's session is started on a background
    thread before the service is even imported, so that ~60 ms of a cold search overlaps
    the imports and the opening of the index (cairn.embed.preload); query: the command
    embeds queries only (a search, not an answer), so the one-thread query session is
    the one started. Ctrl-C or SIGTERM: exit 130 with one line (see `_stopped`; jobs: the
    command runs ingest jobs, which the line then mentions); also when a library turned
    the KeyboardInterrupt into an error of its own (numpy.fromfile raises TypeError "expected
    str, bytes or os.PathLike object" when it lands in it), which is known by `SIGNALLED`."""
    from cairn.errors import CairnError
    SIGNALLED.clear()
    try:
        settings = None
        if preload in ("hybrid", "semantic"):
            from cairn.config import load_settings
            settings = load_settings(STATE["home"])
            from cairn.embed import preload as preload_embedder
            preload_embedder(settings.embedder, query=query)
        from cairn.service import Cairn
        svc = Cairn(STATE["home"], settings=settings)
    except (CairnError, OSError) as exc:  # ConfigError, HomeNotWritable, IndexOpenError...
        _fail(_error_text(exc))
    from cairn.store.history import acting
    try:
        with acting("cli"):  # note versions written by this command name the CLI (store.history)
            yield svc
    except KeyboardInterrupt as exc:
        _stopped(jobs, getattr(exc, "rolled_back", None))
    except Exception as exc:
        if SIGNALLED:  # the error a stop became inside a library: the stop it stands for
            _stopped(jobs)
        if isinstance(exc, CairnError):  # every user error and unavailable dependency (cairn.errors)
            _fail(exc.message or str(exc), code=exc.exit_code)
        if isinstance(exc, OSError):  # a file named on the command line: missing, unreadable...
            _fail(_error_text(exc))
        from cairn.store.damaged import is_damaged_error
        if isinstance(exc, sqlite3.OperationalError) or is_damaged_error(exc):  # busy, read-only, damaged
            _fail(svc.database_error_message(exc))
        raise
    finally:
        svc.close()


def _call(fn):
    """`fn(service)` inside `_service()` (whose errors become messages and exit codes);
    returns what `fn` returns. For command modules that run one operation."""
    with _service() as svc:
        return fn(svc)


def _stopped(jobs: bool, rolled_back: str | None = None) -> None:
    """A command stopped by Ctrl-C or SIGTERM: one line on stderr, exit 130. Only a command
    that runs ingest jobs (`jobs`: ingest, jobs run, jobs retry) says that the unfinished
    ones and the missing vectors are finished by `cairn jobs run`; any other (an `ask`, a
    `sync`) has no job to speak of. rolled_back: what an all-or-nothing operation put back
    (the `rolled_back` of the KeyboardInterrupt, set by `cairn import notes|chat` stopped
    while writing), said instead of "what was stored so far is kept"."""
    if rolled_back:
        err.print(f"[yellow]interrupted[/yellow]: {rolled_back}")
        raise SystemExit(130)
    more = "; unfinished ingest work (queued files, chunks not yet embedded) is finished by `cairn jobs run`" if jobs else ""
    err.print(f"[yellow]interrupted[/yellow]: what was stored so far is kept{more}")
    raise SystemExit(130)


@contextmanager
def _progress(enabled: bool = True):
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err.real(), transient=True) as bar:
        tasks: dict[str, int] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done, total=total)

        yield update


def _print_report(report, as_json: bool) -> None:
    if as_json:
        _dump(report.to_json())
        return
    for name, reason in report.skipped:
        err.print(f"[yellow]skipped[/yellow] {escape(name)}: {escape(reason)}")
    for name, reason in report.failed:
        err.print(f"[red]failed[/red]  {escape(name)}: {escape(reason)}")
    for name, warning in report.warnings:
        err.print(f"[yellow]warning[/yellow] {escape(name)}: {escape(warning)}")
    for name in report.tombstoned:
        err.print(f"[yellow]left alone[/yellow] {escape(name)}: deleted in Cairn before")
    out.print(f"added {len(report.added)}, updated {len(report.updated)}, "
              f"unchanged {len(report.unchanged)}, skipped {len(report.skipped)}, "
              f"failed {len(report.failed)}; embedded {report.embedded} chunk(s)")


def _exit_if_failed(report) -> None:
    """Exit 1 (after the report was printed) when any source failed or became a dead letter;
    what succeeded in the same run is stored all the same."""
    if report.failed:
        raise SystemExit(1)
