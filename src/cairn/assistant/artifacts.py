"""Tool outputs as artifacts (PRAANA P15, P16): each call the assistant runs stores its output
in the content-addressed store (`Cairn.artifact_put`, store/artifacts.py) with its lineage:

  inputs  = the turn's message (itself an artifact of kind "message"), the outputs of the
            turn's earlier calls (the model saw them before it made this call), and any
            artifact an argument or the result names ({"artifact": ID});
  record  = session, turn, tool, call id and arguments.

A call decided later (an approval) has the message of its own turn as input when this process
saw that turn. Nothing in incognito; a failure to store never fails the turn (it becomes a
notice-free no-op: the session log still holds the output).
"""

from __future__ import annotations

import re

_ID = re.compile(r"\b[0-9a-f]{64}\b")


def _named(value) -> list[str]:
    """Artifact ids (64 hex digits) a value holds, in order."""
    import json
    return list(dict.fromkeys(_ID.findall(json.dumps(value, default=str)))) if value else []


def record_output(bot, call_id: str, rec, turn_no: int) -> str | None:
    """Store the output of the call `rec` (a CallRecord that ran) of turn `turn_no`; returns
    its artifact id, or None (incognito, or the store failed)."""
    if bot.incognito or not bot.state.id or rec.outcome != "ran":
        return None
    app, sid = bot.app, bot.state.id
    try:
        turn = getattr(bot, "_turn_artifacts", None)
        if turn is None or turn[0] != (sid, turn_no):
            msg = getattr(bot, "_turn_text", None)
            first = []
            if msg and msg[0] == turn_no:
                first = [app.artifact_put(msg[1], kind="message", session=sid, turn=turn_no)["id"]]
            turn = bot._turn_artifacts = ((sid, turn_no), first)
        inputs = list(dict.fromkeys(turn[1] + _named(rec.arguments) + _named(
            {"artifact": rec.result.get("artifact")} if isinstance(rec.result, dict) else None)))
        out = app.artifact_put(rec.result, kind="tool_output", session=sid, turn=turn_no, tool=rec.name,
                               call_id=call_id, arguments=rec.arguments, inputs=inputs)["id"]
        turn[1].append(out)
        return out
    except Exception:  # the session log keeps the output either way
        return None
