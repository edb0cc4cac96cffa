"""Session 25 typed25: a question's shortened word (an initialism "agm", a clipped word "subs") is held by the words it
shortens (types.SHORTENED), so the value stated of them answers it. Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import types
from cairn.search import asked
from conftest import notes_app

NOTES = {
    "club.md": "# Letter from the Harbour Rowing Club\n\n"
               "Subscriptions: £18 a month by standing order.\n"
               "Boat storage: £40 a year.\n"
               "The annual general meeting is on Thursday 12 March at 7pm in the boathouse.\n"
               "The summer regatta is on Saturday 20 June.\n",
    "vet.md": "# Vet invoice\n\nConsultation and booster for Moss the collie.\nTotal: £84.50, paid by card.\n",
    "skip.md": "# Skip hire\n\nDelivery: 3 March. Collection: 10 March.\nCouncil permit number: PBC-4471.\n",
}


@pytest.mark.parametrize("term, context, held", [
    ("agm", "The annual general meeting is on 12 March", True),
    ("nhs", "a National Health Service voucher", True),
    ("sub", "Subscriptions: £18 a month", True),
    ("vet", "Veterinary surgery, Rowan Parade", True),
    ("car", "Cardiff Road garage", False),  # a clip needs CLIP letters more than the word
    ("agm", "annual meeting of the general committee", False),  # initials of consecutive words only
    ("pet", "the petrol station", False),
])
def test_a_shortened_word_is_held_by_the_words_it_shortens(term, context, held):
    assert (types.missing((term,), context) == []) is held


def test_shortening_off_reads_words_only(monkeypatch):
    monkeypatch.setattr(types, "SHORTENED", False)
    assert types.missing(("agm",), "The annual general meeting") == ["agm"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("t25"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("question, right, wrong", [
    ("when's the rowing club agm", "12 March", "20 June"),
    ("how much are my rowing subs", "£18", "£40"),
])
def test_a_shortened_head_is_answered_by_its_line(app, question, right, wrong):
    ans = app.ask(question, llm="none")
    assert ans.verdict == "pass" and right in ans.answer and wrong not in ans.answer


def test_a_shortened_head_off_is_misread(app, monkeypatch):
    monkeypatch.setattr(types, "SHORTENED", False)  # before the rule: the subs declined, the AGM's date missed
    assert app.ask("how much are my rowing subs", llm="none").verdict == "abstain"
    assert "12 March" not in app.ask("when's the rowing club agm", llm="none").answer


def test_a_compound_kind_noun_is_excused_only_when_its_modifiers_name_the_note(app, monkeypatch):
    ans = app.ask("what was the total of the vet bill", llm="none")  # "vet": the note's title; "bill": its kind
    assert ans.verdict == "pass" and "84.50" in ans.answer
    ans = app.ask("what's the delivery driver's number", llm="none")  # "delivery" written, not of the note
    assert ans.verdict == "abstain" and "PBC-4471" not in ans.answer
    monkeypatch.setattr(asked, "COMPOUND_KIND", False)  # off: the kind noun is required
    assert app.ask("what was the total of the vet bill", llm="none").verdict == "abstain"


@pytest.mark.parametrize("question, head, subject", [
    ("who's countersigning tobin's passport form", ("countersign",), ("tobin", "passport", "form")),
    ("who is making the wedding cake", ("mak",), ("wedd", "cak")),
    ("who fitted the boiler", ("fitt",), ("boiler",)),
    ("who's the planning officer", ("plann", "officer"), ()),  # no progressive: the noun asked is the role
])
def test_a_who_question_s_progressive_verb_is_the_role_asked(question, head, subject):
    got = asked.asked(question)
    assert (got.kind, got.head, got.subject) == ("person", head, subject)
