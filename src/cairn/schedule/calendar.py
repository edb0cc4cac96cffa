"""Calendar events -> reminders, when the person asks (`cairn import ics PATH --reminders`,
the `remind_calendar` tool): one one-off reminder per upcoming occurrence of each event.

Rules (docs/reminders.md, docs/import.md):
- Only occurrences that start within `horizon` from now are taken; a repeating event is
  expanded (RRULE, RDATE, EXDATE, moved occurrences: cairn.ingest.importing.ics.upcoming).
- The reminder is due `before` ahead of the start ("30m", "1h", "2d", "0"); an all-day
  event's reminder is due at DEFAULT_HOUR (9:00) on its day in the person's zone. An
  occurrence whose reminder time has already passed gets none.
- Keyed by the event's UID + occurrence (RECURRENCE-ID): the reminder's id is derived from
  the key and the person, so importing the calendar again adds nothing; an occurrence moved
  or renamed in a later export has its reminder updated (if still scheduled); one the person
  marked done or cancelled is left alone.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from cairn.errors import InvalidInput
from cairn.schedule import when as W
from cairn.store import schedule as S

DEFAULT_BEFORE = "30m"
DEFAULT_HORIZON = "30d"
MAX_PER_EVENT = 60  # occurrences of one repeating event within the horizon
_SPAN = re.compile(r"^\s*(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?|w|weeks?)?\s*$", re.IGNORECASE)


def parse_span(text: str | None, default: str, what: str) -> timedelta:
    """"30m", "1h", "2d", "1w" or "0" -> a timedelta (a bare number is minutes). Raises
    InvalidInput naming `what` for anything else."""
    m = _SPAN.match(text if text is not None else default)
    if not m:
        raise InvalidInput(f"{what}: {text!r} is not a span of time (write 30m, 1h, 2d or 1w)")
    n, unit = int(m.group(1)), (m.group(2) or "m").lower()[0]
    return timedelta(minutes=n) if unit == "m" else timedelta(hours=n) if unit == "h" else \
        timedelta(days=n) if unit == "d" else timedelta(weeks=n)


@dataclass
class CalendarReminders:
    """What `remind_calendar` did: reminder texts added / updated / unchanged, occurrences
    passed over (reminder time already past) and events skipped (name, reason)."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    past: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict:
        """{"added", "updated", "unchanged", "past", "skipped": [[name, reason]]} (counts,
        except skipped)."""
        return {"added": len(self.added), "updated": len(self.updated), "unchanged": len(self.unchanged),
                "past": self.past, "skipped": [list(s) for s in self.skipped]}


def reminder_id(key: str, owner: str | None) -> str:
    """The stable reminder id of the occurrence `key` for `owner`: "r" + 10 hex (the shape of
    S.new_id, "c" in place of the first hex digit marks a calendar one)."""
    return "rc" + hashlib.sha1(f"{owner or ''}\n{key}".encode("utf-8")).hexdigest()[:9]


MAX_LOCATION_CHARS = 200  # of a reminder's text; the event's note keeps the whole location


def _clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending with "…" when it was cut."""
    return text if len(text) <= limit else text[:max(limit - 1, 0)].rstrip() + "…"


def _text(title: str, at_local: datetime | date, location: str | None) -> str:
    """The reminder text "TITLE — Mon 07 Dec 09:00, LOCATION", title and location cut (`_clip`)
    so that it holds at most scheduler.MAX_TEXT_CHARS characters, the limit of every
    reminder (the event's note, imported beside it, keeps the whole text)."""
    from cairn.schedule.scheduler import MAX_TEXT_CHARS
    when = at_local.strftime("%a %d %b %H:%M") if isinstance(at_local, datetime) else \
        at_local.strftime("%a %d %b") + " (all day)"
    tail = f" — {when}" + (f", {_clip(location, MAX_LOCATION_CHARS)}" if location else "")
    return _clip(title, MAX_TEXT_CHARS - len(tail)) + tail


def remind_calendar(scheduler, path: Path, *, before: str | None = None, horizon: str | None = None,
                    now: datetime | None = None, dry_run: bool = False) -> CalendarReminders:
    """Reminders for the upcoming occurrences of the events in the iCalendar file(s) at
    `path` (see the module docstring). `scheduler`: cairn.schedule.scheduler.Scheduler (its
    owner and zone are used). Raises InvalidInput for a bad span, ExportFormatError for a
    file that is not iCalendar or is cut off (no reminder is written then)."""
    from cairn.ingest.importing.ics import upcoming
    from cairn.ingest.importing.items import Skip
    ahead = parse_span(before, DEFAULT_BEFORE, "--before")
    span = parse_span(horizon, DEFAULT_HORIZON, "--horizon")
    now = now or datetime.now(timezone.utc)
    zone = scheduler.zone()
    out = CalendarReminders()
    planned: list[S.ReminderRow] = []
    changes: list[tuple[str, dict]] = []  # written once the whole calendar was read
    for occ in upcoming(path, now, now + span, floating=zone, per_series=MAX_PER_EVENT):
        if isinstance(occ, Skip):
            out.skipped.append((occ.name, occ.reason))
            continue
        if isinstance(occ.start, datetime):
            due, local = occ.start - ahead, occ.start.astimezone(zone)
        else:
            local = occ.start
            due = datetime(occ.start.year, occ.start.month, occ.start.day, W.DEFAULT_HOUR, tzinfo=zone)
        if due <= now:
            out.past += 1
            continue
        due_utc = due.astimezone(timezone.utc).isoformat(timespec="seconds")
        text = _text(occ.title, local, occ.location)
        rid = reminder_id(occ.key, scheduler.owner)
        old = S.get(scheduler.conn, rid)
        if old is None:
            out.added.append(text)
            planned.append(S.ReminderRow(
                id=rid, text=text, kind="reminder", tz=zone.key, next_due=due_utc, state="scheduled",
                spec={"form": "at", "text": due_utc, "anchor": now.astimezone(timezone.utc).isoformat(timespec="seconds"),
                      "trigger": "DateTrigger", "calendar": occ.key},
                created=now.astimezone(timezone.utc).isoformat(timespec="seconds"), delivered_at=None,
                attempts=0, last_error=None, channel=None, job=None, owner=scheduler.owner))
        elif old.state == "scheduled" and (old.next_due != due_utc or old.text != text):
            out.updated.append(text)
            changes.append((rid, {"text": text, "next_due": due_utc, "spec": {**old.spec, "text": due_utc}}))
        else:
            out.unchanged.append(text)
    if not dry_run:
        for row in planned:
            S.insert(scheduler.conn, row)
        for rid, fields in changes:
            S.update(scheduler.conn, rid, **fields)
    return out
