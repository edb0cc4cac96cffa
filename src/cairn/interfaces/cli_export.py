"""`cairn export`: notes to a markdown, text, JSON or ZIP file under the home's exports/
folder (kept 24 h), optionally copied where the person chooses with --out."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import List, Optional

import typer

from cairn.exports import FORMATS
from cairn.hookspecs import hookimpl
from cairn.model import NOTE_TYPES

ExportFormat = Enum("ExportFormat", {v: v for v in FORMATS}, type=str)
ExportType = Enum("ExportType", {v: v for v in NOTE_TYPES}, type=str)


def export_cmd(
    notes: Optional[List[str]] = typer.Argument(None, help="Notes to export (id, title, alias or vault "
                                                           "path); none: select with the options."),
    search: Optional[str] = typer.Option(None, "--search", "--query", "-q",
                                         help="Export the notes of the top --k search hits."),
    tag: Optional[str] = typer.Option(None, "--tag", help="Only notes with this tag."),
    type_: Optional[ExportType] = typer.Option(None, "--type", help="Only notes of this type."),
    since: Optional[str] = typer.Option(None, "--since", help="Only notes dated on or after YYYY-MM-DD."),
    until: Optional[str] = typer.Option(None, "--until", help="Only notes dated on or before YYYY-MM-DD."),
    fmt: Optional[ExportFormat] = typer.Option(None, "--format", "-f",
                                               help="markdown (one note), text, json or zip "
                                                    "(default: markdown for one note, else zip)."),
    name: Optional[str] = typer.Option(None, "--name", help="File name stem (letters, digits, . _ -)."),
    k: int = typer.Option(20, "--k", min=1, max=1000, help="Search hits to export with --search."),
    out: Optional[str] = typer.Option(None, "--out", "-o",
                                      help="Also copy the file here (a folder or a new file's path)."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Export notes: one as markdown; several as plain text, JSON (metadata + content) or a
    ZIP of markdown files. The file goes to HOME/exports/ (deleted after 24 h); --out copies it."""
    from cairn.cli import _service, out as console
    from cairn.exports import copy_export
    with _service() as svc:
        result = svc.export(ids=notes or None, tag=tag, type=type_.value if type_ else None, since=since,
                            until=until, query=search, format=fmt.value if fmt else None, name=name, k=k)
        copied = str(copy_export(result.path, out, svc.settings.vault)) if out is not None else None
    if json_out:
        data = result.to_json()
        if copied:
            data["copied_to"] = copied
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return
    count = len(result.notes)
    console.print(f"exported {count} note{'s' if count != 1 else ''} as {result.format}: {result.path} "
                  f"({result.bytes} bytes; kept until {result.expires})", markup=False)
    if copied:
        console.print(f"copied to {copied}", markup=False)


@hookimpl
def register_commands(cli):
    cli.command("export")(export_cmd)
