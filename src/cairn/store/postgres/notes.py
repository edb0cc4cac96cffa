"""Notes, chunks (with their tsvector keyword rows), tombstones, vault-copy hashes and
links on PostgreSQL: the twins of store/notes.py, store/copies.py and store/links.py, with
the same names, parameters and results (rows are session.Row). Writers run inside the
caller's transaction (`PostgresBackend.transaction()`), or alone when there is none.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cairn.model import Chunk, Link
from cairn.store.fts import index_text
from cairn.store.notes import NoteRow, keyword_body, now_iso

# The text search configuration of chunk keyword rows: `cairn` (schema migration 5), the
# default parser with the original Porter stemmer and no stop words, as SQLite's FTS5
# `porter unicode61` tokenizer (see the package docstring for CJK). Memories keep `english`
# (Snowball English with stop words; MEMORY_TS_CONFIG).
TS_CONFIG = "cairn"
MEMORY_TS_CONFIG = "english"
TSV_SQL = (f"setweight(to_tsvector('{TS_CONFIG}', %s), 'A') || setweight(to_tsvector('{TS_CONFIG}', %s), 'B')"
           f" || setweight(to_tsvector('{TS_CONFIG}', %s), 'C')")
# A note visible to the person bound to `%s` (cairn.people): their own, or shared.
# compared as cairn.people.person_key folds it (the bound value is the key)
OWNER_SQL = ("(lower(btrim(coalesce(n.meta::jsonb ->> 'cairn_owner', ''))) = %s "
             "OR (n.meta::jsonb -> 'shared') = 'true'::jsonb)")
_NOTE_COLS = ("id, path, title, type, source, source_hash, file_hash, body_hash, mtime_ns, size, created, "
              "updated, event_time, tags, aliases, meta, warnings, encoding")


_TOKEN = re.compile(r"[^\W_]+")


def token_count(*texts: str) -> int:
    """Tokens of keyword-row texts as FTS5's unicode61 counts them (runs of letters and
    digits; CJK already one character per token by index_text)."""
    return sum(len(_TOKEN.findall(t)) for t in texts)


def kw_words(text: str) -> str:
    """The text as FTS5's unicode61 tokenizer splits it, words joined by single spaces: what
    goes to to_tsvector, so PostgreSQL's parser sees plain words and never keeps "a.b",
    "k8s-prod" or "x@y.z" whole where FTS5 (and store.fts's phrase queries) see two words."""
    return " ".join(_TOKEN.findall(text))


def _note(row) -> NoteRow | None:
    if row is None:
        return None
    d = dict(zip(row.keys(), row))
    for key in ("tags", "aliases", "warnings", "meta"):
        d[key] = json.loads(d[key])
    return NoteRow(**d)


def get_note(conn, note_id: str) -> NoteRow | None:
    return _note(conn.execute(f"SELECT {_NOTE_COLS} FROM notes WHERE id = %s", (note_id,)).fetchone())


def get_note_by_path(conn, path: str) -> NoteRow | None:
    return _note(conn.execute(f"SELECT {_NOTE_COLS} FROM notes WHERE path = %s", (path,)).fetchone())


def get_note_by_source(conn, source: str) -> NoteRow | None:
    return _note(conn.execute(f"SELECT {_NOTE_COLS} FROM notes WHERE source = %s ORDER BY path LIMIT 1",
                              (source,)).fetchone())


def list_notes(conn, *, type: str | None = None, tag: str | None = None, limit: int = 50,
               offset: int = 0, person: str | None = None) -> tuple[int, list[NoteRow]]:
    """(total matching, one page of notes ordered by path); as store.notes.list_notes."""
    where, args = [], []
    if person is not None:
        where.append(OWNER_SQL.replace("n.meta", "notes.meta"))
        args.append(person.strip().casefold())  # as cairn.people.person_key
    if type:
        where.append("type = %s")
        args.append(type)
    if tag:
        where.append("EXISTS (SELECT 1 FROM jsonb_array_elements_text(notes.tags::jsonb) t WHERE t = %s)")
        args.append(tag)
    clause = (" WHERE " + " AND ".join(where)) if where else ""
    total = conn.execute(f"SELECT count(*) FROM notes{clause}", args).fetchone()[0]
    rows = conn.execute(f"SELECT {_NOTE_COLS} FROM notes{clause} ORDER BY path COLLATE \"C\" LIMIT %s OFFSET %s",
                        [*args, limit, offset]).fetchall()
    return total, [_note(r) for r in rows]


def upsert_note(conn, note: NoteRow) -> None:
    """Insert or update the note row (chunks are untouched)."""
    cols = _NOTE_COLS + ", indexed_at"
    sets = ", ".join(f"{c} = excluded.{c}" for c in cols.split(", ")[1:])
    conn.execute(
        f"INSERT INTO notes ({cols}) VALUES ({', '.join(['%s'] * 19)}) ON CONFLICT (id) DO UPDATE SET {sets}",
        (note.id, note.path, note.title, note.type, note.source, note.source_hash, note.file_hash,
         note.body_hash, note.mtime_ns, note.size, note.created, note.updated, note.event_time,
         json.dumps(note.tags, ensure_ascii=False), json.dumps(note.aliases, ensure_ascii=False),
         json.dumps(note.meta, ensure_ascii=False, default=str), json.dumps(note.warnings, ensure_ascii=False),
         note.encoding, now_iso()))


def insert_chunks(conn, note_id: str, title: str, tags: list[str], chunks: list[Chunk],
                  facts: dict[str, list[str]] | None = None) -> list[int]:
    """Insert chunks with their keyword rows; the new chunk ids in order (an identity
    sequence: ids are never reused). facts as in store.notes.insert_chunks."""
    if not chunks:
        return []
    rows = [chunk_fields(title, tags, c, facts) for c in chunks]
    # One statement for the whole note: one round trip, and the kw_stats trigger
    # (schema migration 4) fires once per note, not once per chunk.
    cols = [list(col) for col in zip(*rows)]
    got = conn.execute(INSERT_CHUNKS_SQL, (note_id, rows[0][10], *cols[:10], cols[11], cols[12])).fetchall()
    return sorted(r[0] for r in got)  # identity values are drawn in the rows' order


def chunk_fields(title: str, tags: list[str], chunk: Chunk, facts: dict[str, list[str]] | None = None) -> tuple:
    """The columns a chunk is written with: (ord, source_id, heading, text, start, end, page,
    speaker, event_time, kw_len, title words, body words, tag words), the keyword texts
    (title, the body with the speaker and the message's facts, tags) split as `kw_words`
    splits them and kw_len their token count. Ordinary writes (`insert_chunks`) and bulk
    loads (bulk.chunk_row) both use it."""
    title_text, tag_text = index_text(title), index_text(" ".join(tags))
    body = index_text(keyword_body(chunk.text, chunk.speaker,
                                   (facts or {}).get(chunk.source_id) if chunk.source_id else None))
    return (chunk.ord, chunk.source_id, chunk.heading, chunk.text, chunk.start, chunk.end, chunk.page,
            chunk.speaker, chunk.event_time, token_count(title_text, body, tag_text),
            kw_words(title_text), kw_words(body), kw_words(tag_text))


# Rows of one note as parallel arrays (unnest keeps them aligned and in order).
INSERT_CHUNKS_SQL = f"""
INSERT INTO chunks (note_id, ord, source_id, heading, text, start, "end", page, speaker, event_time, kw_len, tsv)
SELECT %s, t.ord, t.source_id, t.heading, t.text, t.start, t."end", t.page, t.speaker, t.event_time, t.kw_len,
       setweight(to_tsvector('{TS_CONFIG}', %s), 'A') || setweight(to_tsvector('{TS_CONFIG}', t.body), 'B')
       || setweight(to_tsvector('{TS_CONFIG}', t.tags), 'C')
FROM unnest(%s::int[], %s::text[], %s::text[], %s::text[], %s::int[], %s::int[], %s::int[], %s::text[],
            %s::text[], %s::int[], %s::text[], %s::text[])
     AS t(ord, source_id, heading, text, start, "end", page, speaker, event_time, kw_len, body, tags)
RETURNING id"""


def update_fts_metadata(conn, note_id: str, title: str, tags: list[str],
                        facts: dict[str, list[str]] | None = None) -> None:
    """Rewrite the keyword rows of a note's chunks for a new title/tags."""
    tag_text, title_text = index_text(" ".join(tags)), index_text(title)
    for row in conn.execute("SELECT id, text, speaker, source_id FROM chunks WHERE note_id = %s",
                            (note_id,)).fetchall():
        body = index_text(keyword_body(row["text"], row["speaker"], (facts or {}).get(row["source_id"])))
        conn.execute(f"UPDATE chunks SET kw_len = %s, tsv = {TSV_SQL} WHERE id = %s",
                     (token_count(title_text, body, tag_text), kw_words(title_text), kw_words(body),
                      kw_words(tag_text), row["id"]))


def chunk_total(conn, note_id: str) -> int:
    """How many chunks (passages) note `note_id` has (store.notes.chunk_total)."""
    return conn.execute("SELECT COUNT(*) FROM chunks WHERE note_id = %s", (note_id,)).fetchone()[0]


def delete_chunks(conn, note_id: str) -> int:
    """Remove a note's chunks and vectors (vectors kept in the text-hash cache)."""
    conn.execute("""INSERT INTO vector_cache(text_hash, model, vec)
                    SELECT v.text_hash, v.model, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_id
                    WHERE c.note_id = %s
                    ON CONFLICT (text_hash) DO UPDATE SET model = excluded.model, vec = excluded.vec""",
                 (note_id,))
    return conn.execute("DELETE FROM chunks WHERE note_id = %s", (note_id,)).rowcount


def delete_note(conn, note_id: str) -> None:
    """Remove a note and everything derived from it."""
    delete_chunks(conn, note_id)
    conn.execute("DELETE FROM notes WHERE id = %s", (note_id,))


def replace_links(conn, note_id: str, links: list[Link]) -> None:
    conn.execute("DELETE FROM links WHERE note_id = %s", (note_id,))
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO links (note_id, target, alias, anchor, embed, start) VALUES (%s,%s,%s,%s,%s,%s)",
                        [(note_id, l.target, l.alias, l.anchor, int(l.embed), l.start) for l in links])


def counts(conn) -> dict[str, int]:
    """Index health figures for `cairn status` (the keyword row is a column of the chunk,
    so missing keyword rows are chunks without a tsvector and none can be orphaned)."""
    q = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
    return {"notes": q("SELECT count(*) FROM notes"), "chunks": q("SELECT count(*) FROM chunks"),
            "embedded_chunks": q("SELECT count(*) FROM vectors"),
            "missing_keyword_rows": q("SELECT count(*) FROM chunks WHERE tsv IS NULL"),
            "missing_vectors": q("SELECT count(*) FROM chunks c WHERE NOT EXISTS "
                                 "(SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)"),
            "orphan_vectors": 0,  # a foreign key with ON DELETE CASCADE
            "orphan_keyword_rows": 0,
            "links": q("SELECT count(*) FROM links")}


def recent_notes(conn, since: str, limit: int = 10) -> list[dict]:
    rows = conn.execute("SELECT id, path, title FROM notes WHERE indexed_at >= %s ORDER BY indexed_at DESC "
                        "LIMIT %s", (since, limit)).fetchall()
    return [{"id": r[0], "path": r[1], "title": r[2]} for r in rows]


def has_notes_under(conn, prefix: str) -> bool:
    return conn.execute("SELECT 1 FROM notes WHERE starts_with(path, %s) LIMIT 1", (prefix,)).fetchone() is not None


def index_profile(conn, embed_max_chunks: int) -> dict:
    return {"keyword_only_chunks": conn.execute("SELECT count(*) FROM chunks WHERE ord >= %s",
                                                (embed_max_chunks,)).fetchone()[0],
            "notes_by_type": dict(conn.execute("SELECT type, count(*) FROM notes GROUP BY type").fetchall()),
            "vector_models": dict(conn.execute("SELECT model, count(*) FROM vectors GROUP BY model").fetchall())}


def note_aliases(conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT aliases FROM notes WHERE aliases != '[]'")]


def message_rows(conn, note_id: str) -> list:
    return conn.execute("SELECT source_id, speaker, text, event_time FROM chunks "
                        "WHERE note_id = %s AND source_id IS NOT NULL ORDER BY ord", (note_id,)).fetchall()


def chat_notes(conn) -> list:
    return conn.execute("SELECT id, path, meta FROM notes WHERE type = 'chat' ORDER BY path COLLATE \"C\"").fetchall()


def clear_index(conn) -> None:
    """Empty notes, chunks, links and vectors, keeping vectors in the text-hash cache."""
    conn.execute("""INSERT INTO vector_cache(text_hash, model, vec) SELECT text_hash, model, vec FROM vectors
                    ON CONFLICT (text_hash) DO UPDATE SET model = excluded.model, vec = excluded.vec""")
    conn.execute("TRUNCATE entity_mentions, entity_cooccur, graph_state, vectors, links, chunks, notes")


def add_tombstone(conn, note: NoteRow, file_hash: str, trash_path: str | None) -> None:
    conn.execute("""INSERT INTO tombstones (note_id, path, title, file_hash, source, source_hash, trash_path,
                        deleted_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)
                    ON CONFLICT (note_id) DO UPDATE SET path = excluded.path, title = excluded.title,
                        file_hash = excluded.file_hash, source = excluded.source,
                        source_hash = excluded.source_hash, trash_path = excluded.trash_path,
                        deleted_at = excluded.deleted_at""",
                 (note.id, note.path, note.title, file_hash, note.source, note.source_hash, trash_path, now_iso()))


def tombstoned_hashes(conn) -> set[str]:
    return {r[0] for r in conn.execute("SELECT file_hash FROM tombstones")}


# --------------------------------------------------------------------------- vault copies
def record_write(conn, note_id: str, file_hash: str) -> None:
    """As store.copies.record_write (the previous hash is kept as prev_hash)."""
    conn.execute(
        """INSERT INTO vault_copies (note_id, file_hash, prev_hash, written_at) VALUES (%s, %s, NULL, %s)
           ON CONFLICT (note_id) DO UPDATE SET
               prev_hash = CASE WHEN vault_copies.file_hash = excluded.file_hash
                                THEN vault_copies.prev_hash ELSE vault_copies.file_hash END,
               file_hash = excluded.file_hash, written_at = excluded.written_at, conflict_hash = NULL""",
        (note_id, file_hash, now_iso()))


def written_hashes(conn, note_id: str) -> set[str]:
    row = conn.execute("SELECT file_hash, prev_hash FROM vault_copies WHERE note_id = %s", (note_id,)).fetchone()
    return {h for h in row if h} if row else set()


def conflict_hash(conn, note_id: str) -> str | None:
    row = conn.execute("SELECT conflict_hash FROM vault_copies WHERE note_id = %s", (note_id,)).fetchone()
    return row[0] if row else None


# --------------------------------------------------------------------------- links
_LINK_SQL = "SELECT note_id, target, alias, anchor, embed, start FROM links"


def note_names(conn) -> list[Any]:
    return conn.execute("SELECT id, path, title, aliases, source FROM notes").fetchall()


def links_of(conn, note_id: str) -> list[Any]:
    return conn.execute(_LINK_SQL + " WHERE note_id = %s ORDER BY start < 0, start, id", (note_id,)).fetchall()


def links_elsewhere(conn, note_id: str) -> list[Any]:
    return conn.execute(_LINK_SQL + " WHERE note_id != %s AND target != '' ORDER BY note_id, start",
                        (note_id,)).fetchall()


def all_links(conn) -> list[Any]:
    return conn.execute(_LINK_SQL + " WHERE target != ''").fetchall()
