"""Session 28 typedright28: a yes/no question naming a date is answered "No" or "Yes" by the date its line states
(answer/yesno.DATED), and an hour written without am/pm where a clock time is said is a time value (answer/types
`_TIME`: "opens at 7 and closes at 9"). Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import types, yesno
from conftest import notes_app

NOTES = {
    "dentist.md": "# Dentist\n\nMy dentist appointment is on April 9th at 10:30 with Dr. Okafor.\n"
                  "Parkside Dental, 12 Mill Road.\n",
    "car.md": "# Car\n\nMOT due 14 March. Service booked for Friday 2 May at Fenton's garage.\n",
    "pool.md": "# Swimming pool\n\nThe pool opens at 7 and closes at 9 on weekdays.\nLane swimming costs £4.50.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("tr28"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("question, polar, said", [
    ("Is my dentist appointment in May?", "No", "April 9th"),
    ("is my dentist appointment in April?", "Yes", "April 9th"),
    ("is the car service on the 3rd?", "No", "Friday 2 May"),
    ("Is the car service on a Friday?", "Yes", "Friday 2 May"),
    ("Is the MOT due in April?", "No", "14 March"),
])
def test_a_dated_yes_no_question_is_answered_by_the_lines_date(app, monkeypatch, question, polar, said):
    ans = app.ask(question, llm="none")
    assert ans.verdict == "pass" and ans.answer.startswith(f"{polar}:") and said in ans.answer, (ans.verdict,
                                                                                                 ans.answer)
    if polar == "No":  # a line writing the month asked already said "Yes" by its words
        monkeypatch.setattr(yesno, "DATED", False)
        off = app.ask(question, llm="none")
        assert not (off.verdict == "pass" and off.answer.startswith("No:")), (off.verdict, off.answer)


@pytest.mark.parametrize("question", [
    "is the boiler service on a Friday?",  # no note holds a boiler
    "is the optician in June?",
])
def test_a_dated_question_about_something_no_note_holds_is_declined(app, question):
    assert app.ask(question, llm="none").verdict == "abstain"


def test_a_date_the_line_does_not_state_says_neither_yes_nor_no():
    assert yesno.dated("is the car service on a Friday?", "MOT due 14 March") == ""  # no weekday written
    assert yesno.dated("is it on the 3rd", "Service booked for Friday 2 May") == "No"
    assert yesno.dated("is it on 2 May", "Service booked for Friday 2 May") == "Yes"
    assert yesno.dated("is it on the 3rd", "Service booked for Friday 2 May or 3 May") == "Yes"
    assert yesno.dated("what is the fee", "Service booked for Friday 2 May") == ""  # no date asked
    assert yesno.dated("is it open on a Tuesday", "Opening hours: Monday to Saturday 9am to 5pm") == ""  # a span


@pytest.mark.parametrize("text, hours", [
    ("The pool opens at 7 and closes at 9 on weekdays.", ["7", "9"]),
    ("Open 8 till 6, Monday to Saturday", ["8", "6"]),
    ("Meet at 3 Mill Road", []),  # an address
    ("Paid at 6,000 a year", []),
    ("Open 7 days a week", []),
    ("Effort is graded from 1 (low) to 4 (high)", []),
    ("It costs £5 at 4 sessions a term", []),
    ("Years 3 to 6", []),
])
def test_an_hour_alone_is_a_time_only_where_a_clock_time_is_said(text, hours):
    assert [text[s:e] for s, e in types.values("time", text)] == hours


def test_an_opening_hour_without_am_or_pm_answers_what_time(app):
    ans = app.ask("What time does the pool open?", llm="none")
    assert ans.verdict == "pass" and "opens at 7" in ans.answer, (ans.verdict, ans.answer)


SCHOOL = {"school.md": "# School\n\nMrs Pemberton teaches Year 4. The head is Mr Aziz.\n"}


def test_a_clitic_is_no_word_the_notes_must_hold(tmp_path, monkeypatch):
    from cairn.answer import topic
    from cairn.embed import get_embedder
    from cairn.lexical import stem
    assert types.missing((stem("s"), stem("head")), "The head is Mr Aziz.") == []
    with notes_app(tmp_path, SCHOOL, get_embedder()) as a:
        ans = a.ask("who's Mr Aziz", llm="none")
        assert ans.verdict == "pass" and "The head is Mr Aziz" in ans.answer, (ans.verdict, ans.answer)
        monkeypatch.setattr(types, "CLITICS", frozenset())
        monkeypatch.setattr(topic, "CLITICS", frozenset())
        off = a.ask("who's Mr Aziz", llm="none")
        assert off.verdict == "abstain" and "'s'" in off.answer, (off.verdict, off.answer)
