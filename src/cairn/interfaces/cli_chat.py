"""`cairn chat` (talk to the assistant) and `cairn sessions` (its conversation logs).

A thin adapter over `cairn.assistant.Assistant`: a terminal conversation with streaming and
slash commands, piped input (one message per line), and a one-shot JSON form for scripts.
"""

from __future__ import annotations

import json
import select
import sys
from typing import Optional

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_io import say, say_err, stdin_text

HELP = """Slash commands:
  /new              end this session (its transcript goes to memory) and start a new one
  /resume [ID]      continue a session (the latest other one without ID)
  /sessions         list sessions
  /why              what went into the last prompt
  /memories         the memories the assistant can see
  /approve ID       run a call that waits for approval;  /deny ID  refuse it
  /undo             undo the assistant's last change to a note (exact previous text back)
  /budget           tokens and cost used (session, today) and the limits
  /stats            this session: tokens in/out, cost, the last prompt's context pressure
  /scorecard        this session: tool calls, compactions, pressure events, evidence kept
  /skills           your skills, most useful first, and recurring tool sequences
  /skill save NAME [TURN ...]   the tool calls of this session's turn(s) as a skill (default: the last)
  /skill run NAME   run a skill's calls again;  /skill rate NAME helpful|not-helpful
  /model [NAME]     show or switch the model, for this session, among configured and discovered ones
  /models [refresh] the model catalogue (cached 6 h; refresh probes the local servers again)
  /incognito        toggle incognito (nothing is written) ;  /help ;  /quit"""


def _dump(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def _channel_classes():
    from cairn.assistant import Channel

    class TerminalChannel(Channel):
        """Interactive: streams the reply, asks y/N for high-risk calls (timeout = denied),
        and gives a veto window for medium ones (a line typed within it vetoes)."""

        interactive = True

        def __init__(self) -> None:
            self.streamed = False

        def delta(self, text: str) -> None:
            if not self.streamed:
                say("cairn> ")
                self.streamed = True
            say(text)
            sys.stdout.flush()

        def notice(self, text: str) -> None:
            say_err(f"  · {text}\n")

        @staticmethod
        def _line(timeout: float) -> str | None:
            ready, _, _ = select.select([sys.stdin], [], [], max(0.0, timeout))
            return sys.stdin.readline() if ready else None

        def approve(self, call: dict, timeout: float) -> str:
            say_err(f"\n  ! {call['risk']} risk: {call['name']}("
                             f"{json.dumps(call['arguments'], ensure_ascii=False)})\n"
                             f"    why: {'; '.join(call['reasons'])}\n"
                             + (_indent(call["diff"]) if call.get("diff") else "") +
                             f"    approve this exact call? [y/N] (no answer in {timeout:g} s = no) ")
            sys.stderr.flush()
            line = self._line(timeout)
            if line is None:
                say_err("\n    no answer: denied\n")
                return "timeout"
            return "granted" if line.strip().lower() in ("y", "yes") else "denied"

        def veto(self, call: dict, seconds: float) -> bool:
            if seconds <= 0:
                return False
            say_err(f"    (type anything and Enter within {seconds:g} s to veto)\n")
            return self._line(seconds) is not None

    return Channel, TerminalChannel


def _indent(diff: str) -> str:
    """A diff shown under an approval request, indented."""
    return "".join(f"    {line}" for line in diff.splitlines(keepends=True))


def _print_result(res, json_out: bool, streamed: bool = False) -> None:
    if json_out:
        _dump(res.to_json())
        return
    if not streamed:
        say(f"cairn> {res.reply}\n")
    else:
        say("\n")
        if res.reply and res.tool_calls:
            say(f"cairn> {res.reply}\n")
    for n in res.notices:
        say_err(f"  · {n}\n")
    for c in res.tool_calls:
        say_err(f"  · {c.name} [{c.risk}] -> {c.outcome}{': ' + c.error if c.error else ''}\n")
    for p in res.pending_approvals:
        say_err(f"  · waiting: {p['id']} {p['name']}({json.dumps(p['arguments'], ensure_ascii=False)}) "
                         f"— /approve {p['id']} or /deny {p['id']}\n")
        if p.get("diff"):
            say_err(_indent(p["diff"]))
    sys.stdout.flush()


def chat_cmd(
        message: Optional[str] = typer.Option(None, "--message", "-m", help="Send one message and exit."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object per reply."),
        session: Optional[str] = typer.Option(None, "--session", help="Continue this session id."),
        new: bool = typer.Option(False, "--new", help="Start a new session."),
        model: Optional[str] = typer.Option(None, "--model", help="Model spec for this conversation."),
        approve: Optional[str] = typer.Option(None, "--approve", help="Run the pending call with this id."),
        deny: Optional[str] = typer.Option(None, "--deny", help="Refuse the pending call with this id."),
        incognito: bool = typer.Option(False, "--incognito", help="Write nothing (no session, no memories)."),
        why: bool = typer.Option(False, "--why", help="Print what went into the session's last prompt "
                                 "(bands, units, tokens, scores) and exit."),
        channel: str = typer.Option("cli", "--channel", hidden=True),
        person: str = typer.Option("local", "--person", hidden=True)) -> None:
    """Talk to the assistant. Without --message: a conversation (piped input: one message a line).
    High-risk calls are never approved implicitly: they wait for /approve or --approve ID."""
    from cairn.cli import _fail, _service
    from cairn.errors import InvalidInput
    from cairn.ops.sessions import check_session_id
    try:
        check_session_id(session)  # `--session ""` is no session, not the current one
        _check_model_spec(model)
    except InvalidInput as exc:
        _fail(str(exc), code=2)
    if why:
        from cairn.cli import STATE
        from cairn.assistant.sessions import current_key
        from cairn.context.session import load_why
        from cairn.errors import CairnError
        store = _sessions(STATE["home"])
        try:
            sid = session or store.current(channel, current_key(person, store.viewer))
            if not sid:
                _fail("no session yet: give --session ID (`cairn sessions` lists them)", code=2)
            store.load(sid)
        except CairnError as exc:
            _fail(str(exc), code=exc.exit_code)
        data = load_why(store, sid)
        if json_out:
            _dump(data)
        else:
            say(f"budget {data.get('budget')} tokens, prompt {data.get('total_tokens')} tokens\n")
            pr = data.get("pressure") or {}
            if pr:
                say(f"pressure {pr['weighted']} (raw {pr['raw']}; soft at {pr['compact_at']}, hard at "
                                 f"{pr['emergency_at']}): tier {pr['tier']}\n")
            for b in data.get("bands", []):
                say(f"  {b['name']:10} {b['tokens']:5}/{b['budget']:<5} {len(b['units'])} unit(s)\n")
                for u in b["units"]:
                    say(f"      {u['id'][:28]:28} {u['tokens']:5} {u['score']:.2f}  {u['why']}\n")
        return
    for flag, value in (("--approve", approve), ("--deny", deny)):
        if value is not None and not value.strip():
            _fail(f"{flag} needs the id of a pending call (an empty id was given)", code=2)
    if approve and deny:
        _fail("give --approve or --deny, not both", code=2)
    if (approve or deny) and message:
        _fail("--approve/--deny decide a pending call; send --message separately", code=2)
    if message is not None:
        from cairn.ops.sessions import check_message_length
        try:
            check_message_length(message)  # before the session is opened: nothing is written
        except InvalidInput as exc:
            _fail(str(exc), code=2)
    with _service() as svc:
        from cairn.assistant import Assistant
        Channel, TerminalChannel = _channel_classes()
        bot = Assistant(svc, channel=channel, person=person, session_id=session, new=new, model=model,
                        incognito=incognito, open_session=not (approve or deny))
        if approve or deny:
            res = bot.decide(approve or deny, grant=bool(approve))
            _print_result(res, json_out)
            return
        if message is not None:
            if message.strip().startswith("/"):  # a slash command, as in a conversation (not words to read)
                if _slash(bot, message.strip(), json_out, Channel()) == "failed":
                    raise typer.Exit(1)
                return
            res = bot.turn(message, Channel())
            _print_result(res, json_out)
            return
        if not sys.stdin.isatty():
            for raw in sys.stdin.buffer:  # each line decoded as a file would be (a cp1252 pipe keeps its é)
                try:
                    line = stdin_text(raw)
                except ValueError as exc:
                    say_err(f"error: {exc}\n")
                    continue
                if line.strip():
                    if line.strip().startswith("/"):
                        _slash(bot, line.strip(), json_out, Channel())
                        continue
                    _turn(bot, line, Channel(), json_out)
            return
        _repl(bot, TerminalChannel, json_out)


def _check_model_spec(spec: str | None) -> None:
    """Raises InvalidInput when `--model` was given blank or is no model spec at all (the forms of
    assistant.models.get_model; whether that model is installed or reachable is the turn's to
    say). A malformed spec was stored in the session and every later turn of it fell back to
    the offline layer with an "unavailable" notice, exit 0."""
    from cairn.errors import InvalidInput
    if spec is None:
        return
    s, low = spec.strip(), spec.strip().lower()
    if not s:
        raise InvalidInput("--model is empty (leave it out for the configured model)", field="model")
    if low in ("none", "embedded") or (low.startswith("embedded:") and s[9:].strip()):
        return
    if low.startswith(("openai:", "anthropic:http://", "anthropic:https://")):
        from cairn.llm import parse_openai_spec
        parse_openai_spec("openai:" + s.split(":", 1)[1])  # InvalidInput naming the forms
        return
    if low.startswith("anthropic:") and s[10:].strip():
        return
    from cairn.assistant.models import SPEC_FORMS
    raise InvalidInput(f"--model {spec!r} is not a model spec: expected {SPEC_FORMS}", field="model")


def _repl(bot, TerminalChannel, json_out: bool) -> None:
    say_err(f"cairn chat — session {bot.state.id}, model {bot.model_spec}. /help for commands.\n")
    while True:
        try:
            line = input("you> ")
        except (EOFError, KeyboardInterrupt):
            say_err("\n")
            break
        if not line.strip():
            continue
        if line.strip().startswith("/"):
            if _slash(bot, line.strip(), json_out, TerminalChannel()) == "quit":
                break
            continue
        ui = TerminalChannel()
        try:
            _turn(bot, line, ui, json_out)
        except KeyboardInterrupt:
            say_err("\n  · interrupted\n")
            continue


def _turn(bot, line: str, ui, json_out: bool) -> None:
    """One message of a conversation (the REPL's or piped input's): its reply printed, or a
    refused message's error on stderr ("error: the question is 5,824 characters long; ...")
    — one bad message does not end the conversation, as a bad slash command does not (_slash)."""
    from cairn.errors import CairnError
    from cairn.ops.sessions import check_message_length
    try:
        res = bot.turn(check_message_length(line), ui)
    except CairnError as exc:
        say_err(f"error: {exc}\n")
        return
    _print_result(res, json_out, streamed=getattr(ui, "streamed", False))


def _slash(bot, line: str, json_out: bool, ui) -> str | None:
    """Run one slash command; returns "quit" for /quit, "failed" for an unknown command or
    one that failed (its error on stderr), else None."""
    from cairn.errors import CairnError
    cmd, _, arg = line.partition(" ")
    arg = arg.strip()
    show = (lambda d: _dump(d)) if json_out else (lambda d: say(
        (d if isinstance(d, str) else json.dumps(d, ensure_ascii=False, indent=1, default=str)) + "\n"))
    try:
        if cmd in ("/quit", "/exit"):
            return "quit"
        if cmd == "/help":
            show(HELP)
        elif cmd == "/new":
            sid = bot.new_session()
            show({"session": sid, "notices": bot.notices})
        elif cmd == "/resume":
            sid = arg or next((s.id for s in bot.store.list() if s.id != bot.state.id), None)
            if not sid:
                show("no other session to resume")
            else:
                bot.resume(sid)
                show({"session": sid, "turns": bot.state.turns})
        elif cmd == "/sessions":
            show([s.summary() for s in bot.store.list()])
        elif cmd == "/why":
            show(bot.why())
        elif cmd == "/memories":
            show([m.to_json() for m in bot.app.memories()][:50])
        elif cmd in ("/approve", "/deny"):
            if not arg:
                show({"pending_approvals": [dict(id=k, **v) for k, v in bot.state.pending.items()]})
            else:
                _print_result(bot.decide(arg, grant=cmd == "/approve"), json_out)
        elif cmd == "/undo":
            from cairn.store.history import acting
            with acting("cli"):
                show(bot.app.undo().to_json())
        elif cmd == "/budget":
            show(bot.budget.to_json())
        elif cmd in ("/skills", "/skill"):
            show(_skill(bot, arg if cmd == "/skill" else "", json_out, ui))
        elif cmd in ("/stats", "/scorecard"):
            from cairn.assistant.stats import figures
            show(figures(bot, cmd[1:]))
        elif cmd == "/model":
            if arg:
                bot.switch_model(bot.app.model_resolve(arg))  # only catalogue models (assistant/catalogue.py)
            show({"model": bot.model_spec, "tools_mode": bot.model.tools_mode})
        elif cmd == "/models":
            show(bot.app.model_catalogue(refresh=arg == "refresh"))
        elif cmd == "/incognito":
            from cairn.assistant import Assistant
            if bot.incognito:
                fresh = Assistant(bot.app, channel=bot.channel, person=bot.person)
            else:
                fresh = Assistant(bot.app, channel=bot.channel, person=bot.person, incognito=True,
                                  model=bot._model or bot._spec)
            bot.__dict__.update(fresh.__dict__)
            show({"incognito": bot.incognito, "session": bot.state.id})
        else:
            say_err(f"error: unknown command {cmd}; /help lists them\n")
            return "failed"
    except (CairnError, ValueError) as exc:
        say_err(f"error: {exc}\n")
        return "failed"
    return None


def _skill(bot, arg: str, json_out: bool, ui):
    """`/skills` (arg "") and `/skill save|run|rate ...`: the adapter of ops/skills.py and
    assistant/skills.run. ValueError for a malformed command."""
    verb, _, rest = arg.partition(" ")
    if not verb:
        return {"skills": bot.app.skills(), "patterns": bot.app.skill_patterns()}
    words = rest.split()
    if verb == "save" and words:
        turns = [int(w) for w in words[1:] if w.isdigit()] or None
        return bot.app.skill_save(words[0], bot.state.id, turns)
    if verb == "run" and rest.strip():
        from cairn.assistant.skills import run
        res = run(bot, rest.strip(), ui)
        _print_result(res, json_out)
        return {"skill": rest.strip(), "ran": len(res.tool_calls)}
    if verb == "rate" and len(words) >= 2 and words[-1] in ("helpful", "not-helpful"):
        return bot.app.skill_rate(" ".join(words[:-1]), words[-1] == "helpful")
    raise ValueError("usage: /skill save NAME [TURN ...] | /skill run NAME | /skill rate NAME helpful|not-helpful")


def _sessions(home):
    """The home's SessionStore as seen by the person of env CAIRN_PERSON (cairn.people:
    another person's sessions are not found; unset: the home's own person sees all).
    InvalidInput for a malformed name."""
    import os
    from cairn.assistant.sessions import SessionStore
    from cairn.config import load_settings
    from cairn.people import check_person
    return SessionStore(load_settings(home).home, viewer=check_person(os.environ.get("CAIRN_PERSON")))


sessions_app = typer.Typer(help="The assistant's conversation logs (<home>/sessions).",
                           invoke_without_command=True)


@sessions_app.callback()
def sessions_list(ctx: typer.Context,
                  json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List sessions: id, channel, turns, started, last activity."""
    if ctx.invoked_subcommand is not None:
        return
    from cairn.interfaces.cli_io import _call
    rows = _call(lambda svc: svc.sessions().to_json())
    if json_out:
        _dump(rows)
        return
    for r in rows:
        say(f"{r['id']}  {r['channel']:8} {r['turns']:4} turns  {r['started'][:19]} .. {r['last'][:19]}\n")


@sessions_app.command("show")
def sessions_show(sid: str = typer.Argument(..., help="Session id."),
                  json_out: bool = typer.Option(False, "--json", help="Print the events as JSON.")) -> None:
    """Print one session's events."""
    from cairn.interfaces.cli_io import _call
    events = _call(lambda svc: svc.session_events(sid).to_json())
    if json_out:
        _dump(events)
        return
    for e in events:
        body = e.get("text") or json.dumps({k: v for k, v in e.items() if k not in ("seq", "at", "type")},
                                           ensure_ascii=False, default=str)
        say(f"{e['seq']:4} {e['at'][:19]} {e['type']:12} {body[:300]}\n")


@sessions_app.command("search")
def sessions_search(query: str = typer.Argument(..., help="Words to find in the turns."),
                    k: int = typer.Option(10, "--k", min=1, help="How many turns."),
                    json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Search the turns of every session (BM25)."""
    from cairn.interfaces.cli_io import _call
    rows = _call(lambda svc: svc.sessions_search(query, k=k).to_json())
    if json_out:
        _dump(rows)
        return
    for r in rows:
        say(f"{r['session']} turn {r['turn']} {r['role']:9} {r['score']:.2f}  {r['text'][:200]}\n")


@sessions_app.command("stats")
def sessions_stats(sid: str = typer.Argument(..., help="Session id."),
                   json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """A session's figures: tokens in/out, cost, context pressure (`/stats`) and its scorecard:
    tool calls, compactions, pressure events, evidence kept (`/scorecard`)."""
    from cairn.cli import _fail, _service
    from cairn.errors import CairnError
    try:
        with _service() as svc:
            data = {"stats": svc.session_stats(sid), "scorecard": svc.session_scorecard(sid)}
    except CairnError as exc:
        _fail(str(exc), code=exc.exit_code)
    if json_out:
        _dump(data)
        return
    st, sc = data["stats"], data["scorecard"]
    cost = "unpriced" if st["cost"]["usd"] is None else f"${st['cost']['usd']:.4f}"
    say(f"{sid}: {st['turns']} turns, tokens in {st['tokens']['in']} out {st['tokens']['out']}, "
                     f"cost {cost}, {st['model_calls']} model calls\n")
    if st["context"]:
        c = st["context"]
        say(f"  last prompt {c['tokens']}/{c['budget']} tokens, pressure {c['weighted']} "
                         f"(raw {c['raw']}), tier {c['tier']}\n")
    say(f"  tool calls {sc['tool_calls']['total']} {sc['tool_calls']['by_outcome']}, compactions "
                     f"{sc['compactions']}, pressure events {sc['pressure_events']}, evidence kept "
                     f"{sc['evidence_kept']}, checkpoints {sc['checkpoints']}\n")


@sessions_app.command("output")
def sessions_output(sid: str = typer.Argument(..., help="Session id."),
                    call_id: str = typer.Argument(..., help="Tool call id (the prompt names it).")) -> None:
    """Print a tool call's full output (the prompt got a distilled form)."""
    from cairn.interfaces.cli_io import _call
    _dump(_call(lambda svc: svc.session_tool_output(sid, call_id).to_json()))


@sessions_app.command("delete")
def sessions_delete(sid: str = typer.Argument(..., help="Session id.")) -> None:
    """Delete one session's log file."""
    from cairn.interfaces.cli_io import _call
    _call(lambda svc: svc.session_delete(sid))
    say(f"deleted session {sid}\n")


@hookimpl
def register_commands(cli):
    from cairn.interfaces.cli_models import models_cmd
    from cairn.interfaces.cli_setup import setup_cmd
    cli.command("chat")(chat_cmd)
    cli.command("models")(models_cmd)
    cli.command("setup")(setup_cmd)
    cli.add_typer(sessions_app, name="sessions")
