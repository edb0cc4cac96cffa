"""What a conversation gives memory, and when (issues 32 and 39; assistant/turnmemory.py):
a fact told in one chat turn is recalled right after that turn, with its source turn; a
turn handled by `remember` is not extracted again; `--new` ends the current session, whose
words are extracted; incognito extracts nothing. Real SQLite, the packaged embedder, the
rule-based extractor, no model (the default offline setup)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.assistant import Assistant
from cairn.service import Cairn

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(scope="module")
def tapp(tmp_path_factory, real_embedder):
    with Cairn(tmp_path_factory.mktemp("turnmem") / "home", embedder=real_embedder) as app:
        yield app


def _events(bot, kind):
    return [e for e in bot.store.events(bot.store.path(bot.state.id)) if e.get("type") == kind]


def test_a_fact_told_in_a_turn_is_recalled_right_after_it(tapp):
    bot = Assistant(tapp, model="none", new=True)
    res = bot.turn("my godson Tariq lives in Swansea")  # a statement alone: kept as told (understand.TOLD)
    assert [c.name for c in res.tool_calls] == ["remember"]
    hits = tapp.recall("where does Tariq live?", k=3)
    assert hits and "Swansea" in hits[0].memory.text
    # said in passing beside a request: the turn's extraction keeps it, with its source turn
    res = bot.turn("my niece Anouk lives in Ghent, can you remind me on sunday at 10 to ring her")
    assert any("went to memory" in n for n in res.notices)
    hits = tapp.recall("where does Anouk live?", k=3)
    assert hits and "Ghent" in hits[0].memory.text
    assert hits[0].memory.source_ids[0].startswith(bot.state.id + "#")  # its source turn
    ext = _events(bot, "extraction")
    assert ext[-1]["reason"] == "turn" and ext[-1]["facts"] >= 1
    assert bot.state.extracted_upto >= ext[-1]["upto"]


def test_a_remembered_turn_is_not_extracted_twice(tapp):
    bot = Assistant(tapp, model="none", new=True)
    before = len(tapp.memories())
    res = bot.turn("remember that I keep the ladder in the garage loft")
    assert [c.name for c in res.tool_calls] == ["remember"]
    assert len(tapp.memories()) == before + 1
    assert _events(bot, "extraction")[-1].get("skipped")
    assert "intent router" not in res.reply  # issue 32: no router aside in the reply


def test_new_ends_the_current_session_and_extraction_runs(tapp):
    first = Assistant(tapp, model="none", channel="tg", new=True)
    first.store.append(first.state.id, {"type": "user", "turn": 1, "text": "my neighbour Oskar is a clock repairer"})
    second = Assistant(tapp, model="none", channel="tg", new=True)
    old = second.store.load(first.state.id)
    assert second.state.id != first.state.id and old.ended and not second.state.ended
    ends = [e for e in second.store.events(second.store.path(first.state.id)) if e["type"] in ("extraction", "end")]
    assert [e["type"] for e in ends] == ["extraction", "end"] and ends[0]["reason"] == "new session"
    assert any("Oskar" in h.memory.text for h in tapp.recall("who is the clock repairer?", k=3))
    third = Assistant(tapp, model="none", channel="tg", new=True)  # an ended one is not ended again
    assert len([e for e in third.store.events(third.store.path(first.state.id)) if e["type"] == "end"]) == 1


def test_incognito_extracts_nothing(tapp):
    before = len(tapp.memories())
    bot = Assistant(tapp, model="none", incognito=True)
    res = bot.turn("my aunt Brigid breeds alpacas")
    assert len(tapp.memories()) == before and not any("memory" in n for n in res.notices)


def test_chat_new_through_the_cli_ends_the_previous_session(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    home = str(tmp_path / "h")
    run = lambda *a: subprocess.run([sys.executable, "-m", "cairn", "--home", home, "chat", *a, "--json"],  # noqa: E731
                                    capture_output=True, text=True, timeout=300, env=env)
    r1 = run("--message", "hello")
    assert r1.returncode == 0, r1.stderr
    r2 = run("--new", "--message", "hello again")
    assert r2.returncode == 0, r2.stderr
    s1, s2 = json.loads(r1.stdout)["session"], json.loads(r2.stdout)["session"]
    assert s1 != s2
    log = [json.loads(x) for x in (Path(home) / "sessions" / f"{s1}.jsonl").read_text().splitlines()]
    assert log[-1]["type"] == "end" and log[-1]["reason"] == "new session"
