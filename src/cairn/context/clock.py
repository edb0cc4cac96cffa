"""Today's date, time and time zone as a unit of the prompt's working band (issue 39,
EchOS E28): a model cannot tell "tomorrow" or "last week" without it.

    clock_text(datetime.now(timezone.utc), "Europe/London")
    # 'Now: Sunday 6 December 2026, 04:50 (Europe/London, UTC+00:00). Today is 2026-12-06.'

The zone is `[time] timezone` (IANA name; "" = this machine's zone, UTC when it cannot be
told: schedule.when.zone). The unit always holds today's date as ISO `YYYY-MM-DD` in that
zone (the contract of `cairn chat --why --json`). `hint_text`: the intent router's
understanding of the request, another pinned unit of the working band.
"""

from __future__ import annotations

from datetime import datetime, timezone

CLOCK_ID = "clock"


def zone_name(settings) -> str:
    """The person's IANA zone name from `[time] timezone` (the machine's zone when empty,
    "UTC" when that cannot be told or the setting names no zone)."""
    from cairn.errors import InvalidInput
    from cairn.schedule.when import zone
    try:
        return zone(getattr(getattr(settings, "time", None), "timezone", "") or "").key
    except (InvalidInput, AttributeError):
        return "UTC"


def clock_text(now: datetime | None, tz_name: str) -> str:
    """'Now: Sunday 6 December 2026, 04:50 (Europe/London, UTC+00:00). Today is 2026-12-06.'
    `now`: any aware datetime (None: the clock; naive = UTC); tz_name: an IANA zone (an
    unknown one is read as UTC)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    try:
        tz = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        tz, tz_name = ZoneInfo("UTC"), "UTC"
    now = now or datetime.now(timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    t = now.astimezone(tz)
    off = t.strftime("%z")
    offset = f"UTC{off[:3]}:{off[3:]}" if off else "UTC"
    return (f"Now: {t:%A} {t.day} {t:%B %Y}, {t:%H:%M} ({tz_name}, {offset}). "
            f"Today is {t.date().isoformat()}.")


HINT_MAX = 600  # characters of a hint kept in the prompt


def hint_text(hint: str) -> str:
    """The router's understanding of the request as a prompt line, marked as a hint the
    model may overrule (at most HINT_MAX characters)."""
    h = " ".join(hint.split())[:HINT_MAX]
    return f"How I understood the request (a hint; trust the person's words over it): {h}"
