"""Runs service calls off the event loop, on the runner's own worker threads.

The MCP server is asynchronous (anyio); Cairn's operations are blocking (SQLite, the
embedder). `ServiceRunner.run(fn)` calls `fn(app)` on a worker thread, so the loop keeps
serving (pings, other sessions) while a search or an ingest runs. Each worker thread has its
own service object, made by `factory` on the thread's first call: with the default factory
(`Cairn(home)`) that is one index connection per thread, never shared; `cairn serve` passes a
factory returning its thread-safe service proxy. The caller's contextvars (the request's
`cairn.tools.current_scope`) travel with the call.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable


class ServiceRunner:
    """Service objects for `home` (None: $CAIRN_HOME / ~/.cairn) used on `workers` threads
    (1: the calls of this runner never overlap)."""

    def __init__(self, home: str | Path | None = None, *, factory: Callable[[], Any] | None = None,
                 workers: int = 1):
        if factory is None:
            def factory():
                from cairn.service import Cairn
                return Cairn(home)
        if workers < 1:
            raise ValueError(f"workers must be 1 or more, got {workers}")
        self.home = home
        self._factory = factory
        self._local = threading.local()
        self._apps: list[Any] = []
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = ThreadPoolExecutor(workers, thread_name_prefix="cairn-mcp")

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        app = getattr(self._local, "app", None)
        if app is None:
            app = self._factory()  # errors (home not writable...) reach the caller
            self._local.app = app
            with self._lock:
                self._apps.append(app)
        return fn(app)

    async def run(self, fn: Callable[[Any], Any]) -> Any:
        """`fn(app)` on a worker thread; its result, or its exception re-raised here.
        RuntimeError once the runner is closed."""
        executor = self._executor
        if executor is None:
            raise RuntimeError("the MCP server is shutting down")
        ctx = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, ctx.run, self._call, fn)

    def close(self) -> None:
        """Wait for running calls, stop the threads, close every service object. Idempotent."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is None:
            return
        executor.shutdown(wait=True)
        with self._lock:
            apps, self._apps = self._apps, []
        for app in {id(a): a for a in apps}.values():
            close = getattr(app, "close", None)
            if callable(close):
                close()
