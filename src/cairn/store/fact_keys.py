"""Fact-augmented keys in the index (SQLite implementation): the facts stored per chat
message (`fact_keys`), and rewriting a message chunk's keyword row and dropping its vector
when its facts change (cairn.memory.keys decides which).
"""

from __future__ import annotations

import json
import sqlite3

from cairn.store.notes import now_iso


def message_chunks(conn: sqlite3.Connection, note_id: str) -> list[sqlite3.Row]:
    """(id, text, speaker, source_id) of every chunk of a note."""
    return conn.execute("SELECT id, text, speaker, source_id FROM chunks WHERE note_id = ?",
                        (note_id,)).fetchall()


def rekey_chunk(conn: sqlite3.Connection, chunk_id: int, title: str, body: str, tags: str) -> None:
    """Replace a chunk's keyword row (title, body, tags already tokenised: store.fts) and drop
    its vector, so the next embedding pass embeds its new key."""
    conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (chunk_id,))
    conn.execute("INSERT INTO chunks_fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                 (chunk_id, title, body, tags))
    conn.execute("DELETE FROM vectors WHERE chunk_id = ?", (chunk_id,))


def replace_fact_keys(conn: sqlite3.Connection, note_id: str, facts: dict[str, list[str]], method: str) -> None:
    """Replace the stored facts of a note: {source_id: [fact text]} (empty lists left out)."""
    conn.execute("DELETE FROM fact_keys WHERE note_id = ?", (note_id,))
    conn.executemany(
        "INSERT INTO fact_keys(note_id, source_id, facts, method, updated) VALUES (?,?,?,?,?)",
        [(note_id, sid, json.dumps(texts, ensure_ascii=False), method, now_iso())
         for sid, texts in facts.items() if texts])


def notes_with_fact_keys(conn: sqlite3.Connection) -> list[str]:
    """Ids of the notes that have stored facts."""
    return [r[0] for r in conn.execute("SELECT DISTINCT note_id FROM fact_keys")]


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "fact_keys")  # PostgreSQL twins when conn is a PgConn (store/route.py)
