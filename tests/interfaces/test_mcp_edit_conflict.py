"""hygiene27: MCP `update_note` had no `expected_hash` (REST's `PUT /api/notes/{ref}` has had it
since session 26), so two MCP clients editing one note overwrote each other without a word.
The tool now takes the `file_hash` `get_note` gave, through the same service operation: a file
changed since is a "conflict" tool error naming the change, with the current hash and body in
its structured content, and nothing is written. Through the official `mcp` client over stdio."""

from __future__ import annotations

from cairn.service import Cairn
from mcp_support import call, run, stdio_session


def test_update_note_with_a_stale_expected_hash_is_a_conflict_and_writes_nothing(tmp_path, real_embedder):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        note = app.note_create("Boat", "The oars are in the shed.")
    path = home / "vault" / note.path

    async def conversation():
        async with stdio_session(home) as s:
            first = (await call(s, "get_note", {"note": "Boat"}))[1]["file_hash"]
            ok = await call(s, "update_note", {"note": "Boat", "body": "The oars are in the garage.",
                                               "expected_hash": first})
            written = path.read_bytes()
            stale = await call(s, "update_note", {"note": "Boat", "body": "The oars are lost.",
                                                  "expected_hash": first})
            after_stale = path.read_bytes()
            bad = await call(s, "update_note", {"note": "Boat", "body": "x", "expected_hash": "nothex"})
            plain = await call(s, "update_note", {"note": "Boat", "body": "Oars sold.", "mode": "append"})
            shown = (await call(s, "get_note", {"note": "Boat"}))[1]
        return first, ok, written, stale, after_stale, bad, plain, shown

    first, ok, written, stale, after_stale, bad, plain, shown = run(conversation())
    assert not ok[0] and ok[1]["action"] == "updated", ok
    assert stale[0] and stale[1]["error"] == "conflict", stale
    assert "changed outside this editor" in stale[1]["message"] and "nothing was saved" in stale[1]["message"]
    assert stale[1]["expected_hash"] == first and stale[1]["current_hash"] != first
    assert stale[1]["current_body"] == "The oars are in the garage." and stale[1]["path"] == "Boat.md"
    assert after_stale == written  # nothing written by the stale call
    assert bad[0] and bad[1]["error"] == "invalid_input" and "expected_hash" in bad[2], bad
    assert not plain[0]  # without expected_hash the update is made as before
    assert shown["body"] == "The oars are in the garage.\n\nOars sold."
