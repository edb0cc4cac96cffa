"""memory/temporal.py: the one time parser (naive = UTC, 'Z' accepted, ValueError naming the
value) as its three callers use it (recall's fallback, rules' None, the service's error), and
the shared relative-phrase core `resolve_phrase`."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from cairn.memory import recall, remember
from cairn.memory.extract_model import Message
from cairn.memory.rules import resolve_relative_date, rule_facts
from cairn.memory.temporal import (TimeSpan, as_aware, parse_time, resolve_event_time, resolve_phrase,
                                   tense_of)
from cairn.store import db

UTC = timezone.utc
CET = timezone(timedelta(hours=1))
WED = datetime(2025, 11, 19, 18, 30, tzinfo=CET)


# ------------------------------------------------------------------ parse_time
@pytest.mark.parametrize("value,expected", [
    ("2025-11-19T18:30:00+01:00", datetime(2025, 11, 19, 18, 30, tzinfo=CET)),
    ("2025-11-19T17:30:00Z", datetime(2025, 11, 19, 17, 30, tzinfo=UTC)),
    ("2025-11-19 18:30", datetime(2025, 11, 19, 18, 30, tzinfo=UTC)),
    ("2025-11-19", datetime(2025, 11, 19, tzinfo=UTC)),
    ("  2025-11-19T18:30  ", datetime(2025, 11, 19, 18, 30, tzinfo=UTC)),
])
def test_parse_time_keeps_a_written_offset_and_takes_naive_as_utc(value, expected):
    got = parse_time(value)
    assert got == expected and got.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize("value", ["tomorrow", "", "2025-13-01", "19/11/2025", None, 20251119])
def test_parse_time_raises_value_error_naming_the_value(value):
    with pytest.raises(ValueError, match="is not an ISO 8601 time") as err:
        parse_time(value)
    assert repr(value) in str(err.value)


def test_naive_is_utc_whatever_the_local_time_zone():
    code = ("from cairn.memory.temporal import parse_time; "
            "print(parse_time('2025-11-19 18:30').isoformat())")
    env = dict(os.environ, TZ="Asia/Kolkata")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2025-11-19T18:30:00+00:00"


def test_as_aware_applies_the_same_rule_to_datetimes():
    assert as_aware(datetime(2025, 1, 1, 12)) == datetime(2025, 1, 1, 12, tzinfo=UTC)
    assert as_aware(WED) is WED


# ------------------------------------------------------------------ callers' error behaviour
def test_rules_message_without_a_usable_time_gets_no_dates():
    msgs = [Message("r1", "Ada", "I went climbing yesterday with friends.", t)
            for t in ("", "last Tuesday", "2024-02-30T10:00:00")]
    assert [f.text for f in rule_facts(msgs)] == ["Ada went climbing yesterday with friends."]
    dated = rule_facts([Message("r2", "Ada", "I went climbing yesterday with friends.", "2024-03-01T00:30:00Z")])
    assert [f.text for f in dated] == ["Ada went climbing yesterday with friends (29 February 2024)."]


def test_service_at_uses_the_rule_and_names_a_bad_time(app):
    change = app.remember("I repaired the garden fence with new posts.", at="2025-11-19 18:30")
    assert change.memory.created == "2025-11-19T18:30:00+00:00"
    change = app.remember("I bought cedar planks for the shed roof.", at="2025-11-19T18:30:00Z")
    assert change.memory.created == "2025-11-19T18:30:00+00:00"
    with pytest.raises(ValueError, match="'half past six' is not an ISO 8601 time"):
        app.remember("I painted the shed.", at="half past six")


@pytest.fixture
def conn(tmp_path):
    c = db.connect(tmp_path / "index.db")
    yield c
    c.close()


def _age(conn, embedder, now):
    hits = recall(conn, embedder, "sailing boat mooring", now=now, k=1, touch=False)
    return hits[0].signals["age_days"]


def test_recall_takes_a_naive_stored_time_as_utc(conn, real_embedder):
    remember(conn, real_embedder, "The sailing boat mooring is at pier 7 in the harbour.",
             now=datetime(2025, 1, 1, 12, 0))  # said at a naive time: stored naive
    assert _age(conn, real_embedder, datetime(2025, 1, 11, 12, 0, tzinfo=CET)) == pytest.approx(10 - 1 / 24)


def test_recall_takes_a_naive_query_time_as_utc_and_keeps_stored_offsets(conn, real_embedder):
    remember(conn, real_embedder, "The sailing boat mooring is at pier 7 in the harbour.",
             now=datetime(2025, 1, 1, 12, 0, tzinfo=timezone(timedelta(hours=5))))  # 07:00 UTC
    assert _age(conn, real_embedder, datetime(2025, 1, 2, 7, 0)) == pytest.approx(1.0)


def test_recall_falls_back_to_the_query_time_for_a_stored_time_that_is_not_iso(conn, real_embedder):
    change = remember(conn, real_embedder, "The sailing boat mooring fee is paid yearly.",
                      now=datetime(2025, 1, 1, 12, 0, tzinfo=UTC))
    conn.execute("UPDATE memories SET created = 'garbled', valid_from = NULL WHERE id = ?",
                 (change.memory.id,))
    assert _age(conn, real_embedder, datetime(2025, 3, 1, tzinfo=UTC)) == 0.0


# ------------------------------------------------------------------ resolve_phrase
@pytest.mark.parametrize("phrase,expected", [
    ("tomorrow at 3pm", TimeSpan(datetime(2025, 11, 20, 15, 0, tzinfo=CET), "minute")),
    ("last night", TimeSpan(datetime(2025, 11, 18, tzinfo=CET), "day")),
    ("on Wednesday", TimeSpan(datetime(2025, 11, 19, tzinfo=CET), "day")),
    ("next Wednesday", TimeSpan(datetime(2025, 11, 26, tzinfo=CET), "day")),
    ("last Wednesday", TimeSpan(datetime(2025, 11, 12, tzinfo=CET), "day")),
    ("this week", TimeSpan(datetime(2025, 11, 17, tzinfo=CET), "week")),
    ("next year", TimeSpan(datetime(2026, 1, 1, tzinfo=CET), "year")),
    ("in 3 months", TimeSpan(datetime(2026, 2, 1, tzinfo=CET), "month")),
    ("14 months ago", TimeSpan(datetime(2024, 9, 1, tzinfo=CET), "month")),
    ("a couple of years ago", TimeSpan(datetime(2023, 1, 1, tzinfo=CET), "year")),
    ("in a few weeks", TimeSpan(datetime(2025, 12, 10, tzinfo=CET), "day", approximate=True)),
    ("45 minutes ago", TimeSpan(datetime(2025, 11, 19, 17, 45, tzinfo=CET), "minute")),
])
def test_resolve_phrase_gives_the_span_a_phrase_means(phrase, expected):
    got = resolve_phrase(phrase, WED)
    assert got == expected and got.start.tzinfo is CET


def test_resolve_phrase_keeps_the_wall_clock_across_dst():
    anchor = datetime(2025, 3, 29, 22, 45, tzinfo=ZoneInfo("Europe/Berlin"))  # summer time starts overnight
    span = resolve_phrase("tomorrow at 9am", anchor)
    assert span.start.isoformat() == "2025-03-30T09:00:00+02:00"


@pytest.mark.parametrize("phrase", ["someday", "we met yesterday", "yesterday we met", "next decade",
                                    "in some days", ""])
def test_resolve_phrase_is_none_for_anything_but_a_whole_phrase(phrase):
    assert resolve_phrase(phrase, WED) is None


def test_rules_formats_new_core_phrases_and_keeps_week_spans_unnamed():
    assert resolve_relative_date("the day after tomorrow", WED) == "21 November 2025"
    assert resolve_relative_date("in 3 months", WED) == "February 2026"
    assert resolve_relative_date("in 2 weeks", WED) == "around 3 December 2025"
    assert resolve_relative_date("this week", WED) is None
    assert resolve_relative_date("0 days ago", WED) is None


@pytest.mark.parametrize("phrase", ["99999 years ago", "100000000 days ago", "in 99999999999 days"])
def test_phrases_outside_the_calendar_resolve_to_nothing(phrase):
    """resolve_phrase never raises: a date outside the calendar is no date."""
    anchor = datetime(2024, 6, 8, 12, 0, tzinfo=timezone.utc)
    assert resolve_phrase(phrase, anchor) is None
    assert resolve_relative_date(phrase, anchor) is None
    from cairn.memory.temporal import resolve_event_time
    assert resolve_event_time(f"We meet {phrase}.", anchor)[0] is None


# ------------------------------------------------------------------ tense of bare weekdays
SAT = datetime(2024, 3, 9, 18, 0, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize("text,expected", [
    # past tense -> the Tuesday before (2024-03-05)
    ("I went hiking on Tuesday.", "2024-03-05"),
    ("I walked the dog on Tuesday.", "2024-03-05"),
    ("We had a party on Tuesday and it was fun.", "2024-03-05"),
    ("On Tuesday I visited my aunt.", "2024-03-05"),
    ("Tuesday was great.", "2024-03-05"),
    ("My birthday was on Tuesday.", "2024-03-05"),
    ("I went hiking this Tuesday.", "2024-03-05"),
    ("I met Olga on Tuesday at 3pm.", "2024-03-05T15:00:00+00:00"),
    ("I finished the report on Tuesday, next I'll start the slides.", "2024-03-05"),
    # future / present progressive / no tense -> the coming Tuesday (2024-03-12)
    ("I'm going to the dentist on Tuesday.", "2024-03-12"),
    ("I'm going hiking on Tuesday.", "2024-03-12"),
    ("I will call her on Tuesday.", "2024-03-12"),
    ("I went to the gym and I'll go again on Tuesday.", "2024-03-12"),
    ("I'm excited about Tuesday.", "2024-03-12"),       # an adjective, not a past verb
    ("I booked a table for Tuesday.", "2024-03-12"),    # "for": a target date
    ("I have yoga on Tuesday.", "2024-03-12"),
    ("See you on Tuesday!", "2024-03-12"),
    # explicit next/last win over the tense; today's weekday is today either way
    ("I'll go there last Tuesday.", "2024-03-05"),
    ("I did it next Tuesday.", "2024-03-12"),
    ("I went hiking on Saturday.", "2024-03-09"),
    ("I'll go hiking on Saturday.", "2024-03-09"),
])
def test_bare_weekday_follows_the_tense_of_its_clause(text, expected):
    iso, out = resolve_event_time(text, SAT)
    assert iso == expected
    assert f"({expected[:10]}" in out


@pytest.mark.parametrize("text", [
    "I go swimming on Monday mornings.",
    "Every Friday I call my mum.",
    "We play chess each other Sunday.",
    "I usually cycle to work on Tuesday.",
    "Sunday evenings are for the allotment.",
])
def test_a_weekday_said_of_a_habit_gets_no_date(text):
    """A habit names no day: the memory keeps its words, with no event time and no date."""
    assert resolve_event_time(text, SAT) == (None, text)


def test_one_weekday_beside_a_habit_word_elsewhere_still_gets_its_date():
    iso, out = resolve_event_time("I usually walk, but next Monday I'm driving.", SAT)
    assert iso == "2024-03-11" and "next Monday (" in out


def test_tense_of_reads_the_clause_around_the_phrase():
    text = "I went swimming yesterday, but I'm flying to Oslo on Friday."
    start = text.index("Friday")
    assert tense_of(text, start, start + 6) == "future"
    text = "Next week is busy. I called mum on Friday."
    start = text.index("Friday")
    assert tense_of(text, start, start + 6) == "past"
    assert tense_of("see you on Friday", 11, 17) is None


def test_resolve_phrase_tense_only_moves_bare_weekdays():
    assert resolve_phrase("on Tuesday", SAT, tense="past").start.date().isoformat() == "2024-03-05"
    assert resolve_phrase("on Tuesday", SAT).start.date().isoformat() == "2024-03-12"
    assert resolve_phrase("next Tuesday", SAT, tense="past").start.date().isoformat() == "2024-03-12"
    assert resolve_phrase("tomorrow", SAT, tense="past").start.date().isoformat() == "2024-03-10"


def test_remembered_past_event_gets_the_previous_weekday(tmp_path, real_embedder):
    conn = db.connect(tmp_path / "index.db")
    try:
        change = remember(conn, real_embedder, "I went hiking on Tuesday.", now=SAT)
        assert change.memory.event_time == "2024-03-05"
        assert change.memory.text == "I went hiking on Tuesday (2024-03-05)."
    finally:
        conn.close()
