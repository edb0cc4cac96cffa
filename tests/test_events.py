"""The event bus (cairn.events): typed events, fan-out that never blocks on a slow
subscriber, resume after an id; and the service publishing what it does."""

from __future__ import annotations

import threading

import pytest

from fakes.embedder import HashEmbedder
from cairn.events import EventBus, TYPES
from cairn.service import Cairn


def test_fan_out_resume_and_unknown_type():
    bus = EventBus(history=5)
    a, b = bus.subscribe(), bus.subscribe(types=["note.deleted"])
    for i in range(7):
        bus.publish("note.created", {"n": i})
    bus.publish("note.deleted", {"n": 99})
    assert [a.get(0).data["n"] for _ in range(8)] == [0, 1, 2, 3, 4, 5, 6, 99]
    assert b.get(0).data == {"n": 99} and b.get(0) is None
    assert [e.id for e in bus.since(5)] == [6, 7, 8]  # only the last 5 are kept
    with pytest.raises(ValueError):
        bus.publish("note.exploded", {})
    a.close()
    assert bus.subscribers() == 1


def test_a_slow_subscriber_never_stalls_the_publisher():
    bus = EventBus()
    slow = bus.subscribe(maxsize=3)  # never read
    fast = bus.subscribe()
    done = threading.Event()

    def publish():
        for i in range(200):
            bus.publish("ingest.progress", {"done": i, "total": 200})
        done.set()

    threading.Thread(target=publish).start()
    assert done.wait(30)
    assert slow.dropped == 197 and [slow.get(0).data["done"] for _ in range(3)] == [197, 198, 199]
    assert sum(1 for _ in iter(lambda: fast.get(0), None)) == 200


def test_service_publishes_writes_and_answers(tmp_path):
    with Cairn(tmp_path / "h", embedder=HashEmbedder()) as app:
        sub = app.events.subscribe()
        note = app.note_create("Heron", "The heron nests by the mill pond.")
        app.note_update(note.id, "It moved to the river.")
        change = app.remember("I live in Porto")
        app.forget(change.memory.id)
        ans = app.ask("Where does the heron nest?", llm="none")
        app.note_delete(note.id)
        (tmp_path / "in").mkdir()
        (tmp_path / "in" / "a.md").write_text("# Kettle\n\nDescale it.\n")
        report = app.ingest([tmp_path / "in"])
        types = [e.type for e in iter(lambda: sub.get(0), None)]
    assert types[:6] == ["note.created", "note.changed", "memory.added", "memory.forgotten",
                         "answer.produced", "note.deleted"]
    assert types[6] == "ingest.started" and "ingest.progress" in types and types[-1] == "ingest.done"
    assert "note.created" in types[6:] and set(types) <= set(TYPES)
    assert ans.trace_id and report.trace_id
