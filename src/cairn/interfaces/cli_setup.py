"""`cairn setup`: the first-run choice of the assistant's model (cairn.assistant.firstrun): a
local OpenAI-compatible server found on loopback is listed with its models and offered; the
person picks one by number (Enter keeps the current model), or a script passes `--yes` (the
first model offered) or `--model NAME`. A thin adapter; registered with `cairn chat`
(cli_chat.register_commands)."""

from __future__ import annotations

import json
import sys
from typing import List, Optional

import typer

from cairn.interfaces.cli_io import say


def _ask(offers, current: str) -> int | None:
    """Print the offers numbered and read the person's answer from stdin: a number (1-based)
    -> its index; Enter or end of input -> None (keep `current`); anything else -> -1 (the
    operation refuses it)."""
    say("Models on this machine:\n")
    for n, o in enumerate(offers, 1):
        say(f"  {n}. {o.label()}\n")
    say(f"Use which one for the assistant? [1-{len(offers)}, Enter keeps {current}] ")
    sys.stdout.flush()
    line = sys.stdin.readline().strip()
    if not line:
        say("\n")
        return None
    return int(line) - 1 if line.isdigit() else -1


def setup_cmd(yes: bool = typer.Option(False, "--yes", "-y", help="Use the first model found without asking."),
              model: Optional[str] = typer.Option(None, "--model", help="Use this model: an id a found server "
                                                  "lists, none, embedded, or a full spec (openai:BASE_URL:MODEL)."),
              json_out: bool = typer.Option(False, "--json", help="Print what was found and chosen as JSON "
                                            "(asks nothing: choose with --yes or --model)."),
              port: List[int] = typer.Option([], "--port", help="Look on this 127.0.0.1 port instead of the usual "
                                             "ones (11434, 8080, 1234); repeatable.")) -> None:
    """First run: find a model server on this machine (Ollama, llama.cpp, LM Studio) and offer its
    models for the assistant. Nothing is used unless you choose it; with nothing found Cairn
    keeps working offline (model none)."""
    from cairn.assistant.discover import KNOWN
    from cairn.assistant.firstrun import run_setup
    from cairn.cli import STATE, _fail
    from cairn.config import load_settings
    from cairn.errors import CairnError
    if any(not 0 < p < 65536 for p in port):
        _fail("--port must be between 1 and 65535", code=2)
    ports = tuple(("OpenAI-compatible server", p) for p in port) or KNOWN
    try:
        home = load_settings(STATE["home"]).home
        res = run_setup(home, ports=ports, model=model, yes=yes, ask=None if json_out else _ask)
    except CairnError as exc:  # a model no server lists, an answer outside the offers, a bad config
        _fail(str(exc), code=exc.exit_code)
    if json_out:
        sys.stdout.write(json.dumps(res.to_json(), ensure_ascii=False) + "\n")
        return
    if not res.found:
        where = ", ".join(f"{name} on port {p}" for name, p in ports)
        say(f"No model server found on this machine ({where}).\n")
    if res.config is not None:
        say(f"The assistant now uses {res.model} ([assistant] model in {res.config}).\n")
    elif res.chosen is not None:
        say(f"The assistant already uses {res.model}; nothing changed.\n")
    else:
        offline = " (offline: Cairn's own understanding layer)" if res.model == "none" else ""
        say(f"Kept {res.model}{offline}. Later: `cairn setup` again, or `cairn models --use SPEC`.\n")
