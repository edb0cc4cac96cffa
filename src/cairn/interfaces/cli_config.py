"""`cairn config show [--origin] [--json]`: the effective settings, layered from the global
config and the home's config.toml (config_peek, config.layers), and with --origin where each
value came from. A thin adapter over `Cairn.config_show` (ops/config.py)."""

from __future__ import annotations

import json
import sys

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_io import say

config_app = typer.Typer(help="The settings: global config, the home's config.toml, the environment.")


@config_app.command("show")
def config_show(origin: bool = typer.Option(False, "--origin", help="Say where each value came from."),
                json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Print the effective settings (with --origin: the file, environment variable or default
    each came from) and the config files read, lowest layer first."""
    from cairn.cli import _fail, _service
    from cairn.errors import CairnError
    try:
        with _service() as svc:
            data = svc.config_show()
    except CairnError as exc:
        _fail(str(exc), code=exc.exit_code)
    if json_out:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")
        return
    for f in data["files"]:
        say(f"# {f['layer']:6} {f['path']}{'' if f['exists'] else '  (not present)'}\n")
    for row in data["values"]:
        line = f"{row['key']} = {json.dumps(row['value'], ensure_ascii=False, default=str)}"
        say(line + (f"    # {row['origin']}" if origin else "") + "\n")


@hookimpl
def register_commands(cli):
    cli.add_typer(config_app, name="config")
