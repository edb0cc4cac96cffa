"""Session 29 (issue 33): a chat rarely writes the value asked as a numeral ("How many hikes has Ines been on?" / "I went
hiking up the ridge again"). With no sentence holding a value of the kind asked (`Asked.sentence_kind`), the extractive
answer quotes the best sentence without one when it clears SENTENCE_FLOOR (answer/types.py `KIND_FREE`); under that
floor, and with the switch off, it still declines. Chats written for these tests."""

from __future__ import annotations

import cairn.answer as answer
from cairn.answer import answer_question, extractive_draft, types
from cairn.answer.verify import Evidence
from cairn.model import Hit
from cairn.search import asked as QT


def _hit(i: int, text: str, score: float, speaker: str | None = "Ines") -> Hit:
    return Hit(id=f"c{i}", note_id=f"n{i}", source_id=f"m{i}", title="chat", path=f"chat/{i}.md", source=None,
               snippet=text[:80], text=text, start=0, end=len(text), page=None, score=score,
               signals={"semantic": 0.6, "keyword": 0.5}, speaker=speaker)


HIKES = [_hit(0, "I went hiking up the ridge trail again with my sister, the views were stunning.", 0.7),
         _hit(1, "Thanks for the recipe, the soup turned out lovely and warm.", 0.4)]
HIKES_Q = "How many hikes has Ines been on?"


def test_a_count_asked_of_a_chat_without_numerals_quotes_the_best_sentence(real_embedder, monkeypatch):
    assert QT.asked(HIKES_Q).sentence_kind == "quantity"  # a sentence must hold a number: none does
    ans = answer_question(HIKES_Q, HIKES, real_embedder, check_answerability=False)
    assert ans.verdict != "abstain" and "ridge trail" in ans.answer and ans.citations[0]["source_id"] == "m0"
    monkeypatch.setattr(types, "KIND_FREE", False)  # the old answerer: no sentence holds a number, declined
    off = answer_question(HIKES_Q, HIKES, real_embedder, check_answerability=False)
    assert off.verdict == "abstain" and off.problems == ["no supporting sentence"]


def test_the_fallback_needs_the_sentence_floor(real_embedder):
    # "Long time no see!" is the best sentence without a number, but far under SENTENCE_FLOOR: still declined
    hits = [_hit(0, "Long time no see, how have you been lately?", 0.7), _hit(1, "Good morning to you too.", 0.6)]
    ans = answer_question("For how long has Ines had her snakes?", hits, real_embedder, check_answerability=False)
    assert ans.verdict == "abstain" and ans.problems == ["no supporting sentence"]


def test_a_sentence_with_the_kind_asked_is_still_preferred(real_embedder):
    hits = HIKES + [_hit(2, "I have been on 12 hikes since the spring, the ridge trail was my favourite.", 0.5)]
    ans = answer_question(HIKES_Q, hits, real_embedder, check_answerability=False)
    assert "12 hikes" in ans.answer and [c["source_id"] for c in ans.citations] == ["m2"]


def test_extractive_draft_floor_argument(real_embedder):
    ev = [Evidence(n=1, text=h.text, offset=0, hit=h) for h in HIKES]
    q = "What did Ines do with her sister?"
    assert extractive_draft(q, ev, real_embedder).endswith("[1]")  # FALLBACK_FLOOR by default
    assert extractive_draft(q, ev, real_embedder, floor=1.01) == ""  # no sentence scores over 1
    assert extractive_draft(q, ev, real_embedder, floor=None) == extractive_draft(q, ev, real_embedder,
                                                                                   floor=answer.FALLBACK_FLOOR)
