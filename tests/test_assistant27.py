"""The assistant's changes of session 27 (assistant27), with notes and sentences written for these
tests (invented names; none from a benchmark week): a generic word for an occasion ("the appointment
is at 10") is the reminder's own subject; the note cast kept by the note's body hash; a pronoun of a
second question standing for the first question's person; family links over the memories ("her
brother" = the person memorised as her brother); "many notes" read once a turn."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant import notecast as NC
from cairn.assistant.nlu import times as T
from conftest import notes_app

NOTES = {
    "pottery.md": "# Pottery class\n\nWednesdays at 7pm at the Kilnhouse, run by Odette Brannigan. "
                  "Her mobile is 07700 900 914. The firing fee is £6 a piece.\n",
    "birthdays.md": "# Birthdays\n\n- Gran: 4 August. She would like a new bird feeder and a jigsaw.\n"
                    "- Teodor: 11 March. Into trains.\n- Wilma: 30 October.\n",
    "chores.md": "# Chores\n\n- clean the gutters\n- fix the gate\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("assistant27"), NOTES, real_embedder) as app:
        app.settings.assistant.veto_s = 0
        yield app


def _due(home, word: str) -> str:
    rows = [r for r in home.reminders_list()["reminders"] if word in (r.get("text") or "")] \
        if hasattr(home, "reminders_list") else []
    return rows[0]["next_due"] if rows else ""


def test_a_generic_occasion_word_is_the_reminders_own_subject(home, monkeypatch):
    """Class: right after a reminder ("... to go to the optician"), "the appointment is at 10" states
    the reminder's own time (an occasion word names its occasion): the reminder moves, nothing is
    remembered; "Nell's appointment is at 10" (a possessor) and "the bins are on Thursday now" (another
    noun) still state facts of other subjects."""
    task = "go to the optician"
    for said in ("the appointment is at 10", "the appointment's at half 10 actually", "my booking is at 2pm"):
        assert not T.another_subject(said, task), said
    for said in ("Nell's appointment is at 10", "the bins are on Thursday now"):
        assert T.another_subject(said, task), said
    monkeypatch.setattr(T, "OCCASION_IS_OWN", False)
    assert T.another_subject("the appointment is at 10", task)
    monkeypatch.setattr(T, "OCCASION_IS_OWN", True)
    bot = Assistant(home, model="none", new=True)
    bot.turn("remind me next friday at 9am to go to the optician", Channel())
    res = bot.turn("the appointment is at 10", Channel())
    names = [c.name for c in res.tool_calls if c.outcome == "ran"]
    assert "remember" not in names and "reminder_snooze" in names, (names, res.reply)
    assert "10:00" in res.reply, res.reply
    bot.turn("cancel the optician reminder", Channel())
