"""Who has a day on a rota, who holds a role (answer/rota.py), answered by `ask` itself; and a code asked of a thing
the note names only in passing is not another thing's code (assistant/scoped.py). Notes written for these tests."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cairn.answer import rota
from cairn.assistant import Assistant, Channel
from conftest import notes_app

NOTES = {
    "school-run.md": "# School run rota\n\n- Monday and Wednesday: me\n- Tuesday and Thursday: Granny Pel, 07700 900 514\n"
                     "- Friday: Gus walks them both\n- Saturday: nobody\n\nPick-up 3:15 from the side gate at Wetherby "
                     "Primary.\n",
    "house.md": "# House contacts\n\nGas engineer: Tomas Rudd, 07700 900 118\nElectrician: Brigid Calloway, 07700 900 226\n"
                "Window cleaner: Anouk, 07700 900 331\n"
                "Boiler last serviced on 4 March.\nNext service due: February 2028\n",
    # week-m's gig note (bench/cases/week-m, free to copy into tests)
    "gig.md": "# Halloran Street Band at Castlemere\n\nFriday 10 November at the Corn Exchange in Castlemere; doors at "
              "7pm.\nTwo standing tickets, order number HSB-77420.\nTrain there: the 16:48 from Quenby Holt, change at "
              "Ashby Cross, arriving 18:31.\nTrain home: the 23:05 from Castlemere, the last one of the night.\nGoing "
              "with Wren, who is staying over at her sister's afterwards.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("keyed"), NOTES, real_embedder, veto_s=0) as app:
        yield app


@pytest.mark.parametrize("question, line", [
    ("who has got the kids on thursdays?", "Tuesday and Thursday: Granny Pel"),
    ("who's doing the school run on fridays", "Friday: Gus walks them both"),
    ("who's got the kids on mondays?", "Monday and Wednesday: me"),
    ("who has the kids midweek", "Monday and Wednesday: me"),  # the first line keyed by a midweek day
    ("who's the gas engineer?", "Gas engineer: Tomas Rudd"),
    ("who is our electrician", "Electrician: Brigid Calloway"),
    ("who is our window cleaner", "Window cleaner: Anouk"),  # one name: no person for the typed path's pattern
    ("who services the boiler", "Gas engineer: Tomas Rudd"),  # the role's work (rota.GLOSS): "boiler"
])
def test_ask_answers_a_day_or_a_role_from_the_line_keyed_by_it(home, question, line):
    ans = home.ask(question, llm="none")
    assert ans.verdict == "pass" and line in ans.answer, ans.answer


@pytest.mark.parametrize("question", [
    "who's got the kids on sundays?",  # no line keyed by the day
    "who's got the kids on saturdays?",  # "Saturday: nobody"
    "who's got the kids at weekends?",  # nobody on Saturday, no line for Sunday
    "who's the plumber?",  # a role no line holds
    "who serviced the boiler?",  # "Next service due: February 2028" names no one
])
def test_ask_declines_a_day_nobody_has_or_a_role_nobody_holds(home, question):
    ans = home.ask(question, llm="none")
    assert ans.verdict == "abstain", ans.answer
    assert "Granny Pel" not in ans.answer and "Tomas" not in ans.answer


def test_keyed_person_reads_day_keys_roles_and_people():
    assert rota.key_days("Tuesday and Thursday") == {1, 3}
    assert rota.key_days("Mon-Wed") == {0, 1, 2} and rota.key_days("Fri–Mon") == {4, 5, 6, 0}
    assert rota.key_days("Weds & Thurs") == {2, 3}
    assert rota.key_days("Squad training Wednesdays") is None and rota.key_days("Thursdays at 8pm") is None
    assert rota.days_asked("who has the dog on thursdays?") == {3}
    assert rota.days_asked("who drives them midweek") == {1, 2, 3} and rota.key_days("Weekends") == {5, 6}
    assert rota.names_person("Oksana (Lev's mum)") and rota.names_person("me") and rota.names_person("Gus walks")
    for value in ("nobody", "Closed", "Swimming at 6", "The Grange", "February 2028", "free"):
        assert not rota.names_person(value), value
    assert rota.role_key("Gas engineer", "who's our gas engineer?")
    assert not rota.role_key("Next service due", "who serviced it?")
    ev = [SimpleNamespace(n=1, text="Squad: Harbour Hornets\n- Wednesday: Ruairi (next door)", hit=SimpleNamespace(speaker=None)),
          SimpleNamespace(n=2, text="Thursday: Marek", hit=SimpleNamespace(speaker="Marek"))]
    assert rota.keyed_person("who's got the dogs on wednesdays", (), ev) == (1, "Wednesday: Ruairi (next door)")
    assert rota.keyed_person("who's got the dogs on thursdays", (), ev) is None  # a chat message: not a note's line
    rota.KEYED = False
    try:
        assert rota.keyed_person("who's got the dogs on wednesdays", (), ev) is None
    finally:
        rota.KEYED = True
    roles = [SimpleNamespace(n=1, text="# Loft\nArchitect: Wilhelmina Strand\nBuilder: Dorran Lofts, from May",
                             hit=SimpleNamespace(speaker=None))]
    assert rota.keyed_person("who's drawing up the plans", ("draw", "plan"), roles) == (1, "Architect: Wilhelmina Strand")
    assert rota.keyed_person("who's doing the brickwork", ("brickwork",), roles)[1].startswith("Builder: Dorran")
    assert rota.keyed_person("who drew up the plans", ("draw", "plan"), roles) is None  # a past act: not the role
    assert rota.keyed_person("who's doing the wiring", ("wire",), roles) is None  # no electrician
    assert rota.keyed_person("who's having the cat while the extension is built", ("cat",), roles) is None
    rota.BY_WORK = False
    try:
        assert rota.keyed_person("who's drawing up the plans", ("draw", "plan"), roles) is None
    finally:
        rota.BY_WORK = True


def test_the_assistant_gets_the_rota_answer_through_ask(home):
    bot = Assistant(home, model="none", new=True)
    assert "Granny Pel" in bot.turn("who's got the kids on thursdays", Channel()).reply


def test_a_code_for_a_thing_the_note_names_in_passing_is_not_its_other_code(home):
    """week-m turn 12: "whats the door code for wrens sisters flat" after the gig note was answered from that note with
    the gig's order number, as the note names Wren and her sister; a code answers only when its line or the note's
    title names what it is for (the note's other words do not)."""
    bot = Assistant(home, model="none", new=True)
    res = bot.turn("what train am i getting to castlemere", Channel())
    gig = "Halloran Street Band at Castlemere"
    assert bot._note_scoped("whats the door code for wrens sisters flat", Channel(), 2, res, {}, gig) is None
    assert "HSB-77420" in bot._note_scoped("what is the order number?", Channel(), 2, res, {}, gig)["reply"]
    assert "HSB-77420" in bot._note_scoped("whats the order number for the castlemere gig", Channel(), 2, res, {},
                                           gig)["reply"]
