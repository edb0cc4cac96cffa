"""Bring the entity graph in line with the notes: extract entities of every note whose
file changed since its last extraction (graph_state), link them to the canonical entity
table (memory/entities.py: one entity per folded alias), replace the note's mentions and
update co-occurrence counts (pairs of one unit, dated by the unit's time).

spaCy is loaded once per process (cairn/ner.py) and run over BATCH notes at a time.
Measured cost: bench/README.md (issue 17 section).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
import threading
from collections import Counter
from itertools import combinations

from cairn.graph import extract as X
from cairn.memory import entities as E
from cairn.store import graph as G
from cairn.store import notes as N

log = logging.getLogger("cairn.graph")
BATCH = 64
NER_NICE = 10
"""Niceness added to the thread spaCy runs in while an ingest embeds (`update_graph(nice=)`,
from ingest.embedding): on two cores the embedder's two onnxruntime threads and spaCy's
thread compete, and a run of the embedder waits for whichever of its threads got no core,
so spaCy at the same priority slows the embedding by more than its own CPU. Niced, it takes
the cores' idle moments instead. Linux only (a thread's niceness is its own there).
Measured by bench/ingest_profile.py --ab ner_nice (bench/README.md, "Session 17 — ingest")."""


def _pairs(units: dict[str, list[str]], whole: list[str]) -> Counter:
    out: Counter = Counter()
    for unit, ids in units.items():
        ids = list(dict.fromkeys(ids + (whole if unit else [])))[:X.MAX_PER_UNIT]
        for a, b in combinations(sorted(set(ids)), 2):
            out[(a, b)] += 1
    return out


def _unit_entities(conn: sqlite3.Connection, note_id: str) -> tuple[dict[str, list[str]], list[str]]:
    units: dict[str, list[str]] = {}
    for source_id, eid in G.mentions_of_note(conn, note_id):
        units.setdefault(source_id, []).append(eid)
    return units, units.get("", [])


def update_graph(conn: sqlite3.Connection, use_ner: bool = True, entities_many=None, *, nice: int = 0) -> int:
    """Extract entities of every stale note (new or changed file); returns how many notes
    were processed. use_ner=False skips spaCy (structural names only). entities_many: the
    function that runs spaCy over a list of texts (default cairn.ner.entities_many, in this
    process; the ingest passes parse.pool.ParsePool.entities_many so that spaCy's model
    lives in a parse worker, not in the ingest process). When that function fails, the batch
    is run here instead, with a warning in the log. nice: > 0 runs spaCy in this process in a
    thread of that much lower priority (NER_NICE; the caller is waiting for it either way)."""
    done = 0
    if not G.has_state(conn):
        G.reset_cooccur(conn)  # rebuilt index (reindex): counts start over
    while True:
        notes = G.stale_notes(conn, BATCH)
        if not notes:
            return done
        prepared = []
        pieces: list[str] = []
        for note in notes:
            chunks = G.note_chunks(conn, note["id"])
            found = X.structural(note, G.note_link_targets(conn, note["id"]), chunks)
            units = X.ner_units(note, chunks) if use_ner else []
            prepared.append((note, chunks, found, units, len(pieces)))
            pieces.extend(t for _, t in units)
        ents = []
        if pieces:
            ents = _entities(pieces, entities_many, nice)
        with N.transaction(conn):
            for note, chunks, found, units, start in prepared:
                for i, (unit, text) in enumerate(units):
                    X.add_ner(found, unit, ents[start + i], text)
                if use_ner:
                    for unit, text in X.written_units(note, chunks):
                        X.add_written(found, unit, text)
                        X.add_tech(found, unit, text)
                _apply(conn, note, chunks, X.capped(found))
                done += 1


def _entities(pieces: list[str], entities_many, nice: int = 0) -> list:
    if entities_many is not None:
        try:
            return entities_many(pieces)
        except Exception as exc:  # noqa: BLE001 - a dead or failing worker: do it here
            log.warning("entity extraction in the parse worker failed (%s); running it in this process", exc)
    from cairn import ner
    if nice > 0 and sys.platform.startswith("linux"):
        return _in_niced_thread(lambda: ner.entities_many(pieces), nice)
    return ner.entities_many(pieces)


def _in_niced_thread(fn, nice: int):
    """fn() in a new thread whose niceness is raised by `nice` (Linux: per thread; the
    thread ends with fn, so nothing else runs at that priority); its result or exception."""
    box: dict = {}

    def run() -> None:
        try:
            tid = threading.get_native_id()
            try:
                os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)
            except OSError:
                pass  # not allowed here: run at the caller's priority
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
            box["error"] = exc

    t = threading.Thread(target=run, name="cairn-ner", daemon=True)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _apply(conn: sqlite3.Connection, note, chunks, found: X.Found) -> None:
    old_units, old_whole = _unit_entities(conn, note["id"])
    old_pairs = _pairs(old_units, old_whole)
    rows, new_units = [], {}
    for unit, counts in found.units.items():
        for name, n in counts.items():
            try:
                eid = E.ensure_entity(conn, name, found.kind[name])
            except ValueError:
                continue
            rows.append((unit, eid, found.method[name], n))
            new_units.setdefault(unit, []).append(eid)
    G.replace_mentions(conn, note["id"], note["file_hash"], rows)
    times = {c["source_id"]: c["event_time"] for c in chunks if c["source_id"]}
    new_pairs = _pairs(new_units, new_units.get("", []))
    if old_pairs:
        G.add_cooccur(conn, dict(old_pairs), {}, sign=-1)
    when = {}
    for unit, ids in new_units.items():
        t = (times.get(unit) if unit else None) or note["t"]
        for pair in combinations(sorted(set(ids)), 2):
            when.setdefault(pair, t)
    G.add_cooccur(conn, dict(new_pairs), when)
