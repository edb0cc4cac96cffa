"""Dates named in a search query and the time signal of hybrid search (issue 17):
`search/dates.py` (query_dates, date_nearness, day_of) and its use in graph/signal.py
(fast fake embedder: the ranking rule is the point, not the model)."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import date, datetime

import pytest
from fakes.embedder import HashEmbedder

from cairn.config import ConfigError, load_settings
from cairn.errors import InvalidInput
from cairn.search.dates import DateWindow, date_nearness, day_of, query_dates
from cairn.service import Cairn

from conftest import write_jsonl


def _days(query):
    return [(str(w.first), str(w.last), w.year_free) for w in query_dates(query)]


@pytest.mark.parametrize("query, expected", [
    ("What did Maria plan on the evening of 7 July, 2023?", [("2023-07-07", "2023-07-07", False)]),
    ("What book did Tim finish on 8th December, 2023?", [("2023-12-08", "2023-12-08", False)]),
    ("Who did she meet on May 3, 2023?", [("2023-05-03", "2023-05-03", False)]),
    ("the 7th of July 2023 picnic", [("2023-07-07", "2023-07-07", False)]),
    ("notes from Sept 14th 2021", [("2021-09-14", "2021-09-14", False)]),
    ("meeting 2024-02-29 minutes", [("2024-02-29", "2024-02-29", False)]),
    ("Where did Joanna travel to in July 2022?", [("2022-07-01", "2022-07-31", False)]),
    ("budget for 2023-11", [("2023-11-01", "2023-11-30", False)]),
    ("the fair in March of 2023", [("2023-03-01", "2023-03-31", False)]),
    ("Which performances did John achieve in 2023?", [("2023-01-01", "2023-12-31", False)]),
    ("When did Melanie go camping in July?", [("2000-07-01", "2000-07-31", True)]),
    ("What happened in mid-February?", [("2000-02-01", "2000-02-29", True)]),
    ("from 2 March 2023 to April 2023", [("2023-03-02", "2023-03-02", False), ("2023-04-01", "2023-04-30", False)]),
])
def test_query_dates_reads_written_dates(query, expected):
    assert _days(query) == expected


@pytest.mark.parametrize("query", [
    "2,000 people came", "out of 2000 people", "room 2023 is free", "in 300 days", "you may go in may", "the 31 February 2023 report",
    "what is 12 x 2023", "model T-2023", "", "march on", "2023-13-40", "How did Ana feel about the trip?",
])
def test_query_dates_ignores_numbers_and_words_that_are_not_dates(query):
    assert query_dates(query) == []


def test_query_dates_reads_each_date_once_and_capital_may_as_a_month():
    assert _days("In May 2022 and again in May 2022") == [("2022-05-01", "2022-05-31", False)]
    assert _days("what did we do in May?") == [("2000-05-01", "2000-05-31", True)]


def test_date_nearness_inside_outside_and_tau():
    day = DateWindow(date(2023, 7, 7), date(2023, 7, 7))
    month = DateWindow(date(2022, 7, 1), date(2022, 7, 31))
    assert date_nearness(date(2023, 7, 7), [day], 2.0) == 1.0
    assert date_nearness(date(2023, 7, 9), [day], 2.0) == pytest.approx(math.exp(-1))
    assert date_nearness(date(2023, 7, 5), [day], 2.0) == pytest.approx(math.exp(-1))
    assert date_nearness(date(2023, 7, 8), [day], 0.0) == 0.0 and date_nearness(date(2023, 7, 7), [day], 0.0) == 1.0
    assert date_nearness(date(2022, 7, 20), [day, month], 2.0) == 1.0  # the best window counts
    assert date_nearness(date(2023, 7, 7), [], 2.0) == 0.0
    with pytest.raises(InvalidInput, match="tau"):
        date_nearness(date(2023, 7, 7), [day], -1.0)


def test_date_nearness_month_of_any_year():
    july = query_dates("in July")
    assert date_nearness(date(2019, 7, 31), july, 2.0) == 1.0
    assert date_nearness(date(2031, 8, 2), july, 2.0) == pytest.approx(math.exp(-1))
    assert date_nearness(date(2024, 1, 15), july, 2.0) < 1e-6


def test_day_of_stored_times():
    assert day_of("2023-07-07T13:56") == date(2023, 7, 7)
    assert day_of("2023-07-07 23:10:00+02:00") == date(2023, 7, 7)
    assert day_of(datetime(2023, 7, 7, 9, 0)) == date(2023, 7, 7)
    assert day_of(date(2023, 7, 7)) == date(2023, 7, 7)
    assert day_of(None) is None and day_of("yesterday") is None


def _two_days_chat(tmp_path):
    """The same words said on two days: only the date in the question tells them apart."""
    rows = []
    for day, sid in (("2023-07-07", "d1"), ("2023-08-19", "d2")):
        rows.append({"conversation": "c1", "session": day, "id": sid, "speaker": "Ana", "time": f"{day}T10:00:00Z",
                     "text": "We had a picnic by the river with the kids."})
        rows.append({"conversation": "c1", "session": day, "id": sid + "x", "speaker": "Ben", "time": f"{day}T10:01:00Z",
                     "text": "Sounds lovely, the weather was great."})
    return write_jsonl(tmp_path / "c.jsonl", rows)


@pytest.mark.parametrize("query, first", [("What did Ana do on 19 August, 2023?", "d2"),
                                          ("What did Ana do on July 7, 2023?", "d1"),
                                          ("What did Ana do in August 2023?", "d2")])
def test_time_signal_ranks_the_message_of_the_named_date_first(tmp_path, query, first):
    with Cairn(tmp_path / "h", embedder=HashEmbedder()) as app:
        app.import_chat(_two_days_chat(tmp_path))
        picnic = [h for h in app.search(query + " picnic river kids", k=4).hits if h.speaker == "Ana"]
        assert [h.source_id for h in picnic][0] == first, [(h.source_id, h.signals) for h in picnic]
        assert picnic[0].signals["time"] == 1.0 and picnic[1].signals["time"] < 0.01
        app.settings.search = replace(app.settings.search, time_weight=0.0)
        off = [h for h in app.search(query + " picnic river kids", k=4).hits if h.speaker == "Ana"]
        assert off[0].signals["time"] == 0.0 and off[1].signals["time"] == 0.0
        # without the signal the later message ranks first (recency), also when the question
        # names the earlier day
        assert off[0].source_id == "d2"


def test_a_query_without_a_date_scores_as_without_the_signal(tmp_path):
    with Cairn(tmp_path / "h", embedder=HashEmbedder()) as app:
        app.import_chat(_two_days_chat(tmp_path))
        on = app.search("picnic by the river", k=4).hits
        app.settings.search = replace(app.settings.search, time_weight=0.0)
        off = app.search("picnic by the river", k=4).hits
        assert [h.id for h in on] == [h.id for h in off]
        assert [h.score for h in on] == pytest.approx([h.score for h in off], rel=1e-9)  # recency moves with the clock
        assert all(h.signals["time"] == 0.0 for h in on)


def test_time_weight_is_a_fraction(tmp_path):
    (tmp_path / "config.toml").write_text("[search]\ntime_weight = 1.5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="time_weight"):
        load_settings(tmp_path)
