"""Two lanes of work for message channels (Salmex S5): conversation turns and priority work.

A chat turn can take a minute (a slow model, several tool calls); an approval, a reminder's
Done / Snooze press or a reminder delivery takes a moment and must not wait behind it. So a
channel runs:
- turns on a bounded pool (`turn_workers` threads, `[assistant] turn_workers`), one queue per
  conversation key (a chat, a room): a person's messages are answered in the order sent, one
  at a time, while other people's turns use the other workers — and a long turn never holds a
  worker that another key's turn is waiting for;
- priority work on its own pool (`priority_workers` threads), which never runs a turn, so it
  starts at once however many turns are running or queued.

    lanes = Lanes(turn_workers=2)
    fut = lanes.submit_turn("chat:42", conversation.reply, person, text)   # concurrent.futures.Future
    await lanes.turn("chat:42", conversation.reply, person, text)          # the same, from asyncio
    await lanes.priority(conversation.press, person, "approve:ap-1")

Errors raised by the work are set on its future (and raised by the awaiting call). `close()`
stops taking work and lets running work finish.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable


class Lanes:
    """A turn pool with one FIFO per key, and a priority pool (see module docstring).
    Raises ValueError for fewer than one worker in either."""

    def __init__(self, turn_workers: int = 2, priority_workers: int = 1, name: str = "cairn") -> None:
        if turn_workers < 1 or priority_workers < 1:
            raise ValueError("each lane needs at least one worker")
        self.turns = ThreadPoolExecutor(turn_workers, thread_name_prefix=f"{name}-turn")
        self.urgent = ThreadPoolExecutor(priority_workers, thread_name_prefix=f"{name}-priority")
        self._queues: dict[str, deque] = {}
        self._lock = threading.Lock()

    def submit_turn(self, key: str, fn: Callable[..., Any], *args: Any) -> Future:
        """Queue `fn(*args)` behind the earlier turns of `key`; returns its Future."""
        fut: Future = Future()
        with self._lock:
            queue = self._queues.setdefault(key, deque())
            queue.append((fut, fn, args))
            start = len(queue) == 1
        if start:
            self.turns.submit(self._drain, key)
        return fut

    def _drain(self, key: str) -> None:
        """Run the turns of `key` one after another until its queue is empty."""
        while True:
            with self._lock:
                fut, fn, args = self._queues[key][0]
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn(*args))
                except BaseException as exc:  # noqa: BLE001 - handed to whoever awaits it
                    fut.set_exception(exc)
            with self._lock:
                queue = self._queues[key]
                queue.popleft()
                if not queue:
                    del self._queues[key]
                    return

    def submit_priority(self, fn: Callable[..., Any], *args: Any) -> Future:
        """Run `fn(*args)` on the priority pool; returns its Future."""
        return self.urgent.submit(fn, *args)

    async def turn(self, key: str, fn: Callable[..., Any], *args: Any) -> Any:
        """`submit_turn`, awaited from an event loop (the loop stays free meanwhile)."""
        return await asyncio.wrap_future(self.submit_turn(key, fn, *args))

    async def priority(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`submit_priority`, awaited from an event loop."""
        return await asyncio.wrap_future(self.submit_priority(fn, *args))

    def close(self) -> None:
        """Take no more work; running and queued work still finishes."""
        self.turns.shutdown(wait=False)
        self.urgent.shutdown(wait=False)
