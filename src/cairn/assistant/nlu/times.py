"""Clock times said in words, and corrections of a reminder's day or time: the time slots
the reminder readers (cairn.assistant.nlu.slots) hand to `cairn.schedule.when`.

    spoken_times("remind me at half seven in the morning")   # "remind me at 7:30am"
    correction("no, I meant Friday not Thursday")             # ("friday", None)
    corrected_due("make it 7", "2026-03-05T18:00:00+00:00")   # "2026-03-05 19:00" (local)

Pure functions; nothing raises for an unreadable message (None / the text unchanged).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

_HOURS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)}
_MINS = {"five": 5, "ten": 10, "quarter": 15, "a quarter": 15, "twenty": 20, "twenty-five": 25, "twenty five": 25,
         "half": 30}
_HOUR = r"(?P<h>1[0-2]|0?[1-9]|" + "|".join(_HOURS) + r")"
_DAYWORD = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today)"
# the clock a part of the day stands for when no clock is said ("next Tuesday morning"): the
# reminder's usual default hour for a morning (cairn.schedule.when.DEFAULT_HOUR), else a typical hour
PARTS = {"morning": "9am", "afternoon": "2pm", "evening": "6pm", "night": "8pm"}
_PART_HOUR = {"morning": 9, "afternoon": 14, "evening": 18, "night": 20}
_PART_END = {"morning": 12, "afternoon": 18, "evening": 24, "night": 24}  # the hour each part is over


def _today_part(part: str, now: datetime | None) -> str:
    """The clock of today's `part` ("tonight", "this evening"): its usual hour (PARTS), or,
    when that hour has passed and the part has not (`now` local, 21:10 for "tonight"), the
    next whole hour ("22:00"). A part already over keeps its hour: that time has passed, and
    the reader says so rather than move it to another day."""
    if now is None:
        from cairn.schedule import when as W
        now = datetime.now(W.zone(None))
    if now.hour < _PART_HOUR[part] or now.hour + 1 >= _PART_END[part]:
        return PARTS[part]
    return f"{now.hour + 1}:00"


def _hour(s: str) -> int:
    return _HOURS.get(s.lower()) or int(s)


def spoken_times(text: str, now: datetime | None = None) -> str:
    """`text` with clock times said in words written as `cairn.schedule.when` reads them:
    "half seven" / "half past 7" -> "7:30", "quarter to eight" -> "7:45", "ten past six" ->
    "6:10", "nine o'clock" -> "9", "every week on Friday" -> "every Friday", "7:30 in the morning" -> "7:30am", "6 in the evening" ->
    "6pm", a day followed straight by a clock ("Friday 9am", "tomorrow 18:30") gets its
    "at" ("Friday at 9am"), and a day with a part of the day and no clock ("next Tuesday
    morning", "tomorrow evening", "tonight", "this evening") gets that part's hour (PARTS:
    "Tuesday at 9am"; today's part later than its hour, `now` in the local zone: the next
    whole hour, `_today_part`),
    and a dotted clock before am/pm or after "at" ("4.30pm", "at 7.45") gets its colon.
    British usage: "half seven" is 7:30. Other text unchanged."""
    t = text
    # a dotted clock, British usage: "4.30pm", "at 7.45" -> "4:30pm", "at 7:45" (not "£4.30", "v2.30")
    t = re.sub(r"(?<![\w.£$€])(?P<h>[01]?\d|2[0-3])\.(?P<mi>[0-5]\d)(?=\s*[ap]\.?m\b)", r"\g<h>:\g<mi>", t, flags=re.I)
    t = re.sub(r"\b(?P<at>at|by|from|until|till)\s+(?P<h>[01]?\d|2[0-3])\.(?P<mi>[0-5]\d)\b(?!\.\d)",
               r"\g<at> \g<h>:\g<mi>", t, flags=re.I)
    mins = r"(?P<m>a quarter|quarter|half|twenty[- ]five|twenty|ten|five|\d{1,2})(?:\s+minutes)?"

    def past_to(m: re.Match) -> str:
        n = _MINS.get(m.group("m").lower()) if not m.group("m").isdigit() else int(m.group("m"))
        h = _hour(m.group("h"))
        if n is None or n > 59 or (n == 0 and m.group("dir").lower() == "to"):
            return m.group(0)  # "70 past 7", "99 to 3": no clock, left as said
        if m.group("dir").lower() == "to":
            h, n = (h - 2) % 12 + 1, 60 - n
        return f"{h}:{n:02d}"
    t = re.sub(r"\b" + mins + r"\s+(?P<dir>past|after|to)\s+" + _HOUR + r"\b", past_to, t, flags=re.I)
    t = re.sub(r"\bhalf\s+" + _HOUR + r"\b", lambda m: f"{_hour(m.group('h'))}:30", t, flags=re.I)
    t = re.sub(r"\b" + _HOUR + r"\s*o'?\s?clock\b", lambda m: str(_hour(m.group("h"))), t, flags=re.I)
    t = re.sub(r"\bin\s+half\s+an\s+hour\b", "in 30 minutes", t, flags=re.I)
    t = re.sub(r"\b(?:every\s+week|weekly)\s+on\s+(?P<d>" + _WEEKDAY + r")s?\b", r"every \g<d>", t,
               flags=re.I)  # "every week on Friday" / "weekly on Fridays" -> "every Friday"
    t = re.sub(r"\b(?:at|by)\s+" + _HOUR + r"\b(?!:)", lambda m: m.group(0).split()[0] + f" {_hour(m.group('h'))}", t,
               flags=re.I)  # "at seven" -> "at 7"
    t = re.sub(r"\b(?P<c>\d{1,2}(?::\d{2})?)\s+(?:in\s+the\s+morning|a\.?m\.?)(?=\W|$)", r"\g<c>am", t, flags=re.I)
    t = re.sub(r"\b(?P<c>12(?::\d{2})?)\s+at\s+night(?=\W|$)", r"\g<c>am", t, flags=re.I)  # "half twelve at night": 0:30
    t = re.sub(r"\b(?P<c>\d{1,2}(?::\d{2})?)\s+(?:in\s+the\s+(?:afternoon|evening)|at\s+night|p\.?m\.?)(?=\W|$)",
               r"\g<c>pm", t, flags=re.I)
    t = re.sub(r"\b(?P<d>" + _DAYWORD + r")\s+(?P<c>\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2})(?=\W|$)",
               r"\g<d> at \g<c>", t, flags=re.I)
    t = re.sub(r"\b(?P<d>" + _DAYWORD + r")\s+(?:in\s+the\s+)?(?P<p>morning|afternoon|evening|night)\s+at\s+"
               r"(?P<c>\d{1,2}(?::\d{2})?)(?!\s*(?:am|pm|[\d:]))",
               lambda m: f"{m.group('d')} at {m.group('c')}{'am' if m.group('p').lower() == 'morning' else 'pm'}",
               t, flags=re.I)  # "tomorrow morning at 7" -> "tomorrow at 7am"
    t = re.sub(r"\btonight\b(?!\s+at\b)", lambda m: "today at " + _today_part("night", now), t, flags=re.I)
    t = re.sub(r"\bthis\s+(?P<p>morning|afternoon|evening)\b(?!\s+at\b)",
               lambda m: "today at " + _today_part(m.group("p").lower(), now), t, flags=re.I)

    def part(m: re.Match) -> str:
        p = m.group("p").lower()
        return f"{m.group('d')} at {_today_part(p, now) if m.group('d').lower() == 'today' else PARTS[p]}"
    t = re.sub(r"\b(?P<d>" + _DAYWORD + r")\s+(?:in\s+the\s+|first\s+thing\s+in\s+the\s+)?(?P<p>morning|afternoon|evening|"
               r"night)\b(?!\s+at\b)", part, t, flags=re.I)
    return t


_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_CLOCK = r"(?P<c>(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>am|pm)?|noon|midnight)"
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_ORD = r"\d{1,2}(?:st|nd|rd|th)"
# A date of the calendar, as `cairn.schedule.when` reads one, a weekday before it allowed: "12 January", "the 12th
# of January 2027", "January 12", "Tuesday 12 January", "the 5th" (a day of the month is a date, never an hour).
_DATE = (r"(?:" + _WEEKDAY + r",?\s+)?(?:"
         r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\b(?:,?\s+\d{4})?"
         r"|" + _MONTH + r"\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?"
         r"|(?:the\s+)?" + _ORD + r"\b(?!\s*(?:minutes?|mins?|hours?|days?|weeks?|time)\b))")


# A correction may name a date ("no, make it 12 January", "Tuesday 12 January", "the 5th"): the day it says, its
# number never read as the hour. Switch off: DATES (then "12 January" moves the reminder to 12:00 on its old day).
DATES = True


def correction(text: str) -> tuple[str | None, tuple[int, int, bool] | None]:
    """(day, clock) a correction of a reminder's time says ("no, I meant Friday not Thursday" ->
    ("friday", None); "actually make it quarter to eight" -> (None, (7, 45, False)); "no, make
    it Tuesday 12 January" -> ("tuesday 12 january", None)): the day is a weekday, "tomorrow",
    "today" or a date (`_DATE`: "12 january", "january 12th", "the 5th", a weekday before one)
    whose number is no clock; the clock (hour, minute, whether the hour is absolute:
    am/pm said, or written 24-hour as 0, 13-23 or with a leading zero, "07:30") is read after
    `spoken_times`, a dotted one ("to 8.30") read as a clock wherever it stands; an impossible one ("25:00", "13pm", "0am") is None. What follows "not" / "rather than" / "instead of" is the
    mistake and is dropped. (None, None) when the message says no day or time."""
    t = spoken_times(text).lower()
    # a dotted clock in a correction is a clock wherever it stands ("change that to 8.30"; not "£8.30", "v2.30")
    t = re.sub(r"(?<![\w.£$€])(?P<h>[01]?\d|2[0-3])\.(?P<mi>[0-5]\d)\b(?!\.\d)", r"\g<h>:\g<mi>", t)
    t = re.sub(r"\b(?:not|rather than|instead of)\s+(?:on\s+|at\s+)?(?:" + _DATE + r"|(?:the\s+)?(?:" + _WEEKDAY
               + r"|tomorrow|today|\d{1,2}(?::\d{2})?\s*(?:am|pm)?))", " ", t)
    date = re.search(r"\b" + _DATE, t) if DATES else None
    if date:  # the date, then the clock read from the rest ("12 January at 9": 9, not 12)
        t = t[:date.start()] + " " + t[date.end():]
    day = date or re.search(r"\b(" + _WEEKDAY + r"|tomorrow|today)\b", t)
    clock = None
    m = re.search(r"(?:\bat\s+|\bit\s+|\bthat\s+|^|[\s,])" + _CLOCK + r"(?![\d:])(?!\s*(?:st|nd|rd|th|minutes?|mins?"
                  r"|hours?|days?|weeks?)\b)", t)
    if m and (m.group("h") is not None or m.group("c") in ("noon", "midnight")):
        if m.group("c") in ("noon", "midnight"):
            clock = (12 if m.group("c") == "noon" else 0, 0, True)
        else:
            h, mi, ap = int(m.group("h")), int(m.group("mi") or 0), m.group("ap")
            said = int(m.group("h")) if ap else None  # "13pm" / "0am" name no hour
            absolute = bool(ap) or h == 0 or h > 12 or m.group("h").startswith("0")  # "00:00", "07:30": 24-hour
            if ap == "pm" and h < 12:
                h += 12
            if ap == "am" and h == 12:
                h = 0
            if not absolute and 1 <= h < 12 and re.search(r"\b(?:tonight|evening|afternoon|night)\b", text, re.I):
                h, absolute = h + 12, True  # "half eight tomorrow night", "6 tonight": the evening's clock
            ok = h <= 23 and mi <= 59 and (said is None or 1 <= said <= 12)
            clock = (h, mi, absolute) if ok else None
    return (re.sub(r"\s+", " ", day.group(0)) if day else None), clock


# A correction speaks of the reminder when the subject it states is the reminder ("it's Friday", "the time is 9") or
# its task ("the fees are due on the 12th" of "pay the club fees"); "actually Sam's football is on Fridays now, not
# Thursdays" states a fact of another subject, whatever the classifier read. Switch off: OWN_SUBJECT.
OWN_SUBJECT = True
_SUBJECT = re.compile(r"^(?P<s>.*?)(?:\s+(?:is|are|was|were|has|have|had|will|would|should|can|must)\b|(?<=\w)['’]s\b)",
                      re.I)
_NO_SUBJECT = frozenset("no nope sorry oops oh ah actually wait well ok okay now then so make made change move let meant "
                        "mean reminder remind one time day date thing tomorrow today tonight week weekend morning "
                        "afternoon evening night next".split())


# A generic noun for an occasion ("the appointment is at 10", "the meeting's moved to Friday", "my booking is at
# 2") names the reminder's own occasion, whatever its task says ("go to the dentist"): it is no other subject
# (a closed class of hypernyms of an appointment; a possessor before it, "Sam's appointment", still is one).
# Switch off: OCCASION_IS_OWN.
OCCASION_IS_OWN = True
_OCCASION = frozenset("appointment appointments appt meeting booking session slot visit call event".split())


def another_subject(text: str, task: str) -> bool:
    """Whether the statement `text` has a subject other than the reminder whose task is `task`:
    the words before its first verb "is" / "are" / "has" / ... or "'s" ("Sam's football is ..."
    -> "Sam") hold a content word that is no word of a correction (`_NO_SUBJECT`), no weekday,
    month or number, no generic word for an occasion (OCCASION_IS_OWN: "the appointment is at
    10") and no word of `task` (both read by `replies.terms`). False when no such verb is said
    ("no, make it Friday") or OWN_SUBJECT is off."""
    from cairn.assistant.nlu.replies import terms
    m = _SUBJECT.search(text.strip()) if OWN_SUBJECT else None
    if m is None:
        return False
    own = {w for w in terms(m.group("s")) - _NO_SUBJECT - terms(task) - (_OCCASION if OCCASION_IS_OWN else frozenset())
           if not re.fullmatch(r"\d+\w*|" + _WEEKDAY + "|" + _MONTH, w) and not re.fullmatch(_WEEKDAY, w + "s")}
    return bool(own)


_SHIFT = re.compile(r"(?<![-\w.])(?<!half )(?P<n>half an|an?|one|two|three|\d+)\s+(?P<u>minute|hour|day|week)s?\s+(?P<d>later|earlier)\b"
                    # "push it back an hour", "bring it forward 30 minutes": back is later, forward earlier
                    r"|\b(?P<d2>back|forward|forwards)\s+(?:by\s+)?(?<!half )(?P<n2>half an|an?|one|two|three|\d+)\s+(?P<u2>minute|hour|day|week)s?\b",
                    re.I)


def _shift_of(m: re.Match) -> tuple[int, str, int]:
    """(amount, unit, +1 later / -1 earlier) of a `_SHIFT` match."""
    n = m.group("n") or m.group("n2")
    d = (m.group("d") or m.group("d2")).lower()
    if n.lower() == "half an":  # "half an hour later": 30 minutes
        return 30 if (m.group("u") or m.group("u2")).lower() == "hour" else 0, "minute", 1 if d in ("later", "back") else -1
    return ({"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}.get(n.lower()) or int(n),
            (m.group("u") or m.group("u2")).lower(), 1 if d in ("later", "back") else -1)


# An hour from 1 to 6 said without am/pm moves a reminder set for the day (7:00 or later) to the afternoon
# or evening ("move it to quarter past 3" after an 8:15am one is 15:15, not 3:15 in the night, though
# 3:15 is nearer). Switch off: DAYTIME.
DAYTIME = True


def says_shift(text: str) -> bool:
    """Whether `text` moves a time by an amount ("make that an hour later", "two days
    earlier"); a negative amount ("-5 hours later") is none."""
    return bool(_SHIFT.search(text))


def corrected_due(text: str, due: str | None, now: datetime | None = None) -> str | None:
    """The new local time ("YYYY-MM-DD HH:MM") of a reminder due at `due` (ISO) that the
    correction `text` moves: a new day keeps the reminder's time of day (the day counted from
    now: the next such day); a new time keeps its day (the next day when that time has passed);
    an hour said without am/pm is the one of h and h+12 nearer the old time ("make it 7" for a
    6pm reminder is 19:00); a date ("12 January") is that day at the reminder's time, a day of
    the month alone ("the 5th") one in the reminder's month when still ahead (`_in_month`). None when `text` says no day or time, or `due` is unreadable."""
    day, clock = correction(text)
    shift = _SHIFT.search(text)
    if (day is None and clock is None and not shift) or not due:
        return None
    try:
        from datetime import timedelta

        from cairn.schedule import when as W
        tz = W.zone(None)
        cur = datetime.fromisoformat(due.replace("Z", "+00:00")).astimezone(tz)
        now = (now or datetime.now(timezone.utc)).astimezone(tz)
        h, mi = cur.hour, cur.minute
        if clock:
            h, mi, said_ap = clock
            if not said_ap and h < 12 and (abs((h + 12) - cur.hour) < abs(h - cur.hour) or (
                    DAYTIME and 1 <= h <= 6 and cur.hour >= 7)):  # "quarter past 3" after an 8:15 one: 15:15
                h += 12
        if shift and day is None and clock is None:  # "make that an hour later"
            n, unit, sign = _shift_of(shift)
            at = cur + timedelta(**{unit + "s": sign * n})
            return at.strftime("%Y-%m-%d %H:%M") if at > now else None
        if day and re.fullmatch(r"(?:" + _WEEKDAY + r",?\s+)?(?:the\s+)?" + _ORD, day):  # "the 5th": of its month
            at = _in_month(day, h, mi, cur, now, tz)
        elif day:
            trig = W.parse_when(f"{day} at {h:02d}:{mi:02d}", tz, now, recurring=False)
            at = W.next_runs(trig, 1, now, tz)[0]
        else:
            at = W.normalise(cur.replace(hour=h, minute=mi, second=0, microsecond=0), tz)
            if at <= now:
                at = at + timedelta(days=1)
    except Exception:
        return None
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def _in_month(day: str, h: int, mi: int, cur: datetime, now: datetime, tz) -> datetime:
    """The time h:mi on the day of the month `day` names ("the 5th", "friday the 5th") in the
    month of the reminder's time `cur` when that is still ahead of `now`, else on the next such
    date after `now` (`cairn.schedule.when` reads it). Raises InvalidInput as `parse_when` does
    (no such date; a weekday the date does not fall on)."""
    import calendar

    from cairn.errors import InvalidInput
    from cairn.schedule import when as W
    m = re.fullmatch(r"(?:(?P<wd>" + _WEEKDAY + r"),?\s+)?(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)", day)
    dated = f"{(m.group('wd') or '') + ' '}{m.group('d')} {calendar.month_name[cur.month]} {cur.year}".strip()
    try:
        at = W.next_runs(W.parse_when(f"{dated} at {h:02d}:{mi:02d}", tz, now, recurring=False), 1, now, tz)[0]
        if at > now:
            return at
    except (InvalidInput, IndexError):  # no such day that month, or it is past: the next such date
        pass
    return W.next_runs(W.parse_when(f"{day} at {h:02d}:{mi:02d}", tz, now, recurring=False), 1, now, tz)[0]


def moved_schedule(text: str, schedule: str, due: str | None) -> str | None:
    """The repeating schedule ("every saturday at 1pm") of a reminder that the move `text` ("move
    the bowls reminder to fridays", "change the cubs reminder to 5.30pm") changes: the weekday it
    says replaces the schedule's weekday(s), the clock it says replaces its time of day ("at
    HH:MM"), the rest kept; an hour said without am/pm is the one of h and h+12 nearer the
    reminder's hour (its next time `due`, ISO). None when `text` says neither, or says a weekday
    for a schedule that names none (a daily one: a new weekday would change how often it repeats)."""
    day, clock = correction(re.sub(r"\b(" + _WEEKDAY + r")s\b", r"\1", text, flags=re.I))  # "to fridays"
    if day and not re.fullmatch(_WEEKDAY, day):
        day = None  # "tomorrow", a date: no weekday of a repeating schedule
    if day is None and clock is None:
        return None
    out = schedule.strip()
    if day:
        if not re.search(r"\b" + _WEEKDAY + r"s?\b", out, re.I):
            return None
        out = re.sub(r"\b" + _WEEKDAY + r"s?(?:\s*(?:,|and)\s*" + _WEEKDAY + r"s?)*", day, out, count=1, flags=re.I)
    if clock:
        h, mi, said_ap = clock
        try:
            old = datetime.fromisoformat((due or "").replace("Z", "+00:00")).hour
        except ValueError:
            old = h
        if not said_ap and h < 12 and abs((h + 12) - old) < abs(h - old):
            h += 12
        at = f"at {h:02d}:{mi:02d}"
        rest = re.sub(r"\s+at\s+\S+(?:\s*(?:am|pm)\b)?", "", out, flags=re.I)
        out = f"{rest} {at}"
    return out


def skipped_repeats(schedule: str, due: str | None, until: str, limit: int = 100) -> int:
    """How many times of a repeating reminder (`schedule`, "every Monday at 8", next due at
    `due`, ISO) fall strictly between `due` and the local time `until` ("YYYY-MM-DD HH:MM"):
    the times a move of its next one to `until` would skip (at most `limit`). 0 when the
    schedule or a time cannot be read."""
    try:
        from cairn.schedule import when as W
        tz = W.zone(None)
        cur = datetime.fromisoformat((due or "").replace("Z", "+00:00")).astimezone(tz)
        to = datetime.strptime(until, "%Y-%m-%d %H:%M").replace(tzinfo=tz)
        runs = W.next_runs(W.parse_when(schedule, tz, cur, recurring=True), limit, cur, tz)
    except Exception:
        return 0
    return sum(1 for r in runs if r < to)


# Days said in the plural are a habit, not one day: "on Mondays at 7" is every Monday.
_DAYS_PLURAL = re.compile(r"\b(?:on|for)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s\b"
                          r"|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s(?=\s+at\b)", re.I)


def habitual(body: str, cadence: str) -> str:
    """`body` with a habit said as a schedule "every ...": days in the plural ("on Mondays" ->
    "every monday"), a weekly reminder's day ("for Monday" -> "every monday"), a daily one's
    time ("at 8am" -> "every day at 8am"); unchanged when it already says "every"."""
    if re.search(r"\bevery\b", body, re.I):
        return body
    body = _DAYS_PLURAL.sub(lambda m: f"every {(m.group(1) or m.group(2)).lower()}", body, count=1)
    if cadence == "weekly" and not re.search(r"\bevery\b", body, re.I):
        body = re.sub(r"\b(?:(?:on|for)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
                      lambda m: f"every {m.group(1).lower()}", body, count=1, flags=re.I)
    if cadence == "daily" and not re.search(r"\bevery\b", body, re.I):
        body = f"every day {body}"
    return body


# A message naming a reminder by words of its own ("the charcoal one", "the bins reminder") none of which is a word of
# the reminder the session last set or moved is about that other reminder: a snooze of it, never a correction of
# the last one (which moved the insurance reminder for "snooze the charcoal one till friday"; understand.py).
# Switch off: OTHER_REMINDER.
OTHER_REMINDER = True
_NAMED_REMINDER = re.compile(r"\b(?:the|my|that)\s+(?P<w>(?:[\w'’-]+\s+){0,2}?[\w'’-]+)\s+(?:one|reminder)\b", re.I)


def names_other_reminder(text: str, task: str) -> bool:
    """Whether `text` names a reminder ("the charcoal one") by content words none of which is in `task`, the
    reminder the session last spoke of; False when `task` is ""."""
    from cairn.assistant.nlu.replies import terms
    from cairn.lexical import stem
    m = _NAMED_REMINDER.search(text)
    if not task or not m:
        return False
    named = {stem(w) for w in terms(m.group("w"))} - {"last", "first", "other", "new", "next", "same", "old"}
    return bool(named) and not named & {stem(w) for w in terms(task)}
