"""What Cairn last wrote into the vault for each outside source (table `vault_copies`,
migration 7), so re-ingest can tell a vault copy the person edited from its own output.

A write is recorded *before* the file is replaced, keeping the previous hash, so the bytes on
disk are one of the two recorded hashes whatever point a crash interrupts the write at.
"""

from __future__ import annotations

import sqlite3

from cairn.store.notes import now_iso, transaction


def record_write(conn: sqlite3.Connection, note_id: str, file_hash: str) -> None:
    """Record that Cairn is about to write the vault copy of `note_id` with bytes whose
    sha256 (hex) is `file_hash`; the hash recorded before is kept as `prev_hash`. Runs in its
    own transaction (commit before the file is written). Clears the conflict record."""
    with transaction(conn):
        conn.execute(
            """INSERT INTO vault_copies (note_id, file_hash, prev_hash, written_at)
               VALUES (?, ?, NULL, ?)
               ON CONFLICT(note_id) DO UPDATE SET
                   prev_hash = CASE WHEN vault_copies.file_hash = excluded.file_hash
                                    THEN vault_copies.prev_hash ELSE vault_copies.file_hash END,
                   file_hash = excluded.file_hash, written_at = excluded.written_at,
                   conflict_hash = NULL""",
            (note_id, file_hash, now_iso()))


def written_hashes(conn: sqlite3.Connection, note_id: str) -> set[str]:
    """sha256 hashes of the last one or two vault copies Cairn wrote for `note_id`; empty
    when none is recorded (a note ingested before migration 7, or an index rebuilt from a
    deleted index file)."""
    row = conn.execute("SELECT file_hash, prev_hash FROM vault_copies WHERE note_id = ?",
                       (note_id,)).fetchone()
    return {h for h in row if h} if row else set()


def record_conflict(conn: sqlite3.Connection, note_id: str, source_hash: str) -> None:
    """Record that the source version `source_hash` of note `note_id` was written beside
    the person's edited copy (a conflict copy), so it is not written there again."""
    with transaction(conn):
        conn.execute("UPDATE vault_copies SET conflict_hash = ? WHERE note_id = ?", (source_hash, note_id))


def conflict_hash(conn: sqlite3.Connection, note_id: str) -> str | None:
    """The source hash last recorded by `record_conflict` for `note_id` (None if none)."""
    row = conn.execute("SELECT conflict_hash FROM vault_copies WHERE note_id = ?", (note_id,)).fetchone()
    return row[0] if row else None


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "copies")  # PostgreSQL twins when conn is a PgConn (store/route.py)
