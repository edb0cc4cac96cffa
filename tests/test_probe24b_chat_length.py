"""probe24b: `cairn chat` took a message of any length (REST's `POST /chat` refuses one over
8,000 characters): a 1 MB line piped to it made a 4.9 MB session log before the reply said the
question was too long. Every door now refuses a message over ops.sessions.MAX_MESSAGE_CHARS,
naming its length and the limit; nothing is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.errors import InvalidInput
from cairn.ops.sessions import MAX_MESSAGE_CHARS, check_message_length

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _chat(home, *args, stdin: str | None = None):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "chat", "--model", "none", *args],
                          input=stdin, capture_output=True, text=True, env=env, timeout=240)


def test_the_rule_names_the_length_and_the_limit():
    assert check_message_length("x" * MAX_MESSAGE_CHARS + "\n") == "x" * MAX_MESSAGE_CHARS + "\n"
    with pytest.raises(InvalidInput, match=r"9,000 characters long; the limit is 8,000"):
        check_message_length("y" * 9000)


def test_rest_reads_the_same_limit():
    from cairn.interfaces.rest.routes_chat import ChatBody
    assert ChatBody.model_fields["message"].metadata[-1].max_length == MAX_MESSAGE_CHARS


def test_cli_refuses_a_long_message_and_writes_nothing(tmp_path):
    home = tmp_path / "home"
    r = _chat(home, "--message", "where is the key " * 1000)
    assert r.returncode == 2 and "16,999 characters long; the limit is 8,000" in r.stderr, r.stderr
    assert not (home / "sessions").exists() or not list((home / "sessions").glob("*.jsonl"))


def test_a_long_piped_line_is_refused_and_the_conversation_goes_on(tmp_path):
    home = tmp_path / "home"
    r = _chat(home, stdin="hello\n" + "where is the key " * 20000 + "\nthanks\n")
    assert "the message is 339,999 characters long; the limit is 8,000" in r.stderr, r.stderr
    logs = list((home / "sessions").glob("*.jsonl"))
    assert len(logs) == 1 and logs[0].stat().st_size < 50_000, [p.stat().st_size for p in logs]
    assert r.stdout.count("cairn>") == 2
