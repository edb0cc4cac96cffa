"""Resolve relative time words against the time the message was *said* (case B19).

    resolve_event_time("dentist tomorrow at 3pm", datetime(2025, 11, 19, 18, 30, tzinfo=...))
    -> ("2025-11-20T15:00:00+01:00", "dentist tomorrow at 3pm (2025-11-20 15:00)")

Rule-based (no model): today/tonight/tomorrow/yesterday/the day after tomorrow/the day before
yesterday, optional "at 3pm" / "at 15:30"; next/last/this week (-> Monday of that week, an
ISO date), next/last month (-> YYYY-MM), in N minutes/hours/days/weeks, N days/weeks ago,
[on|next|last|this] Monday..Sunday; an ISO date already in the text is taken as is. Only the
first expression found is resolved. The anchor's time zone is kept (wall-clock arithmetic, so
a ZoneInfo anchor stays right across DST changes).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_UNITS = {"minute": 60, "min": 60, "hour": 3600, "day": 86400, "week": 7 * 86400}
_NUM_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
              "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

_TIME = r"(?:\s+at\s+(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?)?"
_DAYWORD = re.compile(r"\b(?P<w>the day after tomorrow|the day before yesterday|tomorrow|yesterday"
                      r"|today|tonight)\b" + _TIME, re.I)
_WEEKDAY = re.compile(r"\b(?:(?P<rel>next|last|this|on)\s+)?(?P<d>" + "|".join(WEEKDAYS) + r")\b"
                      + _TIME, re.I)
_WEEK = re.compile(r"\b(?P<rel>next|last|this)\s+(?P<u>week|month)\b", re.I)
_IN = re.compile(r"\bin\s+(?P<n>\d+|" + "|".join(_NUM_WORDS) + r")\s+(?P<u>minute|min|hour|day|week)s?\b", re.I)
_AGO = re.compile(r"\b(?P<n>\d+|" + "|".join(_NUM_WORDS) + r")\s+(?P<u>minute|hour|day|week)s?\s+ago\b", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b")


def _clock(m: re.Match, day: datetime) -> tuple[datetime, bool]:
    """`day` at the match's "at H[:MM][am|pm]" time (midnight if none); (dt, has_time)."""
    if not m.group("h"):
        return day.replace(hour=0, minute=0, second=0, microsecond=0), False
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    ap = (m.group("ap") or "").lower().replace(".", "")
    if ap == "pm" and hour < 12:
        hour += 12
    elif ap == "am" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return day.replace(hour=0, minute=0, second=0, microsecond=0), False
    return day.replace(hour=hour, minute=minute, second=0, microsecond=0), True


def _num(word: str) -> int:
    return int(word) if word.isdigit() else _NUM_WORDS[word.lower()]


def _fmt(dt: datetime, has_time: bool) -> tuple[str, str]:
    """(stored ISO value, human label inserted into the text)."""
    if has_time:
        return dt.isoformat(), dt.strftime("%Y-%m-%d %H:%M")
    return dt.date().isoformat(), dt.date().isoformat()


def _insert(text: str, m: re.Match, label: str) -> str:
    return f"{text[:m.end()]} ({label}){text[m.end():]}"


def resolve_event_time(text: str, anchor: datetime) -> tuple[str | None, str]:
    """(ISO event time or None, text with the absolute date inserted after the phrase).

    anchor: the aware datetime the text was said at (a naive one is taken as is). The ISO
    value is a full timestamp when a clock time is known, else a date (YYYY-MM-DD, or YYYY-MM
    for next/last month); relative words are kept in the text and the absolute date follows
    them in parentheses. Returns (None, text) when nothing temporal is found. Never raises.
    """
    if _ISO.search(text):
        found = _ISO.search(text).group(0)
        return found, text
    candidates: list[tuple[int, str, re.Match]] = []
    for name, rx in (("day", _DAYWORD), ("weekday", _WEEKDAY), ("week", _WEEK), ("in", _IN), ("ago", _AGO)):
        m = rx.search(text)
        if m:
            candidates.append((m.start(), name, m))
    if not candidates:
        return None, text
    _, name, m = min(candidates, key=lambda c: c[0])
    midnight = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
    if name == "day":
        word = m.group("w").lower()
        offset = {"the day after tomorrow": 2, "the day before yesterday": -2, "tomorrow": 1,
                  "yesterday": -1, "today": 0, "tonight": 0}[word]
        dt, has_time = _clock(m, midnight + timedelta(days=offset))
    elif name == "weekday":
        target = WEEKDAYS.index(m.group("d").lower())
        rel = (m.group("rel") or "").lower()
        delta = (target - anchor.weekday()) % 7
        if rel == "last":
            delta = delta - 7 if delta else -7
        elif rel == "next" and delta == 0:
            delta = 7
        dt, has_time = _clock(m, midnight + timedelta(days=delta))
    elif name == "week":
        rel = m.group("rel").lower()
        step = {"next": 1, "last": -1, "this": 0}[rel]
        if m.group("u").lower() == "week":
            monday = midnight - timedelta(days=anchor.weekday()) + timedelta(weeks=step)
            iso = monday.date().isoformat()
            return iso, _insert(text, m, f"week of {iso}")
        month_index = anchor.year * 12 + anchor.month - 1 + step
        iso = f"{month_index // 12:04d}-{month_index % 12 + 1:02d}"
        return iso, _insert(text, m, iso)
    else:
        n, unit = _num(m.group("n")), m.group("u").lower()
        seconds = n * _UNITS[unit] * (1 if name == "in" else -1)
        if unit in ("day", "week"):
            dt, has_time = midnight + timedelta(seconds=seconds), False
        else:
            dt, has_time = (anchor + timedelta(seconds=seconds)).replace(microsecond=0), True
    iso, label = _fmt(dt, has_time)
    return iso, _insert(text, m, label)


def parse_time(value: str) -> datetime:
    """An ISO 8601 time ("2025-11-19T18:30:00+01:00", "2025-11-19 18:30", "2025-11-19");
    without an offset it is taken in the local time zone. Raises ValueError naming the value."""
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        raise ValueError(f"{value!r} is not an ISO 8601 time (e.g. 2025-11-19T18:30:00+01:00)") from None
    return dt if dt.tzinfo is not None else dt.astimezone()
