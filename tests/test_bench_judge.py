"""bench/answers_judge.py: the pair figures of a question against a quote (the packaged
embedder), and the threshold choice with the own-document pairs always in the fit."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from answers_judge import PAIR, choose, figures, pair_x  # noqa: E402


def test_pair_figures_read_the_quote_against_the_question(real_embedder):
    """The line holding the asked value scores above another line of the same note on the
    question's similarity, word alignment, head and type figures; a quote in the first person
    by someone other than the person asked about is marked."""
    note = "# Vet record\n\nVet's phone: 01632 960 118\nWeight at last visit: 12.4 kg\n"
    q = "What is the vet's phone number?"
    good = dict(zip(PAIR, pair_x(q, "Vet's phone: 01632 960 118", note, real_embedder)))
    bad = dict(zip(PAIR, pair_x(q, "Weight at last visit: 12.4 kg", note, real_embedder)))
    assert len(good) == len(PAIR)
    for name in ("cos_quote", "align", "type_holds"):
        assert good[name] > bad[name], name
    chat = dict(zip(PAIR, pair_x("What did Ana paint?", "I painted a lake at dawn.", "I painted a lake at dawn.",
                                 real_embedder, person="Ana", speaker="Ben", participants=("Ana", "Ben"))))
    assert chat["first_person_other"] == 1.0 and chat["by_person"] == 0.0


def test_threshold_from_the_tune_half_with_own_pairs_in_every_fold():
    rng = np.random.default_rng(0)
    rows = []
    for conv in (1, 2):
        for i in range(40):
            unans = i < 10
            x = [float(rng.normal(2.0 if unans else -2.0, 0.5))] + [0.0] * (len(PAIR) - 1)
            rows.append({"id": f"{conv}-{i}", "source": "locomo", "conversation": conv,
                         "category": 5 if unans else 1, "swapped": False, "abstain": False, "x": x})
    for i in range(20):  # own pairs: same direction, never scored
        x = [2.0 if i < 10 else -2.0] + [0.0] * (len(PAIR) - 1)
        rows.append({"id": f"own-{i}", "source": "own", "conversation": 0, "category": 5 if i < 10 else 0,
                     "swapped": False, "abstain": False, "x": x})
    t, oof = choose(rows)
    assert not any(k.startswith("own") for k in oof)
    before, after = figures(rows, {1, 2}, oof, t)
    assert before == (0, 20, 0, 60) and after[0] == 20 and after[2] <= 0.08 * 60


def test_conditional_logit_learns_which_candidate_is_gold():
    """bench/answers_rank.py: the weights rank the gold candidate of each question first when
    one figure marks it (the second is noise); the shipped choice is the row marked "first"."""
    from answers_rank import RANK, fit, top_gold
    rng = np.random.default_rng(1)
    rows = []
    for i in range(60):
        n = 4
        gold = np.zeros(n)
        g = int(rng.integers(n))
        gold[g] = 1.0
        X = np.zeros((n, len(RANK)))
        X[:, 0], X[:, 1] = rng.normal(0, 0.3, n) + 2.0 * gold, rng.normal(0, 1, n)
        X[0, RANK.index("first")] = 1.0  # the shipped choice
        rows.append({"X": X, "gold": gold})
    w = fit(rows, [0, 1])
    assert w[0] > 1.0 and abs(w[1]) < 0.5 * w[0]
    assert top_gold(rows, w, [0, 1])[0] >= 57
    assert top_gold(rows, None, [])[0] == sum(r["gold"][0] for r in rows)
