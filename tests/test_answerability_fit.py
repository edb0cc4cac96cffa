"""The person check's learned decision (answer/answerability.py WEIGHTS, BIAS) is what
bench/answerability_fit.py fits on its recorded rows (bench/answerability_rows.json: figures Cairn
computed on LoCoMo's tune half, no text of the data set): the test fails when the weights in code
drift from the rows, or the rows name other features than the code computes."""

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
    conv, y, x = F.load()
    assert x.shape[1] == len(A.FEATURES) == len(A.WEIGHTS)
    assert json.loads(F.ROWS.read_text())["features"] == list(A.FEATURES)
    assert set(conv) == F.TUNE  # fitted on the tune half only
    w, b = F.fit(x, y)
    assert np.allclose(w, A.WEIGHTS, atol=0.002) and b == pytest.approx(A.BIAS, abs=0.002)


def test_the_fit_separates_its_rows_better_than_chance():
    conv, y, x = F.load()
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
    conv, y, x = F.load()
    assert F.select_lambda(conv, y, x) == F.LAMBDA
    caught, false = F.loco(conv, y, x, F.LAMBDA)
    weaker = F.loco(conv, y, x, F.LAMBDAS[0])
    assert caught / y.sum() - false / (y == 0).sum() >= weaker[0] / y.sum() - weaker[1] / (y == 0).sum()


def test_select_lambda_prefers_the_smallest_of_equals():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(200, 2))
    y = (x[:, 0] > 0).astype(float)
    conv = np.repeat([1, 2], 100)
    assert F.select_lambda(conv, y, x) == F.LAMBDAS[0]  # separable: every strength scores the same
