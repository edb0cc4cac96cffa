"""Topic support (answer/topic.py, issue 13): a question about a named subject is answered
only when the cited notes say something about what it asks, not merely the subject's name.
The fixture vault mentions Tom Weber (a cat, a ladder for the gutters) and a boiler, but
never Tom Weber and a boiler together."""

from __future__ import annotations

import pytest

from conftest import notes_app
from cairn.answer.topic import supported_terms, unsupported_topic

NOTES = {
    "neighbours.md": "# Neighbours\n\nTom Weber lives two doors down and has a grey cat called Pixel.\n"
                     "Tom Weber said he would lend us his ladder for the gutters next weekend.\n"
                     "Anna from number 12 runs the street's book swap.\n",
    "boiler.md": "# Boiler\n\nThe boiler was last serviced on 9 October 2024 by a technician from Heizung Keller.\n"
                 "The pressure should sit between 1 and 1.5 bar.\n",
    "garden.md": "# Garden\n\nThe tomatoes went in on 3 May. The lavender by the gate needs cutting back in August.\n",
    "car.md": "# Car\n\nThe car is a 2017 estate. Its insurance renews every year on 2 November.\n",
    "sourdough.md": "# Sourdough\n\nThe loaf that worked best used 72 percent hydration and a 14 hour cold retard.\n",
}


@pytest.fixture(scope="module")
def tom_app(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("topic"), NOTES, real_embedder) as app:
        yield app


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
def test_a_subject_with_what_is_asked_is_answered(tom_app, question, expect, monkeypatch):
    from cairn.answer import checks
    monkeypatch.setattr(checks, "GATE", False)  # the acceptance gate declines this right answer (wrongpass29: its cost)
    ans = tom_app.ask(question, llm="none")
    assert ans.verdict == "pass", ans.answer
    assert expect in ans.answer


# "about NAME" names the subject too (fresh-eyes tester, session 7: these were answered with
# the ladder sentence, verdict pass); a question about everything of someone still is answered.
@pytest.mark.parametrize("question", ["Tell me about Tom Weber and the boiler.",
                                      "What about Tom Weber and the boiler?"])
def test_about_a_subject_and_what_the_notes_do_not_say_is_declined(tom_app, question):
    ans = tom_app.ask(question, llm="none")
    assert ans.verdict == "abstain" and not ans.citations, ans.answer


@pytest.mark.parametrize("question, expect", [("Tell me about Tom Weber and the ladder.", "ladder"),
                                              ("Tell me about Tom Weber.", "Tom Weber"),
                                              ("What do you know about Tom Weber?", "Tom Weber")])
def test_about_a_subject_is_answered_when_the_notes_say_it(tom_app, question, expect):
    # "tell me about X" asks for no one value: the acceptance gate does not read it (checks._OVERVIEW)
    ans = tom_app.ask(question, llm="none")
    assert ans.verdict == "pass" and expect in ans.answer, ans.answer


def test_about_names_the_subject_only_when_more_is_asked():
    from cairn.answer.subject import question_subject
    assert question_subject("Tell me about Tom Weber and the boiler.") == "Tom Weber"
    assert question_subject("Tell me about Tom Weber.") is None
    assert question_subject("What do you know about Lisa Brandt?") is None


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


def test_subject_absent_reads_text_and_title():
    from cairn.answer.topic import subject_absent
    assert subject_absent("Tomasz", [("Sourdough", "The loaf used 72 percent hydration.")])
    assert not subject_absent("Tom Weber", [("Neighbours", "Weber has a grey cat.")])  # one word of the name
    assert not subject_absent("Jonas Weber", [("Jonas Weber", "He is a pastry chef.")])  # the note's title
    assert subject_absent("Tom", [("Notes", "Tomatoes went in on 3 May.")])  # whole words only
    assert not subject_absent("Tom", [])


def _note(n, title, text):
    from cairn.model import Hit
    return Hit(id=f"c{n}", note_id=f"n{n}", source_id=None, title=title, path=f"p{n}.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=None, score=0.9, signals={"semantic": 0.6})


def test_a_note_that_never_names_the_subject_does_not_answer_for_them(real_embedder):
    from cairn.answer import answer_question
    loaf = _note(1, "Bread log", "The sourdough loaf that worked best used 72 percent hydration and a cold retard.")
    ans = answer_question("What does Tom Weber think of the sourdough loaf?", [loaf], real_embedder)
    assert ans.verdict == "abstain", ans.answer
    assert "never mention Tom Weber" in ans.answer and not ans.citations
    # the same note answers a question without a subject, and a note titled with the name answers for them
    assert answer_question("Which sourdough loaf worked best?", [loaf], real_embedder).verdict == "pass"
    titled = _note(2, "Tom Weber", "His sourdough loaf used 72 percent hydration and a cold retard.")
    ans = answer_question("What does Tom Weber think of the sourdough loaf?", [titled], real_embedder)
    assert ans.verdict == "pass", ans.answer


# A recipe note: "How much red lentils…" was once declined as "the notes speak of 'red' but
# never of 'much red'", the quantifier read as a kind of red.
RECIPE = {
    "soup.md": "# Red lentil soup\n\n## Ingredients\n- 250 g red lentils, rinsed\n- 1 onion, 2 carrots\n"
               "- 1.2 litres vegetable stock\n\n## Method\nSimmer the lentils in the stock for 20 minutes.\n",
    "vitamins.md": "# Blood test\n\nDr Marsh said to take vitamin D 1000 IU daily over the winter.\n",
}


@pytest.fixture(scope="module")
def recipe_app(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("recipe"), RECIPE, real_embedder) as app:
        yield app


@pytest.mark.parametrize("question, expect", [
    ("How much red lentils go in the soup?", "250 g"),
    ("How much vitamin D should I take?", "1000 IU"),
])
def test_an_asking_word_is_no_kind_of_the_thing_asked(recipe_app, question, expect):
    ans = recipe_app.ask(question, llm="none")
    assert ans.verdict == "pass", ans.answer
    assert expect in ans.answer


@pytest.mark.parametrize("question, verdict", [
    ("When does the house insurance renew?", "abstain"),  # the notes hold the car's insurance
    ("When does the car insurance renew?", "pass"),
])
def test_another_kind_of_the_thing_asked_does_not_answer(tom_app, question, verdict):
    ans = tom_app.ask(question, llm="none")
    assert ans.verdict == verdict, ans.answer
    if verdict == "abstain":
        # the typed answer's subject check (answer/checks.py) says which word of the thing asked
        # no value of the kind asked is given for
        assert "the notes give no date for 'house'" in ans.answer.lower() \
            and not ans.citations
    else:
        assert "2 November" in ans.answer


# A written vault where the kettle has a note of its own that says nothing about descaling, and
# the dishwasher's note says who descaled it. (The "held elsewhere" rule that declined "Who
# descaled the kettle?" here was removed in issue 33, session 15: bench/answers_ablation.py.)
KITCHEN = {
    "dishwasher.md": "# Dishwasher\n\nThe dishwasher was descaled on 4 March 2025 by Milan from Aqua Service.\n",
    "kettle.md": "# Kettle\n\nThe kettle is a 1.7 litre steel model bought in 2021 for the office.\n",
    "bike.md": "# Bike\n\nThe bike gets new brake pads every spring; the chain was oiled in April.\n",
}


@pytest.fixture(scope="module")
def kitchen_app(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("kitchen"), KITCHEN, real_embedder) as app:
        yield app


@pytest.mark.parametrize("question, expect", [
    ("Who descaled the dishwasher?", "Milan"),
    ("How big is the kettle?", "1.7 litre"),
    ("How much does the kettle hold?", "1.7 litre"),  # "much": an asking word, never held elsewhere
])
def test_a_note_about_what_is_asked_still_answers(kitchen_app, question, expect):
    ans = kitchen_app.ask(question, llm="none")
    assert ans.verdict == "pass", ans.answer
    assert expect in ans.answer


def test_a_right_answer_the_gate_declines_keeps_its_note_among_the_pointers(tom_app):
    """The acceptance gate's cost (docs/concepts.md, Verdicts): "What pet does Tom Weber have?" is declined, and the
    note that says Tom Weber "has a grey cat" is the first pointer."""
    ans = tom_app.ask("What pet does Tom Weber have?", llm="none")
    assert ans.verdict == "abstain", ans.answer
    assert ans.pointers[0]["title"] == "Neighbours", ans.pointers
