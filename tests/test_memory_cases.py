"""Cases B15, B16, B17, B19 (tests/cases/*/steps.yaml, copied from ../shared/cases) replayed
through the memory store: every `clock.set` becomes the `now` of the following `chat`
statements, which go to `remember`; the expectations are asserted on the store."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from cairn.memory import list_memories, recall, rebuild_memories, remember
from cairn.store import db

CASES = Path(__file__).parent / "cases"


def steps(case: str) -> list[dict]:
    return yaml.safe_load((CASES / case / "steps.yaml").read_text(encoding="utf-8"))


def clock(value: str) -> datetime:
    """"2025-11-19T18:30:00+01:00 Europe/Madrid" -> aware datetime in that zone."""
    iso, _, zone = value.partition(" ")
    dt = datetime.fromisoformat(iso)
    return dt.astimezone(ZoneInfo(zone)) if zone else dt


def replay(conn, embedder, vault, case: str):
    """Run the case's clock.set/chat steps; returns [(said_at, text, MemoryChange)]."""
    now, changes = None, []
    for step in steps(case):
        if "clock.set" in step:
            now = clock(step["clock.set"])
        elif "chat" in step:
            changes.append((now, step["chat"], remember(conn, embedder, step["chat"], now=now, vault=vault)))
    return changes


@pytest.fixture
def store(tmp_path):
    conn = db.connect(tmp_path / "index.db")
    yield conn, tmp_path / "vault"
    conn.close()


def test_b15_same_fact_twice_reinforces(store, real_embedder):
    conn, vault = store
    (t1, _, first), (t2, _, again), (_, _, paraphrase) = replay(conn, real_embedder, vault, "B15-same-fact-twice")
    assert first.action == "add" and first.memory.kind == "preference"
    assert again.action == "reinforce" and again.memory.id == first.memory.id
    assert again.memory.confidence > first.memory.confidence and again.memory.use_count == 1
    assert paraphrase.action == "reinforce" and paraphrase.memory.id == first.memory.id
    assert "synonym" in paraphrase.reason
    everything = list_memories(conn, include_inactive=True)
    assert [m.id for m in everything] == [first.memory.id]  # nothing duplicated, nothing deleted
    m = everything[0]
    assert m.active and m.use_count == 2 and m.last_used == t2.isoformat()
    assert [e["action"] for e in m.log] == ["add", "reinforce", "reinforce"]
    # the paraphrase's words now find the memory by keyword too
    hits = recall(conn, real_embedder, "eat meat", now=t2, touch=False)
    assert hits and hits[0].memory.id == m.id


def test_b16_contradiction_supersedes_and_keeps_history(store, real_embedder):
    conn, vault = store
    (_, _, liked), (t2, _, hate) = replay(conn, real_embedder, vault, "B16-contradiction-drops-both")
    assert liked.action == "add"
    assert hate.action == "supersede" and hate.previous.id == liked.memory.id, hate.reason
    active = list_memories(conn)
    assert [m.text for m in active] == [hate.memory.text]  # the store is not empty
    old = next(m for m in list_memories(conn, include_inactive=True) if m.id == liked.memory.id)
    assert old.status == "superseded" and old.superseded_by == hate.memory.id
    assert old.valid_to.startswith("2025-09-15")
    # "Did I ever like Thai food?" — history is answerable
    hits = recall(conn, real_embedder, "Did I ever like Thai food?", now=t2, include_history=True, touch=False)
    assert {h.memory.id for h in hits} >= {liked.memory.id, hate.memory.id}
    assert hits[0].memory.id == hate.memory.id  # the current one ranks first
    current = recall(conn, real_embedder, "Thai food", now=t2, touch=False)
    assert [h.memory.id for h in current] == [hate.memory.id]


def test_b17_update_supersedes_and_additive_fact_adds(store, real_embedder):
    conn, vault = store
    (_, _, ronaldo), (t2, _, messi), (_, _, club) = replay(conn, real_embedder, vault, "B17-conflicting-facts-kept")
    assert messi.action == "supersede" and messi.previous.id == ronaldo.memory.id
    assert "favourite football player" in messi.reason
    assert club.action == "add" and club.previous is None
    active = {m.text for m in list_memories(conn)}
    assert active == {messi.memory.text, club.memory.text}
    old = next(m for m in list_memories(conn, include_inactive=True) if m.id == ronaldo.memory.id)
    assert old.superseded_by == messi.memory.id and not old.active
    hits = recall(conn, real_embedder, "Who is my favourite football player?", now=t2, touch=False)
    assert hits[0].memory.id == messi.memory.id
    assert ronaldo.memory.id not in {h.memory.id for h in hits}


def test_b19_relative_dates_resolved_against_message_time(store, real_embedder):
    conn, vault = store
    (_, _, dentist), (_, _, job), (t3, _, garage) = replay(conn, real_embedder, vault, "B19-relative-dates")
    assert dentist.memory.event_time == "2025-11-20T15:00:00+01:00"
    assert "2025-11-20 15:00" in dentist.memory.text and dentist.memory.kind == "event"
    assert job.memory.event_time == "2025-11-24" and "week of 2025-11-24" in job.memory.text
    assert "Ferrow & Hale" in job.memory.entities and "Okafor" in dentist.memory.entities
    # said on 2025-12-05 10:00 Madrid: two hours later, not relative to the first clock
    assert garage.memory.event_time == "2025-12-05T12:00:00+01:00"
    # a rebuild keeps the absolute dates (the mirror files carry them)
    conn.execute("DELETE FROM memories")
    report = rebuild_memories(conn, vault)
    assert report["failed"] == [] and report["memories"] == 3
    again = {m.id: m for m in list_memories(conn)}
    assert again[dentist.memory.id].event_time == "2025-11-20T15:00:00+01:00"
