"""Time in the memory: one ISO 8601 parser and one resolver of relative time phrases.

`parse_time` is the only parser of stored/said times in cairn.memory (recall, rules, the
service's `--at`). Time-zone rule: a time written with an offset ('Z' included) keeps that
offset; a time written without one (naive) is taken as UTC.

`resolve_phrase` is the one resolution core: a relative phrase ("tomorrow at 3pm", "last
Friday", "two weeks ago", "next month") and the moment it was said -> the `TimeSpan` it
means. Its two users keep their own vocabulary and output format:

- `resolve_event_time` (the memory store, case B19) finds the first phrase in a text and
  returns an ISO value plus the text with the absolute date inserted:

      resolve_event_time("dentist tomorrow at 3pm", datetime(2025, 11, 19, 18, 30, tzinfo=...))
      -> ("2025-11-20T15:00:00+01:00", "dentist tomorrow at 3pm (2025-11-20 15:00)")

  It finds today/tonight/tomorrow/yesterday/the day after tomorrow/the day before yesterday
  with an optional "at 3pm" / "at 15:30"; next/last/this week (-> Monday of that week, an
  ISO date), next/last/this month (-> YYYY-MM); in N minutes/hours/days/weeks; N minutes/
  hours/days/weeks ago; [on|next|last|this] Monday..Sunday; an ISO date already in the text
  is taken as is. Only the first expression found is resolved.
- `rules.resolve_relative_date` (extracted facts) writes dates as words ("7 May 2023").

Arithmetic is on the wall clock in the anchor's time zone (a ZoneInfo anchor stays right
across DST changes): "tomorrow at 10am" is 10:00 local time whatever the offset that day.
"""

from __future__ import annotations

from cairn.errors import InvalidInput

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUM_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
              "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

# --- the parser ------------------------------------------------------------------------


def parse_time(value: str) -> datetime:
    """An aware datetime from an ISO 8601 time: "2025-11-19T18:30:00+01:00",
    "2025-11-19T17:30:00Z", "2025-11-19 18:30", "2025-11-19".

    A written offset is kept as is (not converted); a time without one is taken as UTC.
    Raises ValueError naming the value when it is not a string or not ISO 8601."""
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        raise InvalidInput(f"{value!r} is not an ISO 8601 time (e.g. 2025-11-19T18:30:00+01:00)") from None
    return as_aware(dt)


def as_aware(dt: datetime) -> datetime:
    """`dt` itself when it has a time zone, else the same wall-clock time in UTC (the
    parse_time rule, for datetimes handed in by code)."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=timezone.utc)


# --- the resolution core ---------------------------------------------------------------


@dataclass(frozen=True)
class TimeSpan:
    """What a relative time phrase means.

    start: the first moment, in the anchor's time zone (midnight unless unit is "minute").
    unit: "minute" (a clock time is known), "day", "week" (start is its Monday), "month"
    (start is its 1st) or "year" (start is 1 January). approximate: the phrase counted weeks
    ("two weeks ago", "in 2 weeks"), so `start` is the day only roughly meant.
    """

    start: datetime
    unit: str
    approximate: bool = False


_TIME = r"(?:\s+at\s+(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?)?"
_DAY_OFFSETS = {"the day after tomorrow": 2, "the day before yesterday": -2, "tomorrow": 1,
                "yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "this morning": 0}
_COUNTS = {**_NUM_WORDS, "a couple of": 2, "a few": 3}
_COUNT = r"(?P<n>\d+|" + "|".join(sorted(_COUNTS, key=len, reverse=True)) + r")"
_UNIT = r"(?P<u>minute|min|hour|day|week|month|year)s?"
_STEPS = {"next": 1, "last": -1, "this": 0}
# Each phrase form, matched against the whole phrase.
_FORMS = (
    ("day", re.compile(r"(?P<w>" + "|".join(_DAY_OFFSETS) + r")" + _TIME, re.I)),
    ("weekday", re.compile(r"(?:(?P<rel>next|last|this|on)\s+)?(?P<d>" + "|".join(WEEKDAYS) + r")"
                           + _TIME, re.I)),
    ("period", re.compile(r"(?P<rel>next|last|this)\s+(?P<u>week|month|year)", re.I)),
    ("in", re.compile(r"in\s+" + _COUNT + r"\s+" + _UNIT, re.I)),
    ("ago", re.compile(_COUNT + r"\s+" + _UNIT + r"\s+ago", re.I)),
)


def _clock(m: re.Match, day: datetime) -> TimeSpan:
    """`day` at the match's "at H[:MM][am|pm]" time; the whole day if none or not a time."""
    whole_day = TimeSpan(day, "day")
    if not m.group("h"):
        return whole_day
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    ap = (m.group("ap") or "").lower().replace(".", "")
    if ap == "pm" and hour < 12:
        hour += 12
    elif ap == "am" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return whole_day
    return TimeSpan(day.replace(hour=hour, minute=minute), "minute")


def _months_later(midnight: datetime, months: int) -> datetime:
    """The 1st of the month `months` after (negative: before) `midnight`'s month."""
    index = midnight.year * 12 + midnight.month - 1 + months
    return midnight.replace(year=index // 12, month=index % 12 + 1, day=1)


def _span(form: str, m: re.Match, anchor: datetime, tense: str | None = None) -> TimeSpan | None:
    midnight = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
    if form == "day":
        return _clock(m, midnight + timedelta(days=_DAY_OFFSETS[m.group("w").lower()]))
    if form == "weekday":
        rel = (m.group("rel") or "").lower()
        delta = (WEEKDAYS.index(m.group("d").lower()) - anchor.weekday()) % 7
        if rel == "last":
            delta = delta - 7 if delta else -7
        elif rel == "next" and delta == 0:
            delta = 7
        elif rel in ("", "on", "this") and tense == "past" and delta:
            delta -= 7  # "I went hiking on Tuesday": the Tuesday before, not the coming one
        return _clock(m, midnight + timedelta(days=delta))
    unit = m.group("u").lower()
    if form == "period":
        step = _STEPS[m.group("rel").lower()]
    else:
        word = m.group("n").lower()
        step = int(word) if word.isdigit() else _COUNTS[word]
        step = step if form == "in" else -step
    if unit in ("minute", "min", "hour"):
        seconds = step * (3600 if unit == "hour" else 60)
        return TimeSpan((anchor + timedelta(seconds=seconds)).replace(microsecond=0), "minute")
    if unit == "day":
        return TimeSpan(midnight + timedelta(days=step), "day")
    if unit == "week" and form == "period":
        return TimeSpan(midnight - timedelta(days=anchor.weekday()) + timedelta(weeks=step), "week")
    if unit == "week":
        return TimeSpan(midnight + timedelta(weeks=step), "day", approximate=True)
    if unit == "month":
        return TimeSpan(_months_later(midnight, step), "month")
    return TimeSpan(midnight.replace(year=midnight.year + step, month=1, day=1), "year")


def resolve_phrase(phrase: str, anchor: datetime, tense: str | None = None) -> TimeSpan | None:
    """The span a whole relative time phrase means, said at `anchor` (aware or naive; the
    result has the same tzinfo). Forms (case-insensitive):

    - today / tonight / this morning / tomorrow / yesterday / last night / the day after
      tomorrow / the day before yesterday, optionally "at 3pm", "at 15:30", "at 9 a.m.";
    - [on|this|next|last] Monday..Sunday [at ...]: bare/on/this = the next such day from
      today on (today included) — or, when `tense` is "past" (see `tense_of`), the latest
      such day up to today (today included); next = the coming one, never today; last = the
      latest before today. `tense` changes nothing else ("next"/"last" say it themselves);
    - this/next/last week|month|year;
    - in N / N ... ago with units minute(s)/min(s)/hour(s) (a clock time), day(s), week(s)
      (a day, approximate), month(s), year(s); N is digits, a/an/one..ten/twelve, "a couple
      of" (2) or "a few" (3).

    Returns None for anything else (also for a phrase with words around it). Never raises.
    """
    text = phrase.strip()
    for form, rx in _FORMS:
        m = rx.fullmatch(text)
        if m:
            try:
                return _span(form, m, anchor, tense)
            except (ValueError, OverflowError):
                return None  # "99999 years ago": outside the calendar
    return None


# --- tense: which way a bare weekday points ---------------------------------------------

# Past-tense cues: irregular past forms, "ago", "last", "yesterday", "used to", and regular
# "-ed" verbs (see `_is_past_ed`).
_PAST_WORDS = set("""went was wasn't were weren't did didn't had hadn't got made took saw met came ate
drove flew ran bought gave left lost won told said found felt spent sent thought began wrote
heard kept brought caught taught slept sat stood sang swam wore rode spoke broke fell became
chose drank forgot paid held sold built grew threw woke fought understood knew meant led fed dug
hung shot lit ago last yesterday earlier""".split())
# Future cues (besides "going to" and "am/is/are + -ing", matched by _FUTURE_RE).
_FUTURE_WORDS = set("""will won't shall gonna wanna tomorrow next upcoming soon planning hoping
'll i'll we'll you'll he'll she'll they'll it'll""".split())
_FUTURE_RE = re.compile(r"\b(?:going to|about to|plan(?:s)? to|hope to|want(?:s)? to|looking forward|"
                        r"can'?t wait)\b|(?:\b(?:am|is|are)|'m|'re)\s+(?:\w+\s+)?(?!(?:" +
                        r"amazing|interesting|boring|exciting|annoying|tiring|relaxing|stunning|morning|"
                        r"evening|nothing|something|anything|everything|thing|king|ring|spring|string|"
                        r"wedding|building|meeting|ceiling|feeling)\b)[a-z]+ing\b", re.I)
# "-ed" words that are not past verbs, and verbs of arranging whose past says nothing about
# when the arranged thing happens ("I booked a table on Friday" may be for this Friday).
_NOT_PAST_ED = set("""need feed seed speed bed red shed bleed breed proceed succeed exceed indeed weed
heed greed deed hundred sacred naked wicked kindred shred sled wed embed ed med tired interested
excited scared worried bored married engaged retired planned scheduled booked arranged reserved
registered signed confirmed invited asked agreed decided promised expected supposed postponed
rescheduled moved organised organized""".split())
# After these an "-ed" word is an adjective or a present passive ("I'm excited", "it's closed").
_BE_BEFORE = {"am", "is", "are", "'m", "'re", "'s", "be", "being", "get", "gets", "feel", "feels",
              "look", "looks", "seem", "seems", "so", "very", "really", "too", "more", "most",
              "become", "becomes", "i'm", "we're", "you're", "they're", "it's", "he's", "she's"}
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|'[a-z]+", re.I)
_CLAUSE_SPLIT = re.compile(r"[,;:]|\b(?:and|but|because|so|then|although|though|while)\b", re.I)
_SENTENCE_SPLIT = re.compile(r"[.;!?]+(?:\s|$)|\n")


def _is_past_ed(word: str, before: str) -> bool:
    """A regular past verb: ends in -ed, not a known non-verb/arranging word, not after a
    form of "be"/"feel"/"get" or an intensifier (then it is an adjective or a passive)."""
    return (len(word) > 3 and word.endswith("ed") and word not in _NOT_PAST_ED
            and before not in _BE_BEFORE)


def _cues(text: str) -> list[tuple[int, int, str]]:
    """(start, end, "past" | "future") of every tense cue in `text`."""
    out = [(m.start(), m.end(), "future") for m in _FUTURE_RE.finditer(text)]
    prev = ""
    for m in _TOKEN.finditer(text):
        w = m.group(0).lower()
        if w in _PAST_WORDS or _is_past_ed(w, prev):
            out.append((m.start(), m.end(), "past"))
        elif w in _FUTURE_WORDS:
            out.append((m.start(), m.end(), "future"))
        prev = w
    return out


def tense_of(text: str, start: int, end: int) -> str | None:
    """"past", "future" or None: the tense of the words around `text[start:end]` (a time
    phrase). The nearest cue in the phrase's clause (cut at , ; : and, but, because...)
    decides; if the clause has none, the nearest in its sentence. Past cues: went, was, did,
    had and other irregular past forms, "-ed" verbs (not adjectives such as "I'm excited",
    nor verbs of arranging such as "booked"), ago, last, yesterday. Future cues: will, 'll,
    going to, gonna, plan/hope/want to, next, tomorrow, soon, and am/is/are + "-ing" (the
    present progressive of an arrangement: "I'm flying on Friday"). A phrase after "for",
    "by", "until", "till" or "before" names a target date, so it has no tense (None)."""
    if re.search(r"\b(?:for|by|until|till|before)\s+$", text[:start], re.I):
        return None
    for splitter in (_CLAUSE_SPLIT, _SENTENCE_SPLIT):
        lo = max([m.end() for m in splitter.finditer(text, 0, start)], default=0)
        hi = min([m.start() for m in splitter.finditer(text, end)], default=len(text))
        part = text[lo:hi]
        cues = [(a + lo, b + lo, t) for a, b, t in _cues(part)
                if not (a + lo < end and b + lo > start)]  # the phrase's own words ("last")
        if cues:
            nearest = min(cues, key=lambda c: start - c[1] if c[1] <= start else c[0] - end)
            return nearest[2]
    return None


# --- the memory store's use (case B19) -------------------------------------------------

# What resolve_event_time looks for in a text (narrower than resolve_phrase: it was tuned on
# the store's cases; widening it changes stored event times).
_DAYWORD = re.compile(r"\b(?P<w>the day after tomorrow|the day before yesterday|tomorrow|yesterday"
                      r"|today|tonight)\b" + _TIME, re.I)
_WEEKDAY = re.compile(r"\b(?:(?P<rel>next|last|this|on)\s+)?(?P<d>" + "|".join(WEEKDAYS) + r")\b"
                      + _TIME, re.I)
_WEEK = re.compile(r"\b(?P<rel>next|last|this)\s+(?P<u>week|month)\b", re.I)
_IN = re.compile(r"\bin\s+(?P<n>\d+|" + "|".join(_NUM_WORDS) + r")\s+(?P<u>minute|min|hour|day|week)s?\b", re.I)
_AGO = re.compile(r"\b(?P<n>\d+|" + "|".join(_NUM_WORDS) + r")\s+(?P<u>minute|hour|day|week)s?\s+ago\b", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b")


def _event_value(span: TimeSpan) -> tuple[str, str]:
    """(stored ISO value, label inserted into the text) of a span."""
    if span.unit == "minute":
        return span.start.isoformat(), span.start.strftime("%Y-%m-%d %H:%M")
    day = span.start.date().isoformat()
    if span.unit == "week":
        return day, f"week of {day}"
    if span.unit == "month":
        return day[:7], day[:7]
    if span.unit == "year":
        return day[:4], day[:4]
    return day, day


# A weekday said of a habit names no date: "every Monday", "each Friday", "on Monday mornings",
# "Sunday evenings", "I usually swim on Mondays" (a plural weekday never matches _WEEKDAY).
_EVERY_BEFORE = re.compile(r"\b(?:every|each)\s+(?:other\s+)?$", re.I)
_PLURAL_PART_AFTER = re.compile(r"^\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b", re.I)
_HABIT_WORDS = re.compile(r"\b(?:usually|always|normally|generally|typically|often|tend to|every week|weekly)\b", re.I)


def _habitual(text: str, m: re.Match) -> bool:
    """True when the weekday `m` matched in `text` is said of a habit, not of one day: "every" /
    "each" before it, a plural part of the day after it, or a frequency word ("usually",
    "always", "weekly") in its clause (temporal._CLAUSE_SPLIT)."""
    if m.group("rel") and m.group("rel").lower() in ("next", "last", "this"):
        return False
    if _EVERY_BEFORE.search(text[:m.start()]) or _PLURAL_PART_AFTER.match(text[m.end():]):
        return True
    start = max((c.end() for c in _CLAUSE_SPLIT.finditer(text, 0, m.start())), default=0)
    end = next((c.start() for c in _CLAUSE_SPLIT.finditer(text, m.end())), len(text))
    return bool(_HABIT_WORDS.search(text[start:end]))


def resolve_event_time(text: str, anchor: datetime) -> tuple[str | None, str]:
    """(ISO event time or None, text with the absolute date inserted after the phrase).

    anchor: the aware datetime the text was said at (a naive one is taken as is). The ISO
    value is a full timestamp when a clock time is known, else a date (YYYY-MM-DD, or YYYY-MM
    for a month); relative words are kept in the text and the absolute date follows them in
    parentheses ("next week (week of 2025-11-24)"). Returns (None, text) when nothing
    temporal is found. Never raises.
    """
    found = _ISO.search(text)
    if found:
        return found.group(0), text
    matches = [m for rx in (_DAYWORD, _WEEKDAY, _WEEK, _IN, _AGO) if (m := rx.search(text))
               and not (rx is _WEEKDAY and _habitual(text, m))]
    if not matches:
        return None, text
    m = min(matches, key=lambda x: x.start())
    span = resolve_phrase(m.group(0), anchor, tense_of(text, m.start(), m.end()))
    if span is None:  # every finder match is a resolve_phrase form; kept as a guard
        return None, text
    iso, label = _event_value(span)
    return iso, f"{text[:m.end()]} ({label}){text[m.end():]}"
