"""`cairn ask` reads "combo", "combination" and "passcode" as the code they ask for (search/codewords.py), as the
assistant did alone before: the question is searched and answered as a code question, and the answer keeps the
question as typed."""

from __future__ import annotations

import pytest

from conftest import notes_app

NOTES = {
    "allotment.md": "# Allotment\n\nPlot 14, Ferriby Lane allotments.\nShed padlock code: 4471\n"
                    "Water trough by the north gate; the hose is kept in the shed.\n",
    "gym.md": "# Gym\n\nMembership number: GX-20931\nLocker pin: 9902\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("codewords"), NOTES, real_embedder) as app:
        yield app


@pytest.mark.parametrize("question, value", [
    ("whats the combo for the shed padlock", "4471"),
    ("what's the shed padlock combination?", "4471"),
])
def test_a_code_asked_by_another_word_is_answered_as_a_code(home, question, value):
    ans = home.ask(question, llm="none")
    assert ans.verdict == "pass" and value in ans.answer, ans
    assert ans.question == question  # the question as typed, not as read


def test_the_word_in_its_ordinary_sense_is_left_alone(home):
    from cairn.search.codewords import as_code_word
    assert as_code_word("what's the right combination of compost and soil for the plot") == \
        "what's the right combination of compost and soil for the plot"
