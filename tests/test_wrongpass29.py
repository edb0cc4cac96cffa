"""The learned acceptance gate (wrongpass29, issue 33): every answer quoted from notes passes only when
answer/fit.py `accepts` scores it at least fit.GATE_THRESHOLD (checks.GATE); else declined with pointers.

Fixtures written here (a spare room's note, a boiler's note). With the gate off the old wrong pass comes back.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cairn.answer import answer_question, checks, fit
from cairn.model import Hit
from cairn.search import asked as QT

SPARE_ROOM = "Spare room\nThe spare room was painted in March.\nThe bed is a small double from the old house.\n"
BOILER = "Boiler\nThe boiler was serviced on 3 March 2026 by Hallam Heating.\nNext service due 3 March 2027.\n"


def _hit(text: str, title: str) -> Hit:
    return Hit(id="c1", note_id="n1", source_id=None, title=title, path="p1.md", source=None, snippet=text[:200],
               text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.5})


def test_a_quote_the_gate_scores_low_is_declined_with_pointers(real_embedder, monkeypatch):
    q = "what colour is the spare room carpet"
    ans = answer_question(q, [_hit(SPARE_ROOM, "Spare room")], real_embedder)
    assert ans.verdict == "abstain" and "no quoted line answers" in ans.answer.lower(), ans.answer
    assert ans.checks == {"support": True, "type": True, "subject": False, "completeness": True}
    assert ans.pointers and ans.to_json()["label"] == "your notes don't say"
    monkeypatch.setattr(checks, "GATE", False)  # the old code: the painting date passed as the carpet's colour
    ans = answer_question(q, [_hit(SPARE_ROOM, "Spare room")], real_embedder)
    assert ans.verdict == "pass" and "painted" in ans.answer, ans.answer


def test_a_quote_that_answers_passes_the_gate_with_every_check(real_embedder):
    ans = answer_question("when is the boiler service due", [_hit(BOILER, "Boiler")], real_embedder)
    assert ans.verdict == "pass" and "3 March 2027" in ans.answer, ans.answer
    assert ans.checks == {"support": True, "type": True, "subject": True, "completeness": True}


def test_the_trace_keeps_what_the_gate_read(real_embedder, monkeypatch):
    seen: list = []
    monkeypatch.setattr(checks, "GATE_TRACE", seen)
    answer_question("what colour is the spare room carpet", [_hit(SPARE_ROOM, "Spare room")], real_embedder)
    feats, score, declined = seen[-1]
    assert declined and score < fit.GATE_THRESHOLD and score == fit.accepts(feats)
    monkeypatch.setattr(checks, "GATE", False)
    answer_question("what colour is the spare room carpet", [_hit(SPARE_ROOM, "Spare room")], real_embedder)
    assert seen[-1][2] is False  # read, not declined, with the gate off


def test_gate_features_are_named_bounded_and_weighted(real_embedder):
    q = "when is the boiler service due"
    a = QT.asked(q)
    for others in ([], ["The boiler was serviced on 3 March 2026 by Hallam Heating."]):  # no other line: margin kept
        f = fit.gate_features(q, a, [("Next service due 3 March 2027.", "Boiler")], True, 0.5, 0.2, 1, BOILER,
                              real_embedder, others)
        assert len(f) == len(fit.GATE_FEATURES) and all(-1e-6 <= x <= 1.0 + 1e-6 for x in f), f
    assert len(fit.GATE_WEIGHTS) == len(fit.gate_vector(f)) == 2 * len(fit.GATE_FEATURES)
    assert 0.0 < fit.accepts(f) < 1.0
    assert fit.gate_vector([0.5] * 8 + [0.0] + [0.5] * 11)[20:] == [0.0] * 20  # not typed: no typed weights


def test_the_bench_scores_a_gate_by_its_figures():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import accept_gate as G
    rows = [{"set": "a", "expect": ["x"], "verdict": "pass", "outcome": "right", "features": [0.9]},
            {"set": "a", "expect": ["x"], "verdict": "pass", "outcome": "wrong", "features": [0.1]},
            {"set": "a", "expect": None, "verdict": "pass", "outcome": "answered", "features": [0.2]},
            {"set": "a", "expect": None, "verdict": "abstain", "outcome": "declined", "features": None}]
    assert G.figures(rows) == (1, 2, 2, 4, 1, 2)
    assert G.figures(rows, lambda x: x["features"][0] > 0.5) == (1, 2, 0, 4, 2, 2)
