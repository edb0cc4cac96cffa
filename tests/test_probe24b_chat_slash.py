"""probe24b: `cairn chat --message "/new"` was read as words ("What should the note be called?"),
`--message "/quit"` answered "There is nothing waiting for your approval." and `--message
"/approve ap-x"` "I'm not sure what you'd like me to do", all with exit 0: a slash command worked
in a conversation but not in a one-shot message. It now runs as in a conversation; an unknown
or failing one is an error on stderr and exit 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _chat(home, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "chat", "--model", "none", *args],
                          capture_output=True, text=True, env=env, timeout=240, stdin=subprocess.DEVNULL)


def test_slash_commands_in_one_message(tmp_path):
    home = tmp_path / "home"
    new = _chat(home, "--json", "-m", "/new")
    assert new.returncode == 0 and json.loads(new.stdout)["session"].startswith("s-"), new.stdout + new.stderr
    bad = _chat(home, "-m", "/approve ap-nope")
    assert bad.returncode == 1 and "no pending approval with id 'ap-nope'" in bad.stderr, bad.stdout + bad.stderr
    unknown = _chat(home, "-m", "/bogus")
    assert unknown.returncode == 1 and "unknown command /bogus" in unknown.stderr
    quit_ = _chat(home, "-m", "/quit")
    assert quit_.returncode == 0 and quit_.stdout == "", quit_.stdout
