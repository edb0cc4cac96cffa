"""Facts extracted from an imported chat reach the memory store: sourced, dated by the
message's own time, reinforced (not duplicated) when restated in a later session."""

from __future__ import annotations

from conftest import write_jsonl

ROWS = [
    {"conversation": "c1", "session": "s1", "id": "m1", "speaker": "Lena",
     "time": "2025-11-19T18:30:00+01:00",
     "text": "I have a dentist appointment tomorrow at 3pm with Dr. Okafor."},
    {"conversation": "c1", "session": "s1", "id": "m2", "speaker": "Sam",
     "time": "2025-11-19T18:31:00+01:00", "text": "Good luck! I started learning the cello last week."},
    {"conversation": "c1", "session": "s1", "id": "m3", "speaker": "Lena",
     "time": "2025-11-19T18:32:00+01:00", "text": "I'm vegetarian, so I love the new falafel place."},
    {"conversation": "c1", "session": "s2", "id": "m4", "speaker": "Lena",
     "time": "2025-12-01T10:00:00+01:00", "text": "As I said, I'm vegetarian."},
]


def _chat(tmp_path, rows=ROWS):
    return write_jsonl(tmp_path / "chat.jsonl", rows)


def test_imported_chat_facts_become_sourced_memories(app, tmp_path):
    report = app.import_chat(_chat(tmp_path))
    actions = {}
    for e in report.extractions:
        for k, v in e.memories.items():
            actions[k] = actions.get(k, 0) + v
    assert actions.get("add") == 3 and actions.get("reinforce") == 1, actions
    mems = {m.source: m for m in app.memories()}
    dentist = mems["m1"]
    assert dentist.source_ids == ["m1"]
    # "tomorrow" said on 19 November: the absolute date is in the text and the event time.
    assert dentist.event_time == "2025-11-20T15:00:00+01:00"
    assert "20 November 2025" in dentist.text and "Okafor" in dentist.text
    assert dentist.text.count("(") == 1  # the date is written once, not twice
    veg = mems["m3"]
    assert veg.use_count >= 1 and "m4" in veg.source_ids  # restated in session 2: reinforced
    assert len([m for m in app.memories() if "vegetarian" in m.text]) == 1


def test_reimporting_the_same_chat_adds_no_memory(app, tmp_path):
    chat = _chat(tmp_path)
    app.import_chat(chat)
    before = [(m.id, m.confidence) for m in app.memories()]
    app.extract()  # extraction again over the same sessions
    after = [(m.id, m.confidence) for m in app.memories()]
    assert after == before


def test_store_extracted_off_keeps_the_memory_store_empty(home, embedder, tmp_path):
    from cairn.service import Cairn
    home.mkdir(parents=True)
    (home / "config.toml").write_text("[memory]\nstore_extracted = false\n", encoding="utf-8")
    with Cairn(home, embedder=embedder) as app:
        report = app.import_chat(_chat(tmp_path))
        assert sum(len(e.result.facts) for e in report.extractions) >= 3
        assert app.memories() == []
