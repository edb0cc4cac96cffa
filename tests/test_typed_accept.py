"""A typed value passes only when the learned acceptance score says it answers (typed26, answer/fit.py `accepts`).

The weights are refitted here from the feature table bench/typed_accept.py wrote (bench/fixtures/typed_accept.tsv):
the test fails when answer/fit.py's constants drift from what the script fits. The behaviour is checked on notes
written here: a value that another line's value rivals is declined with pointers, with the gate off it passes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from cairn.answer import answer_question, checks, fit, typed_of_note
from cairn.model import Hit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import typed_accept  # noqa: E402


def _hit(text: str, title: str) -> Hit:
    return Hit(id="c1", note_id="n1", source_id=None, title=title, path="p1.md", source=None, snippet=text, text=text,
               start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})


def test_the_shipped_constants_are_what_the_bench_fits():
    rows = typed_accept.load_fixture()
    assert len({r["set"] for r in rows}) >= 12 and sum(r["signals"] is not None for r in rows) >= 200
    w, b, at = typed_accept.fit_on(rows)
    assert np.allclose(w, fit.ACCEPT_WEIGHTS, atol=1e-3), (w.tolist(), fit.ACCEPT_WEIGHTS)
    assert b == pytest.approx(fit.ACCEPT_BIAS, abs=1e-3) and at == pytest.approx(fit.ACCEPT_AT, abs=1e-3)
    assert 0.0 < fit.ACCEPT_AT < 1.0  # the gate does something


def test_the_shipped_gate_lowers_wrong_passes_on_the_fixture():
    rows = typed_accept.load_fixture()
    keep = typed_accept.gate(fit.ACCEPT_WEIGHTS, fit.ACCEPT_BIAS, fit.ACCEPT_AT)
    before, after = typed_accept.figures(rows), typed_accept.figures(rows, keep)
    assert after[1] < before[1] and typed_accept.net(after) > typed_accept.net(before), (before, after)


def test_signals_of_a_typed_value(real_embedder):
    note = "Installed 3 May 2019.\nLast serviced 4 June 2025.\nNext service due 4 June 2026.\n"
    t = typed_of_note("when is the boiler service due?", "Boiler", note, real_embedder)
    assert "2026" in t.text and len(t.signals) == len(fit.ACCEPT_WEIGHTS) == 8
    assert t.signals[5] > 0  # its margin over the other dates
    alone = typed_of_note("when is the boiler service due?", "Boiler", "Next service due 4 June 2026.", real_embedder)
    assert alone.signals[5] == 1.0 and alone.signals[6] == 0.0  # no other value: the whole margin, none close


def test_accepts_is_a_probability_rising_with_the_margin():
    base = [1.0, 1.0, 0.5, 0.5, 1.0, 0.0, 0.0, 0.0]
    low, high = fit.accepts(base), fit.accepts(base[:5] + [1.0] + base[6:])
    assert 0.0 < low < high < 1.0


def test_a_rivalled_value_is_declined_and_passes_with_the_gate_off(real_embedder, monkeypatch):
    q = "what date is the meeting?"
    note = "Meeting notes\nThe meeting was moved from 3 March to 10 March.\nRoom booked on 1 March.\n"
    monkeypatch.setattr(fit, "ACCEPT_AT", 0.999)  # a gate no value clears: declined with pointers
    ans = answer_question(q, [_hit(note, "Committee")], real_embedder)
    assert ans.verdict == "abstain" and ans.pointers, ans.answer
    assert ans.checks == {"support": True, "type": True, "subject": False, "completeness": True}
    monkeypatch.setattr(checks, "ACCEPT", False)
    ans = answer_question(q, [_hit(note, "Committee")], real_embedder)
    assert ans.verdict == "pass", ans.answer
