"""The person check's learned decision (answer/answerability.py WEIGHTS, BIAS) is what
bench/answerability_fit.py fits on its recorded rows (bench/answerability_rows.json: figures Cairn
computed on LoCoMo's tune half, no text of the data set, and on its name-swapped questions): the test
fails when the weights in code drift from the rows, or the rows name other features than the code computes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from cairn.answer import answerability as A

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
import answerability_fit as F  # noqa: E402


def test_weights_in_code_are_the_fit_of_the_rows():
    conv, y, x, aug = F.load()
    assert x.shape[1] == len(A.FEATURES) == len(A.WEIGHTS)
    assert json.loads(F.ROWS.read_text())["features"] == list(A.FEATURES)
    assert set(conv) == F.TUNE  # fitted on the tune half only (its swapped questions too)
    assert 0 < aug.sum() < len(aug)
    w, b = F.fit(x, y)
    assert np.allclose(w, A.WEIGHTS, atol=0.002) and b == pytest.approx(A.BIAS, abs=0.002)


def test_the_fit_separates_its_rows_better_than_chance():
    conv, y, x, aug = F.load()
    y, x = y[aug == 0], x[aug == 0]  # the data set's own questions
    p = 1 / (1 + np.exp(-(x @ np.array(A.WEIGHTS) + A.BIAS)))
    dec = p >= A.THRESHOLD
    caught = (dec & (y == 1)).sum() / y.sum()
    false = (dec & (y == 0)).sum() / (y == 0).sum()
    assert caught >= 0.8 and false <= 0.1, (caught, false)


def test_fit_recovers_a_known_separation():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] - x[:, 1] > 0).astype(float)
    w, b = F.fit(x, y, lam=0.1)
    assert w[0] > 1 and w[1] < -1 and abs(b) < 0.5


def test_features_names_the_missing_replay(tmp_path, capsys):
    with pytest.raises(SystemExit):
        F.main(["features", str(tmp_path / "none.pkl")])
    assert "no such file" in capsys.readouterr().err


def test_the_l2_strength_is_the_cross_validated_choice():
    conv, y, x, aug = F.load()
    assert F.select_lambda(conv, y, x, aug) == F.LAMBDA
    caught, false = F.loco(conv, y, x, F.LAMBDA, aug)
    weaker = F.loco(conv, y, x, F.LAMBDAS[0], aug)
    own = y[aug == 0]
    assert caught / own.sum() - false / (own == 0).sum() >= weaker[0] / own.sum() - weaker[1] / (own == 0).sum()


def test_the_swapped_rows_help_out_of_sample():
    # session 28: fitting on the swapped questions too declines fewer answerable ones of the left-out conversation,
    # and no fewer unanswerable ones, than the original rows alone at their own chosen strength
    conv, y, x, aug = F.load()
    own = aug == 0
    alone = F.loco(conv[own], y[own], x[own], F.select_lambda(conv[own], y[own], x[own]))
    both = F.loco(conv, y, x, F.LAMBDA, aug)
    assert both[0] >= alone[0] and both[1] < alone[1], (alone, both)


def test_swap_name_puts_the_other_participant_in():
    assert F.swap_name("What did Caroline realize after her charity race?", "Caroline", "Melanie") == \
        "What did Melanie realize after her charity race?"
    assert F.swap_name("What is Jon's job?", "Gina", "Jon") == "What is Gina's job?"
    assert F.swap_name("Did Jonathan call Gina?", "Jon Smith", "Ann") is None  # a whole word only: nobody named
    assert F.swap_name("When did Jon and Gina meet?", "Gina", "Jon") is None  # both named
    assert F.swap_name("When did Jon meet?", "Jon", "") is None  # no second participant


def test_loco_never_scores_the_generated_rows(tmp_path):
    rng = np.random.default_rng(7)
    x = rng.normal(size=(120, 2))
    y = (x[:, 0] > 0).astype(float)
    conv = np.repeat([1, 2], 60)
    rows = [[int(c), int(t)] + [round(float(v), 4) for v in r] for c, t, r in zip(conv, y, x)]
    path = tmp_path / "rows.json"
    path.write_text(F.dump(["a", "b"], rows[:100], rows[100:]))
    c2, y2, x2, aug = F.load(path)
    assert aug.sum() == 20 and (c2 == conv).all()
    caught, false = F.loco(c2, y2, x2, 1.0, aug)
    assert caught + false <= 100 and caught <= y2[aug == 0].sum()
    path.write_text(F.dump(["a", "b"], rows))
    assert F.load(path)[3].sum() == 0  # a file without swapped rows


def test_select_lambda_prefers_the_smallest_of_equals():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(200, 2))
    y = (x[:, 0] > 0).astype(float)
    conv = np.repeat([1, 2], 100)
    assert F.select_lambda(conv, y, x) == F.LAMBDAS[0]  # separable: every strength scores the same
