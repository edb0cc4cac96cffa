"""Session 24 precision24: a typed value lent the words asked by another line or clause is declined (typed.OWN_LINE).

"when's my dentist appointment" is not answered by the date a filling was done, in a letter whose line above speaks of
a missed appointment; "when did we pay the balance" not by the deposit's date in the clause before the balance's.
Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import typed
from conftest import notes_app

NOTES = {
    "dental.md": "# Letter from Brookfield Dentists\n\n"
                 "If you cannot come, tell us a day before, or a missed appointment fee of £30 is charged.\n"
                 "Your filling on the upper right tooth was done on 12 May 2030, and the next payment of £90 is due.\n",
    "lodge.md": "# Lakeside lodge, October\n\nThe total price is £900.\n"
                "We paid a deposit of £200 on 3 March; the balance of £700 is due six weeks before arrival.\n",
    "optician.md": "# Greystone Opticians\n\nYour next eye test appointment is on 9 June 2030 at 2pm.\n",
    "pottery.md": "# Pottery class\n\nThursdays at 6pm at Kilnside Studio.\n"
                  "Ilka Vantongeren teaches it; her mobile is 07700 900 512.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory, request):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("p24"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("question, wrong", [
    ("when's my dentist appointment", "12 May 2030"),
    ("when did we pay the balance on the lodge", "3 March"),
])
def test_a_value_lent_the_words_asked_is_declined(app, monkeypatch, question, wrong):
    from cairn.answer import checks
    monkeypatch.setattr(checks, "GATE", False)  # the acceptance gate declines this right answer (wrongpass29: its cost)
    ans = app.ask(question, llm="none")
    assert ans.verdict == "abstain" and wrong not in ans.answer
    monkeypatch.setattr(typed, "OWN_LINE", False)  # the wrong value passed before the rule
    off = app.ask(question, llm="none")
    assert off.verdict == "pass" and wrong in off.answer


@pytest.mark.parametrize("question, right", [
    ("when did we pay the deposit on the lodge", "3 March"),
    ("when is my eye test appointment at the opticians", "9 June 2030"),
    # the value's clause refers back to the person named in the one before ("…; her mobile is …"): typed._BACK
    ("what's Ilka Vantongeren's mobile", "07700 900 512"),
])
def test_a_value_whose_own_line_or_clause_holds_the_words_passes(app, question, right):
    ans = app.ask(question, llm="none")
    assert ans.verdict == "pass" and right in ans.answer
