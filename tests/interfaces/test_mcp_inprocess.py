"""The MCP server in-process (the SDK's in-memory client): resources paged with a cursor,
a bad cursor, a home that cannot be opened, and a tool whose audit entry cannot be written."""

from __future__ import annotations

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from cairn.interfaces.mcp import server as S
from cairn.interfaces.mcp.runner import ServiceRunner
from cairn.service import Cairn
from mcp_support import run


@pytest.fixture()
def runner(tmp_path, real_embedder):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        for title in ("Alpha", "Beta", "Gamma"):
            app.note_create(title, f"{title} body text.")
    r = ServiceRunner(home, factory=lambda: Cairn(home, embedder=real_embedder))
    r.home = home
    yield r
    r.close()


def test_resources_are_paged_with_a_cursor(runner, monkeypatch):
    monkeypatch.setattr(S, "RESOURCE_PAGE", 2)

    async def conversation():
        async with Client(S.build_server(runner)) as c:
            first = await c.list_resources()
            second = await c.list_resources(cursor=first.next_cursor)
            with pytest.raises(MCPError) as exc:
                await c.list_resources(cursor="not-a-number")
            return first, second, exc.value.message

    first, second, bad = run(conversation())
    assert [r.name for r in first.resources] == ["Alpha", "Beta"] and first.next_cursor == "2"
    assert [r.name for r in second.resources] == ["Gamma"] and second.next_cursor is None
    assert "bad cursor" in bad


def test_a_home_that_cannot_be_opened_is_a_tool_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    bad = ServiceRunner(blocker / "home")  # the home's parent is a file

    async def conversation():
        async with Client(S.build_server(bad)) as c:
            return await c.call_tool("list_notes", {})

    try:
        res = run(conversation())
    finally:
        bad.close()
    assert res.is_error and res.structured_content["error"] == "unavailable"
    assert str(blocker) in res.content[0].text


def test_a_write_that_cannot_be_audited_is_not_made(runner):
    home = runner.home
    assert not (home / "audit").exists()
    (home / "audit").write_text("a file where the audit folder belongs")

    async def conversation():
        async with Client(S.build_server(runner)) as c:
            return (await c.call_tool("create_note", {"title": "Unaudited", "body": "x"}),
                    await c.call_tool("get_note", {"note": "Alpha"}))

    write, read = run(conversation())
    assert write.is_error and "audit log cannot be written" in write.content[0].text
    assert not (home / "vault" / "Unaudited.md").exists()
    assert not read.is_error  # reads are not audited: they still work
