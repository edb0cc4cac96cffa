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

import datetime as dt
import re
import sqlite3
from functools import lru_cache
from typing import Any

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


def to_iso(value: Any) -> str | None:
    """A date-ish value -> "YYYY-MM-DDTHH:MM:SSZ" (UTC, the year always four digits). None for
    None/""; ValueError if unreadable or outside years 1-9999 once in UTC."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a date: {value!r}")
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, (int, float)):
        moment = _from_epoch(value)
    elif isinstance(value, str):
        s = value.strip()
        if re.fullmatch(r"-?\d{9,14}(?:\.\d+)?", s):
            moment = _from_epoch(float(s))
        else:
            if s.endswith(("Z", "z")):
                s = s[:-1] + "+00:00"
            try:
                moment = dt.datetime.fromisoformat(s)
            except ValueError:
                raise ValueError(f"not an ISO date: {value!r}") from None
    else:
        raise ValueError(f"not a date: {value!r}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    try:
        moment = moment.astimezone(dt.timezone.utc)
    except OverflowError:  # 9999-12-31T23:30-05:00 is past year 9999 in UTC
        shown = value.isoformat() if isinstance(value, dt.date) else value
        raise ValueError(f"date out of range (years 1-9999 in UTC): {shown!r}") from None
    return f"{moment.year:04d}-" + moment.strftime("%m-%dT%H:%M:%SZ")  # %Y gives "1", not "0001"


def _from_epoch(value: float) -> dt.datetime:
    seconds = value / 1000.0 if abs(value) >= 1e11 else float(value)
    try:
        return dt.datetime.fromtimestamp(seconds, tz=dt.timezone.utc)
    except (OverflowError, OSError, ValueError):
        raise ValueError(f"epoch value out of range: {value!r}") from None
