"""`cairn note history|diff|restore` and `cairn undo`: the kept versions of notes
(store.history) and the undo of the assistant's last change. Registered on the root app
when cairn.cli imports this module."""

from __future__ import annotations

import typer

from cairn.interfaces.cli_common import _arg_text, _dump, _service, app, escape, out
from cairn.interfaces.cli_notes import note_app


@note_app.command("history")
def note_history(note: str = typer.Argument(..., help="Title, alias, path or id."),
                 json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List a note's kept versions, newest first (version, when, by whom, what)."""
    with _service() as svc:
        hist = svc.note_history(_arg_text(note))
    if json_out:
        _dump(hist.to_json())
        return
    n = hist["note"]
    out.print(f"[bold]{escape(n['title'] or n['path'])}[/bold]  {escape(n['path'])}  ({n['id']})")
    for v in hist["versions"]:
        out.print(f"  {v['version']:>4}  {v['at'][:19].replace('T', ' ')}  {escape(v['by']):<12} "
                  f"{v['action']:<8} {v['size']} bytes")
    if not hist["versions"]:
        out.print("  no versions kept yet")


@note_app.command("diff")
def note_diff(note: str = typer.Argument(..., help="Title, alias, path or id."),
              version: int = typer.Option(..., "--version", help="The kept version to compare."),
              json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Show what changed from a kept version to the note's current file (unified diff)."""
    with _service() as svc:
        d = svc.note_diff(_arg_text(note), version)
    if json_out:
        _dump(d.to_json())
        return
    out.print(escape(d["diff"]) if d["diff"] else f"version {d['version']} is the same as the current file",
              end="" if d["diff"] else "\n", soft_wrap=True, highlight=False)


def _print_restored(r, json_out: bool) -> None:
    if json_out:
        _dump(r.to_json())
        return
    n = r["note"]
    if r["action"] == "undo":
        u = r["undid"]
        what = (f"removed {escape(n['path'])} (the assistant had created it; it is in the vault's .trash)"
                if r["version"] is None else f"{escape(n['path'])} is back at version {r['version']}")
        out.print(f"undid the assistant's {u['action']} of {u['at'][:19].replace('T', ' ')}: {what}")
    else:
        out.print(f"restored {escape(n['path'])} to version {r['version']} (kept as version {r['recorded']})")


@note_app.command("restore")
def note_restore(note: str = typer.Argument(..., help="Title, alias, path or id."),
                 version: int = typer.Option(..., "--version", help="The kept version to write back."),
                 json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Write a kept version back to the note, byte for byte (the current text is kept as a version)."""
    with _service() as svc:
        r = svc.note_restore(_arg_text(note), version)
    _print_restored(r, json_out)


@app.command("undo")
def undo_cmd(json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Undo the assistant's last change to a note (an edit gets its exact previous text back)."""
    with _service() as svc:
        r = svc.undo()
    _print_restored(r, json_out)


@note_app.command("prune-history")
def note_prune_history(keep: int = typer.Option(50, "--keep", help="Versions kept of each note, newest first (at least 1)."),
                       days: float = typer.Option(90.0, "--days", help="Also keep every version from the last DAYS days."),
                       json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Forget old note versions: of each note keep the newest --keep and all from the last --days days."""
    with _service() as svc:
        r = svc.history_prune(keep, days)
    if json_out:
        _dump(r.to_json())
        return
    out.print(f"forgot {r['versions']} old versions of {r['notes']} notes; removed {r['blobs']} stored copies "
              f"({r['bytes']} bytes). Kept: the newest {r['keep_versions']} of each note and all from the last "
              f"{r['keep_days']:g} days.")
