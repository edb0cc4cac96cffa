"""Fact-augmented keys for the conversation archive ("key = value + fact", from LongMemEval,
Wu et al. 2024: indexing each round together with facts extracted from it lifted recall
over the round alone; on LoCoMo dev, rule facts lift Cairn's hybrid evidence hit@10 from
0.730 to 0.789, bench/README.md).

Each chat message (a chunk with a `source_id`) is indexed under a key made of the message
and the facts extracted from it: its keyword row body is "speaker: text" plus one fact a
line (`store.notes.keyword_body`) and its embedding text likewise (`ingest.embed_text`).
The chunk text, and so every snippet and citation, stays the message itself.

Facts live in table `fact_keys` (note_id, source_id) -> JSON list of fact texts. They are
derived data: `cairn reindex` keeps them (the table has no foreign key to notes and is not
wiped) and re-applies them to the rebuilt rows; a deleted index loses them and `cairn
extract` rebuilds them from the vault's chat notes. `[memory] fact_keys = false` keeps the
facts stored but indexes messages alone.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from cairn.memory.extract_model import ExtractedFact
from cairn.store import fact_keys as K
from cairn.store import notes as N
from cairn.store.fts import index_text
from cairn.store.vectors import release_vectors


@dataclass
class KeyUpdate:
    """What `store_fact_keys` changed: messages with facts stored, chunks whose keys were
    rewritten (their vectors dropped, so `embed_missing` re-embeds them)."""

    messages_with_facts: int = 0
    rewritten_chunks: int = 0


def facts_by_source(facts: list[ExtractedFact]) -> dict[str, list[str]]:
    """{source_id: [fact text, ...]}: each fact goes to every message it came from."""
    out: dict[str, list[str]] = {}
    for f in facts:
        for sid in f.source_ids:
            bucket = out.setdefault(str(sid), [])
            if f.text not in bucket:
                bucket.append(f.text)
    return out


def _rewrite(conn: sqlite3.Connection, note_id: str, old: dict[str, list[str]],
             new: dict[str, list[str]]) -> int:
    """Rewrite keyword rows and drop vectors of the note's chunks whose facts changed."""
    note = N.get_note(conn, note_id)
    if note is None:
        return 0
    changed = {sid for sid in set(old) | set(new) if old.get(sid, []) != new.get(sid, [])}
    if not changed:
        return 0
    title, tags = index_text(note.title), index_text(" ".join(note.tags))
    n = 0
    others = []
    for row in K.message_chunks(conn, note_id):
        if row["source_id"] not in changed:
            others.append(row["id"])
            continue
        body = N.keyword_body(row["text"], row["speaker"], new.get(row["source_id"]))
        K.rekey_chunk(conn, row["id"], title, index_text(body), tags)
        n += 1
    if n:
        # A neighbour-carrying key (ingest/neighbours.py) holds the messages around it:
        # the other messages go to the text-hash cache, so those whose key is unchanged get
        # their vector back and the neighbours of a rewritten message are embedded again.
        release_vectors(conn, others)
        N.bump_vector_generation(conn)
    return n


def store_fact_keys(conn: sqlite3.Connection, note_id: str, facts: dict[str, list[str]],
                    method: str, *, apply: bool = True) -> KeyUpdate:
    """Replace the stored facts of note `note_id` with `facts` ({source_id: [text]}), in one
    transaction. apply: also rewrite the affected keyword rows and drop their vectors (pass
    the `[memory] fact_keys` setting). Call `ingest.embed_missing` afterwards."""
    with N.transaction(conn):
        old = N.fact_texts(conn, note_id)
        K.replace_fact_keys(conn, note_id, facts, method)
        rewritten = _rewrite(conn, note_id, old, facts) if apply else 0
    return KeyUpdate(sum(1 for t in facts.values() if t), rewritten)


def apply_setting(conn: sqlite3.Connection, enabled: bool) -> int:
    """Bring every chat note's keys in line with the setting: with `enabled`, message + its
    stored facts; without, the message alone. Returns the chunks rewritten (re-embed them
    with `embed_missing(..., fact_keys=enabled)`)."""
    total = 0
    note_ids = K.notes_with_fact_keys(conn)
    with N.transaction(conn):
        for note_id in note_ids:
            stored = N.fact_texts(conn, note_id)
            old, new = ({}, stored) if enabled else (stored, {})
            total += _rewrite(conn, note_id, old, new)
    return total
