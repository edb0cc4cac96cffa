"""The assistant's classes of session 24 (assistant24b), with sentences written for these tests
(none from a benchmark week), each switched off to show it is what makes the test pass: a bare
question after a note's answer asking a kind of value is answered from that note only when the
answerer's own typed check passes on it ("the gate code for the back hall at st bedes" after the ferry note:
its booking ref shares "back", not the hut's gate); a day of the month written alone answers
"when" (answer/types._TIME_RE); "what number locker is mine" asks which locker."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant import scoped as SC
from conftest import notes_app

NOTES = {
    "ferry.md": "# Ferry to Arranmore\n\nSailing over: Friday 9 May, booking FR-55120, at 08:30.\n"
                "Sailing back: Monday 12 May, booking FR-55187, at 17:15.\n"
                "Cabin 4 on the upper deck.\n",
    "gym.md": "# Gym locker\n\nThe side entrance keypad is 4471.\nMy locker is K22, by the showers.\n",
    "cubs.md": "# Cubs\n\nWe meet on Wednesdays at 6.45pm in the back hall of St Bede's.\n"
                 "Subs are £3 a week, paid to Akela.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("classes24b"), NOTES, real_embedder, veto_s=0) as app:
        yield app


# -- a value offered after a note's answer passes the answerer's check ----------------------
def _door_code_after_ferry(home) -> str:
    bot = Assistant(home, model="none", new=True)
    assert "FR-55187" in bot.turn("whats the booking ref for the sailing back from arranmore", Channel()).reply
    return bot.turn("whats the gate code for the back hall at st bedes", Channel()).reply


def test_a_code_of_another_thing_is_no_answer(home, monkeypatch):
    reply = _door_code_after_ferry(home)
    assert "FR-55" not in reply and "don't" in reply.lower()
    monkeypatch.setattr(SC, "ANSWERER_CHECK", False)  # "back" shared: the ferry's booking ref given
    assert "FR-55" in _door_code_after_ferry(home)


def test_a_value_of_the_note_still_answers(home):
    """The class's other side: a bare question the note answers is still answered from it."""
    bot = Assistant(home, model="none", new=True)
    assert "FR-55187" in bot.turn("whats the booking ref for the sailing back from arranmore", Channel()).reply
    assert "17:15" in bot.turn("what time does it sail back", Channel()).reply


def test_the_check_reads_the_note_alone(home):
    """Unit: the answerer's typed check over one note; a question asking no value is let through."""
    body = NOTES["ferry.md"]
    assert SC.answerer_holds(home, "whats the booking code for the sailing back", "Ferry to Arranmore", body)
    assert not SC.answerer_holds(home, "whats the gate code for the back hall at st bedes", "Ferry to Arranmore", body)
    assert SC.answerer_holds(home, "what do you think of it", "Ferry to Arranmore", body)
    assert not SC.answerer_holds(home, "whats the booking ref", "Empty", "")


# -- a day of the month written alone is a "when" answer (answer/types._TIME_RE) ---------------
def test_a_day_of_the_month_fits_a_when_question():
    from cairn.answer.types import fits_answer_type
    assert fits_answer_type("the warden wants the bike shed keys back by the 17th", "time")
    assert fits_answer_type("rent is paid on the 1st.", "time")
    assert not fits_answer_type("the office is on the 4th floor", "time")  # an ordinal, no day
    assert not fits_answer_type("", "time")


def test_the_knowledge_answer_gives_the_remembered_day(home):
    """The person's statement of a day of the month answers "when" by the knowledge answer itself
    (the assistant's own fallback for it, understood.OWN_VALUE, is gone)."""
    home.remember("the warden wants the bike shed keys back by the 17th")
    bot = Assistant(home, model="none", new=True)
    reply = bot.turn("when do the bike shed keys have to go back to the warden", Channel()).reply
    assert "17th" in reply and "You told me" in reply


# -- "what number <noun>" asks which one (nlu.forms.as_which) ---------------------------------
def test_what_number_locker_asks_which_locker(home, monkeypatch):
    from cairn.assistant.nlu import understand as U

    def ask() -> str:
        bot = Assistant(home, model="none", new=True)
        assert "4471" in bot.turn("whats the code for the side entrance at the gym", Channel()).reply
        return bot.turn("and what number locker is mine", Channel()).reply
    assert "K22" in ask()
    monkeypatch.setattr(U, "WHAT_NUMBER", False)  # "number" in no line: declined
    assert "K22" not in ask()


def test_what_number_before_no_noun_is_kept():
    """Bad input for the class: "number" asked itself, or no question at all, is left as written."""
    from cairn.assistant.nlu.forms import as_which
    assert as_which("what number bus goes to the station") == "which bus goes to the station"
    assert as_which("what number is the locker") == "what number is the locker"
    assert as_which("what number do i ring for the vet") == "what number do i ring for the vet"
    assert as_which("") == "" and as_which("whats the number for the gym") == "whats the number for the gym"


# -- a request's first clause read alone, the rest its reason (nlu.understand.REASON_AFTER) -----
def test_a_reason_after_a_request_is_no_target(real_embedder, monkeypatch):
    from cairn.assistant.nlu import state as NS
    from cairn.assistant.nlu import understand as U
    text = "get rid of the gas one, the engineer wrote it in his notes"
    got = U.understand(real_embedder, text, NS.ConversationState())
    assert [(a.intent, a.text) for a in got.actions] == [("reminder_cancel", "get rid of the gas one")]
    monkeypatch.setattr(U, "REASON_AFTER", False)  # read whole: a note's delete
    assert U.understand(real_embedder, text, NS.ConversationState()).actions[0].intent != "reminder_cancel"


def test_one_request_with_a_clause_stays_whole(real_embedder):
    """Bad input for the class: a request whose first clause reads as the same request keeps its
    whole text (the time after the comma is part of it); a note's delete with a reason stays one."""
    from cairn.assistant.nlu import state as NS
    from cairn.assistant.nlu import understand as U
    got = U.understand(real_embedder, "delete the allotment note, we gave the plot up", NS.ConversationState())
    assert [a.intent for a in got.actions] == ["note_delete"]
    got = U.understand(real_embedder, "remind me on sunday, at 10am, to water the tomatoes", NS.ConversationState())
    assert [a.intent for a in got.actions] == ["remind"] and "tomatoes" in got.actions[0].text
