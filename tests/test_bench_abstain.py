"""bench/answers_abstain.py: the logistic regression, the threshold choice and the figures,
on rows built here (no LoCoMo data, no models)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from answers_abstain import auc, choose, figures, fit, predict, _swapped  # noqa: E402

from cairn.model import Hit  # noqa: E402


def _rows(seed: int = 0) -> list[dict]:
    """Answered rows of conversations 1 and 2 whose first figure separates category 5 (x ~ +2)
    from answerable (x ~ -2), plus declined rows that carry no figures."""
    rng = np.random.default_rng(seed)
    rows = []
    for conv in (1, 2):
        for i in range(40):
            unans = i < 10
            x = [float(rng.normal(2.0 if unans else -2.0, 0.5)), float(rng.normal())]
            rows.append({"id": f"{conv}-{i}", "conversation": conv, "category": 5 if unans else 1,
                         "swapped": False, "abstain": False, "x": x})
        rows.append({"id": f"{conv}-declined", "conversation": conv, "category": 5, "swapped": False,
                     "abstain": True, "x": None})
    return rows


def test_fit_learns_the_separating_figure_and_not_the_noise():
    rows = _rows()
    X = np.array([r["x"] for r in rows if r["x"] is not None])
    y = np.array([float(r["category"] == 5) for r in rows if r["x"] is not None])
    model = fit(X, y, np.ones(len(y)))
    beta = model[2]
    assert beta[0] > 1.0 and abs(beta[1]) < 0.5 * beta[0]
    p = predict(model, X)
    assert p[y == 1].min() > 0.5 > p[y == 0].max()


def test_threshold_declines_most_up_to_the_wrong_decline_cap_and_counts_the_old_declines():
    rows = _rows()
    threshold, oof = choose(rows)
    assert set(oof) == {r["id"] for r in rows if r["x"] is not None}  # every answered row scored out of fold
    before, after = figures(rows, {1, 2}, oof, threshold)
    assert before == (2, 22, 0, 60)  # the declined rows count as declined already
    # every category-5 row declined, and as many answerable ones as the cap allows (0.08 x 60 -> 4):
    # the lowest threshold within the cap (declines maximised, module doc)
    assert after == (22, 22, 4, 60)
    assert auc(rows, {1, 2}, oof) == (1.0, 20, 60)


def test_swapped_question_names_the_other_participant():
    def hit(speaker: str) -> Hit:
        return Hit(id=speaker, note_id="n", source_id="D1:1", title="t", path="p", source="s", snippet="x",
                   text="x", start=0, end=1, page=None, score=0.5, signals={}, speaker=speaker)
    rec = {"question": "What did Caroline research?", "inputs": {"hits": [hit("Caroline"), hit("Melanie")]}}
    assert _swapped(rec) == "What did Melanie research?"
    assert _swapped(rec, "What do Caroline and Melanie like?") is None
    assert _swapped({"question": "What did Caroline do?", "inputs": {"hits": [hit("Caroline")]}}) is None
