"""The memory commands of the real `cairn` CLI in subprocesses: remember / memories /
forget / recall / core / entity alias / entities, JSON output, and clear errors (exit 1,
no traceback, nothing lost) for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def cairn(home, *args):
    cmd = [sys.executable, "-m", "cairn.cli", "--home", str(home), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ))


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("memcli") / "home"
    for args in (["My favourite football player is Ronaldo.", "--at", "2025-02-10T12:00:00-05:00"],
                 ["My current favourite football player is Messi.", "--at", "2025-08-20T12:00:00-04:00"],
                 ["I have a dentist appointment tomorrow at 3pm with Dr. Okafor.", "--at", "2025-11-19T18:30:00+01:00"],
                 ["The staging database is called puffin.", "--scope", "alpha", "--kind", "project"]):
        r = cairn(home, "remember", *args)
        assert r.returncode == 0, r.stderr
    return home


def test_remember_reports_action_and_reason(home):
    r = cairn(home, "remember", "My current favourite football player is Messi.", "--json")
    assert r.returncode == 0, r.stderr
    change = json.loads(r.stdout)
    assert change["action"] == "reinforce" and "same" in change["reason"]


def test_memories_lists_active_and_all_with_history(home):
    active = json.loads(cairn(home, "memories", "--json").stdout)
    texts = [m["text"] for m in active]
    assert "My current favourite football player is Messi." in texts
    assert not any("Ronaldo" in t for t in texts)
    dentist = next(m for m in active if "dentist" in m["text"])
    assert dentist["event_time"] == "2025-11-20T15:00:00+01:00"
    r = cairn(home, "memories", "--all")
    assert r.returncode == 0 and "Ronaldo" in r.stdout and "superseded" in r.stdout
    assert "valid 2025-02-10" in r.stdout
    only = json.loads(cairn(home, "memories", "--scope", "alpha", "--json").stdout)
    assert [m["kind"] for m in only] == ["project"]


def test_recall_shows_score_breakdown_and_respects_scope(home):
    r = cairn(home, "recall", "favourite football player", "--json", "--k", "3")
    hits = json.loads(r.stdout)
    assert "Messi" in hits[0]["memory"]["text"]
    assert {"relevance", "recency", "importance", "reinforcement", "confidence", "anchor",
            "semantic", "keyword", "bm25"} <= set(hits[0]["signals"])
    table = cairn(home, "recall", "favourite football player")
    assert "rel " in table.stdout and "cos " in table.stdout
    glob = cairn(home, "recall", "staging database", "--json")
    assert not any("puffin" in h["memory"]["text"] for h in json.loads(glob.stdout))
    alpha = cairn(home, "recall", "staging database", "--scope", "alpha", "--json")
    assert "puffin" in json.loads(alpha.stdout)[0]["memory"]["text"]


def test_forget_core_and_entities(home, tmp_path):
    mid = cairn(home, "remember", "My locker code is 4512.", "--json")
    mid = json.loads(mid.stdout)["memory"]["id"]
    r = cairn(home, "forget", mid)
    assert r.returncode == 0 and "forgotten" in r.stdout
    assert "4512" not in cairn(home, "recall", "locker code").stdout
    assert "4512" in cairn(home, "memories", "--all").stdout
    assert cairn(home, "core", "set", "style", "Short answers.").returncode == 0
    core = cairn(home, "core")
    assert "Short answers." in core.stdout and "Messi" in core.stdout
    r = cairn(home, "entity", "alias", "Okafor", "Окафор")
    assert r.returncode == 0 and "Окафор" in r.stdout
    ents = json.loads(cairn(home, "entities", "--json").stdout)
    assert any(set(e["aliases"]) == {"Okafor", "Окафор"} for e in ents)
    hits = json.loads(cairn(home, "recall", "Окафор", "--json").stdout)
    assert "dentist" in hits[0]["memory"]["text"]


BAD = [
    (["remember", "  "], "memory text is empty"),
    (["remember", "x", "--at", "yesterday-ish"], "'yesterday-ish' is not an ISO 8601 time"),
    (["forget", "m000000"], "no memory with id 'm000000'"),
    (["recall", " "], "recall query is empty"),
    (["core", "set", "bad name", "x"], "core block name"),
    (["entity", "alias", "Okafor", ""], "non-empty"),
]


def test_bad_input_exits_1_with_named_error(home):
    before = cairn(home, "memories", "--all", "--json").stdout
    for args, message in BAD:
        r = cairn(home, *args)
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert message in " ".join(r.stderr.split()) and "Traceback" not in r.stderr, (args, r.stderr)
    assert cairn(home, "memories", "--all", "--json").stdout == before  # nothing lost or added
