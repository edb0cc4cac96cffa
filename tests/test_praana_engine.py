"""PRAANA's engine (issue 39): `/stats` and `/scorecard` (P1, P26), context pressure with its
0.70 / 0.85 thresholds (P11) and working-state tiers with demotion (P7) — through the
compiler, a scripted model on loopback, the service and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.assistant import Assistant
from cairn.context.compiler import Engine
from cairn.context.pressure import COMPACT_AT, EMERGENCY_AT, measure, tier_of
from cairn.context.tiers import working_units
from cairn.context.working import WorkingState
from cairn.errors import NotFound
from cairn.service import Cairn
from fakes.embedder import HashEmbedder
from fakes.scripted_llm import ScriptedLLM, say, tool

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    home = tmp_path_factory.mktemp("praana") / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.settings.assistant.semantic_turns = False
        yield app


def run_cli(home, *args, stdin=None, env_extra=None):
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="", **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], input=stdin,
                          capture_output=True, text=True, timeout=300, env=env)


class U:
    def __init__(self, kind, tokens):
        self.kind, self.tokens = kind, tokens


def test_pressure_is_density_weighted_with_the_seed_thresholds():
    assert (COMPACT_AT, EMERGENCY_AT) == (0.70, 0.85)
    decisions = measure([[U("decision", 75)]], 100)
    digests = measure([[U("summary", 75)]], 100)  # the same tokens of low-density filler
    assert decisions.weighted == pytest.approx(0.75) and decisions.tier == "soft"
    assert digests.weighted == pytest.approx(0.30) and digests.tier == "active"
    assert measure([[U("constraint", 90)]], 100).tier == "hard"
    # the raw-token safety net: weighted says little, the raw fill passes the emergency line
    net = measure([[U("note", 95)]], 100)
    assert net.weighted < COMPACT_AT and net.raw > EMERGENCY_AT and net.tier == "hard"
    assert tier_of(0.69, 0.5) == "active" and tier_of(0.70, 0.5) == "soft" and tier_of(0.85, 0.5) == "hard"
    same = U("turn", 10)
    assert measure([[same], [same]], 100).raw == pytest.approx(0.10)  # a unit in two lists counts once


def _state(turns: dict[int, str]) -> WorkingState:
    ws = WorkingState()
    for n, text in turns.items():
        ws.fold({"type": "user", "turn": n, "text": text})
    return ws


def test_working_state_tiers_by_idle_turns_demotion_and_hydration():
    ws = _state({1: "Never book anything on Sundays.",
                 2: "Let's go with the green tent from the outdoor shop in Leith for the summer trip",
                 30: "We'll go with the night train to Inverness and a cabin for two people please",
                 59: "Let's use the blue suitcase."})
    units = {u[0]: u for u in working_units(ws, cur=60, message="what about dinner?")}
    kinds = {u[0].split(":")[0]: u for u in units.values()}
    assert kinds["constraint"][6] == "active" and kinds["constraint"][5] is True  # never demoted, pinned
    tiers = {u[2].split("(turn ")[1].split(")")[0]: u[6] for u in units.values() if u[1] == "decision"}
    assert tiers == {"2": "hard", "30": "soft", "59": "active"}
    hard = next(u for u in units.values() if u[6] == "hard")
    assert hard[2] == f"Decision (turn 2) [{hard[0]}]" and "tent" not in hard[2]
    soft = next(u for u in units.values() if u[6] == "soft")
    assert soft[2].endswith("…") and "cabin for two" not in soft[2]
    # under pressure everything one tier further down (the newest decision becomes soft)
    shifted = {u[2].split("(turn ")[1].split(")")[0]: u[6] for u in working_units(ws, 60, "dinner?", 1)
               if u[1] == "decision"}
    assert shifted == {"2": "hard", "30": "hard", "59": "soft"}
    # a message naming an old line brings it back in full
    back = next(u for u in working_units(ws, 60, "which tent did we pick?", 1) if "turn 2" in u[2])
    assert back[6] == "active" and "green tent" in back[2] and "hydrated" in back[4]


def test_the_compiler_reports_pressure_and_demotes_under_it():
    eng = Engine()
    events = [{"seq": 1, "type": "user", "turn": 1, "text": "Let's go with the red kayak for the loch trip in May."},
              {"seq": 2, "type": "assistant", "turn": 1, "text": "Noted."}]
    for n in range(2, 13):
        events += [{"seq": 2 * n - 1, "type": "user", "turn": n, "text": f"turn {n} " + "words about rivers " * 30},
                   {"seq": 2 * n, "type": "assistant", "turn": n, "text": "ok " * 40}]
    eng.sync(events)
    roomy = eng.compile("hello", budget=20000, rules="rules", turn=13)
    assert roomy.why()["pressure"]["tier"] == "active"
    tight = eng.compile("hello", budget=900, rules="rules", turn=13)
    assert next(u for u in tight.units() if u.kind == "decision").tier == "active"  # the last prompt was roomy
    tight = eng.compile("hello", budget=900, rules="rules", turn=13)  # after a pressed prompt: demoted
    p = tight.why()["pressure"]
    assert p["tier"] == "hard" and p["raw"] > EMERGENCY_AT and p["budget"] == 900
    dec = next(u for b in tight.why()["bands"] for u in b["units"] if u["kind"] == "decision")
    assert dec["tier"] == "soft"  # 12 turns idle: active without pressure, one tier down under it
    assert next(u for u in roomy.units() if u.kind == "decision").tier == "active"


def test_stats_and_scorecard_count_a_scripted_session(app, llm):
    app.note_create("Kayak", "The red kayak is stored in the boathouse at Loch Tay.")
    llm.script(tool("search", query="kayak", usage=(300, 12)), say("It is in the boathouse.", usage=(350, 9)),
               say("You are welcome.", usage=(200, 5)))
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)
    bot.turn("where is the kayak stored?")
    bot.turn("thanks")
    st = app.session_stats(bot.state.id)
    assert st["tokens"] == {"in": 850, "out": 26, "total": 876} and st["model_calls"] == 3
    assert st["cost"] == {"usd": 0.0, "priced": True}  # a model on this machine costs nothing
    assert st["turns"] == 2 and st["context"]["tier"] in ("active", "soft", "hard")
    assert 0 < st["context"]["tokens"] <= st["context"]["budget"]
    sc = app.session_scorecard(bot.state.id)
    assert sc["tool_calls"]["total"] == 1 and sc["tool_calls"]["by_tool"] == {"search": 1}
    assert sc["tool_calls"]["by_outcome"] == {"ran": 1}
    assert sc["evidence_kept"] >= 1 and sc["model_calls"] == 3 and sc["compactions"] == 0
    assert sum(sc["pressure_events"].values()) <= 2
    with pytest.raises(NotFound):
        app.session_stats("s-19990101-000000-abcdef")


def test_an_unpriced_remote_model_shows_no_cost():
    from cairn.assistant.stats import stats
    events = [{"type": "start", "model": "openai:https://api.example:gpt-9"},
              {"type": "usage", "prompt_tokens": 10, "completion_tokens": 2, "cost": 0.0, "priced": False}]
    assert stats(events, "s")["cost"] == {"usd": None, "priced": False}


def test_slash_stats_and_scorecard_in_cairn_chat(app, llm, tmp_path):
    llm.script(say("Hello!", usage=(120, 4)))
    home = tmp_path / "h"
    r = run_cli(home, "chat", "--json", "--new", "--model", f"openai:{llm.base_url}:scripted",
                stdin="hi there\n/stats\n/scorecard\n")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    reply, st, sc = lines
    assert st["session"] == reply["session"] and st["tokens"]["in"] == 120 and st["tokens"]["out"] == 4
    assert sc["session"] == reply["session"] and sc["turns"] == 1 and sc["tool_calls"]["total"] == 0
    r = run_cli(home, "sessions", "stats", reply["session"], "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["stats"]["tokens"]["total"] == 124
    r = run_cli(home, "sessions", "stats", "s-nope")
    assert r.returncode != 0 and "no session 's-nope'" in r.stderr
    r = run_cli(home, "chat", "--why", "--session", reply["session"], "--json")
    why = json.loads(r.stdout)
    assert why["pressure"]["tier"] in ("active", "soft", "hard") and "more_available" in why["bands"][3]
    r = run_cli(home, "chat", "--why", "--session", reply["session"])
    assert r.returncode == 0 and "pressure " in r.stdout and "tier " in r.stdout


def test_checkpoint_narrative_plan_and_next_from_the_log():
    from cairn.context.checkpoint import build, render
    events = [
        {"type": "user", "turn": 1, "text": "Let's go with the sleeper train to Fort William. Which platform is it?"},
        {"type": "assistant", "turn": 1, "text": "Here is a plan:\n1. Book the sleeper\n2. Pack the tent"},
        {"type": "tool_call", "turn": 2, "call_id": "c1", "name": "create_note", "arguments": {"title": "Trip"}},
        {"type": "tool_result", "turn": 2, "call_id": "c1", "name": "create_note", "outcome": "ran"},
        {"type": "assistant", "turn": 2, "text": "New plan:\n- Book the sleeper\n- Buy gas canisters\n- Pack"},
        {"type": "approval", "approval_id": "ap-1", "state": "requested", "call": {"name": "delete_note"}},
    ]
    cp = build(events)
    assert cp["narrative"][0].startswith('turn 1: you said "Let\'s go with the sleeper train')
    assert "turn 2: created a note: Trip" in cp["narrative"]
    assert cp["plan"] == ["Book the sleeper", "Buy gas canisters", "Pack"]
    assert cp["superseded"] == ["turn 1: Book the sleeper; Pack the tent"]
    assert any("platform" in n for n in cp["next"]) and "waiting for approval: delete_note (ap-1)" in cp["next"]
    text = render(cp, "s-x", carried=True)
    assert text.startswith("Where the previous conversation (s-x) stopped:") and "1) Book the sleeper" in text


def test_a_session_end_checkpoint_is_read_back_by_the_next_session(app, llm):
    llm.script(say("Sure. The plan:\n1. Book the Caledonian sleeper\n2. Pack the orange tent"), say("Hello again."))
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)
    first = bot.state.id
    bot.turn("Plan my trip to Fort William, and never book anything on Sundays.")
    bot.new_session()
    events = bot.store.events(bot.store.path(first))
    ends = [e for e in events if e["type"] == "session_checkpoint"]
    assert len(ends) == 1 and ends[0]["reason"] == "end"
    assert ends[0]["checkpoint"]["plan"] == ["Book the Caledonian sleeper", "Pack the orange tent"]
    carried = [e for e in bot.store.events(bot.store.path(bot.state.id)) if e["type"] == "carried"]
    assert len(carried) == 1 and carried[0]["from"] == first
    bot.turn("where were we?")
    system = llm.requests[-1]["body"]["messages"][0]["content"]
    assert f"Where the previous conversation ({first}) stopped" in system
    assert "Book the Caledonian sleeper" in system and "never book anything on Sundays" in system
    why = {u["id"]: u for b in bot.why()["bands"] for u in b["units"]}
    assert why["carried"]["kind"] == "checkpoint"


def test_crossing_the_hard_threshold_writes_one_checkpoint(app, llm):
    # ~1,060 prompt tokens left after the reply and the tool schemas (which grow with the tools: session 27's
    # expected_hash of update_note took turn 1 of a budget of 8,100 to 0.71, soft): turn 1 active (~0.51), turn 6 hard
    app.settings.assistant.context_tokens = 8400
    try:
        bot = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)
        for n in range(1, 7):
            llm.script(say(f"reply {n} " + "about the long walk along the canal " * 12))
            bot.turn(f"message {n} " + "tell me more about the towpath and the locks " * 12)
    finally:
        app.settings.assistant.context_tokens = 8192
    events = bot.store.events(bot.store.path(bot.state.id))
    tiers = [e["tier"] for e in events if e["type"] == "context"]
    assert tiers[0] == "active" and tiers[-1] == "hard", tiers
    cps = [e for e in events if e["type"] == "session_checkpoint"]
    assert [e["reason"] for e in cps] == ["pressure"]  # once, when it was crossed
    assert app.session_scorecard(bot.state.id)["checkpoints"] == 1
    assert app.session_scorecard(bot.state.id)["pressure_events"]["hard"] >= 1


@pytest.mark.parametrize("text, rule", [
    ("I never fly before 9. Find me a flight to Oslo.", "I never fly before 9"),
    ("Thanks! Don't book anything on Sundays.", "Don't book anything on Sundays"),
    ("We always take the dog on holiday", "We always take the dog on holiday"),
    ("I don't eat meat", "I don't eat meat"),
    ("I don't know what to do about the boiler", None),
    ("I can't stand Thai food any more", None),  # a dislike: the turn's extraction keeps it
    ("Don't delete that note", None),
    ("Should I never fly before 9?", None),
    ("What is on my calendar tomorrow?", None),
])
def test_which_sentences_state_a_rule(text, rule):
    from cairn.assistant.nudge import stated_rule, without_rules
    assert stated_rule(text) == rule
    if rule:
        assert rule not in without_rules(text)


def test_a_stated_constraint_is_offered_and_kept_only_with_the_persons_word(app, llm):
    llm.script(say("I'll look for flights."), say("Noted."), say("Fine."))
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)
    res = bot.turn("I never fly before 9. Find me a flight to Oslo next week.")
    offer = [p for p in res.pending_approvals if p["name"] == "remember"]
    assert len(offer) == 1 and offer[0]["arguments"] == {"text": "I never fly before 9", "kind": "constraint"}
    assert any("remember it as a constraint" in n and offer[0]["id"] in n for n in res.notices)
    assert not [m for m in app.memories() if "fly" in m.text.lower()]  # nothing without the person's word
    assert "remember it as a constraint" in llm.requests[-1]["body"]["messages"][0]["content"]  # the frame's nudge
    # said again: not offered twice
    again = bot.turn("As I said, I never fly before 9.")
    assert not [n for n in again.notices if "remember it as a constraint" in n]
    denied = bot.turn("Don't book anything on Sundays.")
    sunday = next(p["id"] for p in denied.pending_approvals if "Sundays" in p["arguments"]["text"])
    bot.decide(sunday, grant=False)
    assert not [m for m in app.memories() if "sunday" in m.text.lower()]
    out = bot.decide(offer[0]["id"], grant=True)
    assert out.tool_calls[0].outcome == "ran"
    kept = [m for m in app.memories(kind="constraint") if "fly" in m.text.lower()]
    assert [m.text for m in kept] == ["I never fly before 9"]


def test_the_artifact_store_is_content_addressed_and_refuses_bad_ids(tmp_path):
    from cairn.errors import InvalidInput
    from cairn.store import artifacts as A
    a = A.put(tmp_path, {"b": 1, "a": [2]}, kind="tool_output", tool="search", session="s-1", turn=1)
    b = A.put(tmp_path, {"a": [2], "b": 1}, kind="tool_output", tool="search", session="s-2", turn=4)
    assert a.id == b.id and len(a.id) == 64 and A.get(tmp_path, a.id) == b'{"a": [2], "b": 1}'
    assert [r.session for r in A.records(tmp_path)] == ["s-1", "s-2"]  # stored once, produced twice
    assert A.resolve(tmp_path, a.id[:10].upper()) == a.id
    for bad in ("../../etc/passwd", "xyz", "abc"):
        with pytest.raises(InvalidInput):
            A.resolve(tmp_path, bad)
    with pytest.raises(NotFound):
        A.resolve(tmp_path, "0" * 64)
    assert not list((tmp_path / "artifacts").glob("*.tmp")) and (tmp_path / "artifacts" / "records.jsonl").is_file()


def test_prune_removes_old_records_and_unnamed_content_only(tmp_path):
    """Records past the age go, with the content no kept record names; content a kept record
    still names stays; a pruned input shows as missing in the lineage; a bad age removes nothing."""
    from datetime import datetime, timedelta, timezone
    from cairn.errors import InvalidInput
    from cairn.store import artifacts as A
    old = A.put(tmp_path, "old output", tool="search")
    shared = A.put(tmp_path, "said twice", tool="search")
    for bad in (-1, float("nan"), float("inf")):
        with pytest.raises(InvalidInput):
            A.prune(tmp_path, bad)
    assert len(A.records(tmp_path)) == 2
    # the two records so far were made 40 days ago (their times rewritten); then two recent ones
    import json
    path = tmp_path / "artifacts" / "records.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    for r in rows:
        r["at"] = (datetime.now(timezone.utc) - timedelta(days=40)).isoformat()
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    A.put(tmp_path, "said twice", tool="search")  # produced again: its new record is recent
    child = A.put(tmp_path, "made from the old one", tool="summarise", inputs=[old.id])
    assert A.prune(tmp_path, 50)["records_removed"] == 0
    pruned = A.prune(tmp_path, 30)
    assert pruned == {"records_removed": 2, "blobs_removed": 1, "bytes_freed": len("old output"), "records_kept": 2}
    with pytest.raises(NotFound):
        A.get(tmp_path, old.id)
    assert A.get(tmp_path, shared.id) == b"said twice"  # a kept record still names it
    assert A.lineage(tmp_path, child.id)["inputs"] == [{"id": old.id, "missing": True}]


def test_tool_outputs_conversations_and_exports_are_artifacts_with_lineage(app, llm, tmp_path):
    app.note_create("Ferry", "The ferry to Mull leaves Oban at 10:00 daily.")
    llm.script(tool("search", query="ferry"), tool("get_note", note="Ferry"), say("At 10:00 from Oban."),
               tool("save_conversation", title="Ferry chat"), say("Saved."))
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)
    bot.turn("when does the ferry leave?")
    results = [e for e in bot.store.events(bot.store.path(bot.state.id)) if e["type"] == "tool_result"]
    first, second = (e["artifact"] for e in results)
    tree = app.artifact_lineage(second[:12])
    made = tree["produced_by"][0]
    assert made["tool"] == "get_note" and made["arguments"] == {"note": "Ferry"} and made["turn"] == 1
    assert made["session"] == bot.state.id
    kinds = {n["artifact"]["kind"]: n for n in tree["inputs"]}
    assert set(kinds) == {"message", "tool_output"} and kinds["tool_output"]["artifact"]["id"] == first
    msg = app.artifact_show(kinds["message"]["artifact"]["id"])
    assert msg["content"] == "when does the ferry leave?"
    assert "10:00" in app.artifact_show(second)["content"]
    bot.turn("save this conversation")
    saved = [e for e in bot.store.events(bot.store.path(bot.state.id)) if e["type"] == "tool_result"][-1]
    conv = saved["result"]["artifact"]
    assert app.artifact_show(conv)["records"][0]["kind"] == "conversation"
    assert "ferry leave" in app.artifact_show(conv)["content"]
    assert conv in {n["artifact"]["id"] for n in app.artifact_lineage(saved["artifact"])["inputs"] if "artifact" in n}
    exp = app.export(ids=["Ferry"], format="json")
    rec = app.artifact_show(exp.artifact)["records"][0]
    assert rec["kind"] == "export" and rec["sources"] and "Ferry" in app.artifact_show(exp.artifact)["content"]
    assert exp.to_json()["artifact"] == exp.artifact
    r = run_cli(app.settings.home, "artifacts", "lineage", second[:16], "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["produced_by"][0]["tool"] == "get_note"
    r = run_cli(app.settings.home, "artifacts", "lineage", "../../etc")
    assert r.returncode != 0 and "invalid artifact id" in r.stderr
    r = run_cli(app.settings.home, "artifacts", "--json", "--session", bot.state.id)
    assert {x["kind"] for x in json.loads(r.stdout)} >= {"message", "tool_output", "conversation"}


def test_skills_recorded_run_through_the_judge_and_ranked_by_votes(app, llm):
    from cairn.errors import Conflict, InvalidInput
    app.note_create("Tide", "High tide at Oban is at 14:20 today.")
    app.note_create("Scratch", "A note to throw away.")
    llm.script(tool("search", query="tide"), tool("get_note", note="Tide"), say("14:20."),
               tool("search", query="tide"), tool("get_note", note="Tide"), say("Still 14:20."),
               tool("delete_note", note="Scratch"), say("That waits for approval."))
    bot = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)
    bot.turn("when is high tide?")
    bot.turn("and high tide again?")
    s = app.skill_save("tide-check", bot.state.id)
    assert [x["tool"] for x in s["steps"]] == ["search", "get_note"] and s["usefulness"] == 0.5
    assert s["source"] == {"session": bot.state.id, "turns": [2]}
    bot.turn("delete the Scratch note")
    risky = app.skill_save("cleanup", bot.state.id, [3])
    assert risky["steps"] == [{"tool": "delete_note", "arguments": {"note": "Scratch"}}]
    with pytest.raises(Conflict):
        app.skill_save("tide-check", bot.state.id)
    with pytest.raises(InvalidInput):
        app.skill_save("../evil", bot.state.id)
    with pytest.raises(InvalidInput, match="at least one tool call"):
        app.skill_save("empty", bot.state.id, [99])
    from cairn.assistant.skills import run
    res = run(bot, "tide-check")
    assert [c.outcome for c in res.tool_calls] == ["ran", "ran"] and "14:20" in json.dumps(res.tool_calls[1].result)
    assert app.skill("tide-check")["runs"] == 1
    res = run(bot, "cleanup")  # a high-risk step waits for the person, as when a model proposes it
    assert res.tool_calls[0].outcome == "pending" and res.pending_approvals
    assert app.find_note("Scratch")
    app.skill_rate("cleanup", True)
    app.skill_rate("cleanup", True)
    app.skill_rate("tide-check", False)
    ranked = app.skills()
    assert [x["name"] for x in ranked] == ["cleanup", "tide-check"]
    assert ranked[0]["usefulness"] == pytest.approx(3 / 4) and ranked[1]["usefulness"] == pytest.approx(1 / 3)
    pats = app.skill_patterns()
    pat = next(x for x in pats if x["tools"] == ["search", "get_note"])  # 3 turns here (+ the ferry test's)
    assert pat["turns"] >= 3 and pat["sessions"] >= 1 and all(x["turns"] >= 2 for x in pats)
    with pytest.raises(NotFound):
        app.skill_rate("nope", True)


def test_a_damaged_skills_file_is_named_and_left_alone(tmp_path):
    from cairn.errors import InvalidInput
    from cairn.store import skills as S
    (tmp_path / "skills.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(InvalidInput, match="skills.json cannot be read"):
        S.save(tmp_path, "x", [{"tool": "search", "arguments": {}}], {})
    assert (tmp_path / "skills.json").read_text(encoding="utf-8") == "{not json"


def test_skills_from_the_cli_and_chat(app, tmp_path):
    r = run_cli(app.settings.home, "skills", "--json")
    assert r.returncode == 0, r.stderr
    assert [s["name"] for s in json.loads(r.stdout)][:2] == ["cleanup", "tide-check"]
    r = run_cli(app.settings.home, "skills", "rate", "tide-check", "maybe")
    assert r.returncode == 2 and "helpful or not-helpful" in r.stderr
    r = run_cli(app.settings.home, "skills", "rate", "tide-check", "helpful")
    assert r.returncode == 0 and "usefulness 0.50" in r.stdout
    r = run_cli(app.settings.home, "skills", "run", "tide-check", "--json")
    assert r.returncode == 0, r.stderr
    assert [c["outcome"] for c in json.loads(r.stdout)["tool_calls"]] == ["ran", "ran"]
    r = run_cli(app.settings.home, "skills", "run", "no-such-skill")
    assert r.returncode != 0 and "no skill 'no-such-skill'" in r.stderr
    r = run_cli(app.settings.home, "chat", "--json", "--model", "none", "--new", stdin="/skill run tide-check\n")
    assert r.returncode == 0, r.stderr
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [c["outcome"] for c in out[0]["tool_calls"]] == ["ran", "ran"] and out[1] == {"skill": "tide-check", "ran": 2}


def test_global_config_layered_under_the_home_config(tmp_path, monkeypatch):
    from cairn.config import ConfigError, load_settings
    from cairn.config_peek import embedder_name, global_config_path
    monkeypatch.delenv("CAIRN_GLOBAL_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert global_config_path() == tmp_path / "xdg" / "cairn" / "config.toml"
    glob = tmp_path / "global.toml"
    glob.write_text('embedder = "minilm"\n[assistant]\nrecall_k = 7\nnotes_k = 2\n[search]\nk = 12\n'
                    '[telegram]\ntoken = "123:secret"\n', encoding="utf-8")
    monkeypatch.setenv("CAIRN_GLOBAL_CONFIG", str(glob))
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[assistant]\nnotes_k = 4\n", encoding="utf-8")
    s = load_settings(home)
    assert (s.assistant.recall_k, s.assistant.notes_k, s.search.k) == (7, 4, 12)  # the home's key wins
    assert embedder_name(home) == "minilm"
    with Cairn(home, embedder=HashEmbedder()) as app:
        shown = app.config_show()
    rows = {r["key"]: r for r in shown["values"]}
    assert rows["assistant.recall_k"]["origin"] == str(glob) and rows["assistant.notes_k"]["origin"] == str(home / "config.toml")
    assert rows["search.k"]["value"] == 12 and rows["chunk.max_tokens"]["origin"] == "default"
    assert rows["telegram.token"]["value"] == "[set, hidden]" and "secret" not in json.dumps(shown)
    assert [f["layer"] for f in shown["files"]] == ["global", "home"]
    r = run_cli(home, "config", "show", "--origin", env_extra={"CAIRN_GLOBAL_CONFIG": str(glob)})
    assert r.returncode == 0, r.stderr
    assert f"assistant.recall_k = 7    # {glob}" in r.stdout and "123:secret" not in r.stdout
    # the global file's own errors name it; the home's data is untouched
    glob.write_text("[assistant]\nrecal_k = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"{glob}.*unknown key"):
        load_settings(home)
    glob.write_text("[assistant\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=f"{glob}: not valid TOML"):
        load_settings(home)
    assert embedder_name(home) is None
    monkeypatch.setenv("CAIRN_GLOBAL_CONFIG", "")  # set empty: no global layer
    assert load_settings(home).assistant.recall_k == 5


def test_the_model_catalogue_is_cached_and_model_switches_only_among_its_models(tmp_path):
    from cairn.assistant import catalogue as C
    from cairn.config import load_settings
    from fakes.openai_server import FakeOpenAIServer
    home = tmp_path / "cat"
    home.mkdir()
    (home / "config.toml").write_text('llm = "openai:http://127.0.0.1:9/v1:configured-model"\n', encoding="utf-8")
    settings = load_settings(home)
    with FakeOpenAIServer() as fake:
        ports = (("Ollama", fake.port),)
        first = C.catalogue(settings, ports=ports)
        byname = {m["name"]: m for m in first["models"]}
        assert not first["cached"] and byname["fake-model"]["spec"] == f"openai:{fake.base_url}:fake-model"
        assert byname["fake-model"]["source"] == "discovered" and byname["none"]["source"] == "builtin"
        assert byname["openai:http://127.0.0.1:9/v1:configured-model"]["source"] == "configured"
        probes = len(fake.requests)
        again = C.catalogue(settings, ports=ports)
        assert again["cached"] and len(fake.requests) == probes  # within the TTL: no probe
        assert not C.catalogue(settings, ports=ports, ttl=0)["cached"]
        assert C.resolve(settings, "fake-model", ports=ports) == f"openai:{fake.base_url}:fake-model"
        with pytest.raises(ValueError, match="unknown model 'gpt-9'.*fake-model"):
            C.resolve(settings, "gpt-9", ports=ports)
        # a damaged cache is stale, not an error
        (home / "cache" / "models.json").write_text("{oops", encoding="utf-8")
        assert not C.catalogue(settings, ports=ports)["cached"]
        # the CLI's /model reads the cached catalogue (no probe of port 11434 here)
        r = run_cli(home, "chat", "--json", "--model", "none", "--new", stdin="/model fake-model\n/model gpt-9\n/models\n")
        assert r.returncode == 0, r.stderr
        outs = [json.loads(x) for x in r.stdout.splitlines()]
        assert outs[0]["model"] == f"openai:{fake.base_url}:fake-model"
        assert "unknown model 'gpt-9'" in r.stderr and outs[1]["cached"] is True


def test_artifact_and_skill_commands_name_bad_input_and_exit_1(tmp_path):
    """A hostile artifact id, an unknown artifact and an unknown skill: one line naming the
    problem, exit 1, no traceback."""
    home = tmp_path / "home"
    for args, says in ((("artifacts", "lineage", "../../x"), "invalid artifact id"),
                       (("artifacts", "show", "deadbeef"), "no artifact 'deadbeef'"),
                       (("skills", "delete", "nope"), "no skill 'nope'"),
                       (("artifacts", "prune", "--days", "-3"), "a number of days >= 0 expected")):
        r = run_cli(home, *args)
        assert r.returncode == 1 and says in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
