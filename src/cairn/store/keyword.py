"""The keyword index of chunks (SQLite implementation: the FTS5 table `chunks_fts`, BM25
ranking) and the chunk look-ups search needs. A query comes parsed (search/query.py) and
rendered (store/fts.py `render`: a `Match`, whose str() is the MATCH expression); search
(cairn.search.hybrid) fuses the scores and never sees SQL.

A malformed query or an FTS5 failure raises `KeywordQueryError` (message: the backend's
own), so the layers above need not know the backend's exception types.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Iterable

from cairn import instants
from cairn.store.fts import Match


# A note visible to the person bound to `?` (cairn.people): their own, or shared.
# The owner is compared as cairn.people.person_key folds it (the bound value is the key):
# surrounding spaces trimmed, case folded (names are ASCII: check_person).
OWNER_SQL = ("(lower(trim(coalesce(json_extract(n.meta, '$.cairn_owner'), ''))) = ? "
             "OR json_extract(n.meta, '$.shared') IS 1)")


class KeywordQueryError(RuntimeError):
    """The keyword index refused or failed a query; str() is the backend's message."""


def input_source_sql(field, percent: str = "%") -> str:
    """SQL telling how a note came in from the index's copy of its frontmatter, by the rule of
    cairn.model.input_source_of (a note written before `input_source` existed gets the same
    answer here as in Python). field(key): the SQL of one frontmatter value as text (or NULL);
    percent: how a literal "%" is written (psycopg: "%%")."""
    src = f"lower(coalesce(nullif({field('source')}, ''), nullif({field('cairn_source')}, ''), ''))"
    given = f"lower({field('input_source')})"
    return (f"(CASE WHEN {given} IN ('text', 'voice', 'url', 'file', 'image', 'import') THEN {given}"
            f" WHEN coalesce({field('import_source')}, '') != '' THEN 'import'"
            f" WHEN {src} LIKE 'http://{percent}' OR {src} LIKE 'https://{percent}' THEN 'url'"
            " WHEN n.type = 'image' THEN 'image' WHEN n.type = 'audio' THEN 'voice'"
            f" WHEN {src} != '' THEN 'file' ELSE 'text' END)")


INPUT_SOURCE_SQL = input_source_sql(lambda key: f"json_extract(n.meta, '$.{key}')")


def filtered_chunk_ids(conn: sqlite3.Connection, types: list[str] | None, since: str | None,
                       until: str | None = None, tag: str | None = None,
                       person: str | None = None, status: str | None = None,
                       input_source: str | None = None) -> set[int] | None:
    """Ids of the chunks passing the filters; None when no filter is given (every chunk is
    allowed). types: note types to keep. since / until: ISO date or time; the chunk's time
    (its event time, else the note's event, created, updated or indexed time) is on or after
    `since` and before the day after `until` (a bare date counts whole). Times are compared as
    instants (cairn.instants: stored texts keep the offset they were written with, so they do
    not sort in time order). tag: one of the note's tags, exactly. person: notes that person
    owns or that are shared (cairn.people; None: every note). status: the note's content status
    (frontmatter `status`; a note without one counts as "saved", cairn.notestatus).
    input_source: how the note came in (INPUT_SOURCE_SQL)."""
    if not types and not since and not until and not tag and person is None and not status and not input_source:
        return None
    where, args = [], []
    if person is not None:
        where.append(OWNER_SQL)
        args.append(person.strip().casefold())  # as cairn.people.person_key
    when = "coalesce(c.event_time, n.event_time, n.created, n.updated, n.indexed_at)"
    if since or until:
        instants.register(conn)
        when = instants.sql_instant(when)
    if types:
        where.append(f"n.type IN ({','.join('?' * len(types))})")
        args.extend(types)
    if since:
        where.append(f"{when} >= ?")
        args.append(instants.instant(since) or since)
    if until:
        end, op = until, "<="
        if len(until) == 10:  # a bare date counts whole: up to the start of the next day
            try:
                end, op = (date.fromisoformat(until) + timedelta(days=1)).isoformat(), "<"
            except ValueError:
                pass
        where.append(f"{when} {op} ?")
        args.append(instants.instant(end) or end)
    if tag:
        where.append("EXISTS (SELECT 1 FROM json_each(n.tags) WHERE json_each.value = ?)")
        args.append(tag)
    if status:
        where.append("lower(coalesce(json_extract(n.meta, '$.status'), 'saved')) = ?")
        args.append(status)
    if input_source:
        where.append(f"{INPUT_SOURCE_SQL} = ?")
        args.append(input_source)
    rows = conn.execute(
        f"SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id WHERE {' AND '.join(where)}", args)
    return {r[0] for r in rows}


def chunk_units(conn: sqlite3.Connection, ids: Iterable[int]) -> set[tuple[str, str | None]]:
    """The units of these chunks: (note id, source id) for a chat message, (note id, None)
    for any other note."""
    ids = list(ids)
    out: set[tuple[str, str | None]] = set()
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        out |= {(r[0], r[1] if r[2] == "chat" else None) for r in conn.execute(
            f"""SELECT c.note_id, c.source_id, n.type FROM chunks c JOIN notes n ON n.id = c.note_id
                WHERE c.id IN ({','.join('?' * len(part))})""", part)}
    return out


def chunk_count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM chunks").fetchone()[0]


def max_chunk_id(conn: sqlite3.Connection) -> int:
    """The largest chunk id (0 for an empty index): a cheap upper bound of the chunk count."""
    return conn.execute("SELECT max(rowid) FROM chunks").fetchone()[0] or 0


def document_frequency(conn: sqlite3.Connection, word: str, prefix: bool = False) -> int:
    """Chunks whose keyword row holds `word` (lower-cased; `prefix`: words starting with
    it); 0 when the index cannot answer."""
    phrase = '"' + word.lower().replace('"', '""') + '"' + ("*" if prefix else "")
    try:
        return conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (phrase,)).fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def bm25(conn: sqlite3.Connection, match: "Match | str", weights: tuple[float, float, float],
         limit: int) -> list[tuple[int, float]]:
    """(chunk id, BM25 score, higher is better) of the best `limit` matches of `match` (a
    store.fts.Match, or its FTS5 text), with column weights (title, body, tags). Raises
    KeywordQueryError."""
    sql = (f"SELECT rowid, -bm25(chunks_fts, {weights[0]}, {weights[1]}, {weights[2]}) AS s FROM chunks_fts "
           f"WHERE chunks_fts MATCH ? ORDER BY s DESC LIMIT ?")
    try:
        return [(r[0], float(r[1])) for r in conn.execute(sql, (str(match), limit)).fetchall()]
    except sqlite3.OperationalError as exc:
        raise KeywordQueryError(str(exc)) from exc


def chunk_details(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, sqlite3.Row]:
    """{chunk id: row} with the chunk's id, note_id, source_id, text, start, end, page,
    c_time (its event time), speaker and its note's title, path, source, type, and `t` (the
    chunk's time: its event time, else the note's event, updated, created or indexed time)."""
    ids = list(ids)
    rows: dict[int, sqlite3.Row] = {}
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for r in conn.execute(
            f"""SELECT c.id, c.note_id, c.source_id, c.text, c.start, c."end", c.page,
                       c.event_time AS c_time, c.speaker, n.title, n.path, n.source, n.type,
                       coalesce(c.event_time, n.event_time, n.updated, n.created, n.indexed_at) AS t
                FROM chunks c JOIN notes n ON n.id = c.note_id
                WHERE c.id IN ({','.join('?' * len(part))})""", part):
            rows[r["id"]] = r
    return rows


def embeddable_chunk_count(conn: sqlite3.Connection, max_chunks_per_note: int) -> int:
    """Chunks among the first `max_chunks_per_note` of their note (those that get a vector)."""
    return conn.execute("SELECT count(*) FROM chunks WHERE ord < ?", (max_chunks_per_note,)).fetchone()[0]


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "keyword")  # PostgreSQL twins when conn is a PgConn (store/route.py)
