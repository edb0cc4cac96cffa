"""probe24: `POST /api/reminders {"text": "x", "every": "every 1 second"}` (`cairn remind x
--every "every 1 second"`) was accepted, and `cairn serve` delivered it on every tick: a
desktop notification, a Telegram message and a line of notifications.jsonl each time. A new
repeat shorter than a minute is refused, naming the limit; one stored before still runs."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from cairn.config import load_settings
from cairn.errors import InvalidInput
from cairn.store import schedule as S
from cairn.schedule.scheduler import Scheduler


class Inbox:
    name = "inbox"

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


@pytest.fixture
def sched(tmp_path):
    s = load_settings(tmp_path / "home")
    s.ensure_dirs()
    s.time.timezone = "UTC"
    inbox = Inbox()
    yield Scheduler(s, [inbox]), inbox


@pytest.mark.parametrize("every", ["every 1 second", "every 30 seconds", "every 59 sec"])
def test_a_repeat_under_a_minute_is_refused(sched, every):
    sc, _ = sched
    with pytest.raises(InvalidInput, match="the shortest repeat is every 1 minute"):
        sc.remind("stretch", every=every)
    assert sc.list() == []


def test_a_minute_and_cron_and_one_offs_in_seconds_still_work(sched):
    sc, _ = sched
    assert sc.remind("stretch", every="every 60 seconds").state == "scheduled"
    assert sc.remind("water", every="every 1 minute").state == "scheduled"
    assert sc.remind("cron", every="* * * * *").state == "scheduled"
    assert sc.remind("soon", at="in 30 seconds").state == "scheduled"


def test_a_stored_fast_repeat_is_still_read_back(sched):
    sc, inbox = sched
    now = datetime.now(timezone.utc)
    row = sc.remind("stretch", every="every 1 minute", now=now)
    S.update(sc.conn, row.id, spec={**row.spec, "text": "every 1 second"})  # as a home made before the floor
    assert len(sc.upcoming(row.id, 3, now)) == 3
    sc.run_due(now + timedelta(minutes=2))
    assert [m.text for m in inbox.sent][:1] == ["stretch"]
