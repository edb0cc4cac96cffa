"""The context engine (issue 18): kill -9 at random points then resume; a 2,000-turn session
within a 4k-token model; a provider's overflow error -> compaction and one retry; a turn-3
constraint still in the prompt at turn 300; `/why` equals the prompt sent; sessions search,
distilled tool outputs kept whole in the log, relative times."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import signal
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from cairn.assistant import Assistant
from cairn.assistant import sessions as S
from cairn.context.compiler import Engine
from cairn.context.distill import distill
from cairn.context.person import relative
from cairn.context.tokens import Counter, estimate
from fakes.scripted_llm import ScriptedLLM, fail, say

SRC = Path(__file__).resolve().parents[1] / "src"
OVERFLOW = "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens"


@pytest.fixture
def llm():
    with ScriptedLLM() as server:
        yield server


def script_text(n: int) -> str:
    """The person's message of turn n in the scripted session."""
    if n == 3:
        return "For the garden database: not MySQL, use Postgres. Never water the ferns on Mondays."
    rnd = random.Random(n)
    words = ["heron", "mill", "pond", "boiler", "ticket", "train", "cousin", "lemon", "budget", "river",
             "garden", "invoice", "concert", "Ana", "Lisbon", "bicycle", "recipe", "lamp", "roof", "piano"]
    words += [f"{rnd.choice('bcdfglmnprst')}{rnd.choice('aeiou')}{rnd.randint(0, 4000)}" for _ in range(40)]
    return f"Turn {n}: " + " ".join(rnd.choice(words) for _ in range(rnd.randint(8, 60))) + "."


def _state_digest(st) -> dict:
    return {"turns": st.turns, "model": st.model, "history": st.history, "usage": st.usage,
            "pending": st.pending, "last_seq": st.last_seq}


def _child(home: str, sid: str, base: str, conn) -> None:  # runs in a forked process
    from cairn.service import Cairn
    S._CACHE.clear()
    from fakes.embedder import HashEmbedder
    with Cairn(Path(home), embedder=HashEmbedder()) as app:
        app.settings.assistant.recall_k = app.settings.assistant.notes_k = 0
        bot = Assistant(app, session_id=sid)  # the model the session chose
        for n in range(bot.state.turns + 1, 201):
            if n == 2:
                bot.switch_model(f"openai:{base}:scripted-b")
            bot.turn(script_text(n))
            conn.send(_state_digest(bot.state))


def test_kill_9_at_random_points_then_resume(app, llm, tmp_path):
    app.settings.assistant.recall_k = app.settings.assistant.notes_k = 0
    sid = Assistant(app, model=f"openai:{llm.base_url}:scripted").state.id
    ctx = mp.get_context("fork")
    rng = random.Random(18)
    resumed_from = set()
    for trial in range(20):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_child, args=(str(app.settings.home), sid, llm.base_url, child))
        proc.start()
        last = None
        for _ in range(rng.randint(1, 6)):
            if not parent.poll(60):
                break
            last = parent.recv()
        if rng.random() < 0.7:  # also kill between the report and the next event
            import time
            time.sleep(rng.random() * 0.03)
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(30)
        while parent.poll(0):
            last = parent.recv()
        path = S.SessionStore(app.settings.home).path(sid)
        raw = path.read_bytes().split(b"\n")
        events = []
        for i, line in enumerate(raw):
            if not line:
                continue
            try:
                events.append(json.loads(line))
            except ValueError:
                assert i == len(raw) - 1, "only the in-flight (last) line may be torn"
        seqs = [e["seq"] for e in events]
        assert seqs == list(range(1, len(seqs) + 1)), "no durable event is lost or reordered"
        S._CACHE.clear()
        st = S.SessionStore(app.settings.home).load(sid)
        if last is not None:
            # everything the child saw written is there, exactly: replaying the log up to that
            # event rebuilds the same state
            assert st.last_seq >= last["last_seq"]
            replay = S.SessionState(id=sid)
            for e in events:
                if e["seq"] <= last["last_seq"]:
                    replay.apply(e)
            assert _state_digest(replay) == last
            if last["turns"] >= 2:
                assert st.model.endswith("scripted-b")  # the chosen model is restored
        resumed_from.add(st.turns)
    assert len(resumed_from) > 5  # the kills landed at different points
    # resume in this process: the turns go on, the model and the turn-3 constraint are kept
    S._CACHE.clear()
    bot = Assistant(app, session_id=sid)
    before = bot.state.turns
    assert bot.model_spec.endswith("scripted-b")
    res = bot.turn("Which database do we use?")
    assert bot.state.turns == before + 1 and res.reply == "ok"
    assert "not MySQL, use Postgres" in llm.requests[-1]["body"]["messages"][0]["content"]


def test_two_thousand_turns_never_overflow_a_4k_model():
    eng, seq = Engine(Counter()), 0
    budget = 4096 - 400 - 32
    worst = 0
    for n in range(1, 2001):
        seq += 1
        text = script_text(n) * (1 + n % 5)
        eng.sync([{"seq": seq, "type": "user", "turn": n, "text": text}])
        c = eng.compile(text, budget=budget, rules="Rules. " * 60, turn=n)
        assert c.total_tokens <= budget and eng.counter.messages(c.messages) == c.total_tokens
        worst = max(worst, c.total_tokens)
        seq += 1
        eng.sync([{"seq": seq, "type": "assistant", "turn": n, "text": "Noted: " + text[:300]}])
        for ev in c.new_compactions:
            seq += 1
            eng.sync([dict(ev, seq=seq)])
    assert worst > budget * 0.8  # the budget was actually under pressure
    assert "not MySQL, use Postgres" in c.system
    assert any(u.kind == "summary" for u in c.bands["compacted"])
    # a single message larger than the whole budget is cut by the safety net, not sent whole
    c = eng.compile("word " * 20000, budget=budget, rules="Rules.", turn=2001)
    assert c.total_tokens <= budget and "(safety net)" in c.dropped


def test_overflow_error_compacts_and_retries_then_succeeds(app, llm):
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    for n in range(1, 30):
        bot.turn(script_text(n))
    llm.script(fail(400, OVERFLOW), say("Postgres, as you said."))
    res = bot.turn("Which database again?")
    assert res.reply == "Postgres, as you said." and res.stopped in (None, "")
    assert any("compacted" in n for n in res.notices)
    first, second = llm.requests[-2]["body"]["messages"], llm.requests[-1]["body"]["messages"]
    assert len(json.dumps(second)) < len(json.dumps(first))
    events = S.SessionStore.events(bot.store.path(bot.state.id))
    assert any(e["type"] == "compaction" and e.get("reason") == "overflow" for e in events)
    # twice in a row: a clear message, no exception
    llm.script(fail(400, OVERFLOW), fail(400, OVERFLOW))
    res = bot.turn("And the ferns?")
    assert res.stopped == "context" and "too long for this model's context" in res.reply


def test_constraint_from_turn_3_still_in_the_prompt_at_turn_300(app, llm):
    app.settings.assistant.context_tokens = 4096
    app.settings.assistant.recall_k = app.settings.assistant.notes_k = 0
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    for n in range(1, 301):
        bot.turn(script_text(n))
    system = llm.requests[-1]["body"]["messages"][0]["content"]
    assert "not MySQL, use Postgres" in system and "Never water the ferns on Mondays" in system
    why = bot.why()
    assert why["total_tokens"] <= why["budget"] <= 4096
    events = S.SessionStore.events(bot.store.path(bot.state.id))
    assert sum(e["type"] == "compaction" for e in events) >= 10


def test_why_matches_the_prompt_sent(app, llm):
    app.note_create("Boiler", "The boiler pressure should be 1.2 bar when cold.")
    app.remember("My sister Ana lives in Lisbon.")
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    bot.turn("Hello there")
    bot.turn("What should the boiler pressure be? And where does Ana live?")
    why = bot.why()
    assert set(why) == {"budget", "total_tokens", "bands", "understanding", "conversation",  # issue 32 added these two
                        "pressure"}  # issue 39: context pressure (PRAANA P11)
    assert [b["name"] for b in why["bands"]] == ["system", "core", "working", "memories", "notes", "recent",
                                                 "compacted"]
    sent = llm.requests[-1]["body"]["messages"]
    blob = "\n".join(m["content"] or "" for m in sent)
    for b in why["bands"]:
        assert b["tokens"] == sum(u["tokens"] for u in b["units"])
        for u in b["units"]:
            assert set(u) == {"id", "kind", "tokens", "score", "why", "text"}
            for part in u["text"].split("\n"):
                assert part in blob, (b["name"], u["id"])
    assert why["total_tokens"] == Counter().messages(sent)
    assert any(u["kind"] == "note" for b in why["bands"] for u in b["units"])
    # the CLI prints the same from the file, after the process is gone
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(app.settings.home), "chat", "--why",
                        "--session", bot.state.id, "--json"], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(json.dumps(why))
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(app.settings.home), "chat", "--why",
                        "--session", "s-nope", "--json"], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode != 0 and "s-nope" in r.stderr


def test_tool_output_distilled_full_output_in_the_log(app, llm):
    from fakes.scripted_llm import tool
    for i in range(12):
        app.note_create(f"Heron {i}", f"The heron number {i} nests by the mill pond. " * 30)
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    llm.script(tool("search", query="heron mill pond"), say("Found them."))
    bot.turn("find my notes about the heron")
    fed = [m for m in llm.requests[-1]["body"]["messages"] if m["role"] == "tool"][0]["content"]
    call_id = [m for m in llm.requests[-1]["body"]["messages"] if m["role"] == "tool"][0]["tool_call_id"]
    assert f"full output: call {call_id}" in fed and estimate(fed) < 400
    full = bot.store.tool_output(bot.state.id, call_id)
    assert len(json.dumps(full["result"])) > len(fed)
    with pytest.raises(Exception, match="no tool result"):
        bot.store.tool_output(bot.state.id, "nope")


def test_sessions_search_bm25(app, llm):
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    bot.turn("The plumber comes on Thursday about the boiler")
    bot.turn("Buy lemons and flour")
    rows = bot.store.search("when is the plumber coming", k=3)
    assert rows and "plumber" in rows[0]["text"] and rows[0]["session"] == bot.state.id
    assert bot.store.search("zebra xylophone") == []


def test_session_conversation_and_why_are_service_operations(app, llm):
    """What the web page's conversation view shows comes from the service (ops/sessions.py):
    the turns as shown, the list's opening line, the last prompt's /why; unknown ids refused."""
    from cairn.errors import CairnError
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    bot.turn("The plumber comes on Thursday about the boiler")
    shown = app.session_conversation(bot.state.id)
    assert shown["id"] == bot.state.id and shown["pending"] == []
    assert shown["turns"][0] == {"role": "user", "text": "The plumber comes on Thursday about the boiler"}
    assert [t["role"] for t in shown["turns"]][-1] == "assistant"
    row = next(r for r in app.sessions() if r["id"] == bot.state.id)
    assert row["opening"] == "The plumber comes on Thursday about the boiler"
    why = app.session_why(bot.state.id)
    assert why["budget"] > 0 and why["bands"] and "conversation" in why
    for bad in ("no-such-session", "../etc"):
        with pytest.raises(CairnError):
            app.session_conversation(bad)
        with pytest.raises(CairnError):
            app.session_why(bad)


def test_working_state_and_relative_times():
    eng = Engine()
    evs = [{"seq": 1, "type": "user", "turn": 1, "text": "Let's go with the blue theme. Edit notes/plan.md please. What is the deadline?"},
           {"seq": 2, "type": "tool_result", "turn": 1, "name": "get_note", "error": "note not found"},
           {"seq": 3, "type": "assistant", "turn": 1, "text": "Done."}]
    eng.sync(evs)
    w = eng.working.to_json()
    assert w["decisions"][0]["text"].startswith("Let's go with") and "notes/plan.md" in w["files"]
    assert w["questions"] and "note not found" in w["errors"][0]["text"]
    now = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)  # a Wednesday
    assert relative(now - timedelta(days=3), now) == "3 days ago"
    assert relative(now + timedelta(days=6), now) == "next Tuesday"
    assert relative(now + timedelta(days=1), now) == "tomorrow"
    assert relative(now + timedelta(days=20), now) == "in 2 weeks"
    assert estimate("日本語のテキスト") >= 8 and estimate("hello world") == 4


def test_mood_rendered_then_decays_to_neutral():
    eng = Engine()
    at = datetime(2026, 12, 2, 9, tzinfo=timezone.utc)
    eng.sync([{"seq": 1, "at": at.isoformat(), "type": "user", "turn": 1,
               "text": "I'm exhausted and worried about the exam tomorrow."}])
    eng.now = at + timedelta(hours=1)
    c = eng.compile("what should I revise?", budget=2000, rules="Rules.", turn=2)
    line = [u for u in c.bands["working"] if u.kind == "mood"][0].text
    assert "worried" in line and "low energy" in line and line in c.system
    eng.now = at + timedelta(hours=30)  # a quiet day later: neutral, nothing rendered
    c = eng.compile("what should I revise?", budget=2000, rules="Rules.", turn=2)
    assert not [u for u in c.bands["working"] if u.kind == "mood"]
    eng.sync([{"seq": 2, "at": at.isoformat(), "type": "user", "turn": 2, "text": "What time is it?"}])
    assert eng.mood.mood == "worried"  # no signal leaves the state alone


def test_verbatim_recall_around_a_memory_source_turn(app, llm):
    app.settings.assistant.notes_k = 0
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted")
    for n in range(1, 31):
        bot.turn("My bicycle lock hint is the blue heron by the mill." if n == 5 else script_text(n))
    ev = [e for e in S.SessionStore.events(bot.store.path(bot.state.id)) if e["type"] == "user" and e["turn"] == 5][0]
    src = f"{bot.state.id}#{ev['seq']}"
    app.remember("The person's bicycle lock hint is the blue heron.", source=src, source_ids=[src])
    bot.turn("remind me of my bicycle lock hint")
    units = {u["id"]: u for b in bot.why()["bands"] if b["name"] == "compacted" for u in b["units"]}
    assert "t5" in units  # the source turn itself (hydrated: it also matches the message)
    assert "source turn 5" in units["t4"]["why"] and "source turn 5" in units["t6"]["why"]
    assert "blue heron by the mill" in llm.requests[-1]["body"]["messages"][0]["content"]
