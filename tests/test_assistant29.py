"""The assistant's changes of session 29 (assistant29), with notes and sentences written for these tests
(invented names; none from a benchmark week): an item with no verb put "on that too" after a note was made is
appended to it, not remembered; a capabilities question after a word of how the person came to Cairn is answered
with what Cairn can do, not from a note. Both are training utterances (nlu/utterances.txt), no rule."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.nlu import state as S
from cairn.assistant.nlu import understand as U
from conftest import notes_app

NOTES = {"kayak.md": "# Kayak club\n\nPaddling on Wednesdays at 6pm from Mill Quay.\n"
                     "Club kayaks are free for members; buoyancy aids are in the blue shed.\n"}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("assistant29"), NOTES, real_embedder) as app:
        app.settings.assistant.veto_s = 0
        yield app


def test_a_verbless_item_on_that_too_is_appended_to_the_note_just_made(home, monkeypatch):
    """Class: "oh, and a tub of hummus on that too" right after a new list note: read as note_append (the intent
    model; it was remember) and the item taken from before "on that" (slots.VERBLESS_ITEM), added to that note,
    the items before kept. Off: the assistant asks what to add."""
    from cairn.assistant.nlu import slots as SL
    assert SL.append_slots("and a bottle of squash on it too", None) == "a bottle of squash"
    assert SL.append_slots("add eggs to the shopping note", None) == "eggs"
    u = U.understand(home.embedder, "oh, and a tub of hummus on that too", S.ConversationState())
    assert [a.intent for a in u.actions] == ["note_append"], u.actions
    a = Assistant(home, model="none", new=True)
    a.turn("start a note called Picnic bits with crisps, grapes and paper cups", Channel())
    out = a.turn("oh, and a tub of hummus on that too", Channel())
    body = home.note_show("Picnic bits")["body"]
    assert "hummus" in body and "grapes" in body, (out.reply, body)
    monkeypatch.setattr(SL, "VERBLESS_ITEM", False)
    assert SL.append_slots("and a bottle of squash on it too", None) == ""


@pytest.mark.parametrize("text", ["hello, only just got you working. what are you meant to do?",
                                  "hi! my son installed you for me, so what can you do"])
def test_a_capabilities_question_after_a_preface_is_read_as_one(real_embedder, text):
    """Class: a greeting and a word of how they came to Cairn, then "what are you for": capabilities (was ask,
    answered from the nearest note)."""
    u = U.understand(real_embedder, text, S.ConversationState())
    assert [a.intent for a in u.actions] == ["capabilities"], u.actions
