"""Fresh-user review of the memory store: slot-aware recall ("where do I live" finds the
current fact), employer/job supersession, emoji between words, trimmed slot values,
late-imported history that fits between the states it predates, the kind of "I work as a
nurse" from a chat, and the size limit of one memory."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from cairn.config import MAX_MEMORY_CHARS
from cairn.memory import history, list_memories, remember
from cairn.memory.recall import recall
from cairn.memory.extract import Message, extract_facts
from cairn.memory.rules import guess_kind
from cairn.memory.slots import Slot, find_slots, query_slots
from cairn.store import db


def _key(name: str) -> str:
    return name.casefold()


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=timezone.utc)


@pytest.fixture
def conn(tmp_path):
    c = db.connect(tmp_path / "index.db")
    yield c
    c.close()


# ------------------------------------------------------------------ 1. slot-aware recall
@pytest.mark.parametrize("query,expected", [
    ("where do I live", {("user", "lives in")}),
    ("Where do I live now?", {("user", "lives in")}),
    ("where does my sister live", {("user's sister", "lives in")}),
    ("where does Kai live?", {("kai", "lives in")}),
    ("what's my job", {("user", "job"), ("user", "works at")}),
    ("am I vegan?", {("user", "diet")}),
    ("is Kai married", {("kai", "relationship status")}),
    ("Lisbon", set()),
    ("where is the station", set()),
])
def test_query_slots(query, expected):
    assert set(query_slots(query, ["Kai"] if "Kai" in query else [], _key)) == expected


def _seed_porto_lisbon(conn, embedder):
    remember(conn, embedder, "I live in Porto", now=_at("2025-01-10"))
    remember(conn, embedder, "My sister Anna lives in Madrid", now=_at("2025-01-11"))
    remember(conn, embedder, "I like jazz and long walks", now=_at("2025-01-12"))
    change = remember(conn, embedder, "I moved to Lisbon", now=_at("2025-06-01"))
    assert change.action == "supersede"


@pytest.mark.parametrize("query", ["where do I live", "where do I live now"])
def test_recall_where_do_i_live_ranks_the_current_fact_first(conn, embedder, query):
    _seed_porto_lisbon(conn, embedder)
    hits = recall(conn, embedder, query, now=_at("2025-07-01"), touch=False)
    assert hits[0].memory.text == "I moved to Lisbon"
    assert hits[0].signals["slot_raw"] == 1.0 and hits[0].signals["slot"] > 0
    assert "I live in Porto" not in [h.memory.text for h in hits]  # superseded: history only
    anna = next(h for h in hits if "Anna" in h.memory.text)
    assert anna.signals["slot_raw"] == 0.0  # the sister's home, not the user's
    with_history = recall(conn, embedder, query, now=_at("2025-07-01"), touch=False, include_history=True)
    texts = [h.memory.text for h in with_history]
    assert texts[0] == "I moved to Lisbon" and "I live in Porto" in texts


def test_recall_slot_for_a_named_subject(conn, embedder):
    remember(conn, embedder, "Kai lives in Utrecht", now=_at("2025-01-10"))
    remember(conn, embedder, "I live in Porto", now=_at("2025-01-11"))
    for query in ("where does Kai live", "where does kai live now"):
        hits = recall(conn, embedder, query, now=_at("2025-02-01"), touch=False)
        assert hits[0].memory.text == "Kai lives in Utrecht" and hits[0].signals["slot_raw"] == 1.0
    porto = [h for h in hits if "Porto" in h.memory.text]
    assert all(h.signals["slot_raw"] == 0.0 for h in porto)


# ------------------------------------------------------------------ 2. employer and job
def test_work_as_at_fills_job_and_employer():
    assert find_slots("I work as a teacher at Northfield School", ["Northfield School"], _key) == [
        Slot("user", "works at", "northfield school"), Slot("user", "job", "teacher")]
    assert find_slots("I got a new job at Siemens as an engineer", ["Siemens"], _key) == [
        Slot("user", "works at", "siemens"), Slot("user", "job", "engineer")]


def test_new_job_supersedes_old_job(conn, embedder):
    remember(conn, embedder, "I work as a teacher at Northfield School", now=_at("2025-01-10"))
    change = remember(conn, embedder, "I got a new job at Siemens as an engineer", now=_at("2025-05-10"))
    assert change.action == "supersede"
    assert "'northfield school'" in change.reason and "'siemens'" in change.reason
    assert [m.text for m in list_memories(conn)] == ["I got a new job at Siemens as an engineer"]


# ------------------------------------------------------------------ 3. emoji between words
def test_emoji_does_not_hide_a_state():
    assert find_slots("I'm 🌱 vegan 🌱", [], _key) == [Slot("user", "diet", "vegan")]
    assert find_slots("I live in ✨Lisbon✨ now", [], _key) == [Slot("user", "lives in", "lisbon")]


def test_emoji_diet_supersedes(conn, embedder):
    remember(conn, embedder, "I'm vegetarian again", now=_at("2025-01-10"))
    change = remember(conn, embedder, "I'm 🌱 vegan 🌱", now=_at("2025-02-10"))
    assert change.action == "supersede"
    assert len(list_memories(conn)) == 1


# ------------------------------------------------------------------ 4. trimmed values
@pytest.mark.parametrize("text,slot", [
    ("I moved to Rotterdam last month", Slot("user", "lives in", "rotterdam")),
    ("I moved to Rotterdam in 2024", Slot("user", "lives in", "rotterdam")),
    ("I moved to Rotterdam two weeks ago", Slot("user", "lives in", "rotterdam")),
    ("I moved to Rotterdam yesterday", Slot("user", "lives in", "rotterdam")),
    ("I work at St. Luke's Hospital", Slot("user", "works at", "st luke's hospital")),
    ("I work at Acme Inc. in Berlin", Slot("user", "works at", "acme inc")),
    ("I work at Acme. It is fine", Slot("user", "works at", "acme")),
])
def test_values_trimmed(text, slot):
    assert slot in find_slots(text, [], _key)


def test_work_as_nurse_at_st_lukes():
    assert find_slots("I work as a nurse at St. Luke's", [], _key) == [
        Slot("user", "works at", "st luke's"), Slot("user", "job", "nurse")]


def test_supersede_reason_shows_trimmed_values(conn, embedder):
    remember(conn, embedder, "I live in Utrecht", now=_at("2025-01-10"))
    change = remember(conn, embedder, "I moved to Rotterdam last month", now=_at("2025-05-10"))
    assert change.action == "supersede"
    assert "to 'rotterdam'" in change.reason, change.reason


# ------------------------------------------------------------------ 5. late-imported history
def test_old_statement_imported_late_ends_where_the_next_state_begins(conn, embedder):
    rot = remember(conn, embedder, "Kai moved to Rotterdam", now=_at("2026-03-01")).memory
    ams = remember(conn, embedder, "Kai moved to Amsterdam", now=_at("2026-04-06")).memory
    change = remember(conn, embedder, "Kai lives in Utrecht",
                      now=_at("2025-12-01"), source="chat", source_ids=["c1"])
    old = change.memory
    assert change.action == "add" and old.superseded_by == rot.id
    assert old.valid_to == rot.valid_from  # not Amsterdam's: no overlap with Rotterdam
    assert "older than" in change.reason and "kept as history" in change.reason
    assert "changed from" not in change.reason
    assert [m.id for m in history(conn, ams.id)] == [old.id, rot.id, ams.id]


def test_old_statement_imported_late_fits_between_two_states(conn, embedder):
    porto = remember(conn, embedder, "Kai lives in Porto", now=_at("2025-06-01")).memory
    rot = remember(conn, embedder, "Kai moved to Rotterdam", now=_at("2026-03-01")).memory
    old = remember(conn, embedder, "Kai lives in Utrecht", now=_at("2025-12-01"), source="chat",
                   source_ids=["c1"]).memory
    assert [m.id for m in history(conn, rot.id)] == [porto.id, old.id, rot.id]
    porto = history(conn, rot.id)[0]
    assert porto.superseded_by == old.id and porto.valid_to == old.valid_from
    assert old.valid_to == rot.valid_from


def test_old_diet_statement_reason_reads_forwards(conn, embedder):
    remember(conn, embedder, "I'm vegan", now=_at("2026-03-01"))
    change = remember(conn, embedder, "I eat meat again", now=_at("2025-01-01"), source="chat",
                      source_ids=["c2"])
    assert change.action == "add"
    assert "'diet'" in change.reason and "'eats meat'" in change.reason
    assert "older than" in change.reason and "changed from 'vegan' to 'eats meat'" not in change.reason


# ------------------------------------------------------------------ 6. kinds from chats
@pytest.mark.parametrize("clause,kind", [
    ("I work as a nurse", "fact"),
    ("I work at Siemens", "fact"),
    ("I got a new job at Siemens", "fact"),
    ("I'm working on a side project", "project"),
    ("I'm building a treehouse", "project"),
])
def test_employment_is_a_fact_not_a_project(clause, kind):
    assert guess_kind(clause) == kind


def test_nurse_from_a_chat_is_a_fact():
    facts = extract_facts([Message("n1", "Mia", "I work as a nurse.", "2025-03-01T10:00:00")])
    assert [(f.text, f.kind) for f in facts.facts] == [("Mia works as a nurse.", "fact")]


# ------------------------------------------------------------------ 7. size limit
def test_remember_rejects_text_over_the_limit(conn, embedder):
    remember(conn, embedder, "I live in Porto", now=_at("2025-01-10"))
    with pytest.raises(ValueError, match=rf"{MAX_MEMORY_CHARS}"):
        remember(conn, embedder, "x" * (MAX_MEMORY_CHARS + 1), now=_at("2025-01-11"))
    assert [m.text for m in list_memories(conn)] == ["I live in Porto"]
    ok = remember(conn, embedder, "y " * (MAX_MEMORY_CHARS // 2), now=_at("2025-01-12"))
    assert ok.action == "add"


def test_cli_remember_too_long_is_a_clear_error(tmp_path):
    cmd = [sys.executable, "-m", "cairn.cli", "--home", str(tmp_path / "home"), "remember",
           "word " * 20000]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert r.returncode == 1
    assert str(MAX_MEMORY_CHARS) in r.stderr + r.stdout and "Traceback" not in r.stderr


def test_late_history_survives_a_reindex_from_the_vault(home, embedder):
    from cairn.service import Cairn
    with Cairn(home, embedder=embedder) as app:
        app.remember("Kai lives in Porto", at="2025-06-01T00:00:00+00:00")
        rot = app.remember("Kai moved to Rotterdam", at="2026-03-01T00:00:00+00:00").memory
        app.remember("Kai lives in Utrecht", at="2025-12-01T00:00:00+00:00")
        before = {m.id: m.to_json() for m in app.memories(include_inactive=True)}
        chain = [m.id for m in app.memory_history(rot.id)]
    (home / "index.db").unlink()
    for extra in ("index.db-wal", "index.db-shm"):
        (home / extra).unlink(missing_ok=True)
    with Cairn(home, embedder=embedder) as app:
        assert app.reindex().failed == []
        assert {m.id: m.to_json() for m in app.memories(include_inactive=True)} == before
        assert [m.id for m in app.memory_history(rot.id)] == chain and len(chain) == 3


def test_cli_recall_shows_the_slot_component(home, embedder):
    from cairn.service import Cairn
    with Cairn(home, embedder=embedder) as app:
        app.remember("I live in Porto", at="2025-01-10T00:00:00+00:00")
        app.remember("My sister Anna lives in Madrid", at="2025-01-11T00:00:00+00:00")
        app.remember("I moved to Lisbon", at="2025-06-01T00:00:00+00:00")
    cmd = [sys.executable, "-m", "cairn.cli", "--home", str(home), "recall", "where do I live",
           "--at", "2025-07-01T00:00:00+00:00"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    first = r.stdout.split("\n 2. ")[0]
    assert "I moved to Lisbon" in first and "slo 1.50" in first
    assert "Porto" not in r.stdout
