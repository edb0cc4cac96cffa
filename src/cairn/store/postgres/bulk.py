"""Bulk loading of the PostgreSQL index: many notes, chunks and vectors in one transaction,
with the search structures built once at the end instead of row by row (`cairn migrate
--to`, store/postgres/transfer.py, and bench/scale.py use it).

    with session.transaction() as conn, bulk_load(conn) as load:
        copy_rows(conn, "notes", NOTE_COLUMNS, rows)
        insert_chunk_rows(conn, [chunk_row(id, note_id, title, tags, chunk), ...])
        copy_vectors(conn, ids, models, text_hashes, vecs)
    load.timings   # seconds per phase at the end of the load

What changes inside `bulk_load` (the result is the same rows as ordinary writes: tested in
tests/store/test_store_both_backends.py against the trigger path and against SQLite):
- kw_postings: the insert trigger (schema migration 7) only records new chunk ids in the
  temporary table `cairn_bulk_chunks` while `cairn.bulk` is on (SET LOCAL: this transaction
  only); at the end their postings go in with one INSERT ... SELECT sorted by the primary
  key (appends to the B-tree instead of ~30 random inserts per chunk). Deletes and updates
  inside the load keep their trigger behaviour; kw_stats (N, token total) stays trigger-kept.
- with `indexes=True` the GIN keyword index and the HNSW vector index (schema.BULK_INDEXES)
  are dropped first and built once after the rows, with `maintenance_work_mem` = `memory`
  and `max_parallel_maintenance_workers` = `workers` (the HNSW graph must fit in
  maintenance_work_mem or the build slows down sharply: ~205 MB per 100k 384-d vectors,
  bench/README.md). Dropping takes an exclusive lock on chunks and vectors until commit:
  readers of the same database wait for the load.
- copy_rows / copy_vectors use COPY (vectors in pgvector's binary form: no text formatting
  of 384 floats per row, ~200 us a row in Python) instead of INSERT statements.
"""

from __future__ import annotations

import json
import struct
import time
from contextlib import contextmanager
from typing import Iterable, Iterator, Sequence

import numpy as np

from cairn.model import Chunk
from cairn.store.notes import NoteRow, now_iso
from cairn.store.postgres.notes import TS_CONFIG, chunk_fields
from cairn.store.postgres.schema import BULK_INDEXES, POSTINGS_SELECT


class BulkLoad:
    """What `bulk_load` yields: `timings` {phase: seconds} is filled when the block ends
    (rows, postings, and one entry per rebuilt index)."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}


@contextmanager
def bulk_load(conn, *, indexes: bool = True, memory: str = "1GB", workers: int = 1) -> Iterator[BulkLoad]:
    """Bulk mode for the rest of `conn`'s transaction (conn: a psycopg connection inside a
    transaction; everything is undone with it if the block raises). memory: a PostgreSQL
    size ('4GB') for the postings sort (work_mem) and the index builds
    (maintenance_work_mem); workers: parallel maintenance workers (0-8)."""
    if not 0 <= workers <= 8:
        raise ValueError(f"workers must be 0-8, got {workers}")
    load = BulkLoad()
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS cairn_bulk_chunks (id BIGINT NOT NULL) ON COMMIT DROP")
    conn.execute("SET LOCAL cairn.bulk = 'on'")
    if indexes:
        for name in BULK_INDEXES:
            conn.execute(f"DROP INDEX IF EXISTS {name}")
    start = time.perf_counter()
    yield load
    load.timings["rows"] = round(time.perf_counter() - start, 2)
    conn.execute("SET LOCAL cairn.bulk = 'off'")
    conn.execute("SELECT set_config('work_mem', %s, true)", (memory,))  # the postings sort, in memory
    t = time.perf_counter()
    build_postings(conn)
    conn.execute("RESET work_mem")
    load.timings["postings"] = round(time.perf_counter() - t, 2)
    if indexes:
        conn.execute("SELECT set_config('maintenance_work_mem', %s, true)", (memory,))
        conn.execute("SELECT set_config('max_parallel_maintenance_workers', %s, true)", (str(workers),))
        for name, sql in BULK_INDEXES.items():
            t = time.perf_counter()
            conn.execute(sql)
            load.timings[name] = round(time.perf_counter() - t, 2)


def build_postings(conn) -> int:
    """Write the kw_postings rows of the chunks recorded in `cairn_bulk_chunks` that still
    exist (each once, sorted by the primary key), then empty the record. Returns rows written."""
    n = conn.execute(
        f"""INSERT INTO kw_postings (lexeme, chunk_id, na, nb, nc, kw_len)
            {POSTINGS_SELECT} FROM chunks c JOIN (SELECT DISTINCT id FROM cairn_bulk_chunks) b ON b.id = c.id,
            unnest(c.tsv) u ORDER BY 1, 2""").rowcount
    conn.execute("TRUNCATE cairn_bulk_chunks")
    return n


def copy_rows(conn, table: str, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    """COPY `rows` (tuples in `columns` order; None is NULL) into `table`."""
    cols = ", ".join('"end"' if c == "end" else c for c in columns)
    with conn.cursor().copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)


def copy_vectors(conn, chunk_ids: Sequence[int], models: Sequence[str], text_hashes: Sequence[str],
                 vecs) -> None:
    """COPY vectors rows (chunk id, model, text hash, the float32 vector) in PostgreSQL's
    binary COPY format, the vector as pgvector's binary form (int16 dim, int16 0, big-endian
    float4s). Raises ValueError when the lengths differ."""
    if not (len(chunk_ids) == len(models) == len(text_hashes) == len(vecs)):
        raise ValueError(f"{len(chunk_ids)} chunk ids, {len(models)} models, {len(text_hashes)} hashes, "
                         f"{len(vecs)} vectors")
    parts = [_HEADER]
    for cid, model, th, vec in zip(chunk_ids, models, text_hashes, vecs):
        v = np.asarray(vec, dtype=">f4")
        m, h = model.encode(), th.encode()
        parts.append(struct.pack(f">hiqi{len(m)}si{len(h)}siiihh", 5, 8, int(cid), len(m), m, len(h), h,
                                 4, len(v), 4 + 4 * len(v), len(v), 0))
        parts.append(v.tobytes())
    parts.append(struct.pack(">h", -1))
    with conn.cursor().copy("COPY vectors (chunk_id, model, text_hash, dim, vec) FROM STDIN (FORMAT BINARY)") as copy:
        copy.write(b"".join(parts))


NOTE_COLUMNS = ("id", "path", "title", "type", "source", "source_hash", "file_hash", "body_hash", "mtime_ns", "size",
                "created", "updated", "event_time", "tags", "aliases", "meta", "warnings", "encoding", "indexed_at")


def note_row(note: NoteRow, indexed_at: str | None = None) -> tuple:
    """One NOTE_COLUMNS row for copy_rows, as notes.upsert_note writes it (lists and meta
    as JSON; indexed_at now unless given)."""
    return (note.id, note.path, note.title, note.type, note.source, note.source_hash, note.file_hash,
            note.body_hash, note.mtime_ns, note.size, note.created, note.updated, note.event_time,
            json.dumps(note.tags, ensure_ascii=False), json.dumps(note.aliases, ensure_ascii=False),
            json.dumps(note.meta, ensure_ascii=False, default=str), json.dumps(note.warnings, ensure_ascii=False),
            note.encoding, indexed_at or now_iso())


CHUNK_COLUMNS = ("id", "note_id", "ord", "source_id", "heading", "text", "start", "end", "page", "speaker",
                 "event_time", "kw_len", "title", "body", "tags")

# Chunk rows (CHUNK_COLUMNS, the keyword texts already split as kw_words splits them) as
# parallel arrays, their weighted tsvector computed in the same statement.
CHUNKS_SQL = f"""
INSERT INTO chunks (id, note_id, ord, source_id, heading, text, start, "end", page, speaker, event_time, kw_len, tsv)
SELECT t.id, t.note_id, t.ord, t.source_id, t.heading, t.text, t.start, t."end", t.page, t.speaker, t.event_time,
       t.kw_len, setweight(to_tsvector('{TS_CONFIG}', t.title), 'A')
       || setweight(to_tsvector('{TS_CONFIG}', t.body), 'B') || setweight(to_tsvector('{TS_CONFIG}', t.tags), 'C')
FROM unnest(%s::bigint[], %s::text[], %s::int[], %s::text[], %s::text[], %s::text[], %s::int[], %s::int[],
            %s::int[], %s::text[], %s::text[], %s::int[], %s::text[], %s::text[], %s::text[])
     AS t(id, note_id, ord, source_id, heading, text, start, "end", page, speaker, event_time, kw_len, title, body, tags)
"""


def chunk_row(chunk_id: int, note_id: str, title: str, tags: list[str], chunk: Chunk,
              facts: dict[str, list[str]] | None = None) -> tuple:
    """One CHUNK_COLUMNS row for `chunk`, with the keyword texts notes.insert_chunks writes
    (notes.chunk_fields)."""
    return (chunk_id, note_id, *chunk_fields(title, tags, chunk, facts))


def insert_chunk_rows(conn, rows: Sequence[tuple]) -> None:
    """Insert CHUNK_COLUMNS rows (explicit ids: move the identity past them afterwards with
    `advance_ids`) in one statement."""
    if rows:
        conn.execute(CHUNKS_SQL, [list(col) for col in zip(*rows)])


def advance_ids(conn) -> None:
    """Move the chunks, jobs and memories identity sequences past the highest id present
    (never backwards: ids are never reused, case B12)."""
    for table, col in (("chunks", "id"), ("jobs", "id"), ("memories", "rowid")):
        conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{col}'), "
                     f"greatest((SELECT max({col}) FROM {table}) + 1, nextval(pg_get_serial_sequence('{table}', "
                     f"'{col}'))), false)")
