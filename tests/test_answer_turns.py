"""Issue 13, answers from chat turns: a sentence of the named person's that only comments on
what the other speaker said states nothing of them (answerability.echoes_other, STATED), a
"when" question is answered by a sentence that says when (answer.TIME_STATED), and a
person-checked answer whose quoted messages, read with the turns they reply to, support none
of the question's key terms abstains (topic.unsupported_topic over the turns). Chats written for these tests,
asked through the service (`Cairn.ask`)."""

from __future__ import annotations

import json

import pytest

import cairn.answer as answer
import cairn.answer.topic as topic
from cairn.answer.answerability import echoes_other, key_terms
from cairn.answer.topic import TURN_MIN_TERMS, unsupported_topic


def unsupported_turn(question: str, messages: list[str], embedder):
    return unsupported_topic(question, " ".join(messages), embedder, TURN_MIN_TERMS)


def _chat(app, tmp_path, rows: list[tuple[str, str, str]]) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps({"conversation": "c1", "session": "s1", "id": i, "speaker": who,
                                        "time": f"2024-06-01T09:0{n}", "text": text}) + "\n"
                            for n, (i, who, text) in enumerate(rows)), encoding="utf-8")
    app.import_chat(path)


ACCIDENT = [("r1", "Rosa", "Hey Ivo! My son got into a car accident on the highway last week. We were all so shaken."),
            ("r2", "Ivo", "Oops, sorry about the accident! Hope everyone is okay."),
            ("r3", "Rosa", "Thanks, everyone is fine now. The kids are back at school."),
            ("r4", "Ivo", "Glad to hear it. I spent the weekend fixing my bike and baking bread."),
            ("r5", "Rosa", "I have been gardening a lot, the tomatoes are huge this year."),
            ("r6", "Ivo", "I started learning the guitar, my teacher is very patient.")]


def test_a_comment_on_the_other_speakers_story_is_not_quoted_as_theirs(app, tmp_path, monkeypatch):
    _chat(app, tmp_path, ACCIDENT)
    ans = app.ask("How did Ivo feel after the accident?", llm="none")
    assert ans.verdict == "abstain", ans.answer  # the accident is Rosa's: Ivo only said sorry
    # Ivo's own statements are still answered
    assert "bike" in app.ask("What does Ivo do at the weekend?", llm="none").answer
    assert "from Rosa, not Ivo" in ans.answer  # the person check counts Ivo's comment for no one
    monkeypatch.setattr(answer.answerability, "STATED", False)  # Ivo's comment then counts as his: a weaker decline
    off = app.ask("How did Ivo feel after the accident?", llm="none")
    assert off.answerability["scores"]["support_person"] > ans.answerability["scores"]["support_person"]
    assert off.answerability["scores"]["unanswerable"] < ans.answerability["scores"]["unanswerable"]


@pytest.mark.parametrize("sentence, replied, expected", [
    ("Oops, sorry about the accident!", "My son got into an accident.", True),
    ("Oops, sorry about the accident!", "There was an accident on the news.", False),  # not said of themselves
    ("I was sorry about the accident.", "My son got into an accident.", False),  # first person: their own
    ("Sorry you had an accident.", "My son got into an accident.", False),  # second person: sentence_subject's
    ("Lovely weather today.", "My son got into an accident.", False),  # shares no key term
])
def test_echoes_other(sentence, replied, expected):
    assert echoes_other(sentence, replied, key_terms("How did they feel after the accident?")) is expected


POTTERY = [("m1", "Mara", "I'm a big fan of the pottery workshop downtown - the creativity and skill there is awesome!"),
           ("m2", "Leo", "Nice! Have you been there yourself?"),
           ("m3", "Mara", "Yes! Last Friday I finally took my kids to a pottery class there. They loved it."),
           ("m4", "Leo", "I mostly go hiking on weekends, the hills near town are great."),
           ("m5", "Mara", "I have been reading a lot of mystery novels lately.")]


def test_when_is_answered_by_a_sentence_that_says_when(app, tmp_path, monkeypatch):
    _chat(app, tmp_path, POTTERY)
    question = "When did Mara go to the pottery workshop?"
    assert app.ask(question, llm="none").answer.startswith("Last Friday I finally took my kids")
    # every chat sentence is dated by its message, so without the rule the closer wording wins
    monkeypatch.setattr(answer, "TIME_STATED", False)
    assert app.ask(question, llm="none").answer.startswith("I'm a big fan of the pottery workshop")


WALK = [("a1", "Rosa", "Did you find anything nice on your walk around the neighbourhood?"),
        ("a2", "Ivo", "Haha, tell you later, gotta run!"),
        ("a3", "Rosa", "Sure, talk soon. I baked a lemon cake for my sister today."),
        ("a4", "Ivo", "Since we last spoke, I took my kids to a park yesterday. They played for hours."),
        ("a5", "Rosa", "That sounds fun! What else have you been up to?"),
        ("a6", "Ivo", "I found an old camera in a charity shop, it still works.")]


def test_an_answer_from_a_message_about_something_else_abstains(app, tmp_path, monkeypatch):
    _chat(app, tmp_path, WALK)
    question = "What did Ivo see in his neighbourhood during his walk?"
    ans = app.ask(question, llm="none")
    assert ans.verdict == "abstain"
    assert "never mention 'see', 'neighbourhood', 'walk'" in ans.answer
    assert ans.pointers  # the nearest notes are offered
    # a question with one key term is not checked ("kids" is said; the rule needs two)
    assert "park" in app.ask("What did Ivo do with his kids?", llm="none").answer
    monkeypatch.setattr(topic, "TURN_MIN_TERMS", 99)
    assert "park yesterday" in app.ask(question, llm="none").answer


def test_the_turn_a_message_replies_to_counts_as_support(real_embedder):
    question = "What did see in his neighbourhood during his walk?"  # the name removed
    reply = "Mostly ducks by the pond, and a new bakery."
    asked = "Did you see anything nice on your walk around the neighbourhood?"
    assert unsupported_turn(question, [reply], real_embedder) == ["see", "neighbourhood", "walk"]
    assert unsupported_turn(question, [reply + "\n" + asked], real_embedder) is None
    # a lone key term is never enough to decline
    assert unsupported_turn("What is his job?", ["I fix bikes all day."], real_embedder) is None


def test_empty_input_is_no_reason(real_embedder):
    assert echoes_other("", "", set()) is False
    assert echoes_other("Sorry about the accident!", "", key_terms("the accident")) is False
    assert unsupported_turn("", [], real_embedder) is None
    assert unsupported_turn("What did see in his neighbourhood during his walk?", [], real_embedder) is None
