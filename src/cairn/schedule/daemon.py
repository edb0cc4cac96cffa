"""The background loop: fire what is due, then sleep until the next due time.

It wakes at the earliest due time, and at least every POLL_S seconds so reminders created by
another process are seen; idle, it costs one small SQLite query per POLL_S (bench/scheduler.py
measures the CPU). Used by `cairn daemon` and inside `cairn serve`.
"""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Callable

POLL_S = 1.0


def run_loop(scheduler, stop: threading.Event, *, once: bool = False,
             log: Callable[[str], None] | None = None, poll_s: float = POLL_S) -> int:
    """Run until `stop` is set (or one pass with `once`); returns the number of runs fired.
    Claims left by a crashed process are released first (Scheduler.recover)."""
    released = scheduler.recover()
    if released and log:
        log(f"released {released} claim(s) left by a stopped process")
    fired = 0
    while True:
        for run in scheduler.run_due():
            fired += 1
            if log:
                log(f"{run['reminder_id']} {run['outcome']}" + (f": {run['error']}" if run.get("error") else ""))
        if once or stop.is_set():
            return fired
        nxt = scheduler.next_wakeup()
        wait = poll_s
        if nxt is not None:
            wait = max(0.0, min(poll_s, (nxt - datetime.now(timezone.utc)).total_seconds()))
        if stop.wait(wait):
            return fired


def backup_loop(open_app: Callable, stop: threading.Event, *, every_s: float = 3600.0,
                log: Callable[[str], None] | None = None, once: bool = False) -> None:
    """Daily snapshots for `cairn daemon` (`[backup] keep` > 0; `cairn serve` has its own):
    every `every_s` seconds, `open_app().backup_daily()` takes today's snapshot if none exists
    and keeps the newest `keep`. A failure is logged and tried again at the next pass."""
    while not stop.is_set():
        try:
            with open_app() as app:
                taken = app.backup_daily()
            if taken and log:
                log(f"backup {taken['snapshot']} ({taken['files']} files)")
        except Exception as exc:  # noqa: BLE001 - housekeeping must not stop the daemon
            if log:
                log(f"daily backup failed: {exc}")
        if once or stop.wait(every_s):
            return
