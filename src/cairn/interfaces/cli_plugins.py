"""`cairn plugins`, `cairn tools` and `cairn tool run`: the extension points seen from the CLI."""

from __future__ import annotations

import json
from typing import Optional

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_common import _dump


def plugins_cmd(json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List plugins: in-process ones (built-ins among them) with their hooks, and subprocess
    plugins with their tools and health."""
    from cairn.cli import _service
    from cairn.plugin_host.host import PluginHost
    from cairn.plugins import plugin_list
    items = [{"kind": "in-process", **p} for p in plugin_list()]
    with _service() as svc:
        host = PluginHost.for_settings(svc.settings)
        host.start()
        items += [{"kind": "subprocess", "builtin": False, **h} for h in host.health()]
    if json_out:
        _dump({"plugins": items})
        return
    from cairn.cli import out
    for p in items:
        if p["kind"] == "subprocess":
            line = (f"{p['name']} (subprocess {p.get('version') or '?'}, {p['state']}): "
                    f"tools {', '.join(p['tools']) or '-'}")
            if p.get("last_error"):
                line += f"  [last error: {p['last_error']}; restarts {p['restarts']}]"
        else:
            tag = "built-in" if p["builtin"] else p.get("version", "")
            line = f"{p['name']} ({tag}): {', '.join(p['hooks']) or '-'}"
            if p.get("error"):
                line += f"  [failed: {p['error']}]"
        out.print(line, markup=False)


def tools_cmd(json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List every tool the assistant and MCP clients can use, with its risk hint."""
    from cairn.cli import _service
    from cairn.tools import registry
    with _service() as svc:
        tools = registry(svc.settings).all()
    if json_out:
        _dump({"tools": [t.to_json() for t in tools]})
        return
    from cairn.cli import out
    for t in tools:
        out.print(f"{t.name:14} {t.risk:6} {t.description}", markup=False)


tool_app = typer.Typer(help="Call one tool as the assistant would.", no_args_is_help=True)


@tool_app.command("run")
def tool_run(name: str = typer.Argument(..., help="Tool name (see `cairn tools`)."),
             args: str = typer.Option("{}", "--args", help="Arguments as a JSON object."),
             yes: bool = typer.Option(False, "--yes", help="Approve a high-risk call."),
             json_out: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """Run tool NAME with --args JSON. A high-risk tool runs only with --yes."""
    from cairn.cli import _fail, _service
    from cairn.tools import registry
    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        _fail(f"--args is not valid JSON: {exc}", code=2)
    with _service() as svc:
        reg = registry(svc.settings)
        tool = reg.get(name)
        if tool.risk == "high" and not yes:
            _fail(f"{name} is a high-risk tool: add --yes to approve this call")
        result = reg.call(svc, name, arguments)
    _dump(result if json_out else result)


@hookimpl
def register_commands(cli):
    cli.command("plugins")(plugins_cmd)
    cli.command("tools")(tools_cmd)
    cli.add_typer(tool_app, name="tool")

