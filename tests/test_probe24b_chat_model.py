"""probe24b: `cairn chat --model ../../x -m hi` answered (offline) with exit 0 and stored the
spec in the session: every later `cairn chat -m …` of that session printed "model '../../x'
unavailable"; `--model ""` was taken as the configured model. Both are refused at the door
(exit 2, nothing written), naming the accepted forms."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.errors import InvalidInput
from cairn.interfaces.cli_chat import _check_model_spec

SRC = str(Path(__file__).resolve().parents[1] / "src")


def test_the_forms():
    for ok in (None, "none", "embedded", "embedded:qwen2.5-coder-0.5b", "openai:http://127.0.0.1:8080/v1:m",
               "anthropic:claude-x", "anthropic:http://127.0.0.1:9:claude-x"):
        _check_model_spec(ok)
    for bad, words in (("", "empty"), ("  ", "empty"), ("../../x", "not a model spec"), ("anthropic:", "not a model"),
                       ("opnai:http://x:y", "not a model spec"), ("openai:nope", "openai:BASE_URL:MODEL")):
        with pytest.raises(InvalidInput, match=words):
            _check_model_spec(bad)


def test_cli_refuses_a_malformed_model_and_writes_nothing(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)}
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "chat", "--model", "../../x", "-m", "hi"],
                       capture_output=True, text=True, env=env, timeout=240, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "'../../x' is not a model spec" in r.stderr, r.stdout + r.stderr
    assert not (home / "sessions").exists() or not list((home / "sessions").glob("*.jsonl"))
