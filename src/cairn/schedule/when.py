"""Plain-word and cron schedules -> APScheduler triggers, in the person's time zone.

The time arithmetic (cron fields, intervals, DST gaps and folds) is APScheduler's
(`apscheduler.triggers`); this module only maps words to trigger fields. Accepted forms
(case-insensitive; TIME is "9", "9am", "9:30", "21:15", "noon", "midnight"):

  one-off    in N seconds|minutes|hours|days|weeks (N may be decimal: "in 1.5 hours") ; tomorrow [at TIME] ; today at TIME
             (a bare hour already past: its evening hour) ;
             next|this|on WEEKDAY [at TIME] ; at TIME (today, or tomorrow if past) ;
             [on] the Nth [of MONTH] | N MONTH | MONTH N [at TIME] (the next such day ahead) ;
             the same with a year (N MONTH YEAR, MONTH N[,] YEAR: that day) ; either may open
             with its weekday ("Tuesday 12 January": refused when the date falls on another) ;
             an ISO 8601 date-time (naive = in the zone; with an offset = that instant) or
             date [at TIME] ; a plain time (with a colon, am/pm, noon, midnight) may also come
             first ("2:30pm on 28 March 2027", "9am tomorrow") or follow its day without "at"
  recurring  every N seconds|minutes|hours|days|weeks ; every day|weekday|weekend [at TIME] ;
             every WEEKDAY[, WEEKDAY...] [at TIME] ; on the Nth of each|every month [at TIME] ;
             every month on the Nth [at TIME] ; a 5-field cron expression "m h dom mon dow"
             (standard crontab meaning: dow 0 and 7 = Sunday)

A time left out means DEFAULT_HOUR:00. Naive input is read in `tz`. Errors: InvalidInput
naming the text that could not be read, and the forms that can.
"""

from __future__ import annotations

import calendar
import functools

import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cairn.errors import InvalidInput

DEFAULT_HOUR = 9
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_UNITS = {"second": "seconds", "sec": "seconds", "minute": "minutes", "min": "minutes", "hour": "hours", "hr": "hours", "day": "days",
          "week": "weeks"}
_TIME = r"(?:(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?|(?P<word>noon|midnight))"
_FORMS = ("in 2 hours", "tomorrow at 9", "next friday", "at 18:30", "2026-12-24T09:00",
          "every 6 hours", "every weekday at 9am", "every monday, thursday at 8",
          "on the 1st of each month", "0 9 * * 1-5")


@functools.lru_cache(maxsize=1)
def _machine_zone() -> str:
    """The machine's IANA zone name (tzlocal; "UTC" when it cannot be told), read once per
    process: a turn asks for the zone several times (the clock, each time phrase)."""
    try:
        from tzlocal import get_localzone_name
        return get_localzone_name() or "UTC"
    except Exception:
        return "UTC"


@functools.lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    """Every IANA zone name this machine knows, by its lower-case spelling."""
    from zoneinfo import available_timezones
    return {n.lower(): n for n in available_timezones()}


def zone(name: str | None) -> ZoneInfo:
    """The ZoneInfo for an IANA name ("Europe/Lisbon", in any case, spaces around it ignored:
    "europe/lisbon" is that zone); None or "" = the machine's zone (tzlocal), UTC when that
    cannot be told. Raises InvalidInput for an unknown name."""
    name = (name or "").strip() or _machine_zone()
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    known = _zone_names().get(name.lower())
    if known:
        return ZoneInfo(known)
    raise InvalidInput(f"unknown time zone {name!r} (use an IANA name such as Europe/Lisbon)") from None


def normalise(dt: datetime, tz: ZoneInfo) -> datetime:
    """`dt` as a proper wall time in `tz` (through UTC, so a DST-gap time gets its real offset)."""
    return dt.astimezone(timezone.utc).astimezone(tz)


def _clock(m: re.Match | None) -> tuple[int, int] | None:
    if m is None or (m.group("h") is None and m.group("word") is None):
        return None
    if m.group("word"):
        return (12, 0) if m.group("word") == "noon" else (0, 0)
    h, mi = int(m.group("h")), int(m.group("m") or 0)
    ap = (m.group("ap") or "").replace(".", "")
    if ap == "pm" and h < 12:
        h += 12
    if ap == "am" and h == 12:
        h = 0
    if h > 23 or mi > 59:
        raise InvalidInput(f"{h}:{mi:02d} is not a time of day")
    return h, mi


def _split_at(text: str) -> tuple[str, tuple[int, int] | None]:
    m = re.search(r"\s*\bat\s+" + _TIME + r"\s*$", text)
    if m:
        return text[:m.start()].strip(), _clock(m)
    return text, None


def _weekday_names(text: str) -> list[str] | None:
    parts = [p for p in re.split(r"\s*(?:,|\band\b)\s*", text) if p]
    out = []
    for p in parts:
        p = re.sub(r"s$", "", p.strip())[:3]
        if p not in WEEKDAYS:
            return None
        out.append(p)
    return out or None


def _cron(expr: str, tz: ZoneInfo):
    """A 5-field crontab expression as a CronTrigger (standard dow numbering)."""
    from apscheduler.triggers.cron import CronTrigger
    fields = expr.split()
    minute, hour, day, month, dow = fields

    def name(tok: str) -> str:
        return WEEKDAYS[(int(tok) - 1) % 7] if tok.isdigit() else tok
    dow = re.sub(r"\d+", lambda mm: name(mm.group(0)), dow) if dow != "*" else dow
    try:
        return CronTrigger(minute=minute, hour=hour, day=day, month=month, day_of_week=dow, timezone=tz)
    except ValueError as exc:
        raise InvalidInput(f"cron expression {expr!r}: {exc}") from None


MIN_INTERVAL = timedelta(minutes=1)  # the shortest repeat a new reminder may have (cron's step too)
MAX_AHEAD = timedelta(days=3660 * 10)  # a time or an interval at most about a hundred years ahead


# A clock time written with a dot, as in British English ("5.30pm", "at 7.15"): read as "5:30pm", "at 7:15" when
# am/pm follows or "at" goes before. Not a decimal ("in 1.5 hours") nor a dotted date ("12.03.2027").
_DOT_TIME = re.compile(r"(?<![\d.])(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)(?![\d.])")
_AMPM = re.compile(r"\s*(?:am|pm|a\.m\.|p\.m\.)")


def _colon_times(text: str) -> str:
    """`text` with each dotted clock time written with a colon (see _DOT_TIME)."""
    return _DOT_TIME.sub(lambda m: (f"{m['h']}:{m['m']}" if text[:m.start()].endswith("at ")
                                    or _AMPM.match(text, m.end()) else m[0]), text)


def parse_when(text: str, tz: ZoneInfo, now: datetime, *, recurring: bool):
    """The trigger for `text` (see the module docstring). `now`: aware datetime. recurring:
    True for `--every` (a repeating trigger), False for `--at` (a one-off DateTrigger).
    Returns an APScheduler trigger. Raises InvalidInput when the text is not understood, a
    one-off time is already past, or a time or interval lies beyond MAX_AHEAD (also one past
    the calendar's end, "in 99999999999 days")."""
    try:
        return _parse_when(text, tz, now, recurring=recurring)
    except InvalidInput:
        raise
    except (OverflowError, ValueError) as exc:  # a date past the calendar's end, or another bad value
        far = isinstance(exc, OverflowError) or "out of range" in str(exc)
        raise InvalidInput(f"{text.strip()!r} is too far away (at most about 100 years ahead)" if far
                           else f"cannot read the time {text.strip()!r} ({exc})") from None


def _parse_when(text: str, tz: ZoneInfo, now: datetime, *, recurring: bool):
    from apscheduler.triggers.cron import CronTrigger
    from apscheduler.triggers.date import DateTrigger
    from apscheduler.triggers.interval import IntervalTrigger
    raw = text
    text = _colon_times(" ".join(text.strip().lower().split()))
    if not text:
        raise InvalidInput("the time is empty")
    now = now.astimezone(tz)
    if recurring:
        if re.fullmatch(r"[\d*/,\-a-z]+( [\d*/,\-a-z]+){4}", text) and not text.startswith("every"):
            return _cron(text, tz)
        body = re.sub(r"^every\s+", "", text)
        body, clock = _split_at(body)
        h, mi = clock or (DEFAULT_HOUR, 0)
        m = re.fullmatch(r"(\d+)\s*(second|sec|minute|min|hour|hr|day|week)s?", body)
        if m:
            n = int(m.group(1))
            if n <= 0:
                raise InvalidInput(f"{raw!r}: the interval must be positive")
            if timedelta(**{_UNITS[m.group(2)]: n}) > MAX_AHEAD:
                raise InvalidInput(f"{raw!r} is too far away (at most about 100 years ahead)")
            start = now
            if m.group(2) in ("day", "week") and clock:
                start = now.replace(hour=h, minute=mi, second=0, microsecond=0)
            return IntervalTrigger(timezone=tz, start_date=start, **{_UNITS[m.group(2)]: n})
        if body in ("minute", "hour"):
            return IntervalTrigger(timezone=tz, start_date=now, **{_UNITS[body]: 1})
        if body in ("day", "daily"):
            return CronTrigger(hour=h, minute=mi, timezone=tz)
        if body in ("weekday", "weekdays", "workday"):
            return CronTrigger(day_of_week="mon-fri", hour=h, minute=mi, timezone=tz)
        if body in ("weekend", "weekends"):
            return CronTrigger(day_of_week="sat,sun", hour=h, minute=mi, timezone=tz)
        m = re.fullmatch(r"(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+)?of\s+(?:each|every|the)\s+month"
                         r"|month\s+on\s+the\s+(\d{1,2})(?:st|nd|rd|th)?", body)
        if m:
            day = int(m.group(1) or m.group(2))
            if not 1 <= day <= 31:
                raise InvalidInput(f"{raw!r}: day {day} of a month does not exist")
            return CronTrigger(day=day, hour=h, minute=mi, timezone=tz)
        days = _weekday_names(body)
        if days:
            return CronTrigger(day_of_week=",".join(days), hour=h, minute=mi, timezone=tz)
        raise InvalidInput(f"cannot read the schedule {raw!r}; try e.g. " + ", ".join(_FORMS[5:]))
    # one-off
    due = _one_off(text, tz, now)
    if due is None:
        raise InvalidInput(f"cannot read the time {raw!r}; try e.g. " + ", ".join(_FORMS[:5]))
    if due <= now - timedelta(seconds=1):
        raise InvalidInput(f"{raw!r} is in the past ({due.isoformat()})")
    if due - now > MAX_AHEAD:
        raise InvalidInput(f"{raw!r} is too far away (at most about 100 years ahead)")
    return DateTrigger(run_date=due, timezone=tz)


_LEAD_TIME = re.compile(r"(?:at\s+)?(?P<t>\d{1,2}:\d{2}(?:\s*(?:am|pm|a\.m\.|p\.m\.))?|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)"
                        r"|noon|midnight)\s+(?:on\s+)?(?P<day>[a-z0-9].*)")
_PLAIN_TIME = re.compile(r"\d{1,2}:\d{2}(?:\s*(?:am|pm|a\.m\.|p\.m\.))?|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|noon|midnight")
_LEAD_AT = re.compile(r"at\s+(?P<t>\d{1,2})\s+(?:on\s+)?(?P<day>[a-z].*)")
_TRAIL_TIME = re.compile(r"(?P<day>.*[a-z0-9])\s+(?P<t>\d{1,2}:\d{2}(?:\s*(?:am|pm|a\.m\.|p\.m\.))?"
                         r"|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|noon|midnight)")


def _one_off(text: str, tz: ZoneInfo, now: datetime) -> datetime | None:
    """The instant a one-off `text` names, or None. Besides the forms of `_one_off_day_at`, a
    time may come first ("2:30pm on 28 March 2027", "9am tomorrow", "at 9 tomorrow") or follow
    its day without "at" ("tomorrow 9am", "next friday 17:30") when it is plainly a time (with
    a colon, am/pm, noon or midnight); such a time alone ("5pm", "5.30pm") is "at" it."""
    due = _one_off_day_at(text, tz, now)
    if due is None and _PLAIN_TIME.fullmatch(text):  # a plain time alone, "5pm", "17:30": as "at 5pm"
        due = _one_off_day_at(f"at {text}", tz, now)
    if due is not None:
        return due
    for rx in (_LEAD_TIME, _LEAD_AT, _TRAIL_TIME):
        m = rx.fullmatch(text)
        if m and not m.group("day").startswith(("at ", "in ")):
            due = _one_off_day_at(f"{m.group('day')} at {m.group('t')}", tz, now)
            if due is not None:
                return due
    return None


def _one_off_day_at(text: str, tz: ZoneInfo, now: datetime) -> datetime | None:
    m = re.fullmatch(r"in\s+(\d+(?:\.\d+)?|an?|one)\s*(second|sec|minute|min|hour|hr|day|week)s?", text)
    if m:
        n = 1 if m.group(1) in ("a", "an", "one") else float(m.group(1)) if "." in m.group(1) else int(m.group(1))
        return normalise(now.astimezone(timezone.utc) + timedelta(**{_UNITS[m.group(2)]: n}), tz)
    try:
        iso = datetime.fromisoformat(text.upper().replace(" ", "T") if re.match(r"\d{4}-", text) else "x")
    except ValueError:
        iso = None
    if iso is not None:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):  # a day alone: at DEFAULT_HOUR, like "3 March"
            iso = iso.replace(hour=DEFAULT_HOUR)
        return normalise(iso if iso.tzinfo else iso.replace(tzinfo=tz), tz)
    body, clock = _split_at(text)
    h, mi = clock or (DEFAULT_HOUR, 0)
    if clock and re.fullmatch(r"\d{4}-\d{2}-\d{2}", body):  # "2027-03-28 at 14:00"
        try:
            day = datetime.fromisoformat(body)
        except ValueError:
            raise InvalidInput(f"{body!r} is no day of the calendar") from None
        return normalise(day.replace(hour=h, minute=mi, tzinfo=tz), tz)

    def at(day: datetime) -> datetime:
        return normalise(datetime(day.year, day.month, day.day, h, mi, tzinfo=tz), tz)
    if body in ("", "today") and clock:
        due = at(now)
        if body == "today" and due <= now and h < 12 and not re.search(r"am\b|a\.m\.|pm\b|p\.m\.", text):
            h += 12  # "today at 9" said at 10:00: the evening's 9, the hour a 12-hour clock names next
            due = at(now)
        return due if due > now or body == "today" else at(now + timedelta(days=1))
    if body in ("tomorrow", "yesterday"):  # yesterday: read, so that it is refused as past by name
        return at(now + timedelta(days=1 if body == "tomorrow" else -1))
    if (dated := _day_of_month(body, now, at)) is not None:
        return dated
    m = re.fullmatch(r"(next|this|on)?\s*([a-z]+)", body)
    if m and (days := _weekday_names(m.group(2))) and len(days) == 1:
        delta = (WEEKDAYS.index(days[0]) - now.weekday()) % 7
        if delta == 0 and (m.group(1) == "next" or at(now) <= now):
            delta = 7
        return at(now + timedelta(days=delta))
    return None


MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|" \
         r"nov(?:ember)?|dec(?:ember)?)"
_YEAR = r"(?:,?\s+(?P<y>\d{4}))?"
_DOM = (r"(?:on\s+)?(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)(?:\s+of\s+" + _MONTH + _YEAR + r")?",
        r"(?:on\s+)?(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + _YEAR,
        r"(?:on\s+)?" + _MONTH + r"\s+(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?" + _YEAR)


_WEEKDAY_FIRST = re.compile(r"(?:on\s+)?(?P<wd>mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs?|rsday)?|"
                            r"fri(?:day)?|sat(?:urday)?|sun(?:day)?),?\s+(?P<rest>.+)")


def _day_of_month(body: str, now: datetime, at) -> datetime | None:
    """The next day `body` names as a date without a year — "the 14th", "on the 3rd of May",
    "14 March", "March 14th" — at the clock `at` gives: the first such day (this month or a
    later one; this year or the next) whose time is still ahead. With a year ("28 March 2027",
    "March 28, 2027") that very day. A weekday may open it ("Tuesday 12 January", "Tue, 12
    January 2027"): it must be that day's weekday. None when `body` is no such date;
    InvalidInput when no month has that day (or that year's month has not), or when the
    weekday written is not the date's."""
    if (wm := _WEEKDAY_FIRST.fullmatch(body)) is not None:
        due = _day_of_month(wm.group("rest"), now, at)
        said = WEEKDAYS.index(wm.group("wd")[:3])
        if due is not None and due.weekday() != said:
            raise InvalidInput(f"{body!r}: {due.day} {calendar.month_name[due.month]} {due.year} is a "
                               f"{calendar.day_name[due.weekday()]}, not a {calendar.day_name[said]}")
        return due
    m = next((m for rx in _DOM if (m := re.fullmatch(rx, body))), None)
    if m is None:
        return None
    d, mon = int(m.group("d")), m.group("mon")
    if not 1 <= d <= 31:
        raise InvalidInput(f"{body!r}: day {d} of a month does not exist")
    if m.group("y"):  # "28 March 2027": that day, past or not (the caller refuses a past one)
        month = MONTHS.index(mon[:3]) + 1
        try:
            return at(datetime(int(m.group("y")), month, d))
        except ValueError:
            raise InvalidInput(f"{body!r}: there is no {d} {calendar.month_name[month]} {m.group('y')}") from None
    months = [MONTHS.index(mon[:3]) + 1] if mon else list(range(1, 13))
    for year in (now.year, now.year + 1, now.year + 2):
        for month in months:
            try:
                due = at(datetime(year, month, d))
            except ValueError:  # the 31st of a 30-day month
                continue
            if due > now:
                return due
    if mon:  # "31 February": the month never has that day (a leap year's length, 2024)
        month = months[0]
        most = calendar.monthrange(2024, month)[1]
        raise InvalidInput(f"{body!r}: {calendar.month_name[month]} has no day {d} (it has at most {most})")
    raise InvalidInput(f"{body!r}: no month has a day {d}")


def next_runs(trigger, count: int, start: datetime, tz: ZoneInfo) -> list[datetime]:
    """The next `count` fire times of `trigger` strictly after `start` (aware), normalised
    wall times in `tz` (each carries its own UTC offset, so DST shows). A calendar (cron)
    time that repeats in an autumn fold (01:30 twice) fires once: the second instant is
    skipped; intervals ("every 30 minutes") count real time and fire in both."""
    from apscheduler.triggers.cron import CronTrigger
    wall_clock = isinstance(trigger, CronTrigger)  # intervals count real time: no fold rule
    out: list[datetime] = []
    last_wall = normalise(start, tz).replace(tzinfo=None)
    prev = None
    now = start + timedelta(microseconds=1)
    for _ in range(count * 2 + 2):
        if len(out) == count:
            break
        nxt = trigger.get_next_fire_time(prev, now)
        if nxt is None:
            break
        nxt = normalise(nxt, tz)
        wall = nxt.replace(tzinfo=None)
        if wall_clock and wall == last_wall:  # the fold's second 01:30 (APScheduler would repeat it): step over
            prev, now = None, nxt + timedelta(hours=1)
            continue
        prev, now = nxt, nxt + timedelta(microseconds=1)
        last_wall = wall
        out.append(nxt)
    return out


def check_repeat(trigger, text: str) -> None:
    """Raises InvalidInput when `trigger` (parse_when's, for `text`) repeats more often than
    MIN_INTERVAL ("every 1 second"): each run is delivered to every channel (a desktop
    notification, Telegram, the notifications file), so one would flood them. Checked when a
    reminder is made, not when a stored one is read back."""
    step = getattr(trigger, "interval", None)
    if isinstance(step, timedelta) and step < MIN_INTERVAL:
        raise InvalidInput(f"{text.strip()!r}: the shortest repeat is every 1 minute (a run every few "
                           "seconds would flood every channel it is delivered to)")
