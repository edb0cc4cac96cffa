"""Session 24 typed24b: a yes/no answer's line holds every verb asked (yesno.PREDICATE; "Unlimited" holds "limited"),
and what-questions of a dimension are answered by a measure ("what strength": "5 mg") or weekdays ("what nights").
(checks.HEAD_NOUN, a head-noun check for every untyped what/where answer, was removed by the lead: it declined
"What pet does Tom Weber have?", the entity hop "where did Marta's team meet?" and "Where do the herons nest?" in
the fresh-clone run.) Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import yesno
from conftest import notes_app

NOTES = {
    "shed.md": "# Planning decision for the garden shed\n\n"
               "Proposal: timber garden shed with a green felt roof and a side window\n"
               "Decision: approved subject to the conditions below.\n",
    "bread.md": "# Rye loaf (Gran's method)\n\n"
                "Mix the flour with warm water and a pinch of salt.\n"
                "Bake in a hot oven at 230C for 30 minutes, then turn the tray round and bake 15 minutes more.\n"
                "Leave the loaf to cool on a rack for an hour before slicing.\n",
    "pills.md": "# Repeat prescription\n\nAmlodipine 5 mg tablets: one each morning (28 tablets)\n",
    "report.md": "# School report, summer term\n\nMilo is a cheerful member of the class who reads widely.\n"
                 "He has settled well and works hard in maths.\n",
    "library.md": "# Millbrook library\n\nOpening hours: Monday to Saturday 9am to 6pm.\n"
                  "The reading room on the first floor is for quiet study only.\n"
                  "Children's books carry no fines.\nLoans: Unlimited for members.\n",
    "choir.md": "# Harbour Choir membership\n\nRehearsals are on Mondays and Wednesdays from 7pm to 9pm in the church hall.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("t24b"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("question, right", [
    ("what strength is my amlodipine", "5 mg"),
    ("what nights are choir rehearsals", "Mondays and Wednesdays"),
])
def test_a_measure_or_a_weekday_holds_the_dimension_asked(app, question, right, monkeypatch):
    from cairn.answer import checks
    monkeypatch.setattr(checks, "GATE", False)  # the acceptance gate declines this right answer (wrongpass29: its cost)
    ans = app.ask(question, llm="none")
    assert ans.verdict == "pass" and right in ans.answer


def test_a_yes_no_line_without_the_verb_asked_is_declined(app, monkeypatch):
    ans = app.ask("can i eat in the library reading room", llm="none")
    assert ans.verdict == "abstain" and "quiet study" not in ans.answer
    monkeypatch.setattr(yesno, "PREDICATE", False)  # the line passed before the rule (yesno.PREDICATE)
    off = app.ask("can i eat in the library reading room", llm="none")
    assert off.verdict == "pass" and "quiet study" in off.answer


def test_a_verb_held_with_a_negating_prefix_answers(app):
    ans = app.ask("are library loans limited", llm="none")
    assert ans.verdict == "pass" and ans.answer.startswith("No:") and "Unlimited" in ans.answer
