"""The `cairn` program's fast path: a `search` command line read without typer.

Why: typer (its import, and building the command) costs ~60-100 ms of a cold `cairn search`
on this project's 2-core machine, a third of what a hybrid search adds to the
`import numpy, onnxruntime` floor (bench/README.md, issue 16). `search` is the command a
person runs cold most often, so the program (cli_program) reads its plain command lines
here and runs them through the same code typer's `search` command runs
(cli_search.run_search, the cli_io error edge), without importing typer.

The rule that keeps the two parsers from disagreeing: this reader accepts only command
lines it understands completely and returns None for anything else, which then goes to
typer as before: --help, --batch, an unknown or repeated option, a value typer would refuse
(k outside 1..1000 or not written as digits, a mode, fusion or type not among the choices),
a value or query starting with "-", no query or two, shell completion. So every usage error
is still reported by typer, in its words, and a new option added to the typer command is
simply read by typer until this reader learns it (tests/unit/test_cli_fast.py checks that
both parsers give the same values, and that every option of the typer command is known here).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

#: Options of `search` that take a value (one each, except --type, which repeats).
VALUE_OPTIONS = ("--k", "--since", "--mode", "--fusion", "--entity", "--type", "--status", "--input-source")
#: Options of `search` that take none.
FLAG_OPTIONS = ("--json",)
#: Options typer's `search` has that this reader leaves to typer.
LEFT_TO_TYPER = ("--batch", "--help")
_DIGITS = re.compile(r"[0-9]{1,4}")


@dataclass
class SearchLine:
    """A `cairn [--home DIR] [-v] search QUERY [options]` command line, read: the global
    options (home None: CAIRN_HOME or ~/.cairn, as typer reads it) and the search's own."""

    query: str
    home: str | None = None
    verbose: bool = False
    k: int | None = None
    json_out: bool = False
    types: list[str] | None = None
    since: str | None = None
    mode: str = "hybrid"
    fusion: str | None = None
    entity: str | None = None
    status: str | None = None
    input_source: str | None = None


def _globals(args: list[str]) -> tuple[str | None, bool, int] | None:
    """(--home value or None, verbose, index of the command word) or None when a global
    option is one this reader leaves to typer."""
    home, verbose, i = None, False, 0
    while i < len(args) and args[i].startswith("-"):
        a = args[i]
        if a in ("-v", "--verbose"):
            verbose = True
        elif a == "--home" and i + 1 < len(args) and home is None:
            home = args[i + 1]
            i += 1
        elif a.startswith("--home=") and home is None:
            home = a[len("--home="):]
        else:
            return None
        i += 1
    return home, verbose, i


def parse_search(args: list[str], environ: dict[str, str] | None = None) -> SearchLine | None:
    """Read `args` (sys.argv[1:]) as a plain `search` command line, or return None when
    typer must read it (see the module docstring for what that covers)."""
    from cairn.model import FUSIONS, INPUT_SOURCES, NOTE_STATUSES, NOTE_TYPES, SEARCH_MODES
    environ = os.environ if environ is None else environ
    if any(k.startswith("_CAIRN_COMPLETE") for k in environ):
        return None
    g = _globals(args)
    if g is None:
        return None
    home, verbose, i = g
    if i >= len(args) or args[i] != "search":
        return None
    values: dict[str, str] = {}
    types: list[str] = []
    flags: set[str] = set()
    positional: list[str] = []
    rest = args[i + 1:]
    j = 0
    while j < len(rest):
        a = rest[j]
        j += 1
        if a == "--":
            positional.extend(rest[j:])
            break
        if not a.startswith("-") or a == "-":
            positional.append(a)
            continue
        name, eq, value = a.partition("=")
        if name in FLAG_OPTIONS and not eq:
            flags.add(name)
            continue
        if name not in VALUE_OPTIONS:
            return None  # --batch, --help, an unknown option or a query written as "-5 degrees"
        if not eq:
            if j >= len(rest):
                return None
            value = rest[j]
            j += 1
        if value.startswith("-"):
            return None
        if name == "--type":
            types.append(value)
        elif name in values:
            return None  # given twice
        else:
            values[name] = value
    if len(positional) != 1 or positional[0].startswith("-"):
        return None
    k = values.get("--k")
    if k is not None and not (_DIGITS.fullmatch(k) and 1 <= int(k) <= 1000):
        return None
    mode = values.get("--mode", "hybrid")
    fusion = values.get("--fusion")
    if mode not in SEARCH_MODES or (fusion is not None and fusion not in FUSIONS):
        return None
    if any(t not in NOTE_TYPES for t in types):
        return None
    if values.get("--status") is not None and values["--status"] not in NOTE_STATUSES:
        return None  # typer's usage error names the choices
    if values.get("--input-source") is not None and values["--input-source"] not in INPUT_SOURCES:
        return None
    if home is None:
        home = environ.get("CAIRN_HOME") or None
    return SearchLine(query=positional[0], home=home, verbose=verbose,
                      k=int(k) if k is not None else None, json_out="--json" in flags,
                      types=types or None, since=values.get("--since"), mode=mode, fusion=fusion,
                      entity=values.get("--entity"), status=values.get("--status"),
                      input_source=values.get("--input-source"))


def run(line: SearchLine, on_signal=None) -> None:
    """Run a command line `parse_search` read: the global options, then the search
    (cli_search.run_search). Errors exit with SystemExit(code), as under typer.
    on_signal: a handler(signum, frame) for SIGINT and SIGTERM during the search, in place
    of the global options' (cli_io.apply_globals); None keeps theirs."""
    import signal

    from cairn.interfaces.cli_io import apply_globals
    from cairn.interfaces.cli_search import run_search
    apply_globals(line.home, line.verbose)
    if on_signal is not None:
        signal.signal(signal.SIGINT, on_signal)
        signal.signal(signal.SIGTERM, on_signal)
    run_search(line.query, k=line.k, json_out=line.json_out, types=line.types, since=line.since,
               mode=line.mode, fusion=line.fusion, entity=line.entity, status=line.status,
               input_source=line.input_source)
