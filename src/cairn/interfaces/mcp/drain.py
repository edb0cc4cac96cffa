"""Finish what was asked before the stdio server stops.

A client may write its requests and close stdin at once (scripts, `check_stdout.py` of case
B32). The SDK ends the serve loop at end of input and cancels requests still running, which
then answer "Connection closed". `drain_on_eof` sits between the stdio transport and
`Server.run`: it passes messages through both ways, and at end of input it waits until every
request already received has been answered (at most `limit` seconds) before ending the input.

A line the transport cannot read (not JSON, not a JSON-RPC message, or JSON whose strings hold
a lone UTF-16 surrogate such as "\\ud800", which is not Unicode text) reaches the SDK as an
exception it only logs: the client waited for an answer that never came. `refusal` answers it
with a JSON-RPC error (-32700 parse error, -32600 invalid request; JSON-RPC 2.0 section 5.1)
carrying the request's id when the line has one, else null.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

import anyio
from mcp import types
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage


def _request_id(item):
    msg = getattr(item, "message", None)
    if getattr(msg, "method", None) is not None and getattr(msg, "id", None) is not None:
        return msg.id
    return None


def _response_id(item):
    msg = getattr(item, "message", None)
    if getattr(msg, "method", None) is None:
        return getattr(msg, "id", None)
    return None


def _surrogate(value) -> bool:
    """True when a string anywhere in the decoded JSON `value` holds a lone surrogate."""
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(_surrogate(k) or _surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_surrogate(v) for v in value)
    return False


def refusal(exc: Exception) -> SessionMessage:
    """The JSON-RPC error answering a line the transport refused with `exc` (a pydantic
    ValidationError whose first error's `input` is the line as read): -32700 when the line
    is not JSON or holds a lone surrogate, -32600 when it is JSON but no JSON-RPC message
    (a shape error's `input` is the decoded JSON);
    the message names the problem. The id is the line's own "id" (int or str), else null."""
    import json
    errors = exc.errors() if hasattr(exc, "errors") else []
    raw = errors[0].get("input") if errors else None
    why = None
    try:
        data = json.loads(raw) if errors and errors[0].get("type") == "json_invalid" else raw  # else: decoded JSON
    except ValueError as err:
        data, why = None, f"parse error: the line is not JSON ({err})"
    rid = data.get("id") if isinstance(data, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, (int, str)):
        rid = None
    if why is not None or data is None:
        code, message = types.PARSE_ERROR, why or "parse error: the line is not JSON"
    elif _surrogate(data):
        code, message = types.PARSE_ERROR, ("parse error: a string holds a lone UTF-16 surrogate "
                                            "(\\ud800-\\udfff without its pair), which is not Unicode text")
    else:
        detail = "; ".join(f"{'.'.join(map(str, e.get('loc', ()))) or 'message'}: {e.get('msg')}" for e in errors[:3])
        code, message = types.INVALID_REQUEST, f"invalid request: not a JSON-RPC 2.0 message ({detail})"
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message)))


@asynccontextmanager
async def drain_on_eof(read_stream, write_stream, limit: float = 600.0) -> AsyncIterator[tuple]:
    """(read, write) streams for `Server.run` over the transport's `read_stream` and
    `write_stream` (see the module docstring). `limit`: seconds to wait for answers."""
    in_send, in_recv = create_context_streams[SessionMessage | Exception](0)
    out_send, out_recv = create_context_streams[SessionMessage](0)
    pending: set = set()
    flushed = anyio.Event()

    async def inbound() -> None:
        async with in_send:
            async for item in read_stream:
                if isinstance(item, Exception):  # a line the SDK would only log: answer it
                    try:
                        await out_send.send(refusal(item))
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        pass  # the server is stopping: nobody is left to answer
                    continue
                rid = _request_id(item)
                if rid is not None:
                    pending.add(rid)
                await in_send.send(item)
            with anyio.move_on_after(limit):
                while pending:
                    await anyio.sleep(0.02)

    async def outbound() -> None:
        try:
            async with write_stream:  # the transport's writer ends when this closes
                async for item in out_recv:
                    await write_stream.send(item)
                    rid = _response_id(item)
                    if rid is not None:
                        pending.discard(rid)
        finally:
            flushed.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(inbound)
        tg.start_soon(outbound)
        try:
            yield in_recv, out_send
        finally:
            await out_send.aclose()  # outbound forwards what is left, then closes the wire
            with anyio.move_on_after(10):
                await flushed.wait()
            tg.cancel_scope.cancel()
