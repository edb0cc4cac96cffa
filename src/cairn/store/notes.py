"""Rows of the index: notes, their chunks (with keyword index rows) and links.

All functions take an open connection (`store.db.connect`) and plain values; writers expect
to run inside a transaction opened by the caller (`transaction`).
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterator

from cairn.model import Chunk, Link, input_source_of
from cairn.store.fts import index_text


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on any exception, which is re-raised). SQLite
    rolls a transaction back itself on some errors (SQLITE_FULL: a full disk); the original
    error is then re-raised, not "cannot rollback". A failed COMMIT is rolled back too."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@dataclass
class NoteRow:
    """A row of `notes` (JSON columns decoded)."""

    id: str
    path: str
    title: str
    type: str
    source: str | None
    source_hash: str | None
    file_hash: str
    body_hash: str
    mtime_ns: int
    size: int
    created: str | None
    updated: str | None
    event_time: str | None
    tags: list[str]
    aliases: list[str]
    meta: dict
    warnings: list[str]
    encoding: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> "NoteRow":
        d = dict(row)
        d.pop("indexed_at", None)
        for key in ("tags", "aliases", "warnings"):
            d[key] = json.loads(d[key])
        d["meta"] = json.loads(d["meta"])
        return cls(**d)

    def summary(self) -> dict:
        """{"id", "path", "title", "type", "tags", "created", "updated", "input_source"}: a
        note in a list (input_source: how it came in, cairn.model.input_source_of)."""
        return {"id": self.id, "path": self.path, "title": self.title, "type": self.type,
                "tags": self.tags, "created": self.created, "updated": self.updated,
                "input_source": input_source_of(self.meta, self.type)}

    def to_json(self) -> dict:
        """The JSON form of a note row: its `summary()`."""
        return self.summary()


def list_notes(conn: sqlite3.Connection, *, type: str | None = None, tag: str | None = None,
               limit: int = 50, offset: int = 0, person: str | None = None) -> tuple[int, list[NoteRow]]:
    """(total matching, one page of notes ordered by path). `tag` matches one element of the
    note's tags exactly (JSON array); `limit` rows from `offset`; person: only the notes that
    person owns or that are shared (cairn.people; None: all)."""
    where, args = [], []
    if person is not None:
        from cairn.store.keyword import OWNER_SQL
        where.append(OWNER_SQL.replace("n.meta", "notes.meta"))
        args.append(person.strip().casefold())  # as cairn.people.person_key
    if type:
        where.append("type = ?")
        args.append(type)
    if tag:
        where.append("EXISTS (SELECT 1 FROM json_each(notes.tags) WHERE json_each.value = ?)")
        args.append(tag)
    clause = (" WHERE " + " AND ".join(where)) if where else ""
    total = conn.execute(f"SELECT count(*) FROM notes{clause}", args).fetchone()[0]
    rows = conn.execute(f"SELECT * FROM notes{clause} ORDER BY path LIMIT ? OFFSET ?",
                        [*args, limit, offset]).fetchall()
    return total, [NoteRow.from_row(r) for r in rows]


def now_iso() -> str:
    """Current UTC time, ISO 8601 with seconds."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def get_note(conn: sqlite3.Connection, note_id: str) -> NoteRow | None:
    row = conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
    return NoteRow.from_row(row) if row else None


def get_note_by_path(conn: sqlite3.Connection, path: str) -> NoteRow | None:
    row = conn.execute("SELECT * FROM notes WHERE path = ?", (path,)).fetchone()
    return NoteRow.from_row(row) if row else None


def get_note_by_source(conn: sqlite3.Connection, source: str) -> NoteRow | None:
    row = conn.execute("SELECT * FROM notes WHERE source = ? ORDER BY path LIMIT 1", (source,)).fetchone()
    return NoteRow.from_row(row) if row else None


def get_note_by_source_hash(conn: sqlite3.Connection, source_hash: str, source_prefix: str) -> NoteRow | None:
    """A note made from bytes with sha256 `source_hash` whose source starts with
    `source_prefix` (a folder path ending in a separator), or None."""
    like = source_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    row = conn.execute("SELECT * FROM notes WHERE source_hash = ? AND source LIKE ? ESCAPE '\\' "
                       "ORDER BY path LIMIT 1", (source_hash, like)).fetchone()
    return NoteRow.from_row(row) if row else None


def upsert_note(conn: sqlite3.Connection, note: NoteRow) -> None:
    """Insert or update the note row (chunks are untouched)."""
    conn.execute(
        """INSERT INTO notes (id, path, title, type, source, source_hash, file_hash, body_hash,
               mtime_ns, size, created, updated, event_time, tags, aliases, meta, warnings,
               encoding, indexed_at)
           VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
           ON CONFLICT(id) DO UPDATE SET path=excluded.path, title=excluded.title,
               type=excluded.type, source=excluded.source, source_hash=excluded.source_hash,
               file_hash=excluded.file_hash, body_hash=excluded.body_hash,
               mtime_ns=excluded.mtime_ns, size=excluded.size, created=excluded.created,
               updated=excluded.updated, event_time=excluded.event_time, tags=excluded.tags,
               aliases=excluded.aliases, meta=excluded.meta, warnings=excluded.warnings,
               encoding=excluded.encoding, indexed_at=excluded.indexed_at""",
        (note.id, note.path, note.title, note.type, note.source, note.source_hash,
         note.file_hash, note.body_hash, note.mtime_ns, note.size, note.created, note.updated,
         note.event_time, json.dumps(note.tags, ensure_ascii=False),
         json.dumps(note.aliases, ensure_ascii=False), json.dumps(note.meta, ensure_ascii=False, default=str),
         json.dumps(note.warnings, ensure_ascii=False), note.encoding, now_iso()),
    )


def fact_texts(conn: sqlite3.Connection, note_id: str) -> dict[str, list[str]]:
    """{source_id: [fact text, ...]} stored for a note's messages (table fact_keys)."""
    return {r[0]: json.loads(r[1]) for r in conn.execute(
        "SELECT source_id, facts FROM fact_keys WHERE note_id = ?", (note_id,))}


def keyword_body(text: str, speaker: str | None, facts: list[str] | None = None) -> str:
    """The keyword row body of a chunk: "speaker: text" (or text), then its facts, one a line
    (fact-augmented key)."""
    body = text if not speaker else f"{speaker}: {text}"
    return body + "".join("\n" + f for f in facts or [])


def update_fts_metadata(conn: sqlite3.Connection, note_id: str, title: str, tags: list[str],
                        facts: dict[str, list[str]] | None = None) -> None:
    """Rewrite the title/tags columns of a note's keyword rows (body unchanged; `facts` as
    for `insert_chunks`)."""
    tag_text = index_text(" ".join(tags))
    rows = conn.execute(
        "SELECT c.id, c.text, c.speaker, c.source_id FROM chunks c WHERE c.note_id = ?", (note_id,)
    ).fetchall()
    for row in rows:
        body = keyword_body(row["text"], row["speaker"], (facts or {}).get(row["source_id"]))
        conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (row["id"],))
        conn.execute("INSERT INTO chunks_fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                     (row["id"], index_text(title), index_text(body), tag_text))


def chunk_total(conn: sqlite3.Connection, note_id: str) -> int:
    """How many chunks (passages) note `note_id` has in the index."""
    return conn.execute("SELECT COUNT(*) FROM chunks WHERE note_id = ?", (note_id,)).fetchone()[0]


def delete_chunks(conn: sqlite3.Connection, note_id: str) -> int:
    """Remove a note's chunks, their keyword rows and vectors. Returns the number removed."""
    ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE note_id = ?", (note_id,))]
    # Keep the vectors reusable for identical text re-inserted in this run (see vectors.py).
    conn.execute(
        """INSERT OR REPLACE INTO vector_cache(text_hash, model, vec)
           SELECT v.text_hash, v.model, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_id
           WHERE c.note_id = ?""", (note_id,))
    conn.executemany("DELETE FROM chunks_fts WHERE rowid = ?", [(i,) for i in ids])
    conn.executemany("DELETE FROM vectors WHERE chunk_id = ?", [(i,) for i in ids])
    conn.execute("DELETE FROM chunks WHERE note_id = ?", (note_id,))
    if ids:
        bump_vector_generation(conn)
    return len(ids)


def insert_chunks(conn: sqlite3.Connection, note_id: str, title: str, tags: list[str],
                  chunks: list[Chunk], facts: dict[str, list[str]] | None = None) -> list[int]:
    """Insert chunks and their keyword rows; returns the new chunk ids in order.

    facts: {source_id: [fact text]} appended to the matching chunks' keyword bodies
    (fact-augmented keys, see memory/keys.py); the chunk text itself stays the message.
    Chunk ids are never reused (a high-water mark in `meta` survives deletes and reindex):
    a reader holding a vector matrix from before an edit must not map an old vector onto
    the new chunk that took a deleted chunk's id (case B12, "orphan vector re-attached to
    a reused id")."""
    ids: list[int] = []
    if not chunks:
        return ids
    tag_text = index_text(" ".join(tags))
    title_text = index_text(title)
    row = conn.execute("SELECT value FROM meta WHERE key = 'chunk_id_hwm'").fetchone()
    top = conn.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
    next_id = max(int(row[0]) if row else 0, top) + 1
    for c in chunks:
        chunk_id = next_id
        next_id += 1
        conn.execute(
            """INSERT INTO chunks (id, note_id, ord, source_id, heading, text, start, "end", page,
                   speaker, event_time) VALUES (?,?,?,?,?,?,?,?,?,?,?)""",
            (chunk_id, note_id, c.ord, c.source_id, c.heading, c.text, c.start, c.end, c.page,
             c.speaker, c.event_time),
        )
        body = keyword_body(c.text, c.speaker, (facts or {}).get(c.source_id) if c.source_id else None)
        conn.execute("INSERT INTO chunks_fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                     (chunk_id, title_text, index_text(body), tag_text))
        ids.append(chunk_id)
    conn.execute("""INSERT INTO meta(key, value) VALUES ('chunk_id_hwm', ?)
                    ON CONFLICT(key) DO UPDATE SET value = excluded.value""", (str(next_id - 1),))
    return ids


def delete_note(conn: sqlite3.Connection, note_id: str) -> None:
    """Remove a note and everything derived from it (chunks, keyword rows, vectors, links)."""
    delete_chunks(conn, note_id)
    conn.execute("DELETE FROM links WHERE note_id = ?", (note_id,))
    conn.execute("DELETE FROM notes WHERE id = ?", (note_id,))


def update_stat(conn: sqlite3.Connection, note_id: str, mtime_ns: int, size: int) -> None:
    """Record a file's (mtime_ns, size) after its bytes were found unchanged, so the next
    reconcile skips it without reading it."""
    conn.execute("UPDATE notes SET mtime_ns = ?, size = ? WHERE id = ?", (mtime_ns, size, note_id))


def file_stats(conn: sqlite3.Connection) -> dict[str, tuple[str, int, int, str]]:
    """path -> (note id, mtime_ns, size, file_hash) for every indexed note (one query)."""
    return {r[0]: (r[1], r[2], r[3], r[4]) for r in
            conn.execute("SELECT path, id, mtime_ns, size, file_hash FROM notes")}


def ids_by_path(conn: sqlite3.Connection, paths: list[str]) -> dict[str, str]:
    """path -> note id for those of `paths` that are indexed (a query per 500 paths)."""
    out: dict[str, str] = {}
    for i in range(0, len(paths), 500):
        part = paths[i:i + 500]
        out.update((r[0], r[1]) for r in conn.execute(
            f"SELECT path, id FROM notes WHERE path IN ({','.join('?' * len(part))})", part))
    return out


def add_tombstone(conn: sqlite3.Connection, note: NoteRow, file_hash: str, trash_path: str | None) -> None:
    """Remember that `note` was deleted in the app (see migration 3)."""
    conn.execute(
        """INSERT OR REPLACE INTO tombstones (note_id, path, title, file_hash, source, source_hash,
               trash_path, deleted_at) VALUES (?,?,?,?,?,?,?,?)""",
        (note.id, note.path, note.title, file_hash, note.source, note.source_hash, trash_path, now_iso()))


def tombstoned_hashes(conn: sqlite3.Connection) -> set[str]:
    """file_hash of every deleted note."""
    return {r[0] for r in conn.execute("SELECT file_hash FROM tombstones")}


def is_tombstoned_source(conn: sqlite3.Connection, source: str, source_hash: str) -> bool:
    """True when a note made from exactly these source bytes was deleted in the app."""
    return conn.execute("SELECT 1 FROM tombstones WHERE source = ? AND source_hash = ?",
                        (source, source_hash)).fetchone() is not None


def clear_tombstone(conn: sqlite3.Connection, note_id: str) -> None:
    conn.execute("DELETE FROM tombstones WHERE note_id = ?", (note_id,))


def replace_links(conn: sqlite3.Connection, note_id: str, links: list[Link]) -> None:
    conn.execute("DELETE FROM links WHERE note_id = ?", (note_id,))
    conn.executemany(
        "INSERT INTO links (note_id, target, alias, anchor, embed, start) VALUES (?,?,?,?,?,?)",
        [(note_id, l.target, l.alias, l.anchor, int(l.embed), l.start) for l in links],
    )


def bump_vector_generation(conn: sqlite3.Connection) -> None:
    """Mark the in-memory/on-disk vector matrix caches stale."""
    conn.execute(
        """INSERT INTO meta(key, value) VALUES ('vector_generation', '1')
           ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"""
    )


def vector_generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'vector_generation'").fetchone()
    return int(row[0]) if row else 0


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Index health figures for `cairn status`."""
    q = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
    return {
        "notes": q("SELECT count(*) FROM notes"),
        "chunks": q("SELECT count(*) FROM chunks"),
        "embedded_chunks": q("SELECT count(*) FROM vectors"),
        "missing_keyword_rows": q(
            "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunks_fts f WHERE f.rowid = c.id)"),
        "missing_vectors": q(
            "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)"),
        "orphan_vectors": q(
            "SELECT count(*) FROM vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)"),
        "orphan_keyword_rows": q(
            "SELECT count(*) FROM chunks_fts f WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = f.rowid)"),
        "links": q("SELECT count(*) FROM links"),
    }


def recent_notes(conn: sqlite3.Connection, since: str, limit: int = 10) -> list[dict]:
    """Notes indexed at or after `since` (UTC ISO), newest first: [{"id", "path", "title"}]."""
    rows = conn.execute("SELECT id, path, title FROM notes WHERE indexed_at >= ? ORDER BY indexed_at DESC "
                        "LIMIT ?", (since, limit)).fetchall()
    return [{"id": r[0], "path": r[1], "title": r[2]} for r in rows]


def has_notes_under(conn: sqlite3.Connection, prefix: str) -> bool:
    """True when some note's vault path starts with `prefix` (a folder path ending in "/")."""
    return conn.execute("SELECT 1 FROM notes WHERE path >= ? AND path < ? LIMIT 1",
                        (prefix, prefix[:-1] + "0")).fetchone() is not None


def index_profile(conn: sqlite3.Connection, embed_max_chunks: int) -> dict:
    """What `cairn status` adds to `counts`: {"keyword_only_chunks": chunks past the
    per-note embedding limit, "notes_by_type": {type: n}, "vector_models": {model: n}}."""
    return {"keyword_only_chunks": conn.execute("SELECT count(*) FROM chunks WHERE ord >= ?",
                                                (embed_max_chunks,)).fetchone()[0],
            "notes_by_type": dict(conn.execute("SELECT type, count(*) FROM notes GROUP BY type").fetchall()),
            "vector_models": dict(conn.execute("SELECT model, count(*) FROM vectors GROUP BY model").fetchall())}


def note_aliases(conn: sqlite3.Connection) -> list[str]:
    """The `aliases` frontmatter (a JSON list) of every note that has some."""
    return [raw for (raw,) in conn.execute("SELECT aliases FROM notes WHERE aliases != '[]'")]


def message_rows(conn: sqlite3.Connection, note_id: str) -> list[sqlite3.Row]:
    """(source_id, speaker, text, event_time) of a chat note's messages, in order."""
    return conn.execute("SELECT source_id, speaker, text, event_time FROM chunks "
                        "WHERE note_id = ? AND source_id IS NOT NULL ORDER BY ord", (note_id,)).fetchall()


def chat_notes(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """(id, path, meta as JSON) of every chat note, by path."""
    return conn.execute("SELECT id, path, meta FROM notes WHERE type = 'chat' ORDER BY path").fetchall()


def clear_index(conn: sqlite3.Connection) -> None:
    """Empty notes, chunks, keyword rows, links, vectors and the entity graph (inside the caller's
    transaction), keeping every vector in the text-hash cache so a rebuild re-embeds nothing
    whose text is unchanged. Tombstones, jobs and the memory tables stay."""
    conn.execute("""INSERT OR REPLACE INTO vector_cache(text_hash, model, vec)
                    SELECT text_hash, model, vec FROM vectors""")
    for table in ("chunks_fts", "vectors", "links", "chunks", "notes"):
        conn.execute(f"DELETE FROM {table}")
    from cairn.store.graph import clear_graph  # derived from the notes: extracted again
    clear_graph(conn)


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "notes")  # PostgreSQL twins when conn is a PgConn (store/route.py)
