"""bench/week_expect.py: the data-driven checks of a week with the assistant, judged on
hand-made chat outputs and a hand-made home state (no model, no home)."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from week_expect import judge, parts  # noqa: E402

NOW = datetime(2026, 12, 6, 10, 0, tzinfo=timezone.utc)  # a Sunday


class World:
    def __init__(self, memories=(), reminders=(), notes=None):
        self._m, self._r, self._n = list(memories), list(reminders), dict(notes or {})

    def memories(self):
        return self._m

    def reminders(self):
        return self._r

    def note(self, title):
        return self._n.get(title)


def out(reply="", calls=()):
    return {"reply": reply, "tool_calls": [{"name": n, "outcome": o} for n, o in calls]}


def test_reply_checks_right_partly_wrong():
    e = {"says": "x", "reply_has": ["9 May"], "reply_not": ["23 November"], "reply_any": [["can't", "cannot"]]}
    assert judge(e, out("I cannot say; 9 May"), World(), NOW)[0] == "right"
    v, why = judge(e, out("9 May or 23 November"), World(), NOW)
    assert v == "partly" and "MISSING: reply lacks '23 November'" in why
    assert judge(e, out("23 November"), World(), NOW)[0] == "wrong"


def test_order_regex_and_tools():
    e = {"reply_order": ["Mix", "Bake"], "reply_not_regex": [r"\[\d+\]"], "ran": ["remember"], "not_ran": ["forget"],
         "writes": ["remember"]}
    assert judge(e, out("Mix then Bake", [("remember", "ran")]), World(), NOW)[0] == "right"
    got = dict((w, ok) for ok, w in parts(e, out("Bake then Mix [1]", [("forget", "ran")]), World(), NOW))
    assert got["reply has ['Mix', 'Bake'] in order"] is False
    assert got["reply does not match '\\\\[\\\\d+\\\\]'"] is False
    assert got["remember ran"] is False and got["forget did not run"] is False
    assert judge({"writes": False}, out("", [("search", "ran"), ("get_note", "ran")]), World(), NOW)[0] == "right"
    assert judge({"writes": False}, out("", [("create_note", "ran")]), World(), NOW)[0] == "wrong"
    assert judge({"writes": False}, out("", [("create_note", "pending")]), World(), NOW)[0] == "right"


def test_pending_memory_and_notes():
    w = World(memories=["Linnet's birthday is 2 March"], notes={"Pim": "whippet\n- flea tablets"})
    e = {"pending": "forget", "memory_has": ["linnet"], "memory_not": ["penicillin"],
         "note": [{"title": "Pim", "has": ["flea tablets"], "not": ["chicken"]}], "note_gone": ["Quiz team"]}
    assert judge(e, out("", [("forget", "pending")]), w, NOW)[0] == "right"
    assert judge({"pending": "forget"}, out("", [("forget", "ran")]), w, NOW)[0] == "wrong"
    assert judge({"note": [{"title": "Gone", "has": ["x"]}]}, out(), w, NOW)[0] == "wrong"
    assert judge({"note_gone": ["Pim"]}, out(), w, NOW)[0] == "wrong"


def test_reminders_time_day_weekday_every():
    tomorrow = (NOW + timedelta(days=1)).replace(hour=8, minute=15).isoformat()
    saturday = datetime(2026, 12, 12, 7, 0, tzinfo=timezone.utc).isoformat()
    rows = [{"text": "ring Quellan Motors", "next_due": tomorrow, "state": "scheduled", "schedule": "at tomorrow 8:15"},
            {"text": "take Pim to the vet", "next_due": saturday, "state": "scheduled", "schedule": "at Saturday 7am"},
            {"text": "pack my rowing kit", "next_due": saturday, "state": "scheduled", "schedule": "every Tuesday at 18:00"},
            {"text": "old one", "next_due": saturday, "state": "cancelled", "schedule": "at Saturday"}]
    w = World(reminders=rows)
    e = {"reminder": [{"text": "ring Quellan", "time": "08:15", "day": "tomorrow", "starts": True},
                      {"text": "vet", "weekday": "Saturday", "time": "07:00"},
                      {"text": "rowing kit", "every": ["tue", "18"]}],
         "reminder_gone": ["old one", "dentist"]}
    assert judge(e, out(), w, NOW) == ("right", judge(e, out(), w, NOW)[1])
    bad = {"reminder": [{"text": "vet", "weekday": "Sunday"}, {"text": "Quellan", "starts": True},
                        {"text": "vet", "every": ["sat"]}, {"text": "Quellan", "day": "today"}],
           "reminder_gone": ["Quellan"]}
    assert all(not ok for ok, _ in parts(bad, out(), w, NOW))


def test_unknown_key_is_an_error():
    with pytest.raises(ValueError, match="reply_hass"):
        judge({"reply_hass": ["x"]}, out(), World(), NOW)


@pytest.mark.parametrize("case", ["week-b", "week-c"])
def test_case_files_parse(case):
    """Every turn of the repo's cases: a session, a message, and an expect the judge accepts."""
    root = Path(__file__).resolve().parents[1] / "bench" / "cases" / case
    turns = [json.loads(x) for x in (root / "requests.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
    assert {t["session"] for t in turns} <= {"S1", "S1+", "S2", "S3"} and turns[0]["session"] == "S1"
    assert len(list((root / "notes").glob("*.md"))) >= 10
    for t in turns:
        assert t["message"].strip() and isinstance(t["expect"], dict) and t["expect"].get("says")
        judge(t["expect"], out(), World(), NOW)  # raises for an unknown key
