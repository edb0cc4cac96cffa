"""Session 27 typeddecline27: answerable questions no longer declined for words a reader would not demand.

A value's context is what a reader takes as its context: the line that introduces it (ending in ':', across a blank line:
typed.INTRO), a field's key for every clause of its value (typed.KEYED); the question's verbs are not demanded of it
(typed.VERBS) and an agent noun holds its verb ("Fitter" / "fitted": types.AGENT). Each rule's question passes
with it and is declined without it. Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import typed, types
from conftest import notes_app

NOTES = {
    "eye-clinic.md": "# Letter from the eye clinic\n\nDear Mr Holt,\n\n"
                     "Following your referral from your optician, we have booked your first\n"
                     "appointment with Dr Ama Okafor, Consultant Ophthalmologist:\n\n"
                     "Thursday 4 March 2032 at 10.20am, about 30 minutes.\n\n"
                     "Please bring your glasses and a list of any eye drops you use.\n",
    "piano.md": "# Piano lessons invoice\n\nLessons on Mondays at 4pm for Rosa.\n"
                "Please pay by bank transfer within 7 days: Lena Dorsey, sort code 20-11-33, account 44120987, "
                "reference ROSAPIANO.\n",
    "scouts.md": "# Scout group committee minutes\n\nPresent: Mira Shah (chair), Tom Beck.\n\n"
                 "1. Bonfire night: Saturday 5 November, 6pm to 8pm on the field; tickets £4. Owen will buy sparklers.\n"
                 "2. Jumble sale: Saturday 3 December in the hall.\n",
    "boiler.md": "# Boiler record\n\nModel: Thermex 30 combi.\nFitter: Priya Natt, Warmhome Heating.\n"
                 "Serviced every October.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("td27"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("module, switch, question, right", [
    (typed, "INTRO", "when's my eye clinic appointment", "4 March 2032"),
    (typed, "VERBS", "what reference do i put when i pay lena", "ROSAPIANO"),
    (typed, "KEYED", "how much are tickets for the bonfire night", "£4"),
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
    "what reference do i put when i pay the plumber lena",
])
def test_the_rules_do_not_pass_another_subject(app, question):
    assert app.ask(question, llm="none").verdict == "abstain"


def test_verbs_are_the_question_verbs_outside_a_condition_less_infinitives_and_modifiers():
    pytest.importorskip("spacy")
    assert "fitt" in typed._verbs("who fitted our windows")
    assert "retak" not in typed._verbs("how much is the fee if he has to retake the theory")  # a condition
    assert "fix" not in typed._verbs("how much did it cost to fix the lock")  # an infinitive: the act asked
    assert "joining" not in typed._verbs("What is the gym's joining fee?")  # a modifier of the noun
    assert "re" in typed._verbs("who do we ring when we're nearly at the airport")  # an auxiliary


def test_agent_noun_holds_its_verb_only_when_on(monkeypatch):
    from cairn.lexical import stem
    assert types.missing((stem("fitted"),), "Fitter: Priya Natt") == []
    assert types.missing((stem("owns"),), "owner Mr Stroud") == []
    monkeypatch.setattr(types, "AGENT", False)  # under five letters: no prefix of the word written
    assert types.missing((stem("fitted"), stem("owns")), "Fitter: Priya Natt, owner") == ["fitt", "own"]


def test_an_agent_noun_answers_who_did_it(app):
    ans = app.ask("who fitted our boiler", llm="none")
    assert ans.verdict == "pass" and "Priya Natt" in ans.answer
