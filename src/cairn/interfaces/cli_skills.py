"""`cairn skills`: named sequences of tool calls recorded from a conversation, run again, and
ranked by the person's helpful / not-helpful votes; `patterns` lists the tool sequences that
recur across sessions. A thin adapter over `Cairn.skill_*` (ops/skills.py) and, for `run`,
the assistant (assistant/skills.py: the calls go through the judge)."""

from __future__ import annotations

import json
import sys
from typing import List, Optional

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_io import say, say_err

skills_app = typer.Typer(help="Skills: tool-call sequences you named, ranked by usefulness.",
                         invoke_without_command=True)


def _dump(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")


def _run(fn):
    """One operation on the service (cli_io._call: its errors become messages and exit codes)."""
    from cairn.interfaces.cli_io import _call
    return _call(fn)


def _line(s: dict) -> str:
    tools = " → ".join(x["tool"] for x in s["steps"])
    return (f"{s['name']:24} usefulness {s['usefulness']:.2f} (+{s['helpful']} -{s['not_helpful']}, "
            f"{s['runs']} runs)  {tools}")


@skills_app.callback()
def skills_list(ctx: typer.Context, json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List skills, most useful first."""
    if ctx.invoked_subcommand is not None:
        return
    rows = _run(lambda s: s.skills())
    if json_out:
        _dump(rows)
        return
    for s in rows:
        say(_line(s) + "\n")


@skills_app.command("save")
def skills_save(name: str = typer.Argument(..., help="The skill's name."),
                session: str = typer.Option(..., "--session", help="The session to take the calls from."),
                turn: Optional[List[int]] = typer.Option(None, "--turn", help="Its turns (repeat; default: the "
                                                         "newest turn that ran tool calls)."),
                replace: bool = typer.Option(False, "--replace", help="Replace a skill of that name."),
                json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Record the tool calls that ran in a session's turn(s) as a named skill."""
    s = _run(lambda svc: svc.skill_save(name, session, list(turn) if turn else None, replace))
    _dump(s) if json_out else say("saved: " + _line(s) + "\n")


@skills_app.command("run")
def skills_run(name: str = typer.Argument(..., help="The skill's name."),
               json_out: bool = typer.Option(False, "--json", help="Print the turn as JSON.")) -> None:
    """Run a skill's calls again as one turn of your current conversation (high-risk calls wait
    for /approve, as always)."""
    def go(svc):
        from cairn.assistant import Assistant
        from cairn.assistant.skills import run
        bot = Assistant(svc, channel="cli", model="none")
        return run(bot, name).to_json()
    res = _run(go)
    if json_out:
        _dump(res)
        return
    say(res["reply"] + "\n")
    for n in res["notices"]:
        say_err(f"  · {n}\n")


@skills_app.command("rate")
def skills_rate(name: str = typer.Argument(..., help="The skill's name."),
                verdict: str = typer.Argument(..., help="helpful or not-helpful.")) -> None:
    """Say whether a skill helped: its usefulness (and rank) follows the votes."""
    from cairn.cli import _fail
    if verdict not in ("helpful", "not-helpful"):
        _fail(f"the verdict must be helpful or not-helpful, not {verdict!r}", code=2)
    s = _run(lambda svc: svc.skill_rate(name, verdict == "helpful"))
    say(_line(s) + "\n")


@skills_app.command("delete")
def skills_delete(name: str = typer.Argument(..., help="The skill's name.")) -> None:
    """Remove a skill."""
    _run(lambda svc: svc.skill_delete(name))
    say(f"deleted skill {name}\n")


@skills_app.command("patterns")
def skills_patterns(json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Tool sequences that recur across your sessions (candidates for a skill)."""
    rows = _run(lambda s: s.skill_patterns())
    if json_out:
        _dump(rows)
        return
    for p in rows:
        say(f"{p['turns']:4} turns in {p['sessions']} session(s): {' → '.join(p['tools'])}\n")


@hookimpl
def register_commands(cli):
    cli.add_typer(skills_app, name="skills")
