"""A reminder's time as the assistant says it: `when_spoken` ("tomorrow at 07:45") and the list of open
reminders (`reminders_text`)."""

from __future__ import annotations

from datetime import datetime


def _read(iso: str | None) -> datetime | str:
    """`iso` read as a time; "" for None or "", `iso` itself when it is no ISO time."""
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso


def _local(iso: str | None) -> str:
    if isinstance(dt := _read(iso), str):
        return dt
    from cairn.schedule import when as W
    return W.normalise(dt, W.zone(None)).strftime("%a %d %b %Y, %H:%M")


def when_spoken(iso: str | None, now: datetime | None = None) -> str:
    """A reminder's time as said to the person, in the local zone: "today at 22:30", "tomorrow at 07:45",
    "on Saturday at 19:00" (within the coming week), "on Saturday 9 January at 19:00" (later; the year added
    when it is not this one's). `iso` is an ISO time (UTC "...+00:00" as the scheduler stores it, or a naive
    local "YYYY-MM-DD HH:MM" as a correction gives it); `now` (aware or naive local; default the clock) fixes
    "today". Returns `iso` itself when it is no ISO time, "" for None or ""."""
    if isinstance(dt := _read(iso), str):
        return dt
    from cairn.schedule import when as W
    tz = W.zone(None)
    dt = W.normalise(dt, tz) if dt.tzinfo else dt
    now = now or datetime.now(tz)
    now = W.normalise(now, tz) if now.tzinfo else now
    days = (dt.date() - now.date()).days
    clock = dt.strftime("%H:%M")
    if days == 0:
        return f"today at {clock}"
    if days == 1:
        return f"tomorrow at {clock}"
    if 1 < days < 7:
        return f"on {dt.strftime('%A')} at {clock}"
    year = f" {dt.year}" if dt.year != now.year else ""
    return f"on {dt.strftime('%A')} {dt.day} {dt.strftime('%B')}{year} at {clock}"


def reminders_text(rows: list[dict]) -> str:
    """The person's open reminders, one a line with the next time (and how it repeats)."""
    open_ = [r for r in rows if r.get("state") in ("scheduled", "delivered", "failed")]
    if not open_:
        return "You have no reminders set."
    lines = []
    for r in open_:
        sched = str(r.get("schedule") or "")
        when = _local(r.get("next_due"))
        lines.append(f"- {r.get('text')} — {when}" + (f" (repeats: {sched})" if sched.lower().startswith("every") else ""))
    return f"You have {len(open_)} reminder(s):\n" + "\n".join(lines)
