"""probe24b: "remind me tomorrow at 9 to call Ana" said again and again in one chat (300 piped
messages, 37 of them this one) made 37 reminders, all due at 9:00: 37 notifications at once.
Asking again for a reminder that is already scheduled now returns that reminder; a different
text, time, zone or repeat, or one already delivered or cancelled, is a new one."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from cairn.config import load_settings
from cairn.schedule.scheduler import Scheduler

NOW = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


@pytest.fixture
def sched(tmp_path):
    s = load_settings(tmp_path / "home")
    s.ensure_dirs()
    s.time.timezone = "Europe/Lisbon"
    return Scheduler(s, [])


def test_the_same_reminder_asked_twice_is_one(sched):
    first = sched.remind("call Ana", at="tomorrow at 9", now=NOW)
    again = sched.remind("call Ana", at="tomorrow at 9", now=NOW)
    assert again.id == first.id and len(sched.list(("scheduled",))) == 1
    daily = sched.remind("water plants", every="every day at 8", now=NOW)
    assert sched.remind("water plants", every="every day at 8", now=NOW).id == daily.id
    assert len(sched.list(("scheduled",))) == 2


def test_a_different_reminder_is_a_new_one(sched):
    base = sched.remind("call Ana", at="tomorrow at 9", now=NOW)
    others = [sched.remind("call Bo", at="tomorrow at 9", now=NOW),
              sched.remind("call Ana", at="tomorrow at 10", now=NOW),
              sched.remind("call Ana", at="tomorrow at 9", tz="Asia/Tokyo", now=NOW),
              sched.remind("call Ana", every="every day at 9", now=NOW)]
    assert len({base.id, *(r.id for r in others)}) == 5
    sched.cancel(base.id)
    assert sched.remind("call Ana", at="tomorrow at 9", now=NOW).id != base.id  # the cancelled one is not it
