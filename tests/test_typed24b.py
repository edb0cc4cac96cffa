"""Session 24 typed24b: an untyped answer ("what colour ...", "what's milo's reading age") passes only when its quote or its
note's title holds the nouns of the question's head (checks.HEAD_NOUN): a note's proposal or report line that holds
other words of the question states nothing of the thing asked. A noun naming a dimension is held by a measure ("what
strength": "50 mg") and a unit of time by a weekday ("what nights": "on Mondays"). Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import checks
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
    "choir.md": "# Harbour Choir membership\n\nRehearsals are on Mondays and Wednesdays from 7pm to 9pm in the church hall.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from cairn.embed import get_embedder
    with notes_app(tmp_path_factory.mktemp("t24b"), NOTES, get_embedder()) as a:
        yield a


@pytest.mark.parametrize("question, wrong", [
    ("what colour does the shed door have to be", "Proposal"),
    ("what's milo's reading age", "reads widely"),
])
def test_a_line_without_the_head_noun_is_declined(app, monkeypatch, question, wrong):
    ans = app.ask(question, llm="none")
    assert ans.verdict == "abstain" and wrong not in ans.answer
    monkeypatch.setattr(checks, "HEAD_NOUN", False)  # the line passed before the rule
    off = app.ask(question, llm="none")
    assert off.verdict == "pass" and wrong in off.answer


@pytest.mark.parametrize("question, right", [
    ("what strength is my amlodipine", "5 mg"),
    ("what nights are choir rehearsals", "Mondays and Wednesdays"),
])
def test_a_measure_or_a_weekday_holds_the_dimension_asked(app, question, right):
    ans = app.ask(question, llm="none")
    assert ans.verdict == "pass" and right in ans.answer
