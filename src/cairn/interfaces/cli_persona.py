"""`cairn persona show` and `cairn persona distill SOURCE...`: the persona the assistant speaks
as (`[persona]`, cairn.assistant.persona), shown or distilled from notes and folders and saved
to config.toml. Thin commands: the logic is in the assistant's persona module."""

from __future__ import annotations

from typing import Optional

import typer

from cairn.hookspecs import hookimpl

persona_app = typer.Typer(help="The persona the assistant speaks as: show it, or distill one from your writing.",
                          no_args_is_help=True)


@persona_app.command("show")
def show_cmd(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Show the persona of `\\[persona]`, its voice and the lines it adds to the system prompt."""
    from cairn.assistant.persona import persona_text
    from cairn.assistant.voice import voice_for
    from cairn.interfaces.cli_io import _dump, _service
    with _service() as svc:
        s = svc.settings
        data = {"name": s.persona.name, "tone": s.persona.tone, "rules": s.persona.rules,
                "sources": s.persona.sources, "voice": voice_for(s), "prompt": persona_text(s)}
    if json_out:
        _dump(data)
        return
    typer.echo(data["prompt"] or "no persona: set one with `cairn persona distill SOURCE...` or [persona] in config.toml")
    typer.echo(f"voice: {data['voice']}")


@persona_app.command("distill")
def distill_cmd(sources: list[str] = typer.Argument(..., help="Notes (title, alias, path or id) or folders of your writing."),
                name: Optional[str] = typer.Option(None, "--name", help="The persona's name (default: the current one, else Cairn)."),
                llm: Optional[str] = typer.Option(None, "--llm", help="none | embedded | openai:BASE_URL:MODEL (default none: measured from the text)."),
                dry_run: bool = typer.Option(False, "--dry-run", help="Show the persona; do not save it."),
                json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Distill a persona (name, tone, style rules) from your writing and save it as \\[persona]."""
    from cairn.assistant.persona import distill, save
    from cairn.errors import CairnError
    from cairn.interfaces.cli_io import _dump, _fail, _service
    try:
        with _service() as svc:
            persona = distill(svc, sources, name=name, llm=llm)
            home = svc.settings.home
        saved = None if dry_run else str(save(home, persona))
    except CairnError as exc:
        _fail(str(exc), code=exc.exit_code)
    if json_out:
        _dump(dict(persona.to_json(), saved=saved))
        return
    typer.echo(f"{persona.name} — tone: {persona.tone} ({persona.method})")
    for r in persona.rules:
        typer.echo(f"  - {r}")
    if persona.reason:
        typer.echo(f"  note: {persona.reason}", err=True)
    typer.echo(f"saved to {saved}" if saved else "not saved (--dry-run)")


@hookimpl
def register_commands(cli):
    cli.add_typer(persona_app, name="persona")
