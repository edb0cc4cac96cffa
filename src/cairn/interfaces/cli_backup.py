"""`cairn backup` and `cairn restore`: snapshots of the whole home (store/backup.py).
Registered on the root app when cairn.cli imports this module."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from cairn.interfaces.cli_common import _dump, _fail, _service, app, err, escape, out


@app.command("backup")
def backup_cmd(to: Optional[str] = typer.Option(None, "--to", help="Folder to write the snapshot under "
                                                "(default: \\[backup] dir, `backups` in the home)."),
               json_out: bool = typer.Option(False, "--json", help='Print {"snapshot": PATH}.')) -> None:
    """Write one consistent, dated snapshot of the whole home (index, vault, memories, sessions,
    schedule, keys, config) with a manifest of sha256 hashes; the server may keep running."""
    with _service() as svc:
        taken = svc.backup(to if to is not None else svc._backup_dir())
    if json_out:
        _dump({"snapshot": taken["snapshot"]}, compact=True)
    else:
        out.print(escape(taken["snapshot"]), soft_wrap=True, highlight=False)
        err.print(f"{taken['files']} file(s), each hashed in manifest.json")


@app.command("restore")
def restore_cmd(snapshot: str = typer.Argument(..., help="A snapshot folder written by `cairn backup`."),
                yes: bool = typer.Option(False, "--yes", help="Do not ask before replacing the home."),
                json_out: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """Check a snapshot (every file's sha256, PRAGMA integrity_check) and, if it passes, replace
    the home with it; the replaced files are kept in <home>/.restore-previous-TIME. Refused
    while another Cairn process (a running `cairn serve`) has the home open."""
    with _service() as svc:
        checked = svc.backup_verify(snapshot)
        if not yes:
            if not sys.stdin.isatty():
                _fail("restore replaces this home's index, vault and files: run it in a terminal to "
                      "answer the question, or pass --yes")
            err.print(f"snapshot {escape(checked['snapshot'])} ({checked['created']}, {checked['files']} files) "
                      f"passed its check.")
            answer = input(f"Replace the home {svc.settings.home} with it? [y/N] ").strip().lower()
            if answer not in ("y", "yes"):
                _fail("nothing was restored")
        done = svc.restore(snapshot)
    if json_out:
        _dump(done.to_json())
        return
    out.print(f"restored {escape(done['snapshot'])} ({done['files']} files); the replaced files are in "
              f"{escape(done['previous'])}", soft_wrap=True)
