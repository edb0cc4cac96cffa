"""Issue 39, EchOS E30: provider prompt caching. Over a scripted model on loopback: Anthropic's
Messages API gets the stable system + core prefix as a block marked
`cache_control: {"type": "ephemeral"}`; an OpenAI-compatible server gets a stable prefix order
(rules and core blocks first, the clock last), so two consecutive turns — at different
minutes — share a byte-identical prefix, tools included. Cairn's private key never reaches the
wire."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from cairn.assistant import Assistant, Channel
from cairn.service import Cairn
from fakes.scripted_llm import ScriptedLLM, say

CORE = "Mara, a beekeeper in Devon; prefers short answers in metric units."


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    with Cairn(tmp_path_factory.mktemp("cache") / "home", embedder=real_embedder) as a:
        a.core_set("persona", CORE)
        a.remember("The hives are behind the orchard.")
        yield a


def _two_turns(app, spec, llm):
    llm.requests.clear()
    llm.script(say("First answer."), say("Second answer."))
    bot = Assistant(app, model=spec, new=True)
    bot.turn("Where are the hives?", Channel())
    bot._engine.now = datetime(2031, 5, 6, 7, 8, tzinfo=timezone.utc)  # another minute: another clock
    bot.turn("And what do I keep in them?", Channel())
    return [r["body"] for r in llm.requests]


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def test_openai_compatible_requests_share_a_stable_prefix(app, llm):
    first, second = _two_turns(app, f"openai:{llm.base_url}:scripted", llm)
    s1, s2 = first["messages"][0]["content"], second["messages"][0]["content"]
    assert s1 != s2 and "Today is 2031-05-06." in s2 and "Today is 2031-05-06." not in s1
    assert first["messages"][0] == {"role": "system", "content": s1}  # no private key on the wire
    assert json.dumps(first["tools"]) == json.dumps(second["tools"])
    shared = _common_prefix(s1, s2)
    core_end = s1.index(CORE) + len(CORE)
    assert shared >= core_end  # the rules and core blocks: byte-identical in both turns
    # the clock comes last, after the memories
    assert s2.rstrip().endswith("Today is 2031-05-06.") and s2.index("Now:") > s2.index("hives")
    assert s1.index("Now:") > core_end


def test_anthropic_gets_cache_control_on_the_stable_prefix(app, llm):
    first, second = _two_turns(app, f"anthropic:{llm.root}:claude-test", llm)
    for body in (first, second):
        head, rest = body["system"]
        assert head["cache_control"] == {"type": "ephemeral"} and "cache_control" not in rest
        assert head["text"].rstrip().endswith(CORE[:-1] + ".") or CORE in head["text"]
        assert "Now:" in rest["text"] and "Now:" not in head["text"]
    assert first["system"][0] == second["system"][0]  # the cached block: byte-identical
    assert first["system"][1] != second["system"][1]
    assert all(not k.startswith("_") for m in first["messages"] for k in m)
