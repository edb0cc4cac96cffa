"""Session 24 lead mends of the question parse (search/asked.py) and the part split (answer/parts.py).

A phone that names a bill's kind asks no phone number; "how much went into ..." asks an amount of money;
a part asked twice is answered once. Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer.parts import split
from cairn.search.asked import asked
from conftest import notes_app


@pytest.mark.parametrize("question, kind", [
    ("how much is my phone bill this month", "money"),
    ("what was the extra charge on my phone bill", "money"),
    ("when does my phone contract end", "date"),
    ("how much went into my pension this month?", "money"),
    ("whats the plumbers phone number", "phone"),
    ("whats the plumbers phone", "phone"),
    ("what is the phone for the vet", "phone"),
    ("mobile no for dave", "phone"),
    ("how many phones do we have", "number"),
])
def test_the_kind_asked(question, kind):
    assert asked(question).kind == kind


def test_a_phone_that_names_the_thing_stays_a_word_of_its_head():
    # "phone" is no type word when money is asked: the bill of the phone, not any bill
    assert "phon" in asked("how much is my phone bill this month").head
    assert "phon" not in asked("whats the plumbers phone number").head


def test_a_part_asked_twice_is_answered_once():
    assert split("where is the shed key? " * 150) == ["Where is the shed key?"]
    assert split("when is my appointment and what do i need to bring? and when is my appointment") == [
        "When is my appointment?", "What do i need to bring?"]


BILLS = {"electric.md": "# Electricity bill\n\nSupplier: Brightwatt Energy\nTotal this bill: £91.10\n",
         "phone.md": "# Phone bill\n\nNetwork: Tellwyn Mobile\nMonthly plan: £12.00\nTotal this bill: £17.60\n"}


def test_the_phone_bill_is_asked_as_money_of_the_phone(tmp_path, real_embedder):
    with notes_app(tmp_path, BILLS, real_embedder) as app:
        ans = app.ask("how much is my phone bill this month", llm="none")
        assert ans.verdict == "pass" and "17.60" in ans.answer and "91.10" not in ans.answer
        once = app.ask("where is the total of my phone bill? " * 40, llm="none")
        assert len(once.citations) == 1
