"""Importing a chat again after the person superseded (or forgot) a fact extracted from it:
the import completes, the superseded fact does not come back, nothing is lost, and a
failure in the memory step never leaves messages without vectors."""

from __future__ import annotations

import pytest

from conftest import write_jsonl

ROWS = [
    {"conversation": "friends", "session": "2025-05", "id": "m1", "speaker": "Priya",
     "time": "2025-05-03T09:00:00Z", "text": "I love cold-water swimming, it's the best part of my week."},
    {"conversation": "friends", "session": "2025-05", "id": "m2", "speaker": "Tom",
     "time": "2025-05-04T09:00:00Z", "text": "I hate cold water, you couldn't pay me to get in."},
    {"conversation": "friends", "session": "2025-05", "id": "m3", "speaker": "Tom",
     "time": "2025-05-06T09:00:00Z", "text": "My daughter Ellie started learning the violin."},
]


def _chat(tmp_path, rows=ROWS, name="chat.jsonl"):
    return write_jsonl(tmp_path / name, rows)


def _cold(app, **kw):
    return [m for m in app.memories(**kw) if "cold water" in m.text and m.text.startswith("Tom")]


def test_reimport_after_remember_superseded_an_extracted_fact(app, tmp_path):
    chat = _chat(tmp_path)
    app.import_chat(chat)
    [hates] = _cold(app)
    assert "hates" in hates.text
    change = app.remember("Tom loves cold water")
    assert change.action == "supersede" and change.previous.id == hates.id
    everything = {m.id: m for m in app.memories(include_inactive=True)}

    report = app.import_chat(chat)  # crashed with UNIQUE constraint failed: memories.id
    assert report.extractions[0].memories.get("none") == len(report.extractions[0].result.facts)
    again = app.extract("friends")
    assert all(set(e.memories) == {"none"} for e in again)

    [current] = _cold(app)
    assert current.text == "Tom loves cold water"  # the superseded fact is not current again
    after = {m.id: m for m in app.memories(include_inactive=True)}
    assert set(after) == set(everything)  # nothing added, nothing lost
    assert after[hates.id].superseded_by == current.id
    assert app.status()["missing_vectors"] == 0


def test_reimport_after_forget_does_not_restore_the_fact(app, tmp_path):
    chat = _chat(tmp_path)
    app.import_chat(chat)
    [hates] = _cold(app)
    app.forget(hates.id)
    app.import_chat(chat)
    assert _cold(app) == []
    assert app.memory_history(hates.id)[0].tombstone


def test_an_old_chat_imported_after_remember_never_supersedes_the_newer_statement(app, tmp_path):
    newer = app.remember("Tom loves cold water")  # said now, after the chat below
    report = app.import_chat(_chat(tmp_path))
    [current] = _cold(app)
    assert current.id == newer.memory.id
    old = [m for m in _cold(app, include_inactive=True) if m.id != newer.memory.id]
    assert len(old) == 1 and "hates" in old[0].text  # kept, as history
    assert old[0].superseded_by == newer.memory.id and old[0].valid_to == newer.memory.created
    assert "older than" in old[0].log[0]["reason"] and "kept as history" in old[0].log[0]["reason"]
    assert sum(e.memories.get("supersede", 0) for e in report.extractions) == 0
    assert [m.id for m in app.memory_history(old[0].id)] == [old[0].id, newer.memory.id]


def test_the_same_remember_at_the_same_time_after_supersession_changes_nothing(app):
    first = app.remember("Ana lives in Porto", at="2024-01-01T10:00:00+00:00")
    app.remember("Ana lives in Lisbon", at="2024-06-01T10:00:00+00:00")
    again = app.remember("Ana lives in Porto", at="2024-01-01T10:00:00+00:00")
    assert again.action == "none" and again.memory.id == first.memory.id
    assert "superseded by" in again.reason
    assert [m.text for m in app.memories()] == ["Ana lives in Lisbon"]


class Boom(RuntimeError):
    pass


def _fail(*_a, **_k):
    raise Boom("memory step failed")


def test_failing_memory_step_on_import_leaves_no_missing_vectors(app, tmp_path, monkeypatch):
    monkeypatch.setattr(app, "_remember_facts", _fail)
    with pytest.raises(Boom):
        app.import_chat(_chat(tmp_path))
    status = app.status()
    assert status["chunks"] == 3 and status["missing_vectors"] == 0


def test_failing_memory_step_on_extract_leaves_no_missing_vectors(app, tmp_path, monkeypatch):
    app.import_chat(_chat(tmp_path), extract=False)
    monkeypatch.setattr(app, "_remember_facts", _fail)
    with pytest.raises(Boom):
        app.extract()  # the fact keys rewrite the messages' rows and drop their vectors
    rows = app.conn.execute("SELECT COUNT(*) FROM fact_keys").fetchone()[0]
    assert rows > 0 and app.status()["missing_vectors"] == 0
