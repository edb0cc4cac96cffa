"""`cairn.schedule.when.parse_when` reads a dotted clock time ("5.30pm", "at 7.15") and a plain time alone
("5pm", "17:30", "noon") as `at` it; a decimal interval and a dotted date stay what they were."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cairn.errors import InvalidInput
from cairn.schedule.when import parse_when

TZ = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 8, 10, 0, tzinfo=TZ)


def _at(text: str) -> str:
    return parse_when(text, TZ, NOW, recurring=False).run_date.strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize("text, due", [
    ("tomorrow at 5.30pm", "2026-12-09 17:30"), ("friday at 7.15", "2026-12-11 07:15"),
    ("at 6.45 pm", "2026-12-08 18:45"), ("5.30pm", "2026-12-08 17:30"), ("5pm", "2026-12-08 17:00"),
    ("17:30", "2026-12-08 17:30"), ("noon", "2026-12-08 12:00"), ("8am", "2026-12-09 08:00"),
    ("in 1.5 hours", "2026-12-08 11:30"),
])
def test_dotted_and_plain_times(text, due):
    assert _at(text) == due


def test_a_dotted_weekly_time():
    trig = parse_when("every monday at 6.45pm", TZ, NOW, recurring=True)
    assert "hour='18'" in str(trig) and "minute='45'" in str(trig)


@pytest.mark.parametrize("text", ["12.03.2027", "9", "5.75pm", "at 25.30"])
def test_what_is_no_clock_is_still_refused_by_name(text):
    with pytest.raises(InvalidInput, match="cannot read the time"):
        parse_when(text, TZ, NOW, recurring=False)
