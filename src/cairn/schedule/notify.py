"""Delivery channels: the notifier interface and the built-in channels.

A notifier has a `name` and `send(message) -> None`; it raises DeliveryFailed (with a reason
a person can read) when the message did not go out. The scheduler never imports a channel:
channels come from the `register_notifiers` hook (built-ins: "log", "terminal", "desktop";
Telegram registers itself when configured, from `[telegram]` or `cairn telegram`'s flags).

A notifier whose `reaches_person` is False only keeps a record: the log channel (one JSON
line per message in `<home>/notifications.jsonl`) and the terminal channel (a line on the
daemon's own output). A run counts as delivered only when a channel that reaches a person
took the message (desktop notification, Telegram, a page listening on the server's event
stream); otherwise it is a failed run, shown as such and retried (scheduler.py).
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


class Handled(str):
    """What a job returns when it sent its own message(s) through the proactive gates
    (proactive.send_proactive): the text is the run's record ("digest sent", "suppressed:
    quiet hours ..."), not something to deliver again."""


class Notifier(Protocol):
    name: str

    def send(self, message: Message) -> None: ...


class LogNotifier:
    """Appends each message as a JSON line to `<home>/notifications.jsonl` (fsync'd). A
    record, not a delivery (reaches_person False)."""

    name = "log"
    reaches_person = False

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
    """Prints each message on stderr (the foreground `cairn daemon`): a record on the
    daemon's own output, not a delivery (reaches_person False)."""

    name = "terminal"
    reaches_person = False

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr

    def send(self, message: Message) -> None:
        print(f"[{message.kind}] {message.text}", file=self.stream, flush=True)


class DesktopNotifier:
    """A freedesktop notification on this machine's desktop: `notify-send` when it is on
    PATH, else the org.freedesktop.Notifications D-Bus service through `gdbus` (when a
    session bus is set: DBUS_SESSION_BUS_ADDRESS). `available()` says whether either is
    there. DeliveryFailed when the command fails or takes longer than `timeout_s`."""

    name = "desktop"
    reaches_person = True

    def __init__(self, timeout_s: float = 10.0) -> None:
        self.timeout_s = timeout_s

    @staticmethod
    def command(title: str, body: str) -> list[str] | None:
        """The command that shows one notification, or None when neither way exists."""
        import shutil
        if shutil.which("notify-send"):
            return ["notify-send", "--app-name=Cairn", title, body]
        if shutil.which("gdbus") and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            return ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                    "--object-path", "/org/freedesktop/Notifications", "--method",
                    "org.freedesktop.Notifications.Notify", "Cairn", "0", "", title, body, "[]", "{}", "-1"]
        return None

    @classmethod
    def available(cls) -> bool:
        return cls.command("", "") is not None

    def send(self, message: Message) -> None:
        import subprocess
        title = {"reminder": "Reminder", "digest": "Cairn digest"}.get(message.kind, "Cairn")
        cmd = self.command(title, message.text[:1000])
        if cmd is None:
            raise DeliveryFailed("desktop: neither notify-send nor a D-Bus session bus is available")
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout_s)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DeliveryFailed(f"desktop: {cmd[0]}: {exc}") from exc
        if done.returncode != 0:
            raise DeliveryFailed(f"desktop: {cmd[0]} exited with {done.returncode}: "
                                 f"{(done.stderr or done.stdout).strip()[:200]}")


@hookimpl
def register_notifiers(register, settings, interactive):
    """Built-in channels: the log file always; the terminal and the desktop (when it has
    notify-send or a D-Bus session bus) when a person runs the daemon in the foreground."""
    register(LogNotifier(settings.home))
    if interactive:
        register(TerminalNotifier())
        if DesktopNotifier.available():
            register(DesktopNotifier())
