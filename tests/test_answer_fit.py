"""An untyped answer passes only when its quote answers (typed22, issue 33), and the types added
for who / temperature / who do I ring.

Fixtures written here (a pupil's report, a hot-tub manual, a campsite's rules): a quote that
names the pupil but not the subject asked, a temperature asked as "temp", a phone number asked
as "who do I ring". Each behaviour has a switch; with it off the old answer comes back.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from cairn.answer import answer_question, checks, fit
from cairn.search import asked as QT
from cairn.model import Hit

REPORT = """Pupil: Ottoline Brisk
Ottoline is a cheerful member of the class who always helps others.
Effort is graded from 1 to 4.
"""

HOT_TUB = """Hot tub notes
Fill with the hose through the filter housing.
Set the water to 38C for everyday use; never above 40C.
Change the filter every month.
"""

CAMPSITE = """Pennyfold Farm campsite
Pitches are on the lower field; the upper field is for tents only.
Quiet after 10pm, please.
If anything goes wrong, ring the warden on 07700 900 431.
"""


def _hit(text: str, title: str, i: int = 1) -> Hit:
    return Hit(id=f"c{i}", note_id=f"n{i}", source_id=None, title=title, path=f"p{i}.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})


def _ask(question, text, title, embedder):
    return answer_question(question, [_hit(text, title)], embedder)


def test_the_scorer_tells_an_answering_line_from_its_note_s_others(real_embedder):
    q = "how did ottoline get on in maths"
    a = QT.asked(q)
    said = fit.answers(q, a, "Maths: working at the expected standard; Ottoline knows her tables.", "report", real_embedder)
    other = fit.answers(q, a, "Ottoline is a cheerful member of the class who always helps others.", "report",
                        real_embedder)
    assert said > fit.THRESHOLD > other, (said, other)
    f = fit.features(q, a, "Ottoline is a cheerful member of the class.", "report", real_embedder)
    assert len(f) == len(fit.WEIGHTS) == 8 and all(0.0 <= x <= 1.0001 for x in f)
    assert f[3] == 0.0  # the name is the subject: the attribute asked ("maths") is not held


def test_an_untyped_quote_that_does_not_answer_is_declined_with_pointers(real_embedder, monkeypatch):
    ans = _ask("how did ottoline get on in maths", REPORT, "school report", real_embedder)
    assert ans.verdict == "abstain", ans.answer
    assert ans.checks == {"support": True, "type": True, "subject": False, "completeness": True}
    assert "no quoted line answers" in ans.answer.lower() and ans.pointers
    monkeypatch.setattr(checks, "UNTYPED_FIT", False)
    monkeypatch.setattr(checks, "GATE", False)  # (wrongpass29: the acceptance gate declines it too)
    ans = _ask("how did ottoline get on in maths", REPORT, "school report", real_embedder)
    assert ans.verdict == "pass" and "cheerful" in ans.answer  # the old wrong pass


def test_an_untyped_quote_that_answers_passes(real_embedder):
    note = REPORT + "Maths: working towards the expected standard; Ottoline is learning her tables.\n"
    ans = _ask("how did ottoline get on in maths", note, "school report", real_embedder)
    assert ans.verdict == "pass" and "working towards" in ans.answer, ans.answer
    assert ans.checks == {"support": True, "type": True, "subject": True, "completeness": True}


def test_temp_and_how_hot_ask_a_temperature(real_embedder):
    for q in ("what temp for the hot tub", "how hot should the hot tub be"):
        a = QT.asked(q)
        assert a.kind == "number" and a.units and "temp" not in a.head, (q, a)
    ans = _ask("what temp for the hot tub", HOT_TUB, "Hot tub", real_embedder)
    assert ans.verdict == "pass" and "38C" in ans.answer, ans.answer


def test_who_do_i_ring_asks_a_phone_number(real_embedder):
    a = QT.asked("who do i ring at the campsite")
    assert a.kind == "phone" and "ring" not in a.head + a.subject, a
    assert QT.asked("number to ring when the wifi is down").kind == "phone"
    ans = _ask("who do i ring at the campsite", CAMPSITE, "Pennyfold Farm campsite",
               real_embedder)
    assert ans.verdict == "pass" and "07700 900 431" in ans.answer, ans.answer


def test_the_scorer_s_weights_are_the_ones_fitted_on_the_pairs(real_embedder):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import answer_pairs
    train, held = answer_pairs.split()
    assert len(answer_pairs.pairs(train)) >= 300 and len(answer_pairs.pairs(held)) >= 100
    X, y = answer_pairs.matrix(answer_pairs.pairs(train), real_embedder)
    w, b = answer_pairs.train(X, y)
    assert np.allclose(w, fit.WEIGHTS, atol=0.15) and b == pytest.approx(fit.BIAS, abs=0.15)
    # the held-out notes: the best-scored line answers most questions
    assert answer_pairs.top1(held, real_embedder, np.array(fit.WEIGHTS), fit.BIAS) >= 0.7

