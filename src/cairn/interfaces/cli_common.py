"""What every `cairn` command module shares: the root typer app and its global options, the
option choices, and (from cli_io, the typer-free edge) the consoles, the one JSON printer, the
error edge `_service`, progress bars and the ingest report printer.
"""

from __future__ import annotations

from enum import Enum
from typing import Optional

import typer

from cairn.interfaces import typer_lite
from cairn.interfaces.cli_io import (  # noqa: F401  (the typer-free edge, importable from here as before)
    _LazyConsole, escape, Table, out, err, STATE, apply_globals, _error_text, _terminate, _arg_text, _arg_path,
    _dump, _fail, _usage_fail, _early, _service, _progress, _print_report, _exit_if_failed)
from cairn.model import FUSIONS, MEMORY_KINDS, NOTE_STATUSES, INPUT_SOURCES, NOTE_TYPES, NOTE_UPDATE_MODES, SEARCH_MODES


typer_lite.install()  # options coerced without importing pydantic (see typer_lite)


def _choices(name: str, values: tuple[str, ...]) -> type[Enum]:
    """An Enum of the allowed values of an option, so the argument parser refuses any other
    value as a usage error (exit 2) naming the option and the values. The values come from
    the modules that define them; the service still checks them for Python callers."""
    return Enum(name, {v: v for v in values}, type=str)


SearchMode = _choices("SearchMode", SEARCH_MODES)
Fusion = _choices("Fusion", FUSIONS)
NoteType = _choices("NoteType", NOTE_TYPES)
NoteUpdateMode = _choices("NoteUpdateMode", NOTE_UPDATE_MODES)
MemoryKind = _choices("MemoryKind", MEMORY_KINDS)
NoteStatus = _choices("NoteStatus", NOTE_STATUSES)
InputSource = _choices("InputSource", INPUT_SOURCES)


def _value(choice):
    """The plain string of an enumerated option (None stays None, lists map item by item)."""
    if choice is None:
        return None
    if isinstance(choice, list):
        return [c.value for c in choice]
    return choice.value


app = typer.Typer(help="Cairn: a local-first memory for everything you read, save and decide.",
                  no_args_is_help=True, add_completion=False)
import_app = typer.Typer(help="Import exports of other apps and JSONL notes or chat transcripts.")
app.add_typer(import_app, name="import")


@app.callback()
def main(home: Optional[str] = typer.Option(None, "--home", envvar="CAIRN_HOME",
                                              help="Cairn home folder (default ~/.cairn)."),
         verbose: bool = typer.Option(False, "--verbose", "-v", help="Log details to stderr.")) -> None:
    """Global options apply to every command."""
    apply_globals(home, verbose)

