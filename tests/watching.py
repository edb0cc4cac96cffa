"""A running `cairn watch` loop in a thread, for tests (shared by test_watch / test_cases_sync)."""

from __future__ import annotations

import threading
import time


class RunningWatcher:
    """Runs `app.watch` in a daemon thread; `events` collects every WatchEvent."""

    def __init__(self, app):
        self.app = app
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.events: list = []
        self.thread = threading.Thread(target=app.watch, args=(self.stop,),
                                       kwargs={"on_event": self._on}, daemon=True)

    def _on(self, event) -> None:
        self.events.append(event)
        if event.kind == "ready":
            self.ready.set()

    def __enter__(self) -> "RunningWatcher":
        self.thread.start()
        assert self.ready.wait(60), "watcher did not start"
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(20)
        assert not self.thread.is_alive(), "watcher did not stop"

    def syncs(self):
        return [e.sync for e in self.events if e.kind == "sync" and e.sync is not None]

    def removed(self) -> list[str]:
        return [p for s in self.syncs() for p in s.removed]


def wait_until(cond, timeout: float = 15.0, what: str = "condition"):
    """Poll `cond()` until it returns a truthy value (returned) or fail after `timeout` s.
    The timeout is a generous upper bound, not a speed check (speed is in bench/)."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
