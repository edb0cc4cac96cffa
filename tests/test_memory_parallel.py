"""Parallel `remember` on one home (session 29): the stamp of a statement is read under the
store's write lock, so the statement committed last is the current memory and the history
runs in commit order; a late-imported statement's history reason names the memory it was
compared with."""

from __future__ import annotations

import contextlib
import threading
from datetime import datetime, timezone

import pytest

import cairn.memory.store as store
from cairn.memory import history, list_memories, remember
from cairn.store import db


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=timezone.utc)


class _LockedEmbedder:
    """The shared real embedder, one call at a time (threads share it)."""

    def __init__(self, inner):
        self.inner, self.model_name, self._lock = inner, inner.model_name, threading.Lock()

    def embed(self, texts):
        with self._lock:
            return self.inner.embed(texts)


def test_parallel_remembers_current_is_last_committed(tmp_path, monkeypatch, real_embedder):
    """One writer is held after `remember` is called and before it takes the lock (on the
    old code: after it was stamped); three others write meanwhile, in parallel. The held one
    commits last, so it must be the current memory, and the chain must be the commit order
    with each step's reason naming the memory it replaced."""
    path = tmp_path / "home" / "index.db"
    path.parent.mkdir(parents=True)
    emb = _LockedEmbedder(real_embedder)
    first = db.connect(path)
    start = remember(first, emb, "I live in Parma").memory
    first.close()

    real_transaction = store.transaction
    held_waiting, go = threading.Event(), threading.Event()
    committed: list[str] = []
    order_lock = threading.Lock()

    @contextlib.contextmanager
    def hooked(conn):
        if threading.current_thread().name == "held":
            held_waiting.set()
            assert go.wait(60)
        with real_transaction(conn) as c:
            yield c
            with order_lock:  # still inside the write lock: the order of commits
                committed.append(threading.current_thread().name)

    monkeypatch.setattr(store, "transaction", hooked)
    results: dict[str, str] = {}
    errors: list[BaseException] = []

    def run(city: str) -> None:
        try:
            conn = db.connect(path)
            try:
                results[threading.current_thread().name] = remember(conn, emb, f"I live in {city}").memory.id
            finally:
                conn.close()
        except BaseException as exc:  # noqa: BLE001 — reported below
            errors.append(exc)

    held = threading.Thread(target=run, args=("Lyon",), name="held")
    held.start()
    assert held_waiting.wait(60)
    others = [threading.Thread(target=run, args=(c,), name=c) for c in ("Turku", "Cork", "Braga")]
    for t in others:
        t.start()
    for t in others:
        t.join(120)
    go.set()
    held.join(120)
    assert not errors, errors
    assert committed[-1] == "held"

    conn = db.connect(path)
    try:
        active = list_memories(conn)
        assert [m.id for m in active] == [results["held"]], [m.text for m in active]
        chain = history(conn, results["held"])
        assert [m.id for m in chain] == [start.id, *(results[n] for n in committed)]
        assert [m.created for m in chain] == sorted(m.created for m in chain)
        for before, after in zip(chain, chain[1:]):
            assert before.superseded_by == after.id and before.valid_to == after.valid_from
            assert after.log[0]["action"] == "supersede" and after.log[0]["replaces"] == before.id
            assert before.id in after.log[0]["reason"], after.log[0]["reason"]
    finally:
        conn.close()


def test_late_history_reason_names_the_memory_compared(tmp_path, real_embedder):
    """An old 'I hate Thai food' is compared with the current 'I love Thai food' (B) and put
    before the earlier state 'I can't stand Thai food' (A): its reason names B as the memory
    compared, not A, which does not contradict it."""
    conn = db.connect(tmp_path / "index.db")
    try:
        a = remember(conn, real_embedder, "I can't stand Thai food", now=_at("2026-02-01")).memory
        b = remember(conn, real_embedder, "I love Thai food", now=_at("2026-04-01")).memory
        change = remember(conn, real_embedder, "I hate Thai food", now=_at("2026-01-01"),
                          source="chat", source_ids=["c1"])
        assert change.action == "add" and change.memory.superseded_by == a.id
        assert [m.id for m in history(conn, b.id)] == [change.memory.id, a.id, b.id]
        assert f"older than {a.id}" in change.reason
        assert f"compared with {b.id}: opposite sentiment" in change.reason, change.reason
    finally:
        conn.close()


@pytest.mark.parametrize("kwargs,message", [
    ({"impact": 11}, "impact must be an integer between -10 and 10"),
    ({"tags": ["nope"]}, "unknown tag 'nope'"),
])
def test_bad_weight_is_refused_before_the_lock(tmp_path, monkeypatch, real_embedder, kwargs, message):
    """A bad impact or tag is a clear error raised before the write lock is taken."""
    conn = db.connect(tmp_path / "index.db")
    taken = []
    real_transaction = store.transaction

    @contextlib.contextmanager
    def spy(c):
        taken.append(1)
        with real_transaction(c) as x:
            yield x

    monkeypatch.setattr(store, "transaction", spy)
    try:
        with pytest.raises(ValueError, match=message):
            remember(conn, real_embedder, "I live in Parma", **kwargs)
        assert taken == [] and list_memories(conn, include_inactive=True) == []
    finally:
        conn.close()
