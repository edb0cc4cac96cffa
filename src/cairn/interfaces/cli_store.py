"""`cairn migrate --to postgresql://...`: a thin command over Cairn.migrate_store."""

from __future__ import annotations

import json
import sys

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_io import say


def migrate(to: str = typer.Option(..., "--to", help="PostgreSQL URL to copy this home's index into, "
                                                      "e.g. postgresql://user@host/cairn"),
            replace: bool = typer.Option(False, "--replace", help="Empty a non-empty target first."),
            json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Copy this home's index (and the memory and data kept outside the vault) into a
    PostgreSQL store, then verify every table's row count."""
    from cairn.cli import _service
    with _service() as svc:
        report = svc.migrate_store(to, replace=replace)
    if json_out:
        sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
        return
    rows = report.rows
    say(f"migrated to {report.target} in {report.seconds:.1f}s, counts verified: "
                     f"{rows['notes']} notes, {rows['chunks']} chunks, {rows['vectors']} vectors, "
                     f"{rows['memories']} memories, {rows['jobs']} jobs\n")


@hookimpl
def register_commands(cli):
    cli.command("migrate")(migrate)
