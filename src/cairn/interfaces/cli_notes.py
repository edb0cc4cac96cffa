"""`cairn sync`, `watch`, `links` and `note create|show|update|delete`: the vault's notes.
Registered on the root app when cairn.cli imports this module.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

from cairn.interfaces.cli_io import read_stdin
from cairn.interfaces.cli_common import NoteStatus, NoteUpdateMode, _arg_text, _dump, _exit_if_failed, _fail, _print_report, _service, _usage_fail, _value, app, err, escape, out


# --- sync, watch, links, notes ---------------------------------------------------------------

note_app = typer.Typer(help="Create, show, update and delete notes in the vault.", no_args_is_help=True)
app.add_typer(note_app, name="note")


def _print_sync(report, as_json: bool) -> None:
    if as_json:
        _dump(report.to_json())
        return
    for path, reason in report.failed:
        err.print(f"[red]failed[/red]  {escape(path)}: {escape(reason)}")
    for path in report.trashed:
        err.print(f"[yellow]trashed[/yellow] {escape(path)}: deleted in Cairn, not re-indexed")
    for path, message in report.warnings:
        err.print(f"[yellow]warning[/yellow] {escape(path)}: {escape(message)}")
    for label, paths in (("added", report.added), ("updated", report.updated),
                         ("metadata", report.metadata), ("removed", report.removed)):
        for path in paths:
            out.print(f"{label:8} {escape(path)}")
    for old, new in report.moved:
        out.print(f"moved    {escape(old)} -> {escape(new)}")
    out.print(f"added {len(report.added)}, updated {len(report.updated)}, metadata {len(report.metadata)}, "
              f"moved {len(report.moved)}, removed {len(report.removed)}, unchanged {report.unchanged}, "
              f"trashed {len(report.trashed)}, failed {len(report.failed)}; embedded {report.embedded} chunk(s)")


@app.command("sync")
def sync_cmd(json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Reconcile the vault with the index: new, changed, moved and deleted notes."""
    with _service() as svc:
        report = svc.sync()
    _print_sync(report, json_out)
    _exit_if_failed(report)


@app.command("watch")
def watch_cmd() -> None:
    """Keep the index in line with the vault (and ingest inbox files) until Ctrl-C."""
    import threading

    def show(event) -> None:
        if event.kind == "ready":
            err.print("watching the vault" + (" and inbox folder(s)" if svc.settings.sync.inbox else "")
                      + "; Ctrl-C to stop")
        elif event.kind == "sync" and event.sync is not None:
            _print_sync(event.sync, False)
        elif event.kind == "inbox":
            if event.ingest is not None:  # its report lists the files deleted in Cairn too
                _print_report(event.ingest, False)
            else:
                for name in event.skipped or []:
                    err.print(f"[yellow]skipped[/yellow] {escape(name)}: deleted in Cairn before")
        elif event.kind == "error":
            err.print(f"[red]error:[/red] {escape(event.message)}")

    with _service() as svc:
        try:
            svc.watch(threading.Event(), on_event=show, raise_interrupt=True)
        except KeyboardInterrupt:
            err.print("stopped")


def _link_row(link, outgoing: bool) -> str:
    text = link.target + (f"#{link.anchor}" if link.anchor and link.kind != "heading" else "")
    shown = f"[[{text}{'|' + link.alias if link.alias else ''}]]"
    if not outgoing:
        return f"{link.source_path}  {shown}"
    if link.kind == "unresolved":
        return f"{shown}  -> unresolved"
    if link.kind == "heading":
        return f"{shown}  -> this note"
    return f"{shown}  -> {link.resolved_path}"


@app.command("links")
def links_cmd(note: Optional[str] = typer.Argument(None, help="Note title, alias, path or id."),
              unresolved: bool = typer.Option(False, "--unresolved", help="List every unresolved link."),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Outgoing links and backlinks of a note, or all unresolved links."""
    if (note is None) == (not unresolved):
        _usage_fail("give either a NOTE or --unresolved")
    with _service() as svc:
        if unresolved:
            items = svc.unresolved_links()
            if json_out:
                _dump(items.to_json())
                return
            for l in items:
                out.print(escape(f"{l.source_path}  [[{l.target}]]"))  # the whole line: [[x]] is markup
            out.print(f"{len(items)} unresolved link(s)")
            return
        info = svc.links(_arg_text(note))
    if json_out:
        _dump(info.to_json())
        return
    n = info["note"]
    out.print(f"[bold]{escape(n['title'])}[/bold]  {escape(n['path'])}  ({n['id']})")
    out.print(f"\n[bold]Outgoing[/bold] ({len(info['outgoing'])})")
    for l in info["outgoing"]:
        out.print("  " + escape(_link_row(l, True)))
    out.print(f"\n[bold]Backlinks[/bold] ({len(info['backlinks'])})")
    for l in info["backlinks"]:
        out.print("  " + escape(_link_row(l, False)))


def _body_arg(body: Optional[str]) -> str:
    if body is not None:
        return _arg_text(body)
    if sys.stdin.isatty():
        _fail("give the note text with --body, or pipe it on stdin")
    return read_stdin()  # a cp1252 or UTF-16 pipe keeps its letters


def _print_note(note, action: str, as_json: bool) -> None:
    if as_json:
        _dump({"action": action, "id": note.id, "path": note.path, "title": note.title}, compact=True)
    else:
        out.print(f"{action} {escape(note.path)} ({note.id})")


@note_app.command("create")
def note_create(title: str = typer.Argument(..., help="Title (also the file name)."),
                body: Optional[str] = typer.Option(None, "--body", help="Text (default: stdin)."),
                folder: str = typer.Option("", "--folder", help="Vault sub-folder."),
                tag: Optional[list[str]] = typer.Option(None, "--tag", help="Tag (repeatable)."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Create a note <vault>/<folder>/<title>.md and index it."""
    text = _body_arg(body)
    with _service() as svc:
        note = svc.note_create(_arg_text(title), text, folder, tag)
    _print_note(note, "created", json_out)


@note_app.command("show")
def note_show(note: str = typer.Argument(..., help="Title, alias, path or id."),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Print a note's text."""
    with _service() as svc:
        info = svc.note_show(_arg_text(note))
    if json_out:
        _dump(info.to_json())
        return
    out.print(f"[bold]{escape(info['title'])}[/bold]  {escape(info['path'])}  ({info['id']})  "
              f"came in as {info['input_source']}\n")
    out.print(escape(info["body"]))


@note_app.command("update")
def note_update(note: str = typer.Argument(..., help="Title, alias, path or id."),
                body: Optional[str] = typer.Option(None, "--body", help="Text (default: stdin)."),
                mode: NoteUpdateMode = typer.Option("overwrite", "--mode", help="Replace the body or add to it."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Overwrite or append to a note's body (its frontmatter is kept)."""
    text = _body_arg(body)
    with _service() as svc:
        row = svc.note_update(_arg_text(note), text, _value(mode))
    _print_note(row, "updated", json_out)


@note_app.command("mark")
def note_mark(note: str = typer.Argument(..., help="Title, alias, path or id."),
              status: NoteStatus = typer.Argument(..., help="saved | read | archived"),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Set a note's content status (kept as `status:` in its frontmatter; `search --status` filters on it)."""
    with _service() as svc:
        row = svc.note_mark(_arg_text(note), _value(status))
    if json_out:
        _dump({"action": "marked", "id": row.id, "path": row.path, "title": row.title,
               "status": _value(status)}, compact=True)
    else:
        out.print(f"marked {escape(row.path)} ({row.id}) {_value(status)}")


@note_app.command("rename")
def note_rename(note: str = typer.Argument(..., help="Title, alias, path or id."),
                title: str = typer.Argument(..., help="The new title (written as `title:` in its frontmatter)."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Give a note a new title (its frontmatter `title:`; the file keeps its name and its links resolve)."""
    with _service() as svc:
        row = svc.note_rename(_arg_text(note), _arg_text(title))
    if json_out:
        _dump({"action": "renamed", "id": row.id, "path": row.path, "title": row.title}, compact=True)
    else:
        out.print(f"renamed {escape(row.path)} ({row.id}) to {escape(row.title)}")


@note_app.command("delete")
def note_delete(note: str = typer.Argument(..., help="Title, alias, path or id."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Move a note to <vault>/.trash and remove it from the index (kept deleted on sync)."""
    with _service() as svc:
        info = svc.note_delete(_arg_text(note))
    if json_out:
        _dump(info.to_json(), compact=True)
        return
    out.print(f"deleted {escape(info['path'])} ({info['id']}); file moved to "
              f"{escape(str(info['trash_path']))}")
