"""`cairn models`: the models the assistant may run, local OpenAI-compatible servers found
on loopback (Ollama, llama.cpp, LM Studio: cairn.assistant.discover) offered, and `--use SPEC`
to choose one (cairn.assistant.choose). A thin adapter; registered with `cairn chat`
(cli_chat.register_commands)."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from cairn.interfaces.cli_io import say


def models_cmd(json_out: bool = typer.Option(False, "--json", help="Print as JSON."),
               use: Optional[str] = typer.Option(None, "--use", help="Make SPEC the assistant's model "
                                                 "(\\[assistant] model in config.toml)."),
               scan: bool = typer.Option(True, "--scan/--no-scan", help="Look for model servers on this "
                                         "machine (127.0.0.1 ports 11434, 8080, 1234).")) -> None:
    """The assistant's model: the current one, what is available, and model servers running on
    this machine (offered, never used until you choose one with --use SPEC)."""
    from cairn.cli import STATE, _fail
    from cairn.config import load_settings
    from cairn.errors import CairnError
    if use is not None:
        from cairn.assistant.choose import choose_model
        try:
            path = choose_model(load_settings(STATE["home"]).home, use)
        except CairnError as exc:
            _fail(str(exc), code=exc.exit_code)
        if json_out:
            sys.stdout.write(json.dumps({"chosen": use.strip(), "config": str(path)}) + "\n")
        else:
            say(f"the assistant now uses {use.strip()} ([assistant] model in {path})\n")
        return
    from cairn.assistant.discover import model_choices
    try:
        settings = load_settings(STATE["home"])
        data = model_choices(settings, scan=scan)
        if scan:  # what was found is the catalogue `/model` offers (assistant/catalogue.py)
            from cairn.assistant.catalogue import save
            try:
                save(settings.home, data)
            except OSError:  # a home it cannot write: the list is still printed
                pass
    except CairnError as exc:
        _fail(str(exc), code=exc.exit_code)
    if json_out:
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    say(f"current: {data['current']}   (default: {data['default']})\n")
    for c in data["choices"]:
        mark = "*" if c["spec"] == data["current"] else " "
        state = "" if c["available"] else "  [not installed]"
        say(f" {mark} {c['spec']}\n      {c['what']}{state}\n")
    if data["local_servers"]:
        names = ", ".join(f"{s['name']} ({len(s['models'])} model(s))" for s in data["local_servers"])
        say(f"found on this machine: {names}; not used until you choose: {data['how']}\n")
    elif scan:
        say("no model server found on this machine (Ollama :11434, llama.cpp :8080, LM Studio :1234)\n")
