"""bench/answers_typed.py --off MODULE.SWITCH: a rule of cairn.answer switched off for one run; a name that is no
True/False switch is refused by name before anything runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def test_off_refuses_what_is_no_switch(capsys):
    import answers_typed
    for bad in ("types.NOPE", "types.asked", "nomodule.X"):
        with pytest.raises(SystemExit):
            answers_typed.main(["--off", bad, "--no-speed"])
    err = capsys.readouterr().err
    assert "has no switch asked" in err and "no module cairn.answer.nomodule" in err


def test_off_sets_the_switch_false(monkeypatch):
    import answers_typed
    from cairn.answer import typed
    from cairn.search import asked
    monkeypatch.setattr(typed, "UNWRAP", True)
    monkeypatch.setattr(asked, "HEAD_NOUNS", True)
    monkeypatch.setattr(answers_typed, "run", lambda *a, **k: [])  # no questions asked: only the switch matters
    answers_typed.main(["--off", "typed.UNWRAP", "--off", "search.asked.HEAD_NOUNS", "--no-speed"])
    assert typed.UNWRAP is False and asked.HEAD_NOUNS is False


def test_speed_switch_refuses_what_is_no_switch(capsys):
    import answers_typed
    for bad in ("checks.NOPE", "nomodule.GATE"):
        with pytest.raises(SystemExit):
            answers_typed.main(["--speed-switch", bad])
    assert "--speed-switch nomodule.GATE: no True/False switch of cairn.answer" in capsys.readouterr().err


def test_speed_switch_reaches_the_run(monkeypatch):
    import answers_typed
    seen = []
    monkeypatch.setattr(answers_typed, "run", lambda *a, **k: seen.append(a) or [])
    answers_typed.main(["--speed-switch", "checks.GATE"])
    assert seen and seen[0][-1] == "checks.GATE"
