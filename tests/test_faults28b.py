"""faults28b: faults a new user found in `cairn ask` in session 28, each with notes written for these tests: a
money question declined because its verb ("charge") is not in the note; a note of one word repeated quoted as an
answer; citation numbers with gaps ([2], [6]) where only the cited sources are shown; input with no word at all
answered differently ("???" vs "🤔")."""

from __future__ import annotations

import re

import pytest

from cairn.answer import CHIT_CHAT_REPLY, relevance
from cairn.answer.verify import Evidence, citations, verify
from cairn.model import Hit
from conftest import notes_app

GLAZIER = "The glazier, Tomasz Wrona, replaced two cracked panes on 19 June for £140."
NOTES = {"windows.md": f"# Window repair\n\n{GLAZIER}\n",
         "buffalo.md": "# Buffalo\n\n" + "buffalo " * 40 + "\n",
         "insurance.md": "# Insurance\n\nThe car is due for its MOT in May.\n\n"
                         "Our home insurer is Harbourline Mutual, policy HM-2231.\n"}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("faults28b"), NOTES, real_embedder) as app:
        yield app


def _hit(n: int, text: str) -> Hit:
    return Hit(f"c{n}", "", None, f"Note {n}", f"notes/n{n}.md", None, text[:200], text, 0, len(text), None, 1.0, {})


def test_a_verb_naming_the_money_asked_is_no_word_the_note_must_hold():
    hit = _hit(1, GLAZIER)  # no cosine: the share of the question's words alone
    for q in ("How much did the glazier charge?", "How much did I pay the glazier?", "What do I owe the glazier?"):
        assert relevance(q, hit, "money") >= 0.45, q  # "charge", "pay", "owe" count for nothing
    assert relevance("How much did the glazier charge?", hit) == pytest.approx(0.3)  # no kind: "charge" counts


@pytest.mark.parametrize("question", ["How much did the glazier charge?", "How much did the glazier charge me?",
                                      "How much did I pay the glazier?"])
def test_money_questions_about_the_glazier_are_answered(home, question):
    ans = home.ask(question)
    assert ans.verdict == "pass" and "£140" in ans.answer, (ans.answer, ans.problems)
    assert not [p for p in ans.problems if "charge" in p or "'pay'" in p], ans.problems  # no "no note contains 'charge'"


def test_a_quote_of_one_repeated_word_is_declined_saying_why(home):
    ans = home.ask("What does buffalo mean?")
    assert ans.verdict == "abstain" and not ans.citations, ans.answer
    assert "only repeats the word 'buffalo'" in ans.answer
    assert "declined: the passage found only repeats the word 'buffalo'" in ans.problems


def test_cited_sources_are_numbered_from_one_in_text_and_sources():
    ev = [Evidence(n, t, 0, _hit(n, t)) for n, t in ((6, "Our home insurer is Harbourline Mutual."),
                                                      (2, "The policy number is HM-2231."),
                                                      (3, "The boiler was serviced in March."))]
    ver = verify("Our home insurer is Harbourline Mutual [6]. The policy number is HM-2231 [2].", ev)
    assert ver.verdict == "pass"
    assert ver.answer_text(True) == "Our home insurer is Harbourline Mutual [1]. The policy number is HM-2231 [2]."
    cites = citations(ver, ev)
    assert [(c["n"], c["chunk_id"]) for c in cites] == [(1, "c6"), (2, "c2")]
    assert ver.answer_text() == "Our home insurer is Harbourline Mutual [6]. The policy number is HM-2231 [2]."


def test_an_answer_cites_only_numbers_its_sources_list_from_one(home):
    ans = home.ask("Who is the insurer?")
    assert ans.verdict == "pass", ans.answer
    shown = sorted({int(n) for n in re.findall(r"\[(\d+)\]", ans.answer)})
    assert shown == [c["n"] for c in ans.citations] == list(range(1, len(ans.citations) + 1))


def test_input_with_no_word_gets_the_same_clear_reply(tmp_path, real_embedder):
    with notes_app(tmp_path, {"windows.md": f"# Glazier\n\n{GLAZIER}\n"}, real_embedder) as app:
        replies = {q: app.ask(q) for q in ("???", "🤔", "…", "!?")}  # "🤔" was given the nearest notes too
    for q, ans in replies.items():
        assert ans.answer == CHIT_CHAT_REPLY and ans.abstained and not ans.pointers, (q, ans.answer)
