"""`cairn capture` and `cairn enrich`: thin commands over Cairn.capture and Cairn.enrich."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from cairn.hookspecs import hookimpl


def capture(kind: str = typer.Argument(..., help="highlight | bookmark | note"),
            url: str = typer.Argument(..., help="The page's address (http or https)."),
            text: str = typer.Option("", "--text", help="The selected text (a highlight needs it)."),
            title: str = typer.Option("", "--title", help="The page's title."),
            comment: str = typer.Option("", "--comment", help="Your own words about it."),
            json_out: bool = typer.Option(False, "--json")) -> None:
    """Save a highlight, bookmark or quick note from a web page as a note in captures/."""
    from cairn.cli import _service, out
    with _service() as svc:
        note = svc.capture(kind, url, text, title, comment)
    if json_out:
        sys.stdout.write(json.dumps({"action": "created", "id": note.id, "path": note.path,
                                     "title": note.title}, ensure_ascii=False) + "\n")
    else:
        out.print(f"captured {note.path} ({note.id})", markup=False)


def enrich(notes: list[str] = typer.Argument(..., help="Notes (title, alias, path or id)."),
           llm: Optional[str] = typer.Option(None, "--llm", help="none | embedded | openai:BASE_URL:MODEL (default none: extractive gist only)."),
           json_out: bool = typer.Option(False, "--json")) -> None:
    """Add a grounded gist (with a model also category, tags and key points) to each note's
    frontmatter, under `enrichment`; a note that has one already is left alone. Each note is
    done on its own: one that cannot be enriched is reported ({"note", "error"} in --json)
    and the others still are; the exit code is then that error's."""
    from cairn.cli import _service, out
    from cairn.errors import CairnError
    results, errors, code = [], [], 0
    with _service() as svc:
        for ref in notes:
            try:
                results.append(svc.enrich(ref, llm))
            except (CairnError, ValueError) as exc:
                errors.append({"note": ref, "error": str(exc)})
                code = code or getattr(exc, "exit_code", 1)
    if json_out:
        sys.stdout.write(json.dumps([r.to_json() for r in results] + errors, ensure_ascii=False, indent=2) + "\n")
        if code:
            raise typer.Exit(code)
        return
    for e in errors:
        out.print(f"{e['note']}: error — {e['error']}", markup=False)
    for r in results:
        if r.method == "skipped":
            out.print(f"{r.path}: skipped — {r.reason}", markup=False)
            continue
        out.print(f"{r.path}: {r.method}; gist: {r.added.get('gist', '')}", markup=False)
        for d in r.dropped:
            out.print(f"  dropped {d['item']} {d['value']!r}: {d['why']}", markup=False)
        if r.reason:
            out.print(f"  note: {r.reason}", markup=False)
    if code:
        raise typer.Exit(code)


@hookimpl
def register_commands(cli):
    cli.command("capture")(capture)
    cli.command("enrich")(enrich)
