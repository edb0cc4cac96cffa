"""A named reminder moved for good (session 29, remind29), with reminders invented for these tests
(none from a benchmark week): "move the X reminder to DAY" / "change the X reminder to TIME" is its
own intent (reminder_move, trained on utterances written for Cairn); a repeating reminder keeps
repeating with only what was said changed (its weekday, or its time of day), a one-off one keeps its
day when only a time is said; the scheduler's `reschedule` and its refusals."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.nlu import classify as C
from cairn.assistant.nlu import times as T
from cairn.config import load_settings
from cairn.errors import Conflict, InvalidInput
from cairn.schedule.scheduler import Scheduler
from conftest import notes_app

NOW = datetime(2027, 3, 1, 9, 0, tzinfo=timezone.utc)  # a Monday


def test_a_move_replaces_only_the_weekday_or_the_time_it_says():
    """The new schedule of a repeating reminder: a weekday (said in the plural too) replaces its
    weekday(s), a clock its time of day (an hour without am/pm the one nearer its hour); a weekday for a
    daily schedule, a day that is no weekday, or nothing said: None."""
    due = "2027-03-06T13:00:00+00:00"
    assert T.moved_schedule("move the kiln reminder to fridays", "every saturday at 1pm", due) == "every friday at 1pm"
    assert T.moved_schedule("change the kiln reminder to 5.30pm", "every saturday at 1pm", due) \
        == "every saturday at 17:30"
    assert T.moved_schedule("change the kiln reminder to half 2", "every saturday at 1pm", due) \
        == "every saturday at 14:30"
    assert T.moved_schedule("switch the kiln reminder to tuesdays at 9am", "every monday and thursday at 6pm",
                            due) == "every tuesday at 09:00"
    assert T.moved_schedule("move the pills reminder to friday", "every day at 9", due) is None
    assert T.moved_schedule("move the kiln reminder to tomorrow", "every saturday at 1pm", due) is None
    assert T.moved_schedule("move the kiln reminder", "every saturday at 1pm", due) is None


def test_reschedule_moves_every_time_of_a_repeating_reminder_and_refuses_the_rest(tmp_path):
    """Scheduler.reschedule: the same reminder (id, text) with the new repeating words and its next
    time the first of them; InvalidInput for a one-off reminder and for unreadable words; Conflict
    for a cancelled one."""
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    settings.time.timezone = "Europe/London"
    with Scheduler(settings, []) as sch:
        r = sch.remind("glaze the mugs", every="every saturday at 1pm", now=NOW)
        moved = sch.reschedule(r.id, "every friday at 1pm", now=NOW)
        assert (moved.id, moved.text, moved.spec["form"], moved.spec["text"]) == (
            r.id, "glaze the mugs", "every", "every friday at 1pm")
        assert moved.next_due.startswith("2027-03-05T13:00")
        once = sch.remind("ring Ottoline", at="tomorrow at 9", now=NOW)
        with pytest.raises(InvalidInput):
            sch.reschedule(once.id, "every friday at 9", now=NOW)
        with pytest.raises(InvalidInput):
            sch.reschedule(r.id, "every blursday", now=NOW)
        sch.cancel(r.id)
        with pytest.raises(Conflict):
            sch.reschedule(r.id, "every friday at 2pm", now=NOW)


def test_move_of_a_named_reminder_is_its_own_intent(real_embedder):
    """Class: "move/change/switch/shift the X reminder to DAY|TIME" reads as reminder_move, a snooze
    ("snooze the X reminder for an hour") still as reminder_snooze."""
    said = ["move the pottery reminder to thursdays", "change the kiln reminder to 6.15pm",
            "switch the choir reminder to mondays", "shift my bins reminder to 8pm"]
    got = [p.intent for p in C.classify(real_embedder, said + ["snooze the kiln reminder for an hour"])]
    assert got == ["reminder_move"] * 4 + ["reminder_snooze"], got


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("remind29"), {"a.md": "# A\n\nnothing\n"}, real_embedder,
                   veto_s=0) as app:
        yield app


def _row(bot, word: str) -> dict:
    with bot.app.scheduler() as sch:
        rows = [r for r in sch.list(("scheduled",), kind="reminder") if word in r.text]
    assert len(rows) == 1, rows
    return rows[0]


def test_a_weekly_reminder_moved_keeps_repeating_on_the_new_day_and_time(home):
    """Class: "move the glaze reminder to fridays" after "every saturday at 1pm": every Friday at 1pm
    (the old code snoozed its next time only, to Friday 09:00); then "change the glaze reminder to
    5.30pm": every Friday at 17:30 (the old code snoozed it to today)."""
    bot = Assistant(home, model="none", new=True)
    bot.turn("remind me every saturday at 1pm to glaze the mugs", Channel())
    res = bot.turn("move the glaze reminder to fridays", Channel())
    r = _row(bot, "glaze")
    assert r.spec["text"] == "every friday at 1pm", (r.spec, res.reply)
    res = bot.turn("change the glaze reminder to 5.30pm", Channel())
    r = _row(bot, "glaze")
    assert r.spec["text"] == "every friday at 17:30", (r.spec, res.reply)
    due = datetime.fromisoformat(r.next_due)
    assert due.weekday() == 4 and "every friday" in res.reply, res.reply
    bot.turn("cancel the glaze reminder", Channel())


def test_a_one_off_reminder_moved_to_a_time_keeps_its_day(home):
    """Class: "change the tuner reminder to 4pm" after "next friday at 9am": next Friday at 16:00
    (the old code snoozed it to the next 4pm, losing its day); then "move the tuner reminder to
    mondays": the Monday after that Friday, still at 16:00."""
    bot = Assistant(home, model="none", new=True)
    bot.turn("remind me next friday at 9am to ring the piano tuner", Channel())
    before = datetime.fromisoformat(_row(bot, "tuner").next_due)
    bot.turn("change the tuner reminder to 4pm", Channel())
    after = datetime.fromisoformat(_row(bot, "tuner").next_due)
    assert after - before == timedelta(hours=7), (before, after)
    bot.turn("move the tuner reminder to mondays", Channel())  # the Monday after its Friday, still at 16:00
    monday = datetime.fromisoformat(_row(bot, "tuner").next_due)
    assert monday - after == timedelta(days=3), (after, monday)
    bot.turn("cancel the tuner reminder", Channel())
