"""Session 27 typeddecline27: answerable questions no longer declined for words a reader would not demand.

An agent noun holds its verb ("Fitter" / "fitted": types.AGENT), and a code may be spaced ("BCH 448 2019":
types.SPACED). Each rule's question passes with it and is declined without it. Fixtures written here. (The lead removed
four more rules of the branch, typed.INTRO, KEYED, TITLE_FIELD and AUX: each paid one question of the set it was written
on, eleventh, and none elsewhere.)"""

from __future__ import annotations

import pytest

from cairn.answer import types
from conftest import notes_app

NOTES = {
    "taxi.md": "# Station taxi booking\n\nBooking TX-4410 for Friday 3 May.\n"
               "Call 01632 960 777 when you are 10 minutes from the station so the driver can meet you.\n",
    "clinic-card.md": "# Hospital card\n\nKeep this with you. Your hospital number is RKH 502 7731.\n",
    "boiler.md": "# Boiler record\n\nModel: Thermex 30 combi.\nFitter: Priya Natt, Warmhome Heating.\n"
                 "Serviced every October.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("td27"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("module, switch, question, right", [
    (types, "SPACED", "whats my hospital number", "RKH 502 7731"),
])
def test_each_rule_passes_its_question_and_it_is_declined_without_it(app, monkeypatch, module, switch, question,
                                                                      right):
    ans = app.ask(question, llm="none")
    assert ans.verdict == "pass" and right in ans.answer, (ans.verdict, ans.answer)
    monkeypatch.setattr(module, switch, False)
    off = app.ask(question, llm="none")
    assert not (off.verdict == "pass" and right in off.answer), (off.verdict, off.answer)


@pytest.mark.parametrize("question", [
    "who fitted our dishwasher",  # another subject: no note holds it
    "who do we ring when we're nearly at the airport",
])
def test_the_rules_do_not_pass_another_subject(app, question):
    assert app.ask(question, llm="none").verdict == "abstain"


def test_agent_noun_holds_its_verb_only_when_on(monkeypatch):
    from cairn.lexical import stem
    assert types.missing((stem("fitted"),), "Fitter: Priya Natt") == []
    assert types.missing((stem("owns"),), "owner Mr Stroud") == []
    monkeypatch.setattr(types, "AGENT", False)  # under five letters: no prefix of the word written
    assert types.missing((stem("fitted"), stem("owns")), "Fitter: Priya Natt, owner") == ["fitt", "own"]


def test_an_agent_noun_answers_who_did_it(app):
    ans = app.ask("who fitted our boiler", llm="none")
    assert ans.verdict == "pass" and "Priya Natt" in ans.answer
