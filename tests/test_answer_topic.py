"""Topic support (answer/topic.py, issue 13): a question about a named subject is answered
only when the cited notes say something about what it asks, not merely the subject's name.
The fixture vault mentions Tom Weber (a cat, a ladder for the gutters) and a boiler, but
never Tom Weber and a boiler together."""

from __future__ import annotations

import pytest

from conftest import write
from cairn.answer.topic import supported_terms, unsupported_topic

NOTES = {
    "neighbours.md": "# Neighbours\n\nTom Weber lives two doors down and has a grey cat called Pixel.\n"
                     "Tom Weber said he would lend us his ladder for the gutters next weekend.\n"
                     "Anna from number 12 runs the street's book swap.\n",
    "boiler.md": "# Boiler\n\nThe boiler was last serviced on 9 October 2024 by a technician from Heizung Keller.\n"
                 "The pressure should sit between 1 and 1.5 bar.\n",
    "garden.md": "# Garden\n\nThe tomatoes went in on 3 May. The lavender by the gate needs cutting back in August.\n",
}


@pytest.fixture(scope="module")
def tom_app(tmp_path_factory, real_embedder):
    from cairn.service import Cairn
    root = tmp_path_factory.mktemp("topic")
    for name, text in NOTES.items():
        write(root / "v" / name, text)
    app = Cairn(root / "home", embedder=real_embedder)
    app.ingest([root / "v"])
    yield app
    app.close()


@pytest.mark.parametrize("question, missing", [
    ("What did Tom Weber say about the boiler?", "boiler"),
    ("What did Tom say about the boiler?", "boiler"),
    ("What did Tom Weber say about the heating?", "heating"),
])
def test_a_subject_named_without_what_is_asked_is_declined(tom_app, question, missing):
    ans = tom_app.ask(question, llm="none")
    assert ans.verdict == "abstain", ans.answer
    assert not ans.citations
    assert f"'{missing}'" in ans.answer and "Tom" in ans.answer
    assert ans.pointers  # the nearest notes are offered


@pytest.mark.parametrize("question, expect", [
    ("What did Tom Weber say about the ladder?", "ladder"),
    ("What did Tom Weber say about the gutters?", "gutters"),
    ("What pet does Tom Weber have?", "cat"),  # "pet" is supported by "cat" (word embeddings)
    ("Where does Tom Weber live?", "two doors down"),
    ("When was the boiler serviced?", "9 October 2024"),  # no named subject: unaffected
])
def test_a_subject_with_what_is_asked_is_answered(tom_app, question, expect):
    ans = tom_app.ask(question, llm="none")
    assert ans.verdict == "pass", ans.answer
    assert expect in ans.answer


def test_supported_terms_by_stem_prefix_and_synonym(real_embedder):
    text = "We adopted two kittens; the boilers were replaced and the kids loved the trip."
    assert supported_terms(["boiler"], text, None) == {"boiler"}  # same stem
    assert supported_terms(["adoption"], text, None) == {"adoption"}  # shared 5-letter prefix
    assert supported_terms(["children"], text, None) == set()  # no embedder: no synonyms
    assert supported_terms(["children", "travel"], text, real_embedder) == {"children", "travel"}
    assert supported_terms(["ladder", "drought"], text, real_embedder) == set()


def test_unsupported_topic_lists_the_key_terms_only_when_none_is_supported(real_embedder):
    notes = "Tom Weber said he would lend us his ladder for the gutters next weekend."
    assert unsupported_topic("What did say about the boiler?", notes, real_embedder) == ["boiler"]
    assert unsupported_topic("What did say about the boiler and the ladder?", notes, real_embedder) is None
    # generic question words, time words and function words are no topic: nothing to check
    assert unsupported_topic("What did say last week?", notes, real_embedder) is None
    assert unsupported_topic("What did say about the boiler?", "", real_embedder) is None
