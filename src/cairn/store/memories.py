"""The memory store's tables: memories (with their keyword index memories_fts and vectors),
core blocks, entities, their aliases and the memory-entity links (SQLite implementation).

Rows go in as plain values and come out as rows addressable by column name (`row["text"]`);
turning them into `cairn.memory.model.Memory` and every decision (reinforce, supersede,
rank) is the memory layer's (cairn.memory). Vectors are float32 little-endian blobs.
Callers hold the transaction (store.notes.transaction) where several writes belong together.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Iterable

# The columns of a memory row, in the order `insert_memory_row` takes them.
MEMORY_COLUMNS = ("id, text, kind, confidence, scope, source, source_ids, created, event_time, valid_from, "
                  "valid_to, superseded_by, importance, last_used, use_count, tombstone, entities, log, impact, tags")
_ACTIVE = "tombstone = 0 AND superseded_by IS NULL AND valid_to IS NULL"


# ----------------------------------------------------------------------------- memories
def memory_row(conn: sqlite3.Connection, memory_id: str) -> sqlite3.Row | None:
    """The memory row with this id (MEMORY_COLUMNS), or None."""
    return conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id = ?", (memory_id,)).fetchone()


def superseded_row(conn: sqlite3.Connection, memory_id: str) -> sqlite3.Row | None:
    """The memory row that `memory_id` superseded (its superseded_by is that id), or None."""
    return conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE superseded_by = ?",
                        (memory_id,)).fetchone()


def insert_memory_row(conn: sqlite3.Connection, values: tuple, keyword_text: str, model: str | None,
                      vec: bytes | None) -> None:
    """Insert a memory (`values` in MEMORY_COLUMNS order), its vector (model name and blob,
    or None, None) and its keyword row (`keyword_text`, already tokenised: store.fts)."""
    cur = conn.execute(f"INSERT INTO memories({MEMORY_COLUMNS}, model, vec) VALUES ({', '.join('?' * 22)})",
                       (*values, model, vec))
    conn.execute("INSERT INTO memories_fts(rowid, text) VALUES (?, ?)", (cur.lastrowid, keyword_text))


def update_memory_row(conn: sqlite3.Connection, memory_id: str, *, confidence: float, source_ids: str,
                      valid_to: str | None, superseded_by: str | None, last_used: str | None,
                      use_count: int, tombstone: bool, log: str) -> None:
    """Write the fields of a memory that change after it is stored (JSON already encoded)."""
    conn.execute("""UPDATE memories SET confidence=?, source_ids=?, valid_to=?, superseded_by=?,
                    last_used=?, use_count=?, tombstone=?, log=? WHERE id=?""",
                 (confidence, source_ids, valid_to, superseded_by, last_used, use_count, int(tombstone),
                  log, memory_id))


def replace_memory_keywords(conn: sqlite3.Connection, memory_id: str, keyword_text: str) -> None:
    """Replace the keyword row of a memory (its text and restatements, tokenised)."""
    rowid = conn.execute("SELECT rowid FROM memories WHERE id = ?", (memory_id,)).fetchone()[0]
    conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
    conn.execute("INSERT INTO memories_fts(rowid, text) VALUES (?, ?)", (rowid, keyword_text))


def memory_vectors(conn: sqlite3.Connection, ids: list[str]) -> dict[str, tuple[str | None, bytes | None]]:
    """{id: (model, vector blob)} of the memories `ids` (absent ids are left out)."""
    if not ids:
        return {}
    return {r[0]: (r[1], r[2]) for r in conn.execute(
        f"SELECT id, model, vec FROM memories WHERE id IN ({','.join('?' * len(ids))})", ids)}


# A scope compared as cairn.people compares a person's name: a person's scope ("@NAME" or
# "@NAME/SCOPE") case-folded on both sides (`scope_arg` folds the bound value), any other
# scope ("global", a scope the home's own person named) exactly.
SCOPE_EQ = "(CASE WHEN substr(scope, 1, 1) = '@' THEN lower(scope) ELSE scope END) = ?"
SCOPE_EQ_PG = SCOPE_EQ.replace("?", "%s")  # the same for the PostgreSQL store


def scope_arg(scope: str) -> str:
    """The value SCOPE_EQ is bound to for `scope`."""
    return scope.casefold() if scope.startswith("@") else scope


def set_memory_vector(conn: sqlite3.Connection, memory_id: str, model: str, vec: bytes) -> None:
    conn.execute("UPDATE memories SET model = ?, vec = ? WHERE id = ?", (model, vec, memory_id))


def active_vector_rows(conn: sqlite3.Connection, scope: str) -> list[sqlite3.Row]:
    """(id, text, entities, event_time, model, vec) of the active memories of one scope, oldest first."""
    return conn.execute(f"""SELECT id, text, entities, event_time, model, vec FROM memories WHERE {SCOPE_EQ}
                            AND {_ACTIVE} ORDER BY rowid""", (scope_arg(scope),)).fetchall()


def forgotten_vector_rows(conn: sqlite3.Connection, scope: str) -> list[sqlite3.Row]:
    """(id, text, entities, event_time, model, vec) of the forgotten (tombstoned) memories of
    one scope, oldest first."""
    return conn.execute(f"""SELECT id, text, entities, event_time, model, vec FROM memories WHERE {SCOPE_EQ}
                            AND tombstone = 1 ORDER BY rowid""", (scope_arg(scope),)).fetchall()


def memory_rows(conn: sqlite3.Connection, *, kind: str | None = None, scope: str | None = None,
                include_inactive: bool = False) -> list[sqlite3.Row]:
    """Memory rows in creation order, filtered exactly by kind and scope (None: any);
    active ones only unless include_inactive."""
    sql, args = f"SELECT {MEMORY_COLUMNS} FROM memories WHERE 1=1", []
    if kind:
        sql += " AND kind = ?"
        args.append(kind)
    if scope:
        sql += f" AND {SCOPE_EQ}"
        args.append(scope_arg(scope))
    if not include_inactive:
        sql += f" AND {_ACTIVE}"
    return conn.execute(sql + " ORDER BY created, rowid", args).fetchall()


def recall_rows(conn: sqlite3.Connection, scope: str, include_history: bool) -> list[sqlite3.Row]:
    """(rowid, MEMORY_COLUMNS, model, vec) of the memories visible in `scope` (global ones
    and that scope's); active ones only unless include_history."""
    sql = f"SELECT rowid, {MEMORY_COLUMNS}, model, vec FROM memories WHERE (scope = 'global' OR {SCOPE_EQ})"
    if not include_history:
        sql += f" AND {_ACTIVE}"
    return conn.execute(sql, (scope_arg(scope),)).fetchall()


def keyword_scores(conn: sqlite3.Connection, match) -> dict[int, float]:
    """{memory rowid: BM25 score (higher is better)} for a keyword query (a store.fts.Match
    or its FTS5 text)."""
    return {rowid: -float(score) for rowid, score in conn.execute(
        "SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ?", (str(match),))}


def top_active_rows(conn: sqlite3.Connection, scope: str, limit: int) -> list[sqlite3.Row]:
    """The `limit` active memories visible in `scope`, by confidence, then last use or creation."""
    return conn.execute(
        f"""SELECT {MEMORY_COLUMNS} FROM memories WHERE {_ACTIVE} AND (scope = 'global' OR {SCOPE_EQ})
            ORDER BY confidence DESC, COALESCE(last_used, created) DESC LIMIT ?""",
        (scope_arg(scope), max(0, limit))).fetchall()


# ----------------------------------------------------------------------------- core blocks
def core_blocks(conn: sqlite3.Connection) -> dict[str, str]:
    """Core blocks, name -> text (sorted by name)."""
    return dict(conn.execute("SELECT name, text FROM core_blocks ORDER BY name").fetchall())


def put_core_block(conn: sqlite3.Connection, name: str, text: str, updated: str) -> None:
    conn.execute("INSERT OR REPLACE INTO core_blocks(name, text, updated) VALUES (?, ?, ?)",
                 (name, text, updated))


# ----------------------------------------------------------------------------- entities
def alias_entity(conn: sqlite3.Connection, alias_key: str) -> str | None:
    """The entity id an alias key (casefolded) names, or None."""
    row = conn.execute("SELECT entity_id FROM aliases WHERE alias = ?", (alias_key,)).fetchone()
    return row[0] if row else None


def entity_exists(conn: sqlite3.Connection, entity_id: str) -> bool:
    return conn.execute("SELECT 1 FROM entities WHERE id = ?", (entity_id,)).fetchone() is not None


def refine_entity_kind(conn: sqlite3.Connection, entity_id: str, kind: str) -> None:
    """Give an entity of the plain kind "entity" the more specific `kind`; any other kind stays."""
    conn.execute("UPDATE entities SET kind = ? WHERE id = ? AND kind = 'entity'", (kind, entity_id))


def insert_entity(conn: sqlite3.Connection, entity_id: str, name: str, kind: str, *,
                  if_new: bool = False) -> None:
    """Add an entity (if_new: leave an existing one of that id as it is)."""
    verb = "INSERT OR IGNORE" if if_new else "INSERT"
    conn.execute(f"{verb} INTO entities(id, name, kind) VALUES (?, ?, ?)", (entity_id, name, kind))


def insert_alias(conn: sqlite3.Connection, alias_key: str, display: str, entity_id: str, *,
                 if_new: bool = False) -> None:
    """Add an alias (key casefolded, display as written) of an entity."""
    verb = "INSERT OR IGNORE" if if_new else "INSERT"
    conn.execute(f"{verb} INTO aliases(alias, display, entity_id) VALUES (?, ?, ?)",
                 (alias_key, display, entity_id))


def merge_entity(conn: sqlite3.Connection, into: str, other: str) -> None:
    """Move the aliases, memory links, note mentions and co-occurrences of entity `other`
    to `into`, then drop `other` (store/graph.move_entity)."""
    from cairn.store.graph import move_entity
    move_entity(conn, other, into)


def link_memory(conn: sqlite3.Connection, memory_id: str, entity_id: str) -> None:
    conn.execute("INSERT OR IGNORE INTO memory_entities(memory_id, entity_id) VALUES (?, ?)",
                 (memory_id, entity_id))


def alias_keys(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """Every (alias key, entity id)."""
    return conn.execute("SELECT alias, entity_id FROM aliases").fetchall()


def alias_names(conn: sqlite3.Connection) -> list[str]:
    """Every alias key (casefolded)."""
    return [a for (a,) in conn.execute("SELECT alias FROM aliases")]


def memories_of_entities(conn: sqlite3.Connection, entity_ids: Iterable[str]) -> set[str]:
    """Ids of the memories linked to any of `entity_ids`."""
    ids = list(entity_ids)
    if not ids:
        return set()
    return {r[0] for r in conn.execute(
        f"SELECT memory_id FROM memory_entities WHERE entity_id IN ({','.join('?' * len(ids))})", ids)}


def entity(conn: sqlite3.Connection, entity_id: str) -> dict[str, Any] | None:
    """{"name", "kind", "aliases": [display, sorted]} of one entity, or None."""
    row = conn.execute("SELECT name, kind FROM entities WHERE id = ?", (entity_id,)).fetchone()
    if row is None:
        return None
    aliases = [r[0] for r in conn.execute(
        "SELECT display FROM aliases WHERE entity_id = ? ORDER BY display", (entity_id,))]
    return {"name": row[0], "kind": row[1], "aliases": aliases}


def list_entities(conn: sqlite3.Connection) -> list[dict]:
    """Every entity: {"id", "name", "kind", "aliases": [display names], "memories": count,
    "notes": number of notes mentioning it (store/graph.py)}."""
    aliases: dict[str, list[str]] = {}
    for eid, display in conn.execute("SELECT entity_id, display FROM aliases ORDER BY display"):
        aliases.setdefault(eid, []).append(display)
    counts = dict(conn.execute("SELECT entity_id, count(*) FROM memory_entities GROUP BY entity_id"))
    from cairn.store.graph import note_counts
    notes = note_counts(conn)
    return [{"id": row[0], "name": row[1], "kind": row[2], "aliases": aliases.get(row[0], []),
             "memories": counts.get(row[0], 0), "notes": notes.get(row[0], 0)}
            for row in conn.execute("SELECT id, name, kind FROM entities ORDER BY name COLLATE NOCASE")]


# ----------------------------------------------------------------------------- rebuild
def clear_memory_tables(conn: sqlite3.Connection) -> None:
    """Empty every memory table (before a rebuild from the vault mirror), and the entity
    graph with the entities (store/graph.clear_graph: extracted again by the next pass)."""
    from cairn.store.graph import clear_graph
    clear_graph(conn)
    for table in ("memory_entities", "aliases", "entities", "memories_fts", "memories", "core_blocks"):
        conn.execute(f"DELETE FROM {table}")


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "memories")  # PostgreSQL twins when conn is a PgConn (store/route.py)
