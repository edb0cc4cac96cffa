"""Times compared as instants, whatever offset they were written with.

Stored times keep the text they were given (a chat message's `+02:00`, an import's `Z`, a
naive `2024-06-01T09:00`), so a person reads back what they wrote; every comparison goes
through `instant`, which maps each to one representation: UTC "YYYY-MM-DDTHH:MM:SSZ"
(`parse.markdown.to_iso`: an offset is applied, `Z` is UTC, a naive time or a bare date is
taken as UTC — the rule the index uses for notes' dates — and epoch seconds are read).
Strings in that form sort in time order, so SQL compares them with `>=`.

`register(conn)` adds the SQL function `cairn_instant(text)` to a connection (deterministic;
a text already in the UTC form is returned by SQL without a Python call, see
`SQL_INSTANT`).
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache

_CANONICAL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@lru_cache(maxsize=65536)
def instant(value: str | None) -> str | None:
    """`value` as UTC "YYYY-MM-DDTHH:MM:SSZ" ("2024-06-01T09:00:00+02:00" ->
    "2024-06-01T07:00:00Z", "2024-06-01" -> "2024-06-01T00:00:00Z"); None for None or
    empty; a text that is no readable time is returned as it is (it then compares as text,
    as before). Never raises."""
    if value is None or value == "":
        return None
    if _CANONICAL.fullmatch(value):
        return value
    from cairn.parse.markdown import to_iso

    try:
        return to_iso(value)
    except (ValueError, OverflowError, TypeError):
        return value


def register(conn: sqlite3.Connection) -> None:
    """Add `cairn_instant(text)` (see `instant`) to `conn`."""
    conn.create_function("cairn_instant", 1, instant, deterministic=True)


def sql_instant(expr: str) -> str:
    """SQL for the instant of the text expression `expr`: canonical UTC texts are kept as
    they are by SQLite (GLOB), others go through `cairn_instant` (call `register` first)."""
    return (f"(CASE WHEN {expr} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z' "
            f"THEN {expr} ELSE cairn_instant({expr}) END)")
