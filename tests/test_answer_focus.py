"""The things a question names must be said of the person it asks about (answer/focus.py), on a
chat and on parsed questions written for this test."""

from __future__ import annotations

import json

import pytest

from cairn import ner
from cairn.answer import focus
from cairn.service import Cairn

MESSAGES = [
    ("Priya", "Hi Tomas! My old street was hit by a nasty flood last week and lots of houses were ruined."),
    ("Tomas", "Oh no, I'm so sorry. Is your family safe?"),
    ("Priya", "Yes, thanks. My sister and I went kayaking on the river on Sunday to clear our heads."),
    ("Tomas", "I spent Saturday rebuilding the engine of my old motorbike in the garage."),
    ("Priya", "I baked a lemon cake for my neighbour's birthday, she loved it."),
    ("Tomas", "I started learning the cello in March with a teacher from the conservatory."),
]


@pytest.fixture(scope="module")
def chat_app(tmp_path_factory, real_embedder):
    tmp = tmp_path_factory.mktemp("focus")
    rows = [{"conversation": "c1", "session": "s1", "id": f"f{i}", "speaker": spk, "time": f"2024-05-04T10:{i:02d}",
             "text": text} for i, (spk, text) in enumerate(MESSAGES)]
    path = tmp / "chat.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with Cairn(tmp / "home", embedder=real_embedder) as app:
        app.import_chat(path)
        yield app


def test_a_named_thing_never_said_of_the_person_declines(chat_app):
    ans = chat_app.ask("How did the drought damage the houses on Priya's old street?", llm="none")
    assert ans.abstained and not ans.citations
    assert ans.answerability["person"] == "Priya" and ans.answerability["answerable"] is False
    assert ans.answerability["reason"] == "'drought' is never said of Priya"


def test_the_thing_said_of_the_person_answers(chat_app):
    ans = chat_app.ask("How did the flood damage the houses on Priya's old street?", llm="none")
    assert not ans.abstained and {c["source_id"] for c in ans.citations} == {"f0"}


def test_the_slot_noun_need_not_be_said(chat_app):
    ans = chat_app.ask("What activity did Priya do with her sister?", llm="none")  # "activity": what is asked for
    assert not ans.abstained and {c["source_id"] for c in ans.citations} == {"f2"}


def test_switched_off_nothing_is_declined_for_it(chat_app, monkeypatch):
    monkeypatch.setattr(focus, "FOCUS", False)
    ans = chat_app.ask("How did the drought damage the houses on Priya's old street?", llm="none")
    assert ans.answerability["person"] == "Priya"
    assert "never said of" not in (ans.answerability["reason"] or "")


@pytest.mark.parametrize("topic, things", [
    ("What is the favorite style of painting?", ["painting"]),  # the slot is 'style', 'painting' restricts it
    ("What kind of dance piece did the team perform?", ["dance", "team"]),  # kind -> 'piece' is the slot
    ("What activity did she do with her dad?", ["dad"]),
    ("What flavor of cake did he make for his friend?", ["cake", "friend"]),
    ("What is one of his favorite dairy-free treats?", ["dairy"]),  # partitive "one of": "treats" is the slot
    ("What are his goals with regards to basketball?", ["basketball"]),  # a complex preposition's noun
    ("What might she enjoy at the museum?", []),  # a judgement: nothing need be stated
    ("What does he like about Lebron James?", []),  # names are the premise check's
])
def test_named_things(topic, things):
    assert focus.named_things(topic) == things


def test_unstated_reads_every_stated_sentence():
    stated = ["My old street was hit by a flood.", "Lots of houses were ruined."]
    assert focus.unstated("How did the drought damage Ana's houses?", "Ana", stated, None) == ["drought"]
    assert focus.unstated("How did the flood damage Ana's houses?", "Ana", stated, None) == []
    assert focus.unstated("How did the drought damage Ana's houses?", "Ana", [], None) == []  # nothing stated


def test_the_persons_name_is_read_as_a_pronoun():
    # "did John host" tags 'host' a noun; "did she host" a verb: only 'veterans' is named
    assert focus.unstated("What did John host for the veterans?", "John Reyes", ["I hosted a dinner."], None) == [
        "veterans"]


@pytest.mark.parametrize("question, things", [
    ("What is her bowl a reminder of?", []),  # a stranded preposition: 'reminder' is the slot
    ("Which US holiday did she spend at home?", ["home"]),  # 'which' determines 'holiday'
    ("What does her tattoo symbolize?", []),  # 'symbolize' is no thing named
    ("What did John host for the veterans?", ["veterans"]),  # 'host', tagged a noun and the root after 'did': the verb
])
def test_slot_readings(question, things):
    assert focus.named_things(question) == things


def test_parse_gives_dependencies_or_none(monkeypatch):
    toks = ner.parse("Which song did she sing?")
    assert [t.text for t in toks] == ["Which", "song", "did", "she", "sing", "?"]
    assert toks[0].tag == "WDT" and toks[0].dep == "det" and toks[0].head == 1 and toks[1].pos == "NOUN"
    monkeypatch.setattr(ner, "_load_parser", lambda: None)
    assert ner.parse("An unparsed sentence, never asked before.") is None


def test_no_parse_names_nothing(monkeypatch):
    monkeypatch.setattr(focus, "parse", lambda text: None)  # spaCy unavailable: nothing is declined for it
    assert focus.named_things("How did the drought damage the houses?") == []


def test_how_many_counts_the_slot_noun():
    assert focus.named_things("How many times has he gone to the gym?") == ["gym"]


def test_a_yes_no_questions_category_is_the_slot():
    assert focus.named_things("Is Mango the pet of the family?") == ["family"]
