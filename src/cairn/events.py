"""The event bus: typed events the service publishes as it works, fanned out to subscribers.

    from cairn.events import bus_for
    bus = bus_for(settings.home)
    sub = bus.subscribe()            # a bounded queue of its own
    bus.publish("note.created", {"id": ..., "path": ..., "title": ...})
    event = sub.get(timeout=1.0)     # Event(id=1, type="note.created", at=..., data={...})

Event types (TYPES): ingest.started / ingest.progress / ingest.done / ingest.failed,
job.dead_lettered, note.created / note.changed / note.deleted, memory.added /
memory.superseded / memory.forgotten, answer.produced, task.progress (server tasks: sync,
reindex), reminder.due (a reminder delivered by the scheduler inside `cairn serve`), enrich.started /
enrich.item / enrich.done (enrichment as it is produced, cairn.enrich). Ids are increasing integers per bus (one bus per home folder per process), so a
client can resume with `since(last_id)` (the REST server's Last-Event-ID).

Fan-out never blocks the publisher: each subscriber has a bounded queue; when it is full
the subscriber's oldest event is dropped and `dropped` counts it (a slow SSE client loses
old events instead of stalling ingest or another client). The last `history` events are
kept for resume. Thread-safe. Nothing here imports an adapter: the REST server, the CLI and
the bot subscribe from above.
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

TYPES: tuple[str, ...] = (
    "ingest.started", "ingest.progress", "ingest.done", "ingest.failed", "job.dead_lettered",
    "note.created", "note.changed", "note.deleted", "memory.added", "memory.superseded",
    "memory.forgotten", "answer.produced", "task.progress", "reminder.due",
    "enrich.started", "enrich.item", "enrich.done",
)


@dataclass(frozen=True)
class Event:
    """One event: `id` (increasing per bus), `type` (one of TYPES), `at` (ISO-8601 UTC),
    `data` (JSON-able dict)."""

    id: int
    type: str
    at: str
    data: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"id": self.id, "type": self.type, "at": self.at, "data": self.data}


class Subscription:
    """A subscriber's bounded queue. `get(timeout)` -> Event or None on timeout;
    `dropped`: events lost because the queue was full; `close()` detaches it."""

    def __init__(self, bus: "EventBus", maxsize: int, types: frozenset[str] | None, notify=None) -> None:
        self._bus = bus
        self.notify = notify  # called (no arguments) after each event is queued, e.g. to wake a loop
        self._items: collections.deque[Event] = collections.deque()
        self._cond = threading.Condition()
        self.maxsize = maxsize
        self.types = types
        self.dropped = 0
        self.closed = False

    def _put(self, event: Event) -> None:
        if self.types is not None and event.type not in self.types:
            return
        with self._cond:
            if len(self._items) >= self.maxsize:
                self._items.popleft()
                self.dropped += 1
            self._items.append(event)
            self._cond.notify()
        if self.notify is not None:
            try:
                self.notify()
            except Exception:  # a closed event loop: the subscriber is going away
                pass

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, waiting at most `timeout` seconds (None: forever)."""
        with self._cond:
            if not self._items and not self.closed:
                self._cond.wait(timeout)
            return self._items.popleft() if self._items else None

    def close(self) -> None:
        self._bus._remove(self)
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class EventBus:
    """Publish/subscribe for one home folder; see the module docstring."""

    def __init__(self, history: int = 1000) -> None:
        self._lock = threading.Lock()
        self._subs: list[Subscription] = []
        self._history: collections.deque[Event] = collections.deque(maxlen=history)
        self._next = 1

    def publish(self, type: str, data: dict | None = None) -> Event:
        """Record and fan out one event; returns it. Raises ValueError for an unknown type.
        Never blocks on a subscriber."""
        if type not in TYPES:
            raise ValueError(f"unknown event type {type!r}")
        with self._lock:
            event = Event(self._next, type, datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                          dict(data or {}))
            self._next += 1
            self._history.append(event)
            subs = list(self._subs)
        for sub in subs:
            sub._put(event)
        return event

    def subscribe(self, maxsize: int = 256, types: list[str] | None = None, notify=None) -> Subscription:
        """A new subscription receiving every later event (of `types`, when given);
        `notify()` is called after each queued event (must not block)."""
        sub = Subscription(self, maxsize, frozenset(types) if types else None, notify)
        with self._lock:
            self._subs.append(sub)
        return sub

    def since(self, last_id: int) -> list[Event]:
        """Kept events with id > last_id, oldest first (for Last-Event-ID resume)."""
        with self._lock:
            return [e for e in self._history if e.id > last_id]

    @property
    def last_id(self) -> int:
        with self._lock:
            return self._next - 1

    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)


class OwnedBus:
    """An EventBus seen through one service: `publish` adds "person": the service's person
    (cairn.people, read at publish time: `owner()`) to the data when one is named, so a door
    can show each person only their own events; everything else is the bus's."""

    def __init__(self, bus: EventBus, owner) -> None:
        self.bus, self._owner = bus, owner

    def publish(self, type: str, data: dict | None = None) -> Event:
        person = self._owner()
        return self.bus.publish(type, {**(data or {}), "person": person} if person else data)

    def __getattr__(self, name: str):
        return getattr(self.bus, name)


def visible(event: Event, person: str | None) -> bool:
    """Whether `person` (cairn.people; None: the home's own, who sees all) may see `event`:
    a named person sees only the events published for them."""
    return person is None or event.data.get("person") == person


_BUSES: dict[Path, EventBus] = {}
_BUSES_LOCK = threading.Lock()


def bus_for(home: Path | str) -> EventBus:
    """The process-wide bus of one home folder (created on first use)."""
    key = Path(home).resolve()
    with _BUSES_LOCK:
        if key not in _BUSES:
            _BUSES[key] = EventBus()
        return _BUSES[key]


class ProgressEvents:
    """A `Progress` callback `(phase, done, total)` that publishes ingest.progress events
    (at most one per phase per `every` seconds, plus each phase's last step) and chains to
    `inner` (the CLI's progress bar); also times each phase for a trace (`phases`:
    {phase: [first_seen, last_seen, total]} in monotonic seconds)."""

    def __init__(self, bus: EventBus, op: str, inner=None, every: float = 0.25) -> None:
        self.bus, self.op, self.inner, self.every = bus, op, inner, every
        self.phases: dict[str, list] = {}
        self._last: dict[str, float] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        span = self.phases.setdefault(phase, [now, now, total])
        span[1], span[2] = now, total
        if done >= total or now - self._last.get(phase, 0.0) >= self.every:
            self._last[phase] = now
            self.bus.publish("ingest.progress", {"op": self.op, "phase": phase, "done": done, "total": total})
        if self.inner is not None:
            self.inner(phase, done, total)


def publish_safely(bus: EventBus, type: str, data: dict[str, Any]) -> None:
    """Publish, never raising: an event is a side channel and must not fail the write it
    reports."""
    try:
        bus.publish(type, data)
    except Exception:  # pragma: no cover - defensive
        pass
