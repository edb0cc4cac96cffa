"""Delivery channels: the notifier interface and the built-in channels.

A notifier has a `name` and `send(message) -> None`; it raises DeliveryFailed (with a reason
a person can read) when the message did not go out. The scheduler never imports a channel:
channels come from the `register_notifiers` hook (built-ins: "log", "terminal"; Telegram
registers itself when configured). The log channel is the fallback that always works: it
appends one JSON line per message to `<home>/notifications.jsonl`.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

from cairn.errors import Unavailable
from cairn.hookspecs import hookimpl


class DeliveryFailed(Unavailable):
    """A channel could not deliver a message (the reason is in the message)."""


@dataclass
class Message:
    """One outbound message. kind: "reminder", "digest", "proactive"; reminder_id: the
    reminder or job it comes from (None for ad-hoc); due: UTC ISO of the run."""

    text: str
    kind: str = "reminder"
    reminder_id: str | None = None
    due: str | None = None


class Notifier(Protocol):
    name: str

    def send(self, message: Message) -> None: ...


class LogNotifier:
    """Appends each message as a JSON line to `<home>/notifications.jsonl` (fsync'd)."""

    name = "log"

    def __init__(self, home: Path) -> None:
        self.path = Path(home) / "notifications.jsonl"

    def send(self, message: Message) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, (json.dumps(asdict(message), ensure_ascii=False) + "\n").encode())
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise DeliveryFailed(f"log channel: {self.path}: {exc.strerror or exc}") from exc


class TerminalNotifier:
    """Prints each message on stderr (the foreground `cairn daemon`)."""

    name = "terminal"

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr

    def send(self, message: Message) -> None:
        print(f"[{message.kind}] {message.text}", file=self.stream, flush=True)


@hookimpl
def register_notifiers(register, settings, interactive):
    """Built-in channels: the log file always; the terminal when a person watches it."""
    register(LogNotifier(settings.home))
    if interactive:
        register(TerminalNotifier())
