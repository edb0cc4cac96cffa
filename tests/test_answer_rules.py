"""Issue 13 rules that must generalise to conversations the project has not seen:
the person check's learned decision needs the question's words to agree with the
embedding (answer/answerability.py), and an image caption is not quoted as an
answer while a sentence that states something clears the fallback floor
(answer/__init__.py, `is_caption`). Fixtures written for these tests."""

from __future__ import annotations

import pytest

from cairn.answer import answerability as A
from cairn.answer import answer_question, extractive_draft, is_caption
from cairn.answer.verify import Evidence
from cairn.model import Hit


def _hit(i: int, speaker: str | None, text: str) -> Hit:
    return Hit(id=f"c{i}", note_id=f"n{i}", source_id=f"m{i}", title="chat", path=f"chat/{i}.md", source=None,
               snippet=text[:80], text=text, start=0, end=len(text), page=None, score=0.5,
               signals={"semantic": 0.6, "keyword": 0.5}, speaker=speaker)


# Priya's sentence is closer in meaning to the question; the question's own words ("long
# shift") are Tomas's.
SHIFT = [(_hit(0, "Priya", "Yoga helps me unwind after a stressful day at the hospital.")),
         (_hit(1, "Tomas", "A long shift at the depot always leaves me tired, so I go fishing."))]
SHIFT_Q = "What helps Tomas relax after a long shift?"


def test_cosine_lead_without_the_words_does_not_decline(real_embedder):
    check = A.check(SHIFT_Q, SHIFT, real_embedder)
    assert check.person == "Tomas"
    assert check.scores["support_other"] > check.scores["support_person"] + 0.1  # the lead in meaning is there
    assert check.scores["words_person"] > check.scores["words_other"]  # the words are Tomas's
    assert check.answerable and check.scores["unanswerable"] < A.THRESHOLD, check.reason
    # the same figures with the words on Priya's side instead: the learned decision declines
    swapped = {**check.scores, "words_person": check.scores["words_other"], "words_other": check.scores["words_person"],
               "match_person": check.scores["match_other"], "match_other": check.scores["match_person"]}
    assert A.unanswerable(swapped) >= A.THRESHOLD


def test_cosine_lead_with_the_words_declines(real_embedder):
    hits = [_hit(0, "Priya", "I baked a lemon cake for the village fair."),
            _hit(1, "Tomas", "I fixed my bike this weekend.")]
    check = A.check("What did Tomas bake for the village fair?", hits, real_embedder)
    assert not check.answerable
    assert check.reason == "the evidence about 'bake village fair' is from Priya, not Tomas"
    assert check.scores["words_other"] == 1.0 and check.scores["words_person"] == 0.0


def test_words_tie_keeps_the_question_answerable(real_embedder):
    # both use the question's one key word "relax"; Priya's sentence is closer in meaning
    hits = [_hit(0, "Priya", "Yoga and meditation help me relax and find some calm."),
            _hit(1, "Tomas", "I relax with the crossword.")]
    check = A.check("What does Tomas do to relax?", hits, real_embedder)
    assert check.scores["words_other"] == check.scores["words_person"] == 1.0
    assert check.scores["support_other"] > check.scores["support_person"] + 0.1
    assert check.answerable, check.reason


def test_learned_decision_reads_its_features():
    scores = {"support_person": 0.3, "support_other": 0.7, "key_terms_only_other": 1.0, "words_person": 0.0,
              "words_other": 1.0, "match_person": 0.2, "match_other": 0.8}
    assert A.features(scores) == pytest.approx([0.4, 1.0, 1.0, 0.3, 0.6])
    assert A.unanswerable(scores) > 0.9  # everything points at the other person
    mine = {**scores, "support_person": 0.8, "support_other": 0.3, "key_terms_only_other": 0.0, "words_person": 1.0,
            "words_other": 0.0, "match_person": 0.9, "match_other": 0.2}
    assert A.unanswerable(mine) < 0.1
    with pytest.raises(KeyError):
        A.features({"support_person": 0.3})  # a check's scores lack a figure: a clear error, not a guess


def test_answer_quotes_the_persons_own_sentence(real_embedder):
    ans = answer_question(SHIFT_Q, SHIFT, real_embedder, None, floor=0.0)
    assert ans.verdict != "abstain", ans.answer
    assert [c["source_id"] for c in ans.citations] == ["m1"]


@pytest.mark.parametrize("text,expected", [
    ("[image: a photo of a bowl with a black and white flower design]", True),
    ("[image: a sunset over a lake].", True),
    ("I made this bowl in my pottery class [image: a bowl]", False),
    ("The image: a bowl", False),
])
def test_is_caption(text, expected):
    assert is_caption(text) is expected


def test_caption_is_not_quoted_when_a_statement_answers(real_embedder):
    ev = [Evidence(1, "Look at this! [image: a photo of a bowl with a black and white flower design]", 0,
                   _hit(0, "Ana", "x")),
          Evidence(2, "Thanks! Yeah, I made this black and white bowl in my pottery class.", 0,
                   _hit(1, "Ben", "x"))]
    draft = extractive_draft("Did Ben make the black and white bowl?", ev, real_embedder)
    assert "[image:" not in draft
    assert draft.endswith("[2]") and "pottery class" in draft


def test_caption_is_quoted_when_nothing_else_is_there(real_embedder):
    ev = [Evidence(1, "[image: a photo of a bowl with a black and white flower design]", 0, _hit(0, "Ana", "x"))]
    draft = extractive_draft("What was on the black and white bowl?", ev, real_embedder)
    assert draft.startswith("[image: a photo of a bowl") and draft.endswith("[1]")
