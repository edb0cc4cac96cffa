"""SQL of the entity graph (tables of migration 8; see cairn/graph/ for what fills them).

Units: a note ('' source_id) or one chat message of it (its source_id). Mentions are
(note_id, source_id, entity_id, method, count); co-occurrence rows keep a < b.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable


def stale_notes(conn: sqlite3.Connection, limit: int | None = None) -> list[sqlite3.Row]:
    """Notes whose entities were never extracted or were extracted from other bytes:
    rows of (id, title, type, source, tags, meta, file_hash, event_time, created)."""
    sql = """SELECT n.id, n.title, n.type, n.source, n.tags, n.meta, n.file_hash,
                    coalesce(n.event_time, n.created, n.updated, n.indexed_at) AS t
             FROM notes n LEFT JOIN graph_state g ON g.note_id = n.id
             WHERE g.file_hash IS NULL OR g.file_hash != n.file_hash"""
    if limit:
        sql += f" LIMIT {int(limit)}"
    return conn.execute(sql).fetchall()


def note_chunks(conn: sqlite3.Connection, note_id: str) -> list[sqlite3.Row]:
    """(text, source_id, speaker, event_time) of a note's chunks, in order."""
    return conn.execute("SELECT text, source_id, speaker, event_time FROM chunks WHERE note_id = ? "
                        "ORDER BY ord", (note_id,)).fetchall()


def note_link_targets(conn: sqlite3.Connection, note_id: str) -> list[str]:
    """Wikilink targets of a note (as written)."""
    return [r[0] for r in conn.execute("SELECT target FROM links WHERE note_id = ?", (note_id,))]


def mentions_of_note(conn: sqlite3.Connection, note_id: str) -> list[tuple[str, str]]:
    """(source_id, entity_id) of a note's current mentions."""
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT source_id, entity_id FROM entity_mentions WHERE note_id = ?", (note_id,))]


def replace_mentions(conn: sqlite3.Connection, note_id: str, file_hash: str,
                     rows: Iterable[tuple[str, str, str, int]]) -> None:
    """Replace a note's mentions with `rows` of (source_id, entity_id, method, count) and
    record the file hash they were extracted from."""
    conn.execute("DELETE FROM entity_mentions WHERE note_id = ?", (note_id,))
    conn.executemany("""INSERT INTO entity_mentions(note_id, source_id, entity_id, method, count)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(note_id, source_id, entity_id) DO UPDATE SET count = count + excluded.count""",
                     [(note_id, s, e, m, c) for s, e, m, c in rows])
    conn.execute("INSERT OR REPLACE INTO graph_state(note_id, file_hash) VALUES (?, ?)", (note_id, file_hash))


def add_cooccur(conn: sqlite3.Connection, pairs: dict[tuple[str, str], int], when: dict[tuple[str, str], str | None],
                sign: int = 1) -> None:
    """Add (sign=1) or remove (sign=-1) pair counts; first/last dates widen on add.
    Rows whose count falls to 0 are deleted. One prepared statement for all pairs
    (executemany: a note of 12 names has 66 pairs)."""
    if sign > 0:
        conn.executemany("""INSERT INTO entity_cooccur(a, b, count, first, last) VALUES (?, ?, ?, ?, ?)
                            ON CONFLICT(a, b) DO UPDATE SET count = count + excluded.count,
                              first = CASE WHEN excluded.first IS NULL THEN first WHEN first IS NULL
                                      OR excluded.first < first THEN excluded.first ELSE first END,
                              last = CASE WHEN excluded.last IS NULL THEN last WHEN last IS NULL
                                     OR excluded.last > last THEN excluded.last ELSE last END""",
                         [(a, b, n, when.get((a, b)), when.get((a, b))) for (a, b), n in pairs.items()])
    else:
        conn.executemany("UPDATE entity_cooccur SET count = count - ? WHERE a = ? AND b = ?",
                         [(n, a, b) for (a, b), n in pairs.items()])
    if sign < 0:
        conn.execute("DELETE FROM entity_cooccur WHERE count <= 0")


def units_of_entity(conn: sqlite3.Connection, entity_id: str, limit: int) -> list[tuple[tuple[str, str], str]]:
    """((note_id, source_id), method) of the units mentioning an entity, most mentions
    first, at most `limit`."""
    return [((r[0], r[1]), r[2]) for r in conn.execute(
        "SELECT note_id, source_id, method FROM entity_mentions WHERE entity_id = ? ORDER BY count DESC LIMIT ?",
        (entity_id, limit))]


def entity_df(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, int]:
    """Number of units mentioning each entity."""
    ids = list(ids)
    if not ids:
        return {}
    return dict(conn.execute(f"SELECT entity_id, count(*) FROM entity_mentions WHERE entity_id IN "
                             f"({','.join('?' * len(ids))}) GROUP BY entity_id", ids).fetchall())


def unit_count(conn: sqlite3.Connection) -> int:
    """Number of distinct units with any mention."""
    return conn.execute("SELECT count(*) FROM (SELECT DISTINCT note_id, source_id FROM entity_mentions)").fetchone()[0]


def neighbours(conn: sqlite3.Connection, entity_id: str, limit: int) -> list[tuple[str, int, str | None, str | None]]:
    """Entities co-occurring with `entity_id`: (other_id, count, first, last), most first."""
    return [(r[0], r[1], r[2], r[3]) for r in conn.execute(
        """SELECT CASE WHEN a = ? THEN b ELSE a END, count, first, last FROM entity_cooccur
           WHERE a = ? OR b = ? ORDER BY count DESC LIMIT ?""", (entity_id, entity_id, entity_id, limit))]


def entities_of_units(conn: sqlite3.Connection, units: Iterable[tuple[str, str | None]]) -> dict[str, int]:
    """{entity_id: number of the given units mentioning it} (a note unit also matches its
    whole-note mentions)."""
    out: dict[str, int] = {}
    for note_id, source_id in units:
        for (eid,) in conn.execute("SELECT DISTINCT entity_id FROM entity_mentions WHERE note_id = ? "
                                   "AND source_id IN ('', ?)", (note_id, source_id or "")):
            out[eid] = out.get(eid, 0) + 1
    return out


def unit_chunks(conn: sqlite3.Connection, units: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The first chunk id of each unit (a chat message's chunk, or a note's first chunk)."""
    out: dict[tuple[str, str], int] = {}
    for note_id, source_id in units:
        if source_id:
            row = conn.execute("SELECT id FROM chunks WHERE note_id = ? AND source_id = ? ORDER BY ord LIMIT 1",
                               (note_id, source_id)).fetchone()
        else:
            row = conn.execute("SELECT id FROM chunks WHERE note_id = ? ORDER BY ord LIMIT 1", (note_id,)).fetchone()
        if row:
            out[(note_id, source_id)] = row[0]
    return out


def chunk_ids_of_entity(conn: sqlite3.Connection, entity_id: str) -> set[int]:
    """Ids of the chunks of every unit mentioning an entity (the `--entity` filter)."""
    return {r[0] for r in conn.execute(
        """SELECT c.id FROM entity_mentions m JOIN chunks c ON c.note_id = m.note_id
           AND (m.source_id = '' OR c.source_id = m.source_id) WHERE m.entity_id = ?""", (entity_id,))}


def notes_of_entity(conn: sqlite3.Connection, entity_id: str, limit: int = 50) -> list[dict]:
    """Notes mentioning an entity: {"id", "title", "path", "mentions", "methods"}."""
    rows = conn.execute(
        """SELECT n.id, n.title, n.path, sum(m.count), group_concat(DISTINCT m.method)
           FROM entity_mentions m JOIN notes n ON n.id = m.note_id WHERE m.entity_id = ?
           GROUP BY n.id ORDER BY sum(m.count) DESC, n.title LIMIT ?""", (entity_id, limit))
    return [{"id": r[0], "title": r[1], "path": r[2], "mentions": r[3],
             "methods": sorted((r[4] or "").split(","))} for r in rows]


def memories_of_entity(conn: sqlite3.Connection, entity_id: str, limit: int = 50) -> list[dict]:
    """Live memories linked to an entity: {"id", "text"}."""
    rows = conn.execute(
        """SELECT m.id, m.text FROM memory_entities e JOIN memories m ON m.id = e.memory_id
           WHERE e.entity_id = ? AND m.tombstone = 0 ORDER BY m.created DESC LIMIT ?""", (entity_id, limit))
    return [{"id": r[0], "text": r[1]} for r in rows]


def note_mention_pairs(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(entity id, note id) of every note mentioning an entity, once per pair (what one
    person sees of the graph is cut from these: graph/view.py)."""
    return [(r[0], r[1]) for r in conn.execute("SELECT DISTINCT entity_id, note_id FROM entity_mentions")]


def memory_link_pairs(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """(entity id, memory id, memory scope) of every live memory linked to an entity."""
    return [(r[0], r[1], r[2]) for r in conn.execute(
        """SELECT e.entity_id, m.id, m.scope FROM memory_entities e JOIN memories m ON m.id = e.memory_id
           WHERE m.tombstone = 0""")]


def move_entity(conn: sqlite3.Connection, src: str, dst: str) -> None:
    """Move every alias, mention, memory link and co-occurrence of entity `src` onto `dst`
    and delete `src` (a merge)."""
    conn.execute("UPDATE aliases SET entity_id = ? WHERE entity_id = ?", (dst, src))
    conn.execute("""INSERT OR IGNORE INTO memory_entities(memory_id, entity_id)
                    SELECT memory_id, ? FROM memory_entities WHERE entity_id = ?""", (dst, src))
    conn.execute("""INSERT INTO entity_mentions(note_id, source_id, entity_id, method, count)
                    SELECT note_id, source_id, ?, method, count FROM entity_mentions WHERE entity_id = ?
                    ON CONFLICT(note_id, source_id, entity_id) DO UPDATE SET count = count + excluded.count""",
                 (dst, src))
    for other, n, first, last in neighbours(conn, src, 1_000_000):
        if other == dst:
            continue
        a, b = sorted((dst, other))
        add_cooccur(conn, {(a, b): n}, {(a, b): first})
        if last:
            add_cooccur(conn, {(a, b): 0}, {(a, b): last})
    conn.execute("DELETE FROM entity_cooccur WHERE a = ? OR b = ?", (src, src))
    conn.execute("DELETE FROM entity_mentions WHERE entity_id = ?", (src,))
    conn.execute("DELETE FROM memory_entities WHERE entity_id = ?", (src,))
    conn.execute("DELETE FROM entities WHERE id = ?", (src,))


def forget_state(conn: sqlite3.Connection, entity_id: str) -> None:
    """Mark every note mentioning an entity for re-extraction (after a split)."""
    conn.execute("""DELETE FROM graph_state WHERE note_id IN
                    (SELECT DISTINCT note_id FROM entity_mentions WHERE entity_id = ?)""", (entity_id,))


def chat_neighbours(conn: sqlite3.Connection, chunk_ids: Iterable[int], span: int = 1) -> dict[int, list[tuple[int, int]]]:
    """{chunk_id: [(id, distance)] of the chunks up to `span` places before and after it in
    its chat note} for the given chunks of chat notes (by `ord`; other notes are left out)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for cid in chunk_ids:
        row = conn.execute("""SELECT c.note_id, c.ord FROM chunks c JOIN notes n ON n.id = c.note_id
                              WHERE c.id = ? AND n.type = 'chat'""", (cid,)).fetchone()
        if row is None:
            continue
        out[cid] = [(r[0], abs(r[1] - row[1])) for r in conn.execute(
            "SELECT id, ord FROM chunks WHERE note_id = ? AND ord BETWEEN ? AND ? AND ord != ?",
            (row[0], row[1] - span, row[1] + span, row[1]))]
    return out


def replied_to(conn: sqlite3.Connection, chunk_ids: Iterable[int]) -> dict[int, str]:
    """{chunk_id: text of the message just before it, written by someone else} for the given
    chunks of chat notes (the chunk at `ord` - 1 of the same note, when its speaker differs:
    the turn a message replies to). Chunks of other notes, first messages and a speaker's
    second message in a row are left out."""
    out: dict[int, str] = {}
    for cid in chunk_ids:
        row = conn.execute("""SELECT p.text, p.speaker, c.speaker FROM chunks c
                              JOIN notes n ON n.id = c.note_id
                              JOIN chunks p ON p.note_id = c.note_id AND p.ord = c.ord - 1
                              WHERE c.id = ? AND n.type = 'chat'""", (cid,)).fetchone()
        if row is not None and row[0] and row[1] and row[1] != row[2]:
            out[cid] = row[0]
    return out


def clear_graph(conn: sqlite3.Connection) -> None:
    """Forget every extraction and co-occurrence count (inside the caller's transaction):
    the next graph pass (graph/update.py) extracts every note again. Mentions go with their
    notes or entities (foreign keys); the rest is emptied here."""
    conn.execute("DELETE FROM entity_mentions")
    conn.execute("DELETE FROM entity_cooccur")
    conn.execute("DELETE FROM graph_state")


def has_state(conn: sqlite3.Connection) -> bool:
    """True when any note's entities were extracted (graph_state has a row)."""
    return conn.execute("SELECT 1 FROM graph_state LIMIT 1").fetchone() is not None


def entity_name(conn: sqlite3.Connection, entity_id: str) -> str | None:
    """The display name of an entity, or None."""
    row = conn.execute("SELECT name FROM entities WHERE id = ?", (entity_id,)).fetchone()
    return row[0] if row else None


def entity_kind(conn: sqlite3.Connection, entity_id: str) -> str | None:
    """The kind of an entity, or None."""
    row = conn.execute("SELECT kind FROM entities WHERE id = ?", (entity_id,)).fetchone()
    return row[0] if row else None


def alias_keys_of(conn: sqlite3.Connection, entity_id: str) -> set[str]:
    """The alias keys (folded) of an entity."""
    return {r[0] for r in conn.execute("SELECT alias FROM aliases WHERE entity_id = ?", (entity_id,))}


def move_aliases(conn: sqlite3.Connection, keys: Iterable[str], src: str, dst: str) -> None:
    """Give the aliases with these keys of entity `src` to entity `dst` (a split)."""
    conn.executemany("UPDATE aliases SET entity_id = ? WHERE alias = ? AND entity_id = ?",
                     [(dst, k, src) for k in keys])


def rename_entity(conn: sqlite3.Connection, entity_id: str, name: str) -> None:
    conn.execute("UPDATE entities SET name = ? WHERE id = ?", (name, entity_id))


def first_alias_display(conn: sqlite3.Connection, entity_id: str) -> str | None:
    """The alphabetically first display name of an entity's aliases, or None."""
    row = conn.execute("SELECT display FROM aliases WHERE entity_id = ? ORDER BY display LIMIT 1",
                       (entity_id,)).fetchone()
    return row[0] if row else None


def linked_memories(conn: sqlite3.Connection, entity_id: str) -> list[tuple[str, str]]:
    """(memory id, JSON list of the names it was linked by) of the memories linked to an entity."""
    return [(r[0], r[1]) for r in conn.execute(
        """SELECT m.id, m.entities FROM memory_entities e JOIN memories m ON m.id = e.memory_id
           WHERE e.entity_id = ?""", (entity_id,))]


def unlink_memory(conn: sqlite3.Connection, memory_id: str, entity_id: str) -> None:
    conn.execute("DELETE FROM memory_entities WHERE memory_id = ? AND entity_id = ?", (memory_id, entity_id))


def note_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """{entity_id: number of notes mentioning it}."""
    return dict(conn.execute("SELECT entity_id, count(DISTINCT note_id) FROM entity_mentions GROUP BY entity_id"))


def entities_of_alias_keys(conn: sqlite3.Connection, keys: list[str]) -> list[tuple[str, str]]:
    """(alias key, entity id) of every alias whose key is one of `keys`."""
    out: list[tuple[str, str]] = []
    for i in range(0, len(keys), 400):
        part = keys[i:i + 400]
        out += [(r[0], r[1]) for r in conn.execute(
            f"SELECT alias, entity_id FROM aliases WHERE alias IN ({','.join('?' * len(part))})", part)]
    return out


def note_kinds(conn: sqlite3.Connection, note_ids: Iterable[str]) -> list[tuple[str, str, str | None, str | None]]:
    """(id, type, source, tags JSON) of the given notes."""
    ids = list(note_ids)
    out = []
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        out += [(r[0], r[1], r[2], r[3]) for r in conn.execute(
            f"SELECT id, type, source, tags FROM notes WHERE id IN ({','.join('?' * len(part))})", part)]
    return out


def reset_cooccur(conn: sqlite3.Connection) -> None:
    """Empty the co-occurrence counts (every note is about to be extracted again)."""
    conn.execute("DELETE FROM entity_cooccur")


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "graph")  # PostgreSQL twins when conn is a PgConn (store/route.py)


def entities_of_note(conn: sqlite3.Connection, note_id: str, limit: int = 30) -> list[dict]:
    """The entities a note mentions, most mentioned first: {"id", "name", "count"}."""
    rows = conn.execute(
        """SELECT m.entity_id, e.name, sum(m.count) FROM entity_mentions m JOIN entities e ON e.id = m.entity_id
           WHERE m.note_id = ? GROUP BY m.entity_id ORDER BY sum(m.count) DESC, e.name LIMIT ?""", (note_id, limit))
    return [{"id": r[0], "name": r[1], "count": r[2]} for r in rows]


def notes_sharing_entities(conn: sqlite3.Connection, note_id: str, limit: int = 10) -> list[dict]:
    """Other notes that mention the entities this note mentions, most shared first:
    {"id", "title", "path", "shared": [entity names]}."""
    rows = conn.execute(
        """SELECT n.id, n.title, n.path, group_concat(DISTINCT e.name) FROM entity_mentions a
           JOIN entity_mentions b ON b.entity_id = a.entity_id AND b.note_id != a.note_id
           JOIN notes n ON n.id = b.note_id JOIN entities e ON e.id = a.entity_id
           WHERE a.note_id = ? GROUP BY n.id ORDER BY count(DISTINCT a.entity_id) DESC, n.title LIMIT ?""",
        (note_id, limit))
    return [{"id": r[0], "title": r[1], "path": r[2], "shared": sorted((r[3] or "").split(","))} for r in rows]
