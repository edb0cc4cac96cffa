"""Calendar dates named in a search query, and how near a unit's time is to them (issue 17).

A question that names a date ("What did Maria plan on the evening of 7 July, 2023?",
"Where did Joanna travel in July 2022?") is about what was said or happened then, and
every chat message and note carries a time (its event time, else the note's). The time
signal of hybrid search (graph/signal.py) scores a candidate by how near its date is to
a date the query names.

`query_dates(query)` finds absolute dates only, as written in English (no relative
phrase: "last week" has no anchor in a query):

- a day: "7 July 2023", "7th of July, 2023", "July 7, 2023", "Jul 7th 2023", "2023-07-07";
- a month: "July 2023", "July, 2023", "July of 2023", "2023-07";
- a year, after "in" / "during" / "since" / "throughout": "in 2023";
- a month with no year after "in" / "during" / "early" / "late" / "mid" / "since" / "of":
  "in July" (that month of any year; "may" only capitalised, "May", so that "you may"
  is not a month).

Each becomes a `DateWindow` (first and last day, inclusive; `year` None for a month of
any year). Numbers that are not dates ("2,000 people", "out of 2000 people", "in 300 days",
"room 2023") are not read as years: a bare year needs one of the prepositions above and
1900-2099.

`date_nearness(day, windows, tau)` = max over the windows of exp(-d / tau), d the days
between `day` and the window (0 inside it); tau = 0 means 1 inside, 0 outside. Units:
days. A said date lies on or after the event it reports ("I went camping two weekends
ago"), so a small tau lets a message from the days around the named date count too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, timedelta

from cairn.errors import InvalidInput

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_ABBR = {m[:3]: i + 1 for i, m in enumerate(_MONTHS)} | {"sept": 9}
_MONTH_NUM = {m: i + 1 for i, m in enumerate(_MONTHS)} | _ABBR
_MONTH = r"(?P<{}>(?:january|february|march|april|may|june|july|august|september|october|november|december" \
         r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?)"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{}>(?:19|20)\d\d)"

_DAY_MONTH_YEAR = re.compile(r"(?<![\w-])" + _DAY.format("d") + r"\s+(?:of\s+)?" + _MONTH.format("m")
                             + r",?\s+" + _YEAR.format("y") + r"(?!\w)", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(r"(?<![\w-])" + _MONTH.format("m") + r"\s+" + _DAY.format("d") + r",?\s+"
                             + _YEAR.format("y") + r"(?!\w)", re.IGNORECASE)
_MONTH_YEAR = re.compile(r"(?<![\w-])" + _MONTH.format("m") + r",?\s+(?:of\s+)?" + _YEAR.format("y")
                         + r"(?![\w-])", re.IGNORECASE)
_ISO = re.compile(r"(?<![\w-])" + _YEAR.format("y") + r"-(?P<m>[01]\d)(?:-(?P<d>[0-3]\d))?(?![\w-])")
_YEAR_ALONE = re.compile(r"\b(?:in|during|since|throughout)\s+" + _YEAR.format("y") + r"(?![\w-])",
                         re.IGNORECASE)
_MONTH_ALONE = re.compile(r"\b(?:in|during|early|late|mid|since|of)[\s-]+(?:(?:early|late|mid)[\s-]+)?"
                          + _MONTH.format("m") + r"(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class DateWindow:
    """Days `first`..`last` (inclusive) a query names. For a month of any year
    ("in July") `year_free` is True and only the month and days of `first`/`last` count."""

    first: date
    last: date
    year_free: bool = False


def _month(word: str) -> int:
    return _MONTH_NUM[word.lower().rstrip(".")]


def _month_window(year: int, month: int, year_free: bool = False) -> DateWindow:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return DateWindow(date(year, month, 1), nxt - timedelta(days=1), year_free)


def query_dates(query: str) -> list[DateWindow]:
    """The dates `query` names (see the module docstring), in the order found, each once.
    Impossible days ("31 February 2023") are left out. Never raises for any text."""
    found: list[tuple[int, DateWindow]] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    def add(m: re.Match, window: DateWindow) -> None:
        taken.append((m.start(), m.end()))
        found.append((m.start(), window))

    for rx in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR):
        for m in rx.finditer(query):
            if free(m) and _capital_may(m):
                try:
                    d = date(int(m["y"]), _month(m["m"]), int(m["d"]))
                except ValueError:  # "31 February 2023": no date, and not its month either
                    taken.append((m.start(), m.end()))
                    continue
                add(m, DateWindow(d, d))
    for m in _ISO.finditer(query):
        if not free(m):
            continue
        try:
            if m["d"]:
                d = date(int(m["y"]), int(m["m"]), int(m["d"]))
                add(m, DateWindow(d, d))
            else:
                add(m, _month_window(int(m["y"]), int(m["m"])))
        except ValueError:  # "2023-13-40"
            taken.append((m.start(), m.end()))
    for m in _MONTH_YEAR.finditer(query):
        if free(m) and _capital_may(m):
            add(m, _month_window(int(m["y"]), _month(m["m"])))
    for m in _YEAR_ALONE.finditer(query):
        if free(m):
            y = int(m["y"])
            add(m, DateWindow(date(y, 1, 1), date(y, 12, 31)))
    for m in _MONTH_ALONE.finditer(query):
        if free(m) and _capital_may(m):
            add(m, _month_window(2000, _month(m["m"]), year_free=True))
    out: list[DateWindow] = []
    for _, w in sorted(found, key=lambda x: x[0]):
        if w not in out:
            out.append(w)
    return out


def _capital_may(m: re.Match) -> bool:
    """"may" is a month only when written "May" (else "you may", "it may")."""
    word = m["m"]
    return word.rstrip(".").lower() != "may" or word[0] == "M"


def _days_outside(day: date, w: DateWindow) -> int:
    """Days between `day` and window `w` (0 inside it)."""
    if not w.year_free:
        first, last = w.first, w.last
    else:  # the window's month in the year of `day`, or the year before / after if nearer
        best = None
        for y in (day.year - 1, day.year, day.year + 1):
            f = date(y, w.first.month, 1)
            nxt = date(y + (f.month == 12), f.month % 12 + 1, 1)
            d = _gap(day, f, nxt - timedelta(days=1))
            best = d if best is None else min(best, d)
        return best or 0
    return _gap(day, first, last)


def _gap(day: date, first: date, last: date) -> int:
    if day < first:
        return (first - day).days
    if day > last:
        return (day - last).days
    return 0


def date_nearness(day: date, windows: list[DateWindow], tau: float) -> float:
    """max over `windows` of exp(-d / tau), d = days from `day` to the window (0 inside);
    tau = 0: 1.0 inside a window, else 0.0. In [0, 1]; 0.0 when `windows` is empty.
    Raises InvalidInput for a negative tau."""
    if tau < 0:
        raise InvalidInput(f"tau must be at least 0 days, got {tau}")
    best = 0.0
    for w in windows:
        d = _days_outside(day, w)
        s = (1.0 if d == 0 else 0.0) if tau == 0 else math.exp(-d / tau)
        best = max(best, s)
    return best


def day_of(value) -> date | None:
    """The calendar date of a stored time (an ISO 8601 string, a datetime or a date, as
    the index returns it), as written (no time-zone conversion); None when unreadable."""
    if value is None:
        return None
    if isinstance(value, date):
        return value if type(value) is date else value.date()
    text = str(value).strip()
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None
