"""Copy a home's SQLite index into a PostgreSQL store and verify it (`cairn migrate --to`).

Everything the index holds moves, with its ids: notes, chunks with their keyword rows (the
FTS5 title/body/tags texts become the weighted tsvector, so keyword rows are identical),
vectors and the text-hash cache, links, tombstones, jobs, the memory of the person
(memories with their keyword rows and vectors, core blocks, entities, aliases, links) and
the data that lives outside the vault (fact keys, vault-copy hashes). Identity sequences
are moved past the copied ids so new rows never reuse one (case B12).

The copy is one PostgreSQL transaction: after the rows are in, every table's row count is
compared with the source inside the same transaction, and any difference rolls it all back.
Bulk-load speed (store/postgres/bulk.py): the copy runs in bulk mode, so chunks go in as one
multi-row INSERT per batch of BATCH rows (the kw_stats trigger fires once per batch), their
kw_postings rows are written once at the end, vectors go in by binary COPY, and the keyword
(GIN) and HNSW indexes are dropped first and built once over the loaded rows, inside the
same transaction.
"""

from __future__ import annotations

import sqlite3

import numpy as np

from cairn.errors import Conflict
from cairn.store.postgres.bulk import advance_ids, bulk_load, copy_vectors, insert_chunk_rows
from cairn.store.postgres.notes import MEMORY_TS_CONFIG, kw_words, token_count
from cairn.store.postgres.vectors import _text

# (table, columns copied as they are); chunks, vectors, vector_cache and memories are special.
PLAIN = (
    ("notes", "id, path, title, type, source, source_hash, file_hash, body_hash, mtime_ns, size, created, updated, "
              "event_time, tags, aliases, meta, warnings, encoding, indexed_at"),
    ("links", "note_id, target, alias, anchor, embed, start"),
    ("tombstones", "note_id, path, title, file_hash, source, source_hash, trash_path, deleted_at"),
    ("jobs", "id, kind, source, payload, state, attempts, max_attempts, next_attempt_at, last_error, outcome, "
             "owner_pid, owner_start, lease_until, created_at, updated_at, finished_at"),
    ("entities", "id, name, kind"),
    ("aliases", "alias, display, entity_id"),
    ("core_blocks", "name, text, updated"),
    ("fact_keys", "note_id, source_id, facts, method, updated"),
    ("vault_copies", "note_id, file_hash, prev_hash, written_at, conflict_hash"),
)
TABLES = ("notes", "chunks", "vectors", "vector_cache", "links", "tombstones", "jobs", "memories", "entities",
          "aliases", "memory_entities", "core_blocks", "fact_keys", "vault_copies")
_MEM = ("rowid, id, text, kind, confidence, scope, source, source_ids, created, event_time, valid_from, valid_to, "
        "superseded_by, importance, last_used, use_count, tombstone, entities, log, impact, tags, model, vec")
_NMEM = len(_MEM.split(","))
BATCH = 2000


def _q(col: str) -> str:
    return '"end"' if col == "end" else col


def _batches(cursor):
    while rows := cursor.fetchmany(BATCH):
        yield [tuple(r) for r in rows]


def source_counts(src: sqlite3.Connection) -> dict[str, int]:
    """Rows per table of the SQLite index."""
    return {t: src.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def target_counts(conn) -> dict[str, int]:
    """Rows per table of the PostgreSQL store."""
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def copy_index(src: sqlite3.Connection, backend, *, replace: bool = False) -> dict[str, int]:
    """Copy every row of the SQLite index `src` into `backend` (a PostgresBackend) and
    verify the counts. Returns {table: rows}. Raises Conflict when the target already holds
    notes or memories (unless `replace`: then it is emptied first, in the same transaction)
    or when a count differs after the copy (nothing is kept then)."""
    want = source_counts(src)
    with backend.session.transaction() as conn:
        have = target_counts(conn)
        if any(have.values()) and not replace:
            raise Conflict(f"the PostgreSQL store is not empty ({have['notes']} notes, {have['memories']} "
                           f"memories); pass --replace to overwrite it")
        conn.execute(f"TRUNCATE {', '.join(TABLES)}, entity_mentions, entity_cooccur, graph_state")
        with bulk_load(conn), conn.cursor() as cur:
            _copy_rows(src, cur)
        advance_ids(conn)
        got = target_counts(conn)
        if got != want:
            diff = {t: (want[t], got[t]) for t in TABLES if want[t] != got[t]}
            raise Conflict(f"copy verification failed, nothing kept: rows (sqlite, postgresql) {diff}")
    return got


def _copy_rows(src: sqlite3.Connection, cur) -> None:
    for table, cols in PLAIN:
        names = [c.strip() for c in cols.split(",")]
        sql = (f"INSERT INTO {table} ({', '.join(map(_q, names))}) VALUES ({', '.join(['%s'] * len(names))})")
        for rows in _batches(src.execute(f"SELECT {', '.join(map(_q, names))} FROM {table}")):
            cur.executemany(sql, rows)
    chunk_cols = 'id, note_id, ord, source_id, heading, text, start, "end", page, speaker, event_time'
    for rows in _batches(src.execute(
            f"SELECT {', '.join('c.' + c.strip() for c in chunk_cols.split(','))}, f.title, f.body, f.tags "
            f"FROM chunks c LEFT JOIN chunks_fts f ON f.rowid = c.id")):
        rows = [(*r[:11], token_count(r[11] or "", r[12] or "", r[13] or ""), kw_words(r[11] or ""),
                 kw_words(r[12] or ""), kw_words(r[13] or "")) for r in rows]
        insert_chunk_rows(cur, rows)
    for rows in _batches(src.execute("SELECT chunk_id, model, text_hash, vec FROM vectors")):
        copy_vectors(cur.connection, [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                     [np.frombuffer(r[3], dtype="<f4") for r in rows])
    for rows in _batches(src.execute("SELECT text_hash, model, vec FROM vector_cache")):
        cur.executemany("INSERT INTO vector_cache (text_hash, model, vec) VALUES (%s,%s,%s::vector)",
                        [(r[0], r[1], _text(np.frombuffer(r[2], dtype="<f4"))) for r in rows])
    for rows in _batches(src.execute(
            f"SELECT {', '.join('m.' + c.strip() for c in _MEM.split(','))}, f.text FROM memories m "
            f"LEFT JOIN memories_fts f ON f.rowid = m.rowid")):
        cur.executemany(f"INSERT INTO memories ({_MEM}, tsv) VALUES ({', '.join(['%s'] * _NMEM)}, "
                        f"to_tsvector('{MEMORY_TS_CONFIG}', %s))", [(*r[:_NMEM], r[_NMEM] or "") for r in rows])
    for rows in _batches(src.execute("SELECT memory_id, entity_id FROM memory_entities")):
        cur.executemany("INSERT INTO memory_entities (memory_id, entity_id) VALUES (%s, %s)", rows)
