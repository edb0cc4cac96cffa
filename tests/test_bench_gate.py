"""bench/answers_gate.py: the threshold chosen out of fold on the tune half and the figures, on
rows built here (no LoCoMo data, no models)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from answers_gate import FEATURES, choose, figures  # noqa: E402


def _rows(seed: int = 0) -> list[dict]:
    """Rows of conversations 1-3 whose first figure separates category 5 (~ +1) from answerable
    (~ -1) with overlap, the others noise; one answerable row per conversation declined anyway."""
    rng = np.random.default_rng(seed)
    rows = []
    for conv in (1, 2, 3):
        for i in range(60):
            unans = i < 15
            x = [float(rng.normal(1.0 if unans else -1.0, 0.8))] + [float(v) for v in rng.normal(size=len(FEATURES) - 1)]
            rows.append({"id": f"{conv}-{i}", "conversation": conv, "category": 5 if unans else 1, "abstain": False,
                         "x": x, "cited": ["g"], "evidence": ["g"] if i % 2 else ["other"]})
        rows.append({"id": f"{conv}-d", "conversation": conv, "category": 1, "abstain": True, "x": None,
                     "cited": [], "evidence": ["g"]})
    return rows


def test_the_threshold_keeps_tune_wrong_declines_under_the_cap_and_declines_unanswerable_ones():
    rows = _rows()
    t, oof = choose(rows)
    assert set(oof) == {r["id"] for r in rows if r["conversation"] in (1, 2) and r["x"] is not None}
    ans = [r for r in rows if r["conversation"] in (1, 2) and r["category"] != 5]
    wrong = sum(r["abstain"] or oof.get(r["id"], 0.0) >= t for r in ans)
    assert wrong <= 0.08 * len(ans)
    c5 = [r for r in rows if r["conversation"] in (1, 2) and r["category"] == 5]
    assert sum(oof[r["id"]] >= t for r in c5) > len(c5) / 2  # the separating figure is learned
    lower = max(p for p in oof.values() if p < t)  # the next threshold down breaks the cap
    assert sum(r["abstain"] or oof.get(r["id"], 0.0) >= lower for r in ans) > 0.08 * len(ans)


def test_figures_count_declines_and_all_gold_answers():
    rows = [r for r in _rows() if r["conversation"] == 3]
    assert figures(rows, set()) == "0.000 (0/15) / 0.022 (1/46) / 0.511 (23/45)"
    declined = {r["id"] for r in rows if r["category"] == 5} | {"3-15"}
    assert figures(rows, declined) == "1.000 (15/15) / 0.043 (2/46) / 0.500 (22/44)"
