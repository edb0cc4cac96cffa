"""bench/answers_declines.py: the check named from a declined answer's problem, and its bad-input errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import answers_declines as D  # noqa: E402


@pytest.mark.parametrize("problem, check", [
    ("abstained: the evidence about 'hike' is from Caroline, not Melanie", "person check: the evidence is from someone else"),
    ("abstained: 'status' is said of someone else, not Caroline", "person check: key terms said only of someone else"),
    ("abstained: the evidence about this is not about Nate", "person check: the evidence is not about the person"),
    ("abstained: 'exposure' is never said of Jon", "focus: a thing named never said of the person"),
    ("abstained: the notes never mention 'Jean'", "premise: a name no message holds"),
    ("no supporting sentence", "no supporting sentence"),
    ("something new entirely", "other: something new entirely"),
])
def test_check_of_names_the_check(problem, check):
    assert D.check_of(problem) == check


def test_missing_replay_is_named(tmp_path, capsys):
    with pytest.raises(SystemExit):
        D.main([str(tmp_path / "none.pkl")])
    assert "no such file" in capsys.readouterr().err


def test_bad_conversations_is_named(tmp_path, capsys):
    f = tmp_path / "r.pkl"
    f.write_bytes(b"")
    with pytest.raises(SystemExit):
        D.main([str(f), "--conversations", "one"])
    assert "--conversations takes numbers" in capsys.readouterr().err
