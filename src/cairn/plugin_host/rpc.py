"""JSON-RPC 2.0 over a line stream: one JSON object per line (https://www.jsonrpc.org/specification).

Cairn sends requests (`initialize`, `tools.execute`) and the notification `shutdown`; a
plugin answers requests and may send the notification `tools.register` at any time.
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL = "1"


class ProtocolError(Exception):
    """A line that is not a JSON-RPC 2.0 message (the plugin is then restarted)."""


def request(id_: int, method: str, params: dict) -> bytes:
    return (json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}) + "\n").encode()


def notification(method: str, params: dict | None = None) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    return (json.dumps(msg) + "\n").encode()


def parse(line: bytes) -> dict:
    """A message from a plugin: a response {"id", "result"|"error"} or a notification
    {"method", "params"}. Raises ProtocolError for anything else."""
    try:
        msg = json.loads(line)
    except ValueError:
        raise ProtocolError(f"not JSON: {line[:120]!r}") from None
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        raise ProtocolError(f"not a JSON-RPC 2.0 object: {line[:120]!r}")
    if "method" in msg:
        if not isinstance(msg["method"], str):
            raise ProtocolError("method is not a string")
        return msg
    if "id" in msg and ("result" in msg or "error" in msg):
        if "error" in msg and not (isinstance(msg["error"], dict) and "message" in msg["error"]):
            raise ProtocolError("error without a message")
        return msg
    raise ProtocolError(f"neither a request, a notification nor a response: {line[:120]!r}")
