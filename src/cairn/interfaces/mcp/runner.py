"""Runs service calls off the event loop: one `cairn.service.Cairn` on one worker thread.

The MCP server is asynchronous (anyio); Cairn's operations are blocking (SQLite, the
embedder). `ServiceRunner.run(fn)` calls `fn(app)` on the runner's own thread, so the loop
keeps serving (pings, other sessions) while a search or an ingest runs, and the calls of one
runner never overlap (the index connection is used by one call at a time). The caller's
contextvars (the request's `cairn.tools.current_scope`) travel with the call.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable


class ServiceRunner:
    """One Cairn for `home` (None: $CAIRN_HOME / ~/.cairn), made on first use by `factory`
    (default `Cairn(home)`; tests pass one with a given embedder), used on one thread."""

    def __init__(self, home: str | Path | None = None, *, factory: Callable[[], Any] | None = None):
        if factory is None:
            def factory():
                from cairn.service import Cairn
                return Cairn(home)
        self._factory = factory
        self._app = None
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="cairn-mcp")
        self._lock = threading.Lock()

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        if self._app is None:
            self._app = self._factory()  # errors (home not writable...) reach the caller
        return fn(self._app)

    async def run(self, fn: Callable[[Any], Any]) -> Any:
        """`fn(app)` on the worker thread; its result, or its exception re-raised here."""
        ctx = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, ctx.run, self._call, fn)

    def close(self) -> None:
        """Close the Cairn (on its thread) and stop the thread. Idempotent."""
        with self._lock:
            if self._executor is None:
                return
            executor, self._executor = self._executor, None

        def shut():
            if self._app is not None:
                self._app.close()
                self._app = None
        executor.submit(shut).result()
        executor.shutdown(wait=True)
