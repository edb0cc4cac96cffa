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
(no BEGIN:VCALENDAR) or is cut off (inside an event, or without END:VCALENDAR) raises
ExportFormatError naming it; an event that icalendar cannot parse is skipped.

Streamed: a first pass over the file's lines notes where each VEVENT lies (byte offsets, by
UID) and keeps the VTIMEZONEs; then each series (its master and RECURRENCE-ID overrides,
wherever they are in the file) is read back and parsed alone with the time zones. Memory:
one series plus the offsets, not the calendar (bench/import_scale.py measures it).

`upcoming(path, start, end)` gives the occurrences of every event between two instants
(recurrence expanded, EXDATEs left out, moved occurrences at their new time), each keyed by
UID + RECURRENCE-ID: the key a reminder of that occurrence keeps (cairn.schedule.calendar).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, inside, iso

MAX_OCCURRENCES = 60
WINDOW = timedelta(days=366)


def _scan(path: Path) -> tuple[list[bytes], dict[str, list[tuple[int, int]]]]:
    """One pass over the lines of `path`: (the VTIMEZONE blocks, {UID or "#n": [(offset,
    length) of each of its VEVENTs]} in file order). Raises ExportFormatError for a file
    that is not iCalendar or is cut off."""
    zones: list[bytes] = []
    spans: dict[str, list[tuple[int, int]]] = {}
    with open(path, "rb") as fh:
        if b"BEGIN:VCALENDAR" not in fh.read(4096).upper():
            raise ExportFormatError(f"{path}: not an iCalendar file (no BEGIN:VCALENDAR)")
        fh.seek(0)
        pos, n, depth, begin, uid, in_uid, zone, ended = 0, 0, 0, -1, "", False, None, False
        for line in fh:
            upper = line.rstrip(b"\r\n").upper()
            if in_uid and line[:1] in (b" ", b"\t"):
                uid += line[1:].rstrip(b"\r\n").decode("utf-8", "replace")
            else:
                in_uid = False
            if upper == b"BEGIN:VEVENT":
                begin, depth, uid, n = pos, 1, "", n + 1
            elif begin >= 0:
                if upper.startswith(b"BEGIN:"):
                    depth += 1
                elif upper.startswith(b"END:"):
                    depth -= 1
                    if depth == 0:
                        spans.setdefault(uid.strip() or f"#{n}", []).append((begin, pos + len(line) - begin))
                        begin = -1
                elif depth == 1 and upper[:4] in (b"UID:", b"UID;"):
                    uid, in_uid = line.rstrip(b"\r\n").split(b":", 1)[1].decode("utf-8", "replace"), True
            elif upper == b"BEGIN:VTIMEZONE":
                zone = [line]
            elif zone is not None:
                zone.append(line)
                if upper == b"END:VTIMEZONE":
                    zones.append(b"".join(zone))
                    zone = None
            elif upper == b"END:VCALENDAR":
                ended = True
            pos += len(line)
    if begin >= 0:
        raise ExportFormatError(f"{path}: event {n}: the file ends inside the event (truncated?)")
    if not ended:
        raise ExportFormatError(f"{path}: the file ends without END:VCALENDAR (truncated?)")
    return zones, spans


def _series(path: Path) -> Iterator[tuple[str, object]]:
    """(UID or "#n", a Calendar holding the time zones and that series' VEVENTs) of each
    series of `path`, in file order, read back one at a time; (key, ValueError) for one
    icalendar cannot parse."""
    import icalendar
    zones, spans = _scan(path)
    head = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//cairn//import//EN\r\n" + b"".join(zones)
    with open(path, "rb") as fh:
        for key, parts in spans.items():
            blocks = []
            for offset, length in parts:
                fh.seek(offset)
                blocks.append(fh.read(length))
            try:
                yield key, icalendar.Calendar.from_ical(head + b"".join(blocks) + b"END:VCALENDAR\r\n")
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                yield key, ValueError(f"not a readable event ({exc})")


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


def _single(comp, name: str):
    """The property `name` of `comp`, or None; raises ValueError when the event holds it more
    than once (icalendar then returns a list, which has no `.dt`)."""
    prop = comp.get(name)
    if isinstance(prop, list):
        raise ValueError(f"the event has {len(prop)} {name} lines; one is allowed")
    return prop


def event_item(cal, comp, fallback_id: str) -> Item:
    """The Item of one master VEVENT. Raises ValueError when it has no DTSTART, or DTSTART,
    DTEND or LAST-MODIFIED more than once."""
    start_prop = _single(comp, "DTSTART")
    if start_prop is None:
        raise ValueError("the event has no DTSTART")
    start = start_prop.dt
    end_prop = _single(comp, "DTEND")
    end = end_prop.dt if end_prop is not None else None
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
                updated=iso(_single(comp, "LAST-MODIFIED").dt) if comp.get("LAST-MODIFIED") is not None else None,
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
        n = 0
        for key, cal in _series(f):
            if isinstance(cal, ValueError):
                n += 1
                yield Skip(f"{f.name}: event {n} ({key})", str(cal))
                continue
            for comp in (c for c in cal.walk("VEVENT") if c.get("RECURRENCE-ID") is None):
                n += 1
                try:
                    yield event_item(cal, comp, f"{f.name}#{n - 1}")
                except (ValueError, TypeError, KeyError, AttributeError) as exc:
                    yield Skip(f"{f.name}: event {n} ({comp.get('SUMMARY') or comp.get('UID') or '?'})", str(exc))


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of an event: `key` "UID|RECURRENCE-ID" (stable across exports and
    moves), `start` an aware datetime (UTC) or, for an all-day event, a date; `title`,
    `location`, `tz` (the TZID it was written in, or None)."""

    key: str
    start: datetime | date
    title: str
    location: str | None
    tz: str | None


def upcoming(path: Path, start: datetime, end: datetime, floating=timezone.utc,
             per_series: int = MAX_OCCURRENCES) -> Iterator[Occurrence | Skip]:
    """The occurrences of the events of the iCalendar file(s) at `path` that start in
    [start, end) (aware datetimes), at most `per_series` per event, series by series;
    a floating time (no zone) is read in `floating`; an all-day event's date counts from
    midnight in `floating`. A Skip names an event that cannot be expanded. Raises
    ExportFormatError as `read` does."""
    import recurring_ical_events
    for f in _files(path):
        for key, cal in _series(f):
            if isinstance(cal, ValueError):
                yield Skip(f"{f.name}: {key}", str(cal))
                continue
            count = 0
            try:
                for occ in recurring_ical_events.of(cal).after(start.astimezone(floating).replace(tzinfo=None)):
                    prop = occ.get("DTSTART")
                    dt = prop.dt
                    at = (dt if dt.tzinfo else dt.replace(tzinfo=floating)) if isinstance(dt, datetime) else \
                        datetime(dt.year, dt.month, dt.day, tzinfo=floating)
                    if at >= end:
                        break
                    if at < start:
                        continue
                    rid = occ.get("RECURRENCE-ID")
                    rid_text = _when(rid.dt) if rid is not None else _when(dt)
                    yield Occurrence(key=f"{occ.get('UID') or f.name + key}|{rid_text}",
                                     start=at.astimezone(timezone.utc) if isinstance(dt, datetime) else dt,
                                     title=str(occ.get("SUMMARY") or "").strip() or "(untitled event)",
                                     location=str(occ.get("LOCATION") or "").strip() or None,
                                     tz=str(prop.params.get("TZID")) if prop.params.get("TZID") else None)
                    count += 1
                    if count >= per_series:
                        break
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                yield Skip(f"{f.name}: {key}", f"its occurrences cannot be computed ({exc})")
