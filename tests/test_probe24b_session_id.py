"""probe24b: a session id of 300 characters (`cairn chat --session`, `cairn sessions show`,
`GET /chat/sessions/{id}`) was answered "error: /home/…/sessions/s-….jsonl: file name too long"
(an absolute path, and no word about the id), and `cairn chat --session ""` quietly continued
the current session. Both are refused naming the problem (ops.sessions.check_session_id)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cairn.errors import InvalidInput
from cairn.ops.sessions import check_session_id

SRC = str(Path(__file__).resolve().parents[1] / "src")
LONG = "s-" + "x" * 300


def _cairn(home, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, env=env, timeout=240, stdin=subprocess.DEVNULL)


def test_the_rule():
    assert check_session_id(None) is None and check_session_id("s-20261207-112003-238a67")
    with pytest.raises(InvalidInput, match="empty"):
        check_session_id(" ")
    with pytest.raises(InvalidInput, match="302 characters long; ids are at most 100"):
        check_session_id(LONG)


def test_cli_names_the_problem_and_writes_nothing(tmp_path):
    home = tmp_path / "home"
    for args in (["chat", "--model", "none", "--session", LONG, "-m", "hi"], ["sessions", "show", LONG],
                 ["chat", "--model", "none", "--session", "", "-m", "hi"]):
        r = _cairn(home, *args)
        assert r.returncode != 0 and "session id is" in r.stderr and str(tmp_path) not in r.stderr, (args, r.stderr)
    assert not list((home / "sessions").glob("*.jsonl")) if (home / "sessions").exists() else True


def test_rest_session_page_refuses_a_long_id(tmp_path):
    from cairn.interfaces.rest.app import create_app
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with TestClient(create_app(home), base_url="http://127.0.0.1", client=("127.0.0.1", 50000)) as c:
        r = c.get(f"/chat/sessions/{LONG}", headers={"accept": "application/json"})
    assert r.status_code == 400 and "at most 100" in r.text and str(tmp_path) not in r.text, r.text
