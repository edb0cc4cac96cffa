"""iCalendar (RFC 5545) files, or a folder of them (`.ics`: Google Calendar, Apple Calendar,
Outlook, Thunderbird exports): one note per event series (VEVENT by UID).

Read with `icalendar` and expanded with `recurring-ical-events` (RRULE, RDATE, EXDATE and
RECURRENCE-ID overrides, each in the time zone of its TZID / VTIMEZONE). The note's time is
DTSTART (`created`/`event_time` in UTC; `start`/`end` as written, with their UTC offset, and
`timezone`, the TZID); a recurring event lists its occurrences from DTSTART over one year
(at most MAX_OCCURRENCES; the window depends on the event alone, never on today, so a second
import of the same file changes nothing), with the EXDATEs left out and moved occurrences at
their new time. ATTENDEE and ORGANIZER (their CN, else the address) become `attendees`
(people in the entity graph); LOCATION -> `location`; DESCRIPTION -> body; CATEGORIES ->
tags. source_id = UID (a component without one: "<file>#<n>"). A file that is not iCalendar
(no BEGIN:VCALENDAR, or not parseable) raises ExportFormatError naming it.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, inside, iso

MAX_OCCURRENCES = 60
WINDOW = timedelta(days=366)


def _calendar(path: Path):
    import icalendar
    data = path.read_bytes()
    if b"BEGIN:VCALENDAR" not in data[:4096].upper():
        raise ExportFormatError(f"{path}: not an iCalendar file (no BEGIN:VCALENDAR)")
    try:
        return icalendar.Calendar.from_ical(data)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ExportFormatError(f"{path}: not a readable iCalendar file ({exc})") from None


def _when(value) -> str | None:
    """DTSTART/DTEND value -> ISO text as written: a date, or a date-time with its offset."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return None


def _utc(value) -> str | None:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, date):
        return value.isoformat()
    return None


def _person(addr) -> str | None:
    name = str(addr.params.get("CN") or "").strip() if hasattr(addr, "params") else ""
    mail = str(addr).removeprefix("mailto:").removeprefix("MAILTO:").strip()
    return name or mail or None


def _occurrences(cal, uid: str, start) -> list[str]:
    """The occurrences of series `uid` from its DTSTART over WINDOW, as written."""
    import icalendar
    import recurring_ical_events
    sub = icalendar.Calendar()
    for comp in cal.subcomponents:
        if comp.name == "VTIMEZONE" or (comp.name == "VEVENT" and str(comp.get("UID")) == uid):
            sub.add_component(comp)
    begin = start if isinstance(start, datetime) else datetime(start.year, start.month, start.day)
    end = (begin + WINDOW).replace(tzinfo=None)
    out = []
    # `after` is lazy and in time order; `between` would expand a whole year first (31 million
    # occurrences for FREQ=SECONDLY) before the cap applies
    for occ in recurring_ical_events.of(sub).after(begin):
        dt = occ.get("DTSTART").dt
        naive = (dt if isinstance(dt, datetime) else datetime(dt.year, dt.month, dt.day)).replace(tzinfo=None)
        if naive >= end:
            break
        out.append(_when(dt))
        if len(out) >= MAX_OCCURRENCES:
            break
    return sorted(o for o in out if o)


def event_item(cal, comp, fallback_id: str) -> Item:
    """The Item of one master VEVENT. Raises ValueError when it has no DTSTART."""
    start_prop = comp.get("DTSTART")
    if start_prop is None:
        raise ValueError("the event has no DTSTART")
    start = start_prop.dt
    end = comp.get("DTEND").dt if comp.get("DTEND") is not None else None
    uid = str(comp.get("UID") or fallback_id)
    title = str(comp.get("SUMMARY") or "").strip() or "(untitled event)"
    tzid = start_prop.params.get("TZID") or (str(start.tzinfo) if isinstance(start, datetime) and start.tzinfo
                                              and start.tzinfo != timezone.utc else None)
    attendees = comp.get("ATTENDEE") or []
    attendees = attendees if isinstance(attendees, list) else [attendees]
    people = [p for p in (_person(a) for a in attendees) if p]
    organizer = _person(comp["ORGANIZER"]) if comp.get("ORGANIZER") is not None else None
    cats = comp.get("CATEGORIES")
    tags = []
    for c in (cats if isinstance(cats, list) else [cats] if cats is not None else []):
        tags.extend(str(t) for t in getattr(c, "cats", []) if str(t).strip())
    rrule = comp.get("RRULE")
    lines = [f"**When:** {_when(start)}" + (f" – {_when(end)}" if end is not None else "")
             + (f" ({tzid})" if tzid else "")]
    meta = {"start": _when(start), "end": _when(end), "timezone": str(tzid) if tzid else None,
            "location": str(comp.get("LOCATION") or "").strip() or None,
            "attendees": list(dict.fromkeys(([organizer] if organizer else []) + people)),
            "organizer": organizer, "status": str(comp.get("STATUS") or "") or None}
    if meta["location"]:
        lines.append(f"**Where:** {meta['location']}")
    if meta["attendees"]:
        lines.append("**With:** " + ", ".join(meta["attendees"]))
    if rrule is not None:
        meta["rrule"] = rrule.to_ical().decode()
        occ = _occurrences(cal, uid, start)
        meta["occurrences"] = occ
        lines.append(f"**Repeats:** {meta['rrule']}")
        lines.append("**Occurrences (first year):**\n\n" + "\n".join(f"- {o}" for o in occ))
    desc = str(comp.get("DESCRIPTION") or "").strip()
    body = "\n\n".join(lines + ([desc] if desc else []))
    return Item(source_id=uid, title=title, type="event", body=body, created=_utc(start),
                updated=iso(comp.get("LAST-MODIFIED").dt) if comp.get("LAST-MODIFIED") is not None else None,
                tags=tags, meta=meta)


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".ics" and inside(path, p))
        if not files:
            raise ExportFormatError(f"{path}: no .ics file in this folder")
        return files
    return [path]


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each event series of the iCalendar file(s) at `path` as an event Item (or a Skip)."""
    for f in _files(path):
        cal = _calendar(f)
        for n, comp in enumerate(c for c in cal.walk("VEVENT") if c.get("RECURRENCE-ID") is None):
            try:
                yield event_item(cal, comp, f"{f.name}#{n}")
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                yield Skip(f"{f.name}: event {n + 1} ({comp.get('SUMMARY') or comp.get('UID') or '?'})", str(exc))
