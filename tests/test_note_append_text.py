"""The text a note_append adds when the request names the note first ("jot down in the X note that B",
"add to my X note that B", "put in the X note: B", "note in X that B"): the whole clause B, numbers with
their units, decimals, prices and phone numbers kept (session 26, week-a26 turn 21)."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.nlu import slots as SL
from conftest import notes_app


@pytest.mark.parametrize("text,title,body", [
    ("jot down in the boiler note that the pressure was 1.4 bar today", "Boiler", "the pressure was 1.4 bar today"),
    ("add to my aquarium note that the pH read 6.8 this morning", "Aquarium", "the pH read 6.8 this morning"),
    ("put in the bike note: rear tyre at 4.5 bar, front at 4.2 bar", "Bike",
     "rear tyre at 4.5 bar, front at 4.2 bar"),
    ("note in Locksmith that his number is 07700 900123", "Locksmith", "his number is 07700 900123"),
    ("add to the pond note that the pump cost £12.50 at the market", "Pond", "the pump cost £12.50 at the market"),
    ("write in my Loft note, the insulation was £1,250.00 fitted", "Loft", "the insulation was £1,250.00 fitted"),
    ("jot down in the greenhouse note - min temp 3.5 °C overnight", "Greenhouse", "min temp 3.5 °C overnight"),
    # no title resolved: the place must end in "note"/"list"
    ("jot down in the boiler note that the pressure was 1.4 bar today", None, "the pressure was 1.4 bar today"),
])
def test_the_note_named_first_keeps_the_whole_clause(text, title, body):
    assert SL.append_slots(text, title) == body


@pytest.mark.parametrize("text,title,body", [
    ("add eggs to the shopping list", "Shopping", "eggs"),
    ("Camping note: add tent pegs", "Camping", "tent pegs"),
    ("add eggs, milk to the shopping list", "Shopping", "eggs, milk"),
    ("put 1.5 kg of rice on the Shopping note", "Shopping", "1.5 kg of rice"),
])
def test_the_text_named_first_is_unchanged(text, title, body):
    assert SL.append_slots(text, title) == body


def test_a_number_with_a_thousands_comma_is_one_item():
    assert SL.items_body("the pump cost £1,250.00") == "the pump cost £1,250.00"
    assert SL.items_body("eggs, milk and tea") == "- eggs\n- milk\n- tea"


def test_the_appended_line_lands_in_the_note(tmp_path, real_embedder):
    notes = {"boiler.md": "# Boiler\n\nFault code F28 last winter. Service ref BF-30917.\n"}
    with notes_app(tmp_path, notes, real_embedder, veto_s=0) as app:
        bot = Assistant(app, model="none", new=True)
        res = bot.turn("jot down in the boiler note that the pressure was 1.4 bar today", Channel())
        assert [c.name for c in res.tool_calls if c.name == "update_note"] == ["update_note"]
        body = app.note_show("Boiler")["body"]
        assert "the pressure was 1.4 bar today" in body and "F28" in body and "BF-30917" in body
