"""Issue 13 citation precision: which passage an extractive answer quotes. The sentences
are ranked with their passage's search score (answer.HIT_PRIOR), an answer quotes one
passage (answer.ONE_PASSAGE), a chat reply is read with the wh-question it answers
(answer.REPLY_CONTEXT). (The reason cue of "why" questions was removed in session 16
with its test of the causal "since".) Fixtures written for these tests, shaped like the chat
replies LoCoMo questions are about."""

from __future__ import annotations

import cairn.answer as answer
from cairn.answer import extractive_draft
from cairn.answer.verify import Evidence
from cairn.model import Hit


def _hit(i: int, text: str, score: float, speaker: str | None = "Nora") -> Hit:
    return Hit(id=f"c{i}", note_id=f"n{i}", source_id=f"m{i}", title="chat", path=f"chat/{i}.md", source=None,
               snippet=text[:80], text=text, start=0, end=len(text), page=None, score=score,
               signals={"semantic": 0.6, "keyword": 0.5}, speaker=speaker)


def _evidence(hits: list[Hit]) -> list[Evidence]:
    return [Evidence(n=i + 1, text=h.text, offset=0, hit=h) for i, h in enumerate(hits)]


# The message that answers names the trip in another sentence; a later message repeats the
# question's words ("road trip") without answering it. The search ranks the answer first
# (its whole text matches); the sentence alone does not.
TRIP = [_hit(0, "Hey, the weekend away was insane! We were all freaked when my son got into an accident.", 0.70),
        _hit(1, "The kids loved it and it was a nice way to relax after the road trip.", 0.45)]
TRIP_Q = "What happened to son on the road trip?"  # the question without the person's name


def test_the_passage_the_search_ranks_first_is_quoted(real_embedder, monkeypatch):
    draft = extractive_draft(TRIP_Q, _evidence(TRIP), real_embedder)
    assert draft == "We were all freaked when my son got into an accident. [1]"
    # by sentence score alone the other message wins: the search score is what changed
    monkeypatch.setattr(answer, "HIT_PRIOR", 0.0)
    assert extractive_draft(TRIP_Q, _evidence(TRIP), real_embedder).endswith("after the road trip. [2]")


def test_a_search_score_does_not_lift_a_sentence_over_the_floors(real_embedder):
    # the best-ranked passage says nothing about the question: no sentence clears the
    # fallback floor, so the answer is still empty (declined), whatever the search score
    hits = [_hit(0, "Thanks so much, that is lovely to hear.", 0.95),
            _hit(1, "Good morning to you too.", 0.90)]
    assert extractive_draft("What did Nora paint for the exhibition?", _evidence(hits), real_embedder) == ""


GARDEN = [_hit(0, "I grow tomatoes and beans in my garden. The garden keeps me busy all summer.", 0.60),
          _hit(1, "My garden has tomatoes this year, and I grow herbs in my garden too.", 0.58)]
GARDEN_Q = "What does grow in her garden?"  # the question without the person's name


def test_an_answer_quotes_one_passage(real_embedder, monkeypatch):
    draft = extractive_draft(GARDEN_Q, _evidence(GARDEN), real_embedder)
    assert draft.startswith("I grow tomatoes and beans in my garden. [1]") and "[2]" not in draft
    # with a margin wide enough for the second message's sentence (its rank is ~0.05 below
    # the first's, as close as PAD_MARGIN itself), only the rule keeps it out
    monkeypatch.setattr(answer, "PAD_MARGIN", 0.2)
    draft = extractive_draft(GARDEN_Q, _evidence(GARDEN), real_embedder)
    assert draft.startswith("I grow tomatoes and beans in my garden. [1]") and "[2]" not in draft
    monkeypatch.setattr(answer, "ONE_PASSAGE", False)
    draft = extractive_draft(GARDEN_Q, _evidence(GARDEN), real_embedder)
    assert "[1]" in draft and "[2]" in draft


def test_notes_keep_a_second_passage(real_embedder):
    # the same two passages as notes: a linked note is how an entity question is answered
    # (tests/test_graph.py), so notes keep further passages within PAD_MARGIN, and their
    # search scores lend no rank (a note reached through a link scores low in search)
    notes = [_hit(i, h.text, h.score, speaker=None) for i, h in enumerate(GARDEN)]
    draft = extractive_draft(GARDEN_Q, _evidence(notes), real_embedder)
    assert "[1]" in draft and "[2]" in draft
    trip = [_hit(i, h.text, h.score, speaker=None) for i, h in enumerate(TRIP)]
    assert extractive_draft(TRIP_Q, _evidence(trip), real_embedder).startswith("The kids loved it")


def test_one_passage_may_give_several_sentences(real_embedder):
    hits = [_hit(0, "In my garden I grow tomatoes. Beans grow in my garden as well.", 0.60),
            _hit(1, "Gardening is a nice hobby for the summer.", 0.40)]
    draft = extractive_draft(GARDEN_Q, _evidence(hits), real_embedder)
    assert draft.count("[1]") == 2 and "[2]" not in draft


def test_why_is_not_answered_by_a_greeting_starting_with_since(real_embedder):
    hits = [_hit(0, "Hi! Since we last spoke I am still working on the dance studio and things are looking up!", 0.55,
                 "Jon"),
            _hit(1, "I'm starting a dance studio 'cause I'm passionate about dancing and love to share it.", 0.52,
                 "Jon")]
    draft = extractive_draft("Why did start his dance studio?", _evidence(hits), real_embedder)
    assert draft.endswith("[2]"), draft


# A reply that answers a question without its words: the question is in the message before.
BOOK = [_hit(0, "I loved the book, a true story about a fishing family.", 0.55),
        _hit(1, "It taught me to be patient and to learn to ask for help.", 0.50)]
BOOK_Q = "What did learn from the book?"


def test_a_reply_ranks_with_the_question_it_answers(real_embedder, monkeypatch):
    replies = {"c1": "Great read! What did you learn from it?"}
    assert extractive_draft(BOOK_Q, _evidence(BOOK), real_embedder).endswith("[1]")  # no replies known
    draft = extractive_draft(BOOK_Q, _evidence(BOOK), real_embedder, replies=replies)
    assert draft == "It taught me to be patient and to learn to ask for help. [2]"
    # the turn before must ask something: a statement there lends nothing
    assert extractive_draft(BOOK_Q, _evidence(BOOK), real_embedder,
                            replies={"c1": "I read that book last year."}).endswith("[1]")
    monkeypatch.setattr(answer, "REPLY_WEIGHT", 0.0)
    assert extractive_draft(BOOK_Q, _evidence(BOOK), real_embedder, replies=replies).endswith("[1]")


def test_replied_to_is_the_turn_before_by_someone_else(app, tmp_path):
    import json

    from cairn.store.graph import replied_to
    rows = [("b1", "Rosa", "Great read! What did you learn from it?"),
            ("b2", "Ivo", "It taught me to be patient."),
            ("b3", "Ivo", "And to ask for help."),
            ("b4", "Rosa", "Lovely.")]
    path = tmp_path / "c8.jsonl"
    path.write_text("".join(json.dumps({"conversation": "c8", "session": "s1", "id": i, "speaker": who,
                                        "time": f"2024-06-01T09:0{n}", "text": text}) + "\n"
                            for n, (i, who, text) in enumerate(rows)), encoding="utf-8")
    app.import_chat(path)
    ids = {r["source_id"]: r["id"] for r in app.conn.execute("SELECT id, source_id FROM chunks")}
    got = replied_to(app.conn, ids.values())
    assert got == {ids["b2"]: "Great read! What did you learn from it?", ids["b4"]: "And to ask for help."}
    # b1 starts the chat; b3 is Ivo's second message in a row: neither replies to anyone


def test_a_sentence_under_the_sentence_floor_competes_on_rank(real_embedder, monkeypatch):
    # the reply that answers scores under SENTENCE_FLOOR on its own words (it says "kids",
    # not "children", and no "handle"); another message's sentence clears it by repeating
    # "accident"
    hits = [_hit(0, "The kids were scared but we reassured them.", 0.70),
            _hit(1, "After the accident we drove home slowly.", 0.50)]
    question = "How did the children handle the accident?"
    draft = extractive_draft(question, _evidence(hits), real_embedder)
    assert draft == "The kids were scared but we reassured them. [1]"
    # when only sentences over SENTENCE_FLOOR compete (as before), the other message is quoted
    monkeypatch.setattr(answer, "FALLBACK_FLOOR", answer.SENTENCE_FLOOR)
    assert extractive_draft(question, _evidence(hits), real_embedder) == "After the accident we drove home slowly. [2]"


# A follow-up answer: the topic's message names the painting and the show; the reply to "What
# inspired you…?" names only the painting. (Search ranks the topic's message a little higher;
# with 0.50 for the reply the two ranks were within 0.01 of each other and the int8 embedder's
# floats, which differ between CPUs, decided.)
ART = [_hit(0, "Check out the painting I made for the art show!", 0.55),
       _hit(1, "I went to the harbour at dawn and wanted to capture that light in a painting.", 0.53)]
ART_Q = "What inspired painting for the art show?"


def test_a_reply_is_read_with_the_wh_question_it_answers(real_embedder, monkeypatch):
    asked = {"c1": "Those colours are so vivid! What inspired you to paint it?"}
    draft = extractive_draft(ART_Q, _evidence(ART), real_embedder, replies=asked)
    assert draft == "I went to the harbour at dawn and wanted to capture that light in a painting. [2]"
    # a yes/no question holds its own answer ("Flying the dragon kite?" - "Yes! It has a long
    # tail"): the reply's sentences are read alone
    polar = {"c1": "Those colours are so vivid! Did the sea inspire you to paint it?"}
    assert extractive_draft(ART_Q, _evidence(ART), real_embedder, replies=polar).endswith("[1]")
    monkeypatch.setattr(answer, "REPLY_CONTEXT", False)
    assert extractive_draft(ART_Q, _evidence(ART), real_embedder, replies=asked).endswith("[1]")
