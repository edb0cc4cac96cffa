"""Memories, core blocks, entities and fact keys on PostgreSQL: the twins of the
store/memories.py and store/fact_keys.py functions the MemoryStore interface names. The
keyword row of a memory is its `tsv` column (same configuration as chunks)."""

from __future__ import annotations

import json

from cairn.store.memories import MEMORY_COLUMNS, SCOPE_EQ_PG, scope_arg
from cairn.store.notes import now_iso
from cairn.store.postgres.keyword import to_tsquery_text
from cairn.store.postgres.notes import MEMORY_TS_CONFIG as TS_CONFIG

_ACTIVE = "tombstone = 0 AND superseded_by IS NULL AND valid_to IS NULL"


def memory_row(conn, memory_id: str):
    return conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id = %s", (memory_id,)).fetchone()


def insert_memory_row(conn, values: tuple, keyword_text: str, model: str | None, vec: bytes | None) -> None:
    conn.execute(f"INSERT INTO memories({MEMORY_COLUMNS}, model, vec, tsv) VALUES ({', '.join(['%s'] * 22)}, "
                 f"to_tsvector('{TS_CONFIG}', %s))", (*values, model, vec, keyword_text))


def update_memory_row(conn, memory_id: str, *, confidence: float, source_ids: str, valid_to: str | None,
                      superseded_by: str | None, last_used: str | None, use_count: int, tombstone: bool,
                      log: str) -> None:
    conn.execute("""UPDATE memories SET confidence=%s, source_ids=%s, valid_to=%s, superseded_by=%s,
                    last_used=%s, use_count=%s, tombstone=%s, log=%s WHERE id=%s""",
                 (confidence, source_ids, valid_to, superseded_by, last_used, use_count, int(tombstone),
                  log, memory_id))


def memory_rows(conn, *, kind: str | None = None, scope: str | None = None, include_inactive: bool = False) -> list:
    sql, args = f"SELECT {MEMORY_COLUMNS} FROM memories WHERE true", []
    if kind:
        sql += " AND kind = %s"
        args.append(kind)
    if scope:
        sql += f" AND {SCOPE_EQ_PG}"
        args.append(scope_arg(scope))
    if not include_inactive:
        sql += f" AND {_ACTIVE}"
    return conn.execute(sql + " ORDER BY created, rowid", args).fetchall()


def recall_rows(conn, scope: str, include_history: bool) -> list:
    sql = f"SELECT rowid, {MEMORY_COLUMNS}, model, vec FROM memories WHERE (scope = 'global' OR {SCOPE_EQ_PG})"
    if not include_history:
        sql += f" AND {_ACTIVE}"
    return conn.execute(sql, (scope_arg(scope),)).fetchall()


def keyword_scores(conn, match) -> dict[int, float]:
    """{memory rowid: ts_rank_cd score (higher is better)} for a keyword query (a
    store.fts.Match, rendered by store/postgres/keyword.py, or its FTS5 text)."""
    return {r[0]: float(r[1]) for r in conn.execute(
        f"SELECT rowid, ts_rank_cd(tsv, q, 1) FROM memories, to_tsquery('{TS_CONFIG}', %s) q WHERE tsv @@ q",
        (to_tsquery_text(match),))}


def core_blocks(conn) -> dict[str, str]:
    return dict(conn.execute("SELECT name, text FROM core_blocks ORDER BY name").fetchall())


def put_core_block(conn, name: str, text: str, updated: str) -> None:
    conn.execute("""INSERT INTO core_blocks(name, text, updated) VALUES (%s, %s, %s)
                    ON CONFLICT (name) DO UPDATE SET text = excluded.text, updated = excluded.updated""",
                 (name, text, updated))


def alias_entity(conn, alias_key: str) -> str | None:
    row = conn.execute("SELECT entity_id FROM aliases WHERE alias = %s", (alias_key,)).fetchone()
    return row[0] if row else None


def alias_names(conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT alias FROM aliases")]


def list_entities(conn) -> list[dict]:
    aliases: dict[str, list[str]] = {}
    for eid, display in conn.execute("SELECT entity_id, display FROM aliases ORDER BY display"):
        aliases.setdefault(eid, []).append(display)
    counts = dict(conn.execute("SELECT entity_id, count(*) FROM memory_entities GROUP BY entity_id").fetchall())
    notes = dict(conn.execute("SELECT entity_id, count(DISTINCT note_id) FROM entity_mentions GROUP BY entity_id")
                 .fetchall())
    return [{"id": r[0], "name": r[1], "kind": r[2], "aliases": aliases.get(r[0], []), "memories": counts.get(r[0], 0),
             "notes": notes.get(r[0], 0)}
            for r in conn.execute("SELECT id, name, kind FROM entities ORDER BY lower(name)")]


def replace_fact_keys(conn, note_id: str, facts: dict, method: str) -> None:
    conn.execute("DELETE FROM fact_keys WHERE note_id = %s", (note_id,))
    rows = [(note_id, sid, json.dumps(texts, ensure_ascii=False), method, now_iso())
            for sid, texts in facts.items() if texts]
    if rows:
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO fact_keys(note_id, source_id, facts, method, updated) "
                            "VALUES (%s,%s,%s,%s,%s)", rows)
