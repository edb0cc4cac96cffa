"""Wikilinks in the index (SQLite implementation): the links each note's text holds, and the
names (path, title, aliases) links resolve against. Resolution is cairn.links'.
"""

from __future__ import annotations

import sqlite3

_LINK_SQL = "SELECT note_id, target, alias, anchor, embed, start FROM links"


def note_names(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """(id, path, title, aliases as a JSON list, source) of every note."""
    return conn.execute("SELECT id, path, title, aliases, source FROM notes").fetchall()


def links_of(conn: sqlite3.Connection, note_id: str) -> list[sqlite3.Row]:
    """(note_id, target, alias, anchor, embed, start) of the links written in one note, in
    text order (frontmatter links, start < 0, last)."""
    return conn.execute(_LINK_SQL + " WHERE note_id = ? ORDER BY start < 0, start, rowid", (note_id,)).fetchall()


def links_elsewhere(conn: sqlite3.Connection, note_id: str) -> list[sqlite3.Row]:
    """The links with a target written in every other note, by note then position."""
    return conn.execute(_LINK_SQL + " WHERE note_id != ? AND target != '' ORDER BY note_id, start",
                        (note_id,)).fetchall()


def all_links(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Every link with a target."""
    return conn.execute(_LINK_SQL + " WHERE target != ''").fetchall()


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "links")  # PostgreSQL twins when conn is a PgConn (store/route.py)
