"""`cairn mcp`: the MCP server over stdio, for AI clients that start Cairn themselves."""

from __future__ import annotations

from enum import Enum

import typer

from cairn.hookspecs import hookimpl


class Scope(str, Enum):
    read = "read"
    write = "write"
    admin = "admin"


def mcp_cmd(scope: Scope = typer.Option(Scope.admin, "--scope",
                                        help="What the client may do: read (read-only tools), write "
                                             "(no deleting or forgetting) or admin (everything).")) -> None:
    """Serve the Model Context Protocol over stdin/stdout (JSON-RPC only on stdout; logs on
    stderr). Configure your MCP client to run `cairn --home HOME mcp` (docs/mcp.md)."""
    from cairn.cli import STATE
    from cairn.interfaces.mcp.server import run_stdio
    run_stdio(STATE["home"], scope=scope.value)


@hookimpl
def register_commands(cli):
    cli.command("mcp")(mcp_cmd)
