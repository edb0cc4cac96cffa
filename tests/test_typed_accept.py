"""The typed answer's candidate trace and bench/typed_accept.py's leave-one-set-out check (typed26).

typed.TRACE, when a list, receives each typed draft's candidates (score and features) and the one chosen; off (None)
nothing is recorded. The bench's features (margin over another value's candidate, ...) and its leave-one-set-out
fitting are checked on a note and on rows written here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cairn.answer import typed, typed_of_note

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import typed_accept  # noqa: E402

NOTE = "Installed 3 May 2019.\nLast serviced 4 June 2025.\nNext service due 4 June 2026.\n"


@pytest.fixture
def trace(monkeypatch):
    monkeypatch.setattr(typed, "TRACE", [])
    return typed.TRACE


def test_the_trace_records_every_candidate_and_the_chosen_one(real_embedder, trace):
    t = typed_of_note("when is the boiler service due?", "Boiler", NOTE, real_embedder)
    assert "2026" in t.text and len(trace) == 1
    kind, scored, n, text = trace[0]
    assert kind == "date" and (n, text) == (t.n, t.text) and len(scored) == 3
    assert all(len(f) == 7 and 0.0 <= f[0] <= 1.0 for f in (typed_accept.shares(raw, t) for _, t, _, raw in scored))
    best = max(scored, key=lambda x: x[2])
    assert best[1] == t.text  # the chosen value scores highest here


def test_no_trace_when_off(real_embedder, monkeypatch):
    monkeypatch.setattr(typed, "TRACE", None)
    assert typed_of_note("when is the boiler service due?", "Boiler", NOTE, real_embedder) is not None
    assert typed.TRACE is None


def test_signals_margin_over_another_value(real_embedder, trace):
    typed_of_note("when is the boiler service due?", "Boiler", NOTE, real_embedder)
    f = typed_accept.signals(*trace[0])
    assert len(f) == len(typed_accept.FEATURES) - 2  # all but nearness and the gap, which the replay adds
    assert 0.0 < f[7] <= 1.0 and f[9] == 1.0  # a positive margin over the other dates; a date asked
    trace.clear()
    typed_of_note("when is the boiler service due?", "Boiler", "Next service due 4 June 2026.", real_embedder)
    f = typed_accept.signals(*trace[0])
    assert f[7] == 1.0 and f[8] == 0.0  # no other value: the whole margin, none close


def _row(s, right, margin, gap=0.0, answerable=True):
    feats = [1.0] * 7 + [margin, 0.0, 0.0, 0.0, 1.0, gap]
    assert len(feats) == len(typed_accept.FEATURES)
    outcome = ("right" if right else "wrong") if answerable else "answered"
    return {"set": s, "expect": ["x"] if answerable else None, "verdict": "abstain" if gap else "pass",
            "outcome": outcome if not gap else ("wrong" if answerable else "declined"), "signals": feats,
            "other_ok": 1, "draft": "right" if right else outcome}


def test_a_gate_learned_on_some_sets_is_scored_on_the_one_left_out():
    # in every set, answers with a small margin are wrong: the gate learned on the others declines them
    rows = [_row(s, right=m > 0.5, margin=m, answerable=m > 0.5 or i % 2 == 0)
            for s in ("a", "b", "c") for i, m in enumerate([0.9, 0.8, 0.7, 0.1, 0.2, 0.9, 0.05])]
    cols = [typed_accept.FEATURES.index("margin")]
    rules = {s: typed_accept.figures([x for x in rows if x["set"] == s]) for s in "abc"}
    learned = typed_accept.loso(rows, cols, "decline")
    for s in "abc":
        assert learned[s][1] < rules[s][1] and learned[s][0] == rules[s][0], (learned[s], rules[s])
    w, b, at = typed_accept.fit_on(rows, cols, "decline")
    assert w[0] > 0 and 0.0 < at < 1.0


def test_figures_count_a_gap_as_declined_and_a_kept_wrong_as_a_wrong_pass():
    rows = [_row("a", True, 1.0), _row("a", False, 0.1), _row("a", False, 0.9, gap=1.0, answerable=False)]
    assert typed_accept.figures(rows) == (0.5, pytest.approx(1 / 3), 1.0)
    n = len(typed_accept.FEATURES)
    keep = typed_accept.gate([0.0] * n, 0.0, 0.5, list(range(n)), "replace")  # p = 0.5: every answer kept
    assert typed_accept.figures(rows, keep) == (0.5, pytest.approx(2 / 3), 0.0)


def test_nearness_is_one_when_the_line_holds_every_asked_word(real_embedder):
    q = "how much is a kids passport"
    assert typed_accept.nearness(q, "Kids passport fee: £61.50", real_embedder) == 1.0
    near = typed_accept.nearness(q, "Child passport fee: £61.50", real_embedder)
    assert 0.0 < near < 1.0
