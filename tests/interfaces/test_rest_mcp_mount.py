"""The MCP server mounted on `cairn serve` at /mcp, behind the same front door: the official
`mcp` client over streamable HTTP with API keys (loopback not trusted here). A read key lists
the tools and searches but cannot create a note; a write key can; no key is refused before
MCP sees the request. In a build without the MCP door, /mcp is simply not there (404)."""

from __future__ import annotations

import asyncio
import importlib.util

import httpx
import pytest

from rest_support import RestServer

from cairn.apikeys import KeyStore

HAS_MCP = importlib.util.find_spec("cairn.interfaces.mcp") is not None


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with RestServer(tmp_path_factory.mktemp("mcp") / "home", "[server]\ntrust_loopback = false\n") as s:
        yield s


async def _session(base: str, key: str, fn):
    from mcp import ClientSession
    try:
        from mcp.client.streamable_http import streamable_http_client as http_client
    except ImportError:  # older SDK name
        from mcp.client.streamable_http import streamablehttp_client as http_client
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120) as hc:
        try:
            cm = http_client(base + "/mcp", http_client=hc)
        except TypeError:
            cm = http_client(base + "/mcp", headers={"Authorization": f"Bearer {key}"})
        async with cm as streams:
            async with ClientSession(streams[0], streams[1]) as s:
                await s.initialize()
                return await fn(s)


def test_mcp_at_slash_mcp_behind_keys_and_scopes(srv):
    store = KeyStore(srv.home)
    read, write = store.create("mcp-read", "read")[1], store.create("mcp-write", "write")[1]
    with srv.client() as c:
        assert c.post("/mcp", json={}).status_code == 401  # the front door, before MCP
        if not HAS_MCP:
            assert c.post("/mcp", json={}, headers={"X-API-Key": read}).status_code == 404
            return

    async def read_side(s):
        tools = sorted(t.name for t in (await s.list_tools()).tools)
        denied = await s.call_tool("create_note", {"title": "Not allowed", "body": "x"})
        return tools, denied

    async def write_side(s):
        made = await s.call_tool("create_note", {"title": "Via MCP", "body": "the mounted server"})
        found = await s.call_tool("search", {"query": "mounted server"})
        return made, found

    tools, denied = asyncio.run(_session(srv.base, read, read_side))
    assert {"search", "ask", "create_note", "remember", "recall"} <= set(tools)
    assert denied.is_error
    made, found = asyncio.run(_session(srv.base, write, write_side))
    assert not made.is_error and "Via MCP" in made.content[0].text
    assert "Via MCP" in found.content[0].text
    with srv.client() as c:
        assert c.get("/api/notes/Via MCP", headers={"X-API-Key": read}).status_code == 200
        assert c.get("/api/notes/Not allowed", headers={"X-API-Key": read}).status_code == 404
