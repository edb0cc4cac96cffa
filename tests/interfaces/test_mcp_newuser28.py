"""An MCP client is told the tool for a way out, not a command (newuser28): `create_note` of a
title that exists said "update it (`cairn note update`) or choose another title", a command an
MCP client has no shell for. Over stdio with the official `mcp` client."""

from __future__ import annotations

from conftest import home_with_notes
from mcp_support import run, stdio_session


def test_a_refused_tool_call_names_the_tool_that_is_the_way_out(tmp_path, real_embedder):
    home = home_with_notes(tmp_path, real_embedder, {"Bike": "Chain replaced on 2 March."})

    async def conversation():
        async with stdio_session(home) as s:
            return await s.call_tool("create_note", {"title": "Bike", "body": "x"})
    res = run(conversation())
    said = " ".join(c.text for c in res.content)
    assert res.is_error and "exists already" in said, said
    assert "the `update_note` tool" in said and "`cairn" not in said, said
    assert res.structured_content["message"] == said


def test_door_words_name_each_doors_place_and_leave_other_text_alone():
    from cairn.interfaces.door_words import MCP, WEB, for_door
    msg = "a note titled 'Bike' exists already; update it (`cairn note update`) or choose another title"
    assert for_door(msg, MCP).endswith("update it (the `update_note` tool) or choose another title")
    assert for_door(msg, WEB).endswith("update it (Edit on the note's page) or choose another title")
    assert for_door("run `cairn reindex`", MCP) == "run the command `cairn reindex` on the computer that runs Cairn"
    assert for_door("plain words", WEB) == "plain words" and for_door(None, WEB) is None
