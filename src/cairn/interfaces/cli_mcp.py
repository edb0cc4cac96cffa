"""`cairn mcp`: the MCP server over stdio, for AI clients that start Cairn themselves."""

from __future__ import annotations

from cairn.hookspecs import hookimpl


def mcp_cmd() -> None:
    """Serve the Model Context Protocol over stdin/stdout (JSON-RPC only on stdout; logs on
    stderr). Configure your MCP client to run `cairn --home HOME mcp` (docs/mcp.md)."""
    from cairn.cli import STATE
    from cairn.interfaces.mcp.server import run_stdio
    run_stdio(STATE["home"])


@hookimpl
def register_commands(cli):
    cli.command("mcp")(mcp_cmd)
