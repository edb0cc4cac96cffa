"""The assistant's changes of session 25 (assistant25), with sentences written for these tests (none
from a benchmark week), each switched off where it is a switch to show it is what makes the test pass:
a known person's possessive typed without its apostrophe ("whats pernilles number") reads as the
person's; the answerer's typed check over one note is the answer service's own function
(`answer.typed_of_note`), not a Hit built by hand in the assistant."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.nlu import known as KN
from cairn.assistant.nlu import understand as U
from conftest import notes_app

NOTES = {
    "cleaner.md": "# Cleaner\n\nPernille Voss cleans on alternate Tuesdays from 9am.\n£45 a visit, by bank transfer.\n"
                  "Her number is 07700 900 352.\nThe key safe by the porch has code 2290.\n"
                  "If she is ill: Brightside Agency, 01632 960 777.\n",
    "shed.md": "# Shed\n\nThe padlock code is 7318.\nThe mower lives at the back, under the tarp.\n",
    "rabbit.md": "# Rufus the rabbit\n\nHe was 9 weeks old when we got him from the rescue in April.\n"
                 "He eats a handful of hay and two cups of greens a day.\nHis hutch is cleaned out on Sundays.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("classes25"), NOTES, real_embedder, veto_s=0) as app:
        yield app


# -- a possessive typed without its apostrophe ---------------------------------------------
def test_possessive_unit():
    people = lambda: ["Pernille Voss", "Tom Hughes"]  # noqa: E731
    assert KN.possessives("whats pernilles number", people) == ("whats pernille's number", ["pernilles -> pernille's"])
    assert KN.possessives("is Pernilles van outside", people)[0] == "is Pernille's van outside"
    # a name word ending in "s" stays; a word with nothing after it is no possessive; ordinary words stay
    assert KN.possessives("ring hughes later", people) == ("ring hughes later", [])
    assert KN.possessives("thanks pernilles", people)[1] == []
    assert KN.possessives("its number is what", people)[1] == []
    # the people are read only when some word may be one
    assert KN.possessives("what time is it", lambda: pytest.fail("people read"))[1] == []


def _number(home) -> str:
    return Assistant(home, model="none", new=True).turn("whats pernilles number", Channel()).reply


def test_a_possessive_without_its_apostrophe_asks_of_the_person(home, monkeypatch):
    assert "07700 900 352" in _number(home)
    monkeypatch.setattr(U, "BARE_POSSESSIVE", False)
    assert "07700 900 352" not in _number(home)


# -- the answerer's check over one note, through the answer service ---------------------------
def test_typed_of_note(home):
    from cairn.answer import typed_of_note
    body = NOTES["shed.md"]
    typed = typed_of_note("whats the padlock code for the shed", "Shed", body, home.embedder)
    assert typed is not None and "7318" in typed.text and not typed.missing_head
    assert typed_of_note("whats the phone number of the shed", "Shed", body, home.embedder) is None
    assert typed_of_note("whats the padlock code", "Empty", "", home.embedder) is None


# -- a note named outright by part of its title ----------------------------------------------
def test_part_of_title_unit(monkeypatch):
    from cairn.assistant.nlu import notenames as NN
    titles = ["Van hire in Leeds", "Van tyres", "Boiler service", "Boiler manual", "Reading list"]
    assert NN.part_of_title("the gist of the van hire", titles) == "Van hire in Leeds"
    assert NN.part_of_title("boiler", titles) is None  # two titles hold it: no guess
    assert NN.part_of_title("the", titles) is None
    assert NN.resolve_note(None, "sum up the van hire note", titles)[0] == "Van hire in Leeds"
    monkeypatch.setattr(NN, "PART_OF_TITLE", False)
    assert NN.resolve_note(None, "sum up the van hire note", titles)[0] is None


# -- a reminder named by its content words ---------------------------------------------------
def test_reminder_named_by_its_stemmed_words(monkeypatch):
    from cairn.assistant import reminding as RM
    rows = [{"id": "r1", "text": "water the tomato plants", "state": "scheduled"},
            {"id": "r2", "text": "top up the car's oil", "state": "scheduled"}]
    find = RM.Reminding._find_reminder
    assert find(None, "cancel the oil top-up one", rows)["id"] == "r2"
    assert find(None, "drop the tomato-watering one", rows)["id"] == "r1"
    assert find(None, "cancel the gym one", rows) is None
    monkeypatch.setattr(RM, "TERMS_MATCH", False)
    assert find(None, "cancel the oil top-up one", rows) is None


# -- what the classifier was taught this session (sentences written for these tests) -------------
def test_classifier_reads_bookings_and_note_facts(real_embedder):
    from cairn.assistant.nlu import classify as C
    # before the session's utterances: remind 0.42, remember 0.50 (stored as a memory), cannot_buy 0.25 under the
    # threshold; the book club question stays a question
    got = [p.intent for p in C.classify(real_embedder, [
        "get me in at the barbers saturday",
        "bike note: add that the pump is in the hallway",
        "book jonas in for his eye test",
        "who is doing the readings at book club",
    ])]
    assert got == ["cannot_buy", "note_append", "cannot_buy", "ask"]


# -- a named subject called "he" is the one "he" means next -----------------------------------------
def _rabbit(home) -> str:
    bot = Assistant(home, model="none", new=True)
    assert "07700 900 352" in bot.turn("whats pernilles number", Channel()).reply  # a person, named first
    assert "9 weeks" in bot.turn("how old was rufus when we got him", Channel()).reply
    return bot.turn("and what does he eat", Channel()).reply


def test_a_named_subject_called_he_is_the_next_he(home):
    # SHE_NAMED's case, now met by nlu/antecedent (session 26): "rufus ... got him" gives Rufus the gender "m", and
    # Rufus, more recent than Pernille Voss, is what "he" means (tests/test_assistant26.py checks pick() itself)
    assert "hay" in _rabbit(home)
