"""`cairn import SOURCE PATH [--dry-run] [--json]` for the export importers, and `cairn
import --list`. Registered on the `import` group when cairn.cli imports this module; `notes`
and `chat` keep their own commands (cairn.cli). The work is `Cairn.import_export`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cairn.export_formats import EXPORTS
from cairn.interfaces.cli_common import _dump, _exit_if_failed, _print_report, _progress, _service, import_app, out


@import_app.callback(invoke_without_command=True)
def import_main(ctx: typer.Context,
                list_: bool = typer.Option(False, "--list", help="Name every importer with the format it reads."),
                json_out: bool = typer.Option(False, "--json", help="With --list: print as JSON.")) -> None:
    """Import exports of other apps (ChatGPT, Claude, mail, calendars, notes apps, reading,
    bookmarks) and Cairn's JSONL formats. Importing the same export again adds nothing."""
    if ctx.invoked_subcommand is not None:
        return
    if not list_:
        out.print(ctx.get_help())
        raise typer.Exit(0)
    from cairn.registries import importers
    rows = {name: getattr(fn, "source_format", None) or (fn.__doc__ or "").strip().split("\n")[0]
            for name, fn in sorted(importers().items())}
    if json_out:
        _dump({"importers": [{"name": n, "format": f} for n, f in rows.items()]})
        return
    width = max(len(n) for n in rows)
    for name, fmt in rows.items():
        out.print(f"{name:<{width}}  {fmt}", highlight=False, soft_wrap=True, markup=False)


def _command(name: str, fmt: str):
    def run(path: Path = typer.Argument(..., help="The export: a file, a folder or a .zip."),
            dry_run: bool = typer.Option(False, "--dry-run", help="Say what would change; write nothing."),
            json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
            quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
            no_extract: bool = typer.Option(False, "--no-extract", help="Do not extract facts from conversations."),
            llm: Optional[str] = typer.Option(None, "--llm", help="Extraction model (as for `import chat`).")) -> None:
        with _service() as svc, _progress(not quiet) as prog:
            report = svc.import_export(name, path, progress=prog, dry_run=dry_run,
                                       extract=False if no_extract else None, llm=llm)
        if dry_run and not json_out:
            out.print("dry run: nothing was written; the counts say what an import would do")
        _print_report(report, json_out)
        _exit_if_failed(report)

    run.__doc__ = f"Import {fmt}. Incremental: a second import adds nothing (see docs/import.md)."
    return run


for _name, (_module, _fmt) in EXPORTS.items():
    if _name != "ics":
        import_app.command(_name)(_command(_name, _fmt))


@import_app.command("ics")
def import_ics(path: Path = typer.Argument(..., help="An .ics file or a folder of them."),
               dry_run: bool = typer.Option(False, "--dry-run", help="Say what would change; write nothing."),
               json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
               quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
               no_extract: bool = typer.Option(False, "--no-extract", help="Do not extract facts (as the other importers)."),
               llm: Optional[str] = typer.Option(None, "--llm", help="Extraction model (as for `import chat`)."),
               reminders: bool = typer.Option(False, "--reminders", help="Also remind me of the upcoming events."),
               before: Optional[str] = typer.Option(None, "--before", help="With --reminders: how long before (default 30m)."),
               horizon: Optional[str] = typer.Option(None, "--horizon", help="With --reminders: how far ahead (default 30d).")) -> None:
    """Import iCalendar events (RFC 5545: RRULE, EXDATE, TZID, attendees); with --reminders,
    also a reminder for each upcoming occurrence. Incremental: a second import adds nothing."""
    with _service() as svc:
        if reminders:  # read the calendar for reminders first: a bad file stops before any note
            rem = svc.calendar_reminders(path, before=before, horizon=horizon, dry_run=dry_run)
        with _progress(not quiet) as prog:
            report = svc.import_export("ics", path, progress=prog, dry_run=dry_run,
                                       extract=False if no_extract else None, llm=llm)
    if reminders:
        report.reminders = rem.to_json()
    if dry_run and not json_out:
        out.print("dry run: nothing was written; the counts say what an import would do")
    _print_report(report, json_out)
    if reminders and not json_out:
        r = rem.to_json()
        out.print(f"reminders: {r['added']} added, {r['updated']} updated, {r['unchanged']} unchanged, "
                  f"{r['past']} already past", markup=False)
    _exit_if_failed(report)


@import_app.command("imap")
def import_imap(folder: Optional[list[str]] = typer.Option(None, "--folder", help="A folder to read (repeatable; default: \\[imap] folders)."),
                dry_run: bool = typer.Option(False, "--dry-run", help="Say what would change; write nothing."),
                json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
                quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar.")) -> None:
    """Import mail from the IMAP server of the \\[imap] table of config.toml, read only (nothing
    on the server changes). Incremental: a message already imported is not added again."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.import_export("imap", None, progress=prog, dry_run=dry_run, folders=list(folder or []) or None)
    if dry_run and not json_out:
        out.print("dry run: nothing was written; the counts say what an import would do")
    _print_report(report, json_out)
    _exit_if_failed(report)
