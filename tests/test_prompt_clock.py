"""Prompt basics (issue 39, EchOS E28/E9): today's date, time and zone in every prompt as a
unit of the working band; the memories band with relevant + top memories (at most 15) and a
line saying how many more exist (`more_available` in `cairn chat --why --json`); the
router's understanding as a hint (issue 32)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cairn.context.clock import clock_text, hint_text, zone_name
from cairn.context.compiler import Engine
from cairn.context.memband import SHOWN_MAX, more_line
from cairn.service import Cairn

SRC = Path(__file__).resolve().parents[1] / "src"
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def test_clock_text_is_local_with_zone_offset_and_iso_day():
    late = datetime(2026, 7, 1, 23, 30, tzinfo=timezone.utc)
    assert clock_text(late, "Europe/Lisbon") == ("Now: Thursday 2 July 2026, 00:30 (Europe/Lisbon, UTC+01:00). "
                                                 "Today is 2026-07-02.")
    assert "Today is 2026-07-01." in clock_text(late, "America/New_York")
    assert "(UTC, UTC+00:00)" in clock_text(late, "Not/AZone")  # an unknown zone is read as UTC
    assert clock_text(datetime(2026, 1, 5, 9, 0), "UTC").startswith("Now: Monday 5 January 2026, 09:00")


def test_zone_name_from_settings():
    class S:
        class time:
            timezone = "Asia/Tokyo"
    assert zone_name(S) == "Asia/Tokyo"
    S.time.timezone = "Mars/Olympus"
    assert zone_name(S) == "UTC"


def test_more_line():
    assert more_line(15, 15) == "" and more_line(3, 5) == ""
    assert more_line(16, 15) == "1 more memory is not shown here; the recall tool finds them."
    assert more_line(40, 15).startswith("25 more memories are not shown")


FACTS = ["I am allergic to penicillin", "My favourite film is Paris, Texas", "I drive a grey Skoda Octavia",
         "I work as a hydrologist for the county", "My passport expires in 2031", "I hate coriander",
         "My landlord is called Mrs Okonjo", "I run on Tuesday evenings", "My blood type is O negative",
         "I was born in Dundee", "I speak some Portuguese", "My daughter Isla starts school in September",
         "I keep the spare house key with the neighbour at number 12", "I prefer tea without sugar",
         "My dentist is in Carlton Street", "I am learning to play chess", "My bank is the Co-operative",
         "I grow tomatoes on the balcony", "I have a season ticket for the rugby", "My shoe size is 43",
         "I volunteer at the food bank on Saturdays", "I sleep badly when it is humid"]


@pytest.fixture(scope="module")
def mem_app(tmp_path_factory, real_embedder):
    home = tmp_path_factory.mktemp("clock") / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.settings.time.timezone = "Asia/Tokyo"
        for i, fact in enumerate(FACTS):
            app.remember(fact, confidence=0.5 + i / 100)
        app.remember("My cousin Dara plays the cello in a quartet")
        assert len(app.memories()) == 23, [m.text for m in app.memories()]
        yield app


def test_every_prompt_has_the_clock_memories_and_hint(mem_app):
    eng = Engine()
    eng.now = datetime(2026, 3, 9, 20, 15, tzinfo=timezone.utc)
    comp = eng.compile("who plays the cello?", budget=6000, rules="rules", app=mem_app, recall_k=5,
                       notes_k=0, hint="recall: who plays the cello")
    why = comp.why()
    working = next(b for b in why["bands"] if b["name"] == "working")
    clock = next(u for u in working["units"] if u["id"] == "clock")
    assert "Today is 2026-03-10." in clock["text"] and "Asia/Tokyo" in clock["text"]  # 05:15 in Tokyo
    hint = next(u for u in working["units"] if u["id"] == "hint")
    assert hint["text"] == hint_text("recall: who plays the cello")
    mems = next(b for b in why["bands"] if b["name"] == "memories")
    shown = [u for u in mems["units"] if u["kind"] in ("memory", "memory_top")]
    assert len(shown) == SHOWN_MAX
    assert any("cello" in u["text"] for u in shown if u["kind"] == "memory")  # relevant, first
    assert shown[0]["kind"] == "memory" and any(u["kind"] == "memory_top" for u in shown)
    assert isinstance(mems["more_available"], int) and mems["more_available"] == 23 - SHOWN_MAX
    more = next(u for u in mems["units"] if u["id"] == "memories:more")
    assert more["text"].startswith(f"{23 - SHOWN_MAX} more memories") and "recall" in more["text"]
    system = comp.messages[0]["content"]
    assert clock["text"] in system and more["text"] in system and hint["text"] in system


def test_a_small_budget_counts_what_it_left_out(mem_app):
    eng = Engine()
    comp = eng.compile("drawer", budget=700, rules="rules", app=mem_app, recall_k=5, notes_k=0)
    mems = next(b for b in comp.why()["bands"] if b["name"] == "memories")
    shown = sum(1 for u in mems["units"] if u["kind"] in ("memory", "memory_top"))
    assert shown < SHOWN_MAX and mems["more_available"] == 23 - shown


def test_chat_why_json_holds_todays_date_and_more_available(tmp_path):
    """The contract of issue 39, through the CLI: `cairn chat --why --session ID --json`."""
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    home = str(tmp_path / "h")
    run = lambda *a: subprocess.run([sys.executable, "-m", "cairn", "--home", home, *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=300, env=env)
    r = run("chat", "--message", "remember that my bike is a blue Brompton", "--json")
    assert r.returncode == 0, r.stderr
    sid = json.loads(r.stdout)["session"]
    r = run("chat", "--why", "--session", sid, "--json")
    assert r.returncode == 0, r.stderr
    why = json.loads(r.stdout)
    units = [u for b in why["bands"] for u in b["units"]]
    today = datetime.now(timezone.utc).date()
    dates = {m for u in units for m in ISO_DAY.findall(u["text"])}
    assert dates & {str(today), str(today.fromordinal(today.toordinal() + 1)),
                    str(today.fromordinal(today.toordinal() - 1))}  # today, in the machine's zone
    mems = next(b for b in why["bands"] if b["name"] == "memories")
    assert isinstance(mems["more_available"], int)


def test_a_routed_turn_saves_a_why_with_the_clock_and_the_memory_count(mem_app):
    from cairn.assistant import Assistant
    bot = Assistant(mem_app, model="none", new=True)
    before = len(mem_app.memories())
    bot.turn("remember that the bins go out on Wednesday night")  # the why is of the turn's start
    why = bot.why()
    assert [b["name"] for b in why["bands"]] == ["system", "core", "working", "memories", "notes", "recent",
                                                 "compacted"]
    units = {u["id"]: u for b in why["bands"] for u in b["units"]}
    assert ISO_DAY.search(units["clock"]["text"]) and "intent router" in units["current"]["why"]
    mems = next(b for b in why["bands"] if b["name"] == "memories")
    assert mems["more_available"] == before == len(mem_app.memories()) - 1
    assert units["memories:more"]["text"].startswith(f"{before} more memories")
