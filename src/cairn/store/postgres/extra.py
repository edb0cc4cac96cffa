"""The PostgreSQL twins of the remaining store functions the service's ingest, search,
status and memory paths call (store/notes.py, copies.py, jobs.py, keyword.py, vectors.py,
memories.py, fact_keys.py): same names, parameters and results as the SQLite ones."""

from __future__ import annotations

import json
import time
from typing import Any, Iterable

from cairn.store.jobs import JobRow
from cairn.store.memories import MEMORY_COLUMNS, SCOPE_EQ_PG, scope_arg
from cairn.store.postgres.jobs import _COLS, _job
from cairn.store.postgres.notes import MEMORY_TS_CONFIG, TSV_SQL, kw_words, token_count

_ACTIVE = "tombstone = 0 AND superseded_by IS NULL AND valid_to IS NULL"


# ----------------------------------------------------------------------------- notes
def fact_texts(conn, note_id: str) -> dict[str, list[str]]:
    return {r[0]: json.loads(r[1]) for r in conn.execute(
        "SELECT source_id, facts FROM fact_keys WHERE note_id = %s", (note_id,)).fetchall()}


def update_stat(conn, note_id: str, mtime_ns: int, size: int) -> None:
    conn.execute("UPDATE notes SET mtime_ns = %s, size = %s WHERE id = %s", (mtime_ns, size, note_id))


def file_stats(conn) -> dict[str, tuple[str, int, int, str]]:
    return {r[0]: (r[1], r[2], r[3], r[4]) for r in
            conn.execute("SELECT path, id, mtime_ns, size, file_hash FROM notes").fetchall()}


def ids_by_path(conn, paths: list[str]) -> dict[str, str]:
    if not paths:
        return {}
    return {r[0]: r[1] for r in conn.execute("SELECT path, id FROM notes WHERE path = ANY(%s)",
                                             (list(paths),)).fetchall()}


def is_tombstoned_source(conn, source: str, source_hash: str) -> bool:
    return conn.execute("SELECT 1 FROM tombstones WHERE source = %s AND source_hash = %s",
                        (source, source_hash)).fetchone() is not None


def clear_tombstone(conn, note_id: str) -> None:
    conn.execute("DELETE FROM tombstones WHERE note_id = %s", (note_id,))


def bump_vector_generation(conn) -> None:
    conn.execute("""INSERT INTO meta(key, value) VALUES ('vector_generation', '1')
                    ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text""")


def vector_generation(conn) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'vector_generation'").fetchone()
    return int(row[0]) if row else 0


def record_conflict(conn, note_id: str, source_hash: str) -> None:
    conn.execute("UPDATE vault_copies SET conflict_hash = %s WHERE note_id = %s", (source_hash, note_id))


# ----------------------------------------------------------------------------- keyword, vectors
def embeddable_chunk_count(conn, max_chunks_per_note: int) -> int:
    return conn.execute("SELECT count(*) FROM chunks WHERE ord < %s", (max_chunks_per_note,)).fetchone()[0]


def chunks_to_embed(conn, max_chunks_per_note: int, note_id: str | None = None) -> list:
    """As store.vectors.chunks_to_embed (one note's through its index when given)."""
    one = "AND c.note_id = %s" if note_id is not None else ""
    return conn.execute(
        f"""SELECT c.id, c.text, c.heading, c.speaker, n.title, fk.facts FROM chunks c
           JOIN notes n ON n.id = c.note_id
           LEFT JOIN fact_keys fk ON fk.note_id = c.note_id AND fk.source_id = c.source_id
           WHERE c.ord < %s {one}
             AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)
           ORDER BY c.id""", (int(max_chunks_per_note), *((note_id,) if note_id is not None else ()))).fetchall()


def claim_chunks_to_embed(conn, max_chunks_per_note: int, limit: int) -> list:
    """As store.vectors.claim_chunks_to_embed; the chunk rows stay locked (FOR UPDATE ...
    SKIP LOCKED) until the caller's transaction ends, so concurrent workers take disjoint
    chunks."""
    return conn.execute(
        """SELECT c.id, c.text, c.heading, c.speaker, n.title, fk.facts FROM chunks c
           JOIN notes n ON n.id = c.note_id
           LEFT JOIN fact_keys fk ON fk.note_id = c.note_id AND fk.source_id = c.source_id
           WHERE c.ord < %s AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)
           ORDER BY c.id LIMIT %s FOR UPDATE OF c SKIP LOCKED""", (int(max_chunks_per_note), int(limit))).fetchall()


def any_chunk_to_embed(conn, max_chunks_per_note: int) -> bool:
    return conn.execute("""SELECT 1 FROM chunks c WHERE c.ord < %s AND NOT EXISTS
                           (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id) LIMIT 1""",
                        (max_chunks_per_note,)).fetchone() is not None


# ----------------------------------------------------------------------------- jobs
def _finish(conn, job: JobRow, sets: str, args: tuple) -> None:
    conn.execute(f"UPDATE jobs SET {sets}, owner_pid = NULL, owner_start = NULL, lease_until = NULL, "
                 f"updated_at = %s WHERE id = %s AND state = 'running' AND owner_pid IS NOT DISTINCT FROM %s "
                 f"AND attempts = %s", (*args, time.time(), job.id, job.owner_pid, job.attempts))


def release(conn, jobs: list[JobRow], done: Iterable[tuple[JobRow, str]] = ()) -> None:
    """running -> queued without spending the attempt (as store.jobs.release)."""
    from cairn.store.postgres.jobs import mark_done
    with conn.transaction():
        for job, outcome in done:
            mark_done(conn, job, outcome)
        for job in jobs:
            _finish(conn, job, "state = 'queued', attempts = attempts - 1, next_attempt_at = %s", (time.time(),))


def running(conn) -> list[JobRow]:
    return [_job(r) for r in conn.execute(f"SELECT {_COLS} FROM jobs WHERE state = 'running' ORDER BY id")]


def requeue(conn, job_id: int, error: str, *, dead: bool) -> None:
    now = time.time()
    if dead:
        conn.execute("""UPDATE jobs SET state = 'dead', last_error = %s, outcome = 'failed', finished_at = %s,
                            owner_pid = NULL, owner_start = NULL, lease_until = NULL, updated_at = %s
                        WHERE id = %s AND state = 'running'""", (error, now, now, job_id))
    else:
        conn.execute("""UPDATE jobs SET state = 'queued', last_error = %s, next_attempt_at = %s,
                            owner_pid = NULL, owner_start = NULL, lease_until = NULL, updated_at = %s
                        WHERE id = %s AND state = 'running'""", (error, now, now, job_id))


def next_due(conn, ids: list[int] | None = None) -> float | None:
    sql, args = "SELECT min(next_attempt_at) FROM jobs WHERE state = 'queued'", []
    if ids is not None:
        if not ids:
            return None
        sql += " AND id = ANY(%s)"
        args = [list(ids)]
    value = conn.execute(sql, args).fetchone()[0]
    return None if value is None else float(value)


def queued_payloads(conn) -> list[tuple[int, str]]:
    return [(r[0], r[1]) for r in conn.execute("SELECT id, payload FROM jobs WHERE state = 'queued' ORDER BY id")]


def payloads(conn, ids: list[int]) -> list[dict]:
    if not ids:
        return []
    return [json.loads(r[0]) for r in conn.execute("SELECT payload FROM jobs WHERE id = ANY(%s) ORDER BY id",
                                                   (list(ids),))]


# ----------------------------------------------------------------------------- memories
def superseded_row(conn, memory_id: str):
    return conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE superseded_by = %s", (memory_id,)).fetchone()


def replace_memory_keywords(conn, memory_id: str, keyword_text: str) -> None:
    conn.execute(f"UPDATE memories SET tsv = to_tsvector('{MEMORY_TS_CONFIG}', %s) WHERE id = %s", (keyword_text, memory_id))


def memory_vectors(conn, ids: list[str]) -> dict[str, tuple[str | None, bytes | None]]:
    if not ids:
        return {}
    return {r[0]: (r[1], bytes(r[2]) if r[2] is not None else None) for r in conn.execute(
        "SELECT id, model, vec FROM memories WHERE id = ANY(%s)", (list(ids),))}


def set_memory_vector(conn, memory_id: str, model: str, vec: bytes) -> None:
    conn.execute("UPDATE memories SET model = %s, vec = %s WHERE id = %s", (model, vec, memory_id))


def active_vector_rows(conn, scope: str) -> list:
    return conn.execute(f"SELECT id, text, entities, model, vec FROM memories WHERE {SCOPE_EQ_PG} AND {_ACTIVE} "
                        "ORDER BY rowid", (scope_arg(scope),)).fetchall()


def forgotten_vector_rows(conn, scope: str) -> list:
    return conn.execute(f"SELECT id, text, entities, model, vec FROM memories WHERE {SCOPE_EQ_PG} "
                        "AND tombstone = 1 ORDER BY rowid", (scope_arg(scope),)).fetchall()


def top_active_rows(conn, scope: str, limit: int) -> list:
    return conn.execute(
        f"""SELECT {MEMORY_COLUMNS} FROM memories WHERE {_ACTIVE} AND (scope = 'global' OR {SCOPE_EQ_PG})
            ORDER BY confidence DESC, COALESCE(last_used, created) DESC LIMIT %s""",
        (scope_arg(scope), max(0, limit))).fetchall()


def entity_exists(conn, entity_id: str) -> bool:
    return conn.execute("SELECT 1 FROM entities WHERE id = %s", (entity_id,)).fetchone() is not None


def refine_entity_kind(conn, entity_id: str, kind: str) -> None:
    conn.execute("UPDATE entities SET kind = %s WHERE id = %s AND kind = 'entity'", (kind, entity_id))


def insert_entity(conn, entity_id: str, name: str, kind: str, *, if_new: bool = False) -> None:
    tail = " ON CONFLICT DO NOTHING" if if_new else ""
    conn.execute(f"INSERT INTO entities(id, name, kind) VALUES (%s, %s, %s){tail}", (entity_id, name, kind))


def insert_alias(conn, alias_key: str, display: str, entity_id: str, *, if_new: bool = False) -> None:
    tail = " ON CONFLICT DO NOTHING" if if_new else ""
    conn.execute(f"INSERT INTO aliases(alias, display, entity_id) VALUES (%s, %s, %s){tail}",
                 (alias_key, display, entity_id))


def merge_entity(conn, into: str, other: str) -> None:
    """As store.memories.merge_entity: the graph's move_entity (store/postgres/graph.py)."""
    from cairn.store.postgres import graph
    graph.move_entity(conn, other, into)


def link_memory(conn, memory_id: str, entity_id: str) -> None:
    conn.execute("INSERT INTO memory_entities(memory_id, entity_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                 (memory_id, entity_id))


def alias_keys(conn) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in conn.execute("SELECT alias, entity_id FROM aliases")]


def memories_of_entities(conn, entity_ids: Iterable[str]) -> set[str]:
    ids = list(entity_ids)
    if not ids:
        return set()
    return {r[0] for r in conn.execute("SELECT memory_id FROM memory_entities WHERE entity_id = ANY(%s)", (ids,))}


def entity(conn, entity_id: str) -> dict[str, Any] | None:
    row = conn.execute("SELECT name, kind FROM entities WHERE id = %s", (entity_id,)).fetchone()
    if row is None:
        return None
    aliases = [r[0] for r in conn.execute("SELECT display FROM aliases WHERE entity_id = %s ORDER BY display",
                                          (entity_id,))]
    return {"name": row[0], "kind": row[1], "aliases": aliases}


def clear_memory_tables(conn) -> None:
    conn.execute("TRUNCATE entity_mentions, entity_cooccur, graph_state, memory_entities, aliases, entities, "
                 "memories, core_blocks")


# ----------------------------------------------------------------------------- fact keys
def message_chunks(conn, note_id: str) -> list:
    return conn.execute("SELECT id, text, speaker, source_id FROM chunks WHERE note_id = %s", (note_id,)).fetchall()


def rekey_chunk(conn, chunk_id: int, title: str, body: str, tags: str) -> None:
    conn.execute(f"UPDATE chunks SET kw_len = %s, tsv = {TSV_SQL} WHERE id = %s",
                 (token_count(title, body, tags), kw_words(title), kw_words(body), kw_words(tags), chunk_id))
    conn.execute("DELETE FROM vectors WHERE chunk_id = %s", (chunk_id,))


def notes_with_fact_keys(conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT note_id FROM fact_keys")]
