"""Finish what was asked before the stdio server stops.

A client may write its requests and close stdin at once (scripts, `check_stdout.py` of case
B32). The SDK ends the serve loop at end of input and cancels requests still running, which
then answer "Connection closed". `drain_on_eof` sits between the stdio transport and
`Server.run`: it passes messages through both ways, and at end of input it waits until every
request already received has been answered (at most `limit` seconds) before ending the input.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

import anyio
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
