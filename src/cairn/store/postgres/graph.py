"""The entity graph on PostgreSQL: the SQL of store/graph.py, run through a small dialect
adapter (`SqliteDialect`) instead of a hand-written twin per function. The graph's SQL is
plain enough for that: `?` placeholders become `%s`, `INSERT OR IGNORE` becomes `ON CONFLICT
DO NOTHING`, `INSERT OR REPLACE INTO graph_state` an upsert, `group_concat` `string_agg`.
Its tables are migration 3 of store/postgres/schema.py. Every public function of
store/graph.py gets a twin of the same name here (`__getattr__` below), taking a psycopg
connection first.
"""

from __future__ import annotations

import re
from typing import Any

_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+", re.I)
_OR_REPLACE_STATE = re.compile(r"^\s*INSERT\s+OR\s+REPLACE\s+INTO\s+graph_state", re.I)
_GROUP_CONCAT = re.compile(r"group_concat\(\s*DISTINCT\s+([\w.]+)\s*\)", re.I)


def translate(sql: str) -> str:
    """PostgreSQL text of one store/graph.py statement. Raises ValueError for a construct
    the adapter does not know (so nothing runs half-translated)."""
    out = sql.replace("?", "%s")
    out = _GROUP_CONCAT.sub(r"string_agg(DISTINCT \1, ',')", out)
    if _OR_REPLACE_STATE.match(out):
        out = _OR_REPLACE_STATE.sub("INSERT INTO graph_state", out) + \
            " ON CONFLICT (note_id) DO UPDATE SET file_hash = excluded.file_hash"
    elif _OR_IGNORE.match(out):
        out = _OR_IGNORE.sub("INSERT ", out) + " ON CONFLICT DO NOTHING"
    head, sep, tail = out.partition("DO UPDATE SET")
    if sep:  # PostgreSQL: a bare column there is ambiguous (the row or `excluded`): qualify it
        table = re.search(r"INSERT\s+INTO\s+(\w+)", head, re.I).group(1)
        tail = re.sub(r"(?<![\w.])(count|first|last)\b(?!\s*=)", rf"{table}.\1", tail)
        out = head + sep + tail
    if re.search(r"\bOR\s+REPLACE\b|COLLATE\s+NOCASE|\bjson_each\b|\browid\b", out, re.I):
        raise ValueError(f"store/postgres/graph.py cannot translate: {sql.strip()[:80]}")
    return out


class SqliteDialect:
    """A psycopg connection that accepts store/graph.py's SQLite statements."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, args: Any = ()):
        return self._conn.execute(translate(sql), args)

    def executemany(self, sql: str, rows):
        with self._conn.cursor() as cur:
            cur.executemany(translate(sql), list(rows))


def __getattr__(name: str):
    from cairn.store import graph
    fn = getattr(graph, name, None)
    sqlite_fn = getattr(fn, "__wrapped_sqlite__", None)
    if sqlite_fn is None:
        raise AttributeError(name)

    def twin(conn, *args, **kwargs):
        return sqlite_fn(SqliteDialect(conn), *args, **kwargs)
    twin.__module__ = __name__
    twin.__name__ = name
    return twin
