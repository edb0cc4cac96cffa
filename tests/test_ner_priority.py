"""graph.update runs spaCy beside the embedder in a thread of lower priority (NER_NICE): the
same entities, the caller's own priority untouched, an error reaches the caller."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from conftest import HashEmbedder, notes_app
from cairn import ner
from cairn.graph import update as U

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's niceness is its own on Linux only")

TEXTS = ["Jo Price fixed the tap in Leeds with Kev.", "Nothing here has a name at all."]


def _priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _watch_spacy(monkeypatch) -> list[tuple[int, int]]:
    """(thread id, priority) of each spaCy call from now on, in a list filled as they come."""
    real, seen = ner.entities_many, []

    def spy(texts):
        seen.append((threading.get_native_id(), _priority()))
        return real(texts)

    monkeypatch.setattr(ner, "entities_many", spy)
    return seen


def test_spacy_in_a_niced_thread_finds_the_same_names_and_leaves_the_caller_as_it_was(monkeypatch):
    seen = _watch_spacy(monkeypatch)
    base = _priority()
    plain = U._entities(TEXTS, None, 0)
    niced = U._entities(TEXTS, None, 5)
    assert niced == plain
    assert ("Jo Price", "PERSON") in [(e.text, e.label) for e in niced[0]]
    me = threading.get_native_id()
    assert seen[0] == (me, base)  # nice=0: in the caller's thread, at its priority
    assert seen[1][0] != me and seen[1][1] == min(19, base + 5)
    assert _priority() == base


def test_an_ingest_runs_spacy_beside_the_embedder_at_lower_priority(monkeypatch, tmp_path):
    seen = _watch_spacy(monkeypatch)
    base = _priority()
    with notes_app(tmp_path, {"visit.md": "# Visit\n\nJo Price came to Leeds with Ana Lima.\n"}, HashEmbedder()) as app:
        names = {e["name"] for e in app.entities()}
    assert {"Jo Price", "Ana Lima"} <= names
    assert seen and all(tid != threading.get_native_id() and p == min(19, base + U.NER_NICE) for tid, p in seen)


def test_an_error_in_the_niced_thread_reaches_the_caller(monkeypatch):
    def broken(texts):
        raise RuntimeError("spaCy broke")

    monkeypatch.setattr(ner, "entities_many", broken)
    with pytest.raises(RuntimeError, match="spaCy broke"):
        U._entities(TEXTS, None, 5)


def test_preload_loads_the_model_once_in_a_thread_of_its_own(monkeypatch):
    loads, started = [], []
    monkeypatch.setattr(ner, "_backend", None)
    monkeypatch.setattr(ner, "_preloading", False)
    monkeypatch.setattr(ner, "_load", lambda: loads.append(threading.current_thread().name))
    real_thread = threading.Thread

    def thread(*a, **kw):
        t = real_thread(*a, **kw)
        started.append(t)
        return t
    monkeypatch.setattr(threading, "Thread", thread)
    ner.preload()
    ner.preload()  # loading already: nothing more
    for t in started:
        t.join(5)
    assert loads == ["cairn-ner-preload"] and len(started) == 1
    monkeypatch.setattr(ner, "_backend", "spacy")
    ner.preload()  # loaded: nothing
    assert len(started) == 1
