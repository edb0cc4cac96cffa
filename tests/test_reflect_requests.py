"""Reflection (cairn.context.reflect) does not read a turn that asked the assistant for a write:
the reminder or memory is what the person asked for, and an expectation quoting the request
would outlive a `forget` of it (session 15)."""

from __future__ import annotations

from cairn.assistant.sessions import SessionStore
from cairn.context.reflect import recent_turns, rule_items


def test_requests_carried_out_are_not_reflected_on(tmp_path):
    store = SessionStore(tmp_path)
    sid = store.create("cli", "local", "none").id
    store.append(sid, {"type": "user", "turn": 1, "text": "remind me on Saturday at 7am to take the dog to the vet"})
    store.append(sid, {"type": "tool_call", "turn": 1, "name": "remind", "arguments": {}})
    store.append(sid, {"type": "user", "turn": 2, "text": "what's the vet's number?"})
    store.append(sid, {"type": "tool_call", "turn": 2, "name": "get_note", "arguments": {}})  # a read
    store.append(sid, {"type": "user", "turn": 3, "text": "My cousin is visiting next Saturday."})
    turns, upto, _ = recent_turns(tmp_path, {}, 10_000)
    assert [t.text for t in turns] == ["what's the vet's number?", "My cousin is visiting next Saturday."]
    assert upto[sid] == max(e["seq"] for e in store.events(store.path(sid)) if e["type"] == "user")
    items = rule_items(turns)
    assert [i.type for i in items] == ["expectation"] and "cousin" in items[0].text
