"""Helpers for the MCP tests: the official `mcp` client over stdio (a real `python -m cairn
... mcp` subprocess) and over streamable HTTP, and a home with a few notes."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

SRC = str(Path(__file__).resolve().parents[2] / "src")
TIMEOUT = 240  # seconds for one whole client conversation (2 shared cores: be generous)


def server_env(extra_path: str | None = None) -> dict:
    """The environment for a `python -m cairn` subprocess: this tree's src first."""
    parts = [SRC] + ([extra_path] if extra_path else []) + [os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in parts if p)}


@asynccontextmanager
async def stdio_session(home, *args, extra_path: str | None = None, errlog=None):
    """An initialized ClientSession talking to `python -m cairn --home HOME mcp ARGS`."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "cairn", "--home", str(home), "mcp", *args],
                                   env=server_env(extra_path))
    kwargs = {"errlog": errlog} if errlog is not None else {}
    async with stdio_client(params, **kwargs) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session


@asynccontextmanager
async def http_session(url: str, headers: dict | None = None):
    """An initialized ClientSession over streamable HTTP at `url`."""
    if headers:
        from mcp.shared._httpx_utils import create_mcp_http_client
        client = create_mcp_http_client(headers=headers)
        async with client:
            async with streamable_http_client(url, http_client=client) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    yield session
        return
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            yield session


def run(coro):
    """Run one client conversation with an overall timeout."""
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


async def call(session, name: str, arguments: dict):
    """(is_error, structured content or parsed text, text) of one tools/call."""
    res = await session.call_tool(name, arguments)
    text = res.content[0].text if res.content else ""
    data = res.structured_content
    if data is None and not res.is_error:
        data = json.loads(text)
    return res.is_error, data, text


def audit_entries(home) -> list[dict]:
    path = Path(home) / "audit" / "audit.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
