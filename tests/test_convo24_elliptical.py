"""A part of a two-part question that is only its question word ("when and where is the concert" -> "When?")
is elliptical, not chit-chat: it is answered from the evidence of the whole question (offtopic.chit_chat)."""

from __future__ import annotations

import pytest

from conftest import notes_app
from cairn.answer.offtopic import chit_chat

NOTES = {"choir.md": "# Choir\n\nThe spring concert is on 14 March 2031 at the Tarnby corn exchange.\n"
                     "Rehearsals run every Thursday evening.\n"}


@pytest.mark.parametrize("text", ["When?", "where", "Who?", "which?"])
def test_a_bare_question_word_is_not_chit_chat(text):
    assert chit_chat(text) is None


@pytest.mark.parametrize("text, kind", [("What?", "nothing to look up"), ("Who are you?", "about the assistant")])
def test_chit_chat_with_question_words_is_still_recognised(text, kind):
    assert chit_chat(text) == kind


@pytest.fixture(scope="module")
def choir_app(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("choir"), NOTES, real_embedder) as app:
        yield app


def test_both_parts_of_when_and_where_are_answered(choir_app):
    ans = choir_app.ask("when and where is the spring concert", llm="none")
    assert "14 March 2031" in ans.answer and "corn exchange" in ans.answer.lower()
    assert "chit-chat" not in " ".join(ans.problems)
