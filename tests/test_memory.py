"""The memory store with real SQLite and the real MiniLM embedder: relative dates, decay
bounds, scope isolation, tombstones, aliases across scripts, updates that keep history,
rebuild from the vault mirror, core context, and bad input."""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from cairn.config import MemorySettings, load_settings
from cairn.errors import InvalidInput
from cairn.memory import (EVERGREEN_KINDS, KINDS, MemoryNotFound, add_alias, core_context, forget,
                          history, list_memories, recall, remember,
                          resolve_event_time, set_core_block)
from cairn.memory.entities import find_names
from cairn.service import Cairn
from cairn.store import db

CET = timezone(timedelta(hours=1))
T0 = datetime(2025, 11, 19, 18, 30, tzinfo=CET)  # a Wednesday


@pytest.fixture
def conn(tmp_path):
    c = db.connect(tmp_path / "index.db")
    yield c
    c.close()


# ------------------------------------------------------------------ temporal
@pytest.mark.parametrize("text,expected", [
    ("dentist tomorrow at 3pm", "2025-11-20T15:00:00+01:00"),
    ("call tomorrow at 09:30", "2025-11-20T09:30:00+01:00"),
    ("we met yesterday", "2025-11-18"),
    ("next week I start", "2025-11-24"),
    ("last week was busy", "2025-11-10"),
    ("in 2 hours call the garage", "2025-11-19T20:30:00+01:00"),
    ("in three days", "2025-11-22"),
    ("two weeks ago we moved", "2025-11-05"),
    ("on Friday we fly", "2025-11-21"),
    ("last Monday it rained", "2025-11-17"),
    ("next Wednesday", "2025-11-26"),
    ("the day after tomorrow", "2025-11-21"),
    ("next month", "2025-12"),
    ("on 2024-03-02 I moved", "2024-03-02"),
])
def test_relative_dates_resolve_against_anchor(text, expected):
    iso, rewritten = resolve_event_time(text, T0)
    assert iso == expected
    assert rewritten.startswith(text.split()[0])  # the word is kept
    assert expected[:7] in rewritten


def test_no_date_leaves_text_alone_and_dst_uses_wall_clock():
    assert resolve_event_time("I like tea", T0) == (None, "I like tea")
    # The night Berlin leaves summer time: "tomorrow at 10am" is 10:00 CET (+01:00).
    anchor = datetime(2025, 10, 25, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    iso, _ = resolve_event_time("tomorrow at 10am", anchor)
    assert iso == "2025-10-26T10:00:00+01:00"


def test_names_found_in_text():
    assert find_names("I have a dentist appointment tomorrow with Dr. Okafor.") == ["Okafor"]
    assert find_names("Next week I start at Ferrow & Hale.") == ["Ferrow & Hale"]
    assert find_names("Ольга живёт в Москве.")[0] == "Ольга"
    assert find_names("Honestly I think so. My sister is fine.") == []


# ------------------------------------------------------------------ updates
def test_mention_of_entity_does_not_retire_other_facts(conn, real_embedder):
    a = remember(conn, real_embedder, "Olga lives in Berlin.", now=T0)
    b = remember(conn, real_embedder, "Olga works at Siemens.", now=T0)
    c = remember(conn, real_embedder, "Olga loves sushi.", now=T0)
    d = remember(conn, real_embedder, "Olga hates mornings.", now=T0)
    assert [x.action for x in (a, b, c, d)] == ["add"] * 4
    assert len(list_memories(conn)) == 4


def test_slot_update_follows_alias_and_reason_is_given(conn, real_embedder):
    old = remember(conn, real_embedder, "Olga lives in Berlin.", now=T0)
    add_alias(conn, "Olga", "Ольга")
    new = remember(conn, real_embedder, "Ольга lives in Oslo now.", now=T0 + timedelta(days=30))
    assert new.action == "supersede" and new.previous.id == old.memory.id
    assert "lives in" in new.reason and "oslo" in new.reason
    chain = history(conn, new.memory.id)
    assert [m.id for m in chain] == [old.memory.id, new.memory.id]
    assert chain[0].valid_to == new.memory.created


def test_opposite_sentiment_about_a_different_object_is_kept(conn, real_embedder):
    coffee = remember(conn, real_embedder, "I love coffee in the morning.", now=T0)
    tea = remember(conn, real_embedder, "I hate tea in the morning.", now=T0)
    assert tea.action == "add"
    no_coffee = remember(conn, real_embedder, "I can't stand coffee in the morning any more.", now=T0)
    assert no_coffee.action == "supersede" and no_coffee.previous.id == coffee.memory.id
    assert {m.text for m in list_memories(conn)} == {tea.memory.text, no_coffee.memory.text}


def test_opposite_preference_about_other_subject_is_kept(conn, real_embedder):
    remember(conn, real_embedder, "Olga loves jazz.", now=T0)
    mine = remember(conn, real_embedder, "I hate jazz.", now=T0)
    assert mine.action == "add"  # about me, not about Olga
    assert len(list_memories(conn)) == 2


def test_synonym_claims_about_different_people_stay_apart(conn, real_embedder):
    mine = remember(conn, real_embedder, "I'm vegetarian.", now=T0)
    hers = remember(conn, real_embedder, "Olga doesn't eat meat.", now=T0)
    again = remember(conn, real_embedder, "I don't eat meat.", now=T0)
    assert hers.action == "add"
    assert again.action == "reinforce" and again.memory.id == mine.memory.id
    back = remember(conn, real_embedder, "I'm no longer vegetarian, I eat meat again.", now=T0)
    assert back.action == "supersede" and back.previous.id == mine.memory.id
    assert {m.text for m in list_memories(conn)} == {"Olga doesn't eat meat.", back.memory.text}


def test_reimport_of_same_message_changes_nothing(conn, real_embedder):
    first = remember(conn, real_embedder, "I live in Porto.", source="D1:3", source_ids=["D1:3"], now=T0)
    again = remember(conn, real_embedder, "I live in Porto.", source="D1:3", source_ids=["D1:3"], now=T0)
    other = remember(conn, real_embedder, "I live in Porto.", source="D7:1", source_ids=["D7:1"], now=T0)
    assert first.action == "add" and first.memory.confidence == 0.6  # extracted, not stated
    assert again.action == "none" and "already recorded from D1:3" in again.reason
    assert other.action == "reinforce" and other.memory.source_ids == ["D1:3", "D7:1"]
    assert list_memories(conn)[0].use_count == 1


def test_scope_of_updates_is_separate(conn, real_embedder):
    remember(conn, real_embedder, "My favourite editor is Vim.", now=T0)
    other = remember(conn, real_embedder, "My favourite editor is Emacs.", scope="work", now=T0)
    assert other.action == "add"
    assert {m.scope for m in list_memories(conn)} == {"global", "work"}


# ------------------------------------------------------------------ recall
def test_two_year_old_relevant_fact_is_found_and_decay_is_bounded(conn, real_embedder):
    old_time = T0 - timedelta(days=730)
    old = remember(conn, real_embedder, "My bicycle frame is size 56 from Cinelli.", now=old_time)
    for i in range(5):
        remember(conn, real_embedder, f"Note number {i}: I bought groceries at the market.", now=T0)
    hits = recall(conn, real_embedder, "what size is my bicycle frame", now=T0, k=3)
    assert hits[0].memory.id == old.memory.id
    s = hits[0].signals
    cfg = MemorySettings()
    assert s["age_days"] == pytest.approx(730, abs=0.01)
    assert cfg.recency_min <= s["recency_raw"] < cfg.recency_min + 0.01  # bounded below
    for key in ("semantic", "keyword", "bm25", "relevance", "recency", "importance",
                "reinforcement", "confidence", "anchor", "history_factor"):
        assert key in s
    assert hits[0].score == pytest.approx(sum(s[k] for k in ("relevance", "recency", "importance",
                                                             "reinforcement", "confidence", "anchor")))


def test_evergreen_kinds_never_decay(conn, real_embedder):
    assert "constraint" in EVERGREEN_KINDS and set(EVERGREEN_KINDS) <= set(KINDS)
    old = T0 - timedelta(days=3650)
    remember(conn, real_embedder, "I am allergic to peanuts.", now=old)
    remember(conn, real_embedder, "I enjoy peanut butter cookies from the bakery.", kind="preference", now=old)
    hits = {h.memory.kind: h for h in recall(conn, real_embedder, "peanuts", now=T0)}
    assert hits["constraint"].signals["recency_raw"] == 1.0
    assert hits["preference"].signals["recency_raw"] < 0.2


def test_recall_reinforces_by_use(conn, real_embedder):
    m = remember(conn, real_embedder, "My passport expires in March 2031.", now=T0).memory
    later = T0 + timedelta(days=100)
    first = recall(conn, real_embedder, "passport expiry", now=later)[0]
    second = recall(conn, real_embedder, "passport expiry", now=later)[0]
    assert first.memory.id == m.id and second.signals["reinforcement_raw"] > first.signals["reinforcement_raw"]
    stored = list_memories(conn)[0]
    assert stored.use_count == 2 and stored.last_used == later.isoformat()


def test_scope_isolation(conn, real_embedder):
    remember(conn, real_embedder, "The deploy server for the project is called kestrel.", scope="alpha", now=T0)
    remember(conn, real_embedder, "The deploy server for the project is called osprey.", scope="beta", now=T0)
    remember(conn, real_embedder, "I always deploy on Tuesdays.", now=T0)
    q = "which deploy server"
    alpha = {h.memory.text for h in recall(conn, real_embedder, q, scope="alpha", now=T0, touch=False)}
    beta = {h.memory.text for h in recall(conn, real_embedder, q, scope="beta", now=T0, touch=False)}
    glob = {h.memory.text for h in recall(conn, real_embedder, q, now=T0, touch=False)}
    assert any("kestrel" in t for t in alpha) and not any("osprey" in t for t in alpha)
    assert any("osprey" in t for t in beta) and not any("kestrel" in t for t in beta)
    assert not any("kestrel" in t or "osprey" in t for t in glob)
    assert any("Tuesdays" in t for t in alpha) and any("Tuesdays" in t for t in beta)
    ctx = core_context(conn, scope="alpha", now=T0)
    assert not any("osprey" in m.text for m in ctx.memories)


def test_forgotten_memory_never_recalled_but_listed(conn, real_embedder):
    m = remember(conn, real_embedder, "My locker code is 4512.", now=T0).memory
    gone = forget(conn, m.id, now=T0)
    assert gone.tombstone and gone.status == "forgotten"
    assert recall(conn, real_embedder, "locker code 4512", now=T0) == []
    assert list_memories(conn) == []
    everything = list_memories(conn, include_inactive=True)
    assert [x.id for x in everything] == [m.id] and everything[0].log[-1]["action"] == "forget"
    hist = recall(conn, real_embedder, "locker code", now=T0, include_history=True, touch=False)
    assert hist[0].signals["history_factor"] == 0.5
    assert forget(conn, m.id).tombstone  # idempotent


def test_forgotten_fact_is_not_restored_by_an_older_statement(conn, real_embedder):
    """A memory the person asked to forget does not come back when an older conversation
    saying the same (in other words) is imported or extracted later; saying it again after
    the forget does store it again."""
    said = T0 - timedelta(days=300)
    m = remember(conn, real_embedder, "My sister is called Marta.", now=said).memory
    forget(conn, m.id, now=T0)
    old = remember(conn, real_embedder, "I have a sister called Marta.", now=said + timedelta(days=1),
                   source="chat", source_ids=["chat:old#1"])
    assert old.action == "none" and old.memory.id == m.id and "forgotten" in old.reason
    assert list_memories(conn) == []
    again = remember(conn, real_embedder, "My sister is called Marta.", now=T0 + timedelta(days=2))
    assert again.action == "add" and again.memory.id != m.id
    assert [x.text for x in list_memories(conn)] == ["My sister is called Marta."]


def test_a_fact_a_chat_export_says_of_its_speaker_user_is_the_persons(conn, real_embedder):
    """A chat export names the person "user" (OpenAI's roles), so the rule extractor writes
    "user's sister is Marta."; that is the person's sister (entities.SELF_NAMES): it restates
    "My sister is called Marta." and a later "my sister is called Lucia" supersedes it."""
    first = remember(conn, real_embedder, "My sister is called Marta.", now=T0).memory
    same = remember(conn, real_embedder, "user's sister is Marta.", now=T0 + timedelta(days=1),
                    source="chat", source_ids=["chat:c1#1"])
    assert same.action == "reinforce" and same.memory.id == first.id, same.reason
    other = remember(conn, real_embedder, "The person's son is Leo.", now=T0 + timedelta(days=2))
    changed = remember(conn, real_embedder, "my son is called Theo", now=T0 + timedelta(days=3))
    assert changed.action == "supersede" and changed.previous.id == other.memory.id, changed.reason
    assert remember(conn, real_embedder, "Olga's sister is Rosa.", now=T0).action == "add"  # someone else's


def test_alias_recall_across_scripts(conn, real_embedder):
    m = remember(conn, real_embedder, "Olga plays the cello in an orchestra.", now=T0).memory
    remember(conn, real_embedder, "The boiler was serviced by Hansen.", now=T0)
    before = recall(conn, real_embedder, "Чем занимается Ольга?", now=T0, touch=False)
    assert m.id not in {h.memory.id for h in before}  # the embedder alone does not see it
    add_alias(conn, "Olga", "Ольга")
    after = recall(conn, real_embedder, "Чем занимается Ольга?", now=T0, touch=False)
    assert after[0].memory.id == m.id and after[0].signals["anchor_raw"] == 1.0
    assert after[0].signals["relevance_raw"] < MemorySettings().min_relevance  # bypassed the floor
    assert len(after) == 1  # the floor keeps the unrelated memory out


def test_alias_merges_two_entities(conn, real_embedder):
    remember(conn, real_embedder, "Bob fixed my bike.", now=T0)
    remember(conn, real_embedder, "Robert is my neighbour.", now=T0)
    add_alias(conn, "Robert", "Bob")
    from cairn.memory.entities import list_entities
    ents = [e for e in list_entities(conn) if "Robert" in e["aliases"]]
    assert len(ents) == 1 and set(ents[0]["aliases"]) == {"Bob", "Robert"} and ents[0]["memories"] == 2
    hits = recall(conn, real_embedder, "Robert", now=T0, touch=False)
    assert {h.memory.text for h in hits} == {"Bob fixed my bike.", "Robert is my neighbour."}


def test_core_context_blocks_and_top_memories(conn, real_embedder):
    set_core_block(conn, "style", "Short answers, metric units.")
    remember(conn, real_embedder, "I live in Porto.", confidence=0.9, now=T0)
    remember(conn, real_embedder, "Maybe I like opera.", confidence=0.3, now=T0)
    remember(conn, real_embedder, "The project codename is Heron.", scope="alpha", now=T0)
    ctx = core_context(conn, limit=5, now=T0)
    assert ctx.blocks == {"style": "Short answers, metric units."}
    assert [m.text for m in ctx.memories] == ["I live in Porto.", "Maybe I like opera."]
    assert "Short answers" in ctx.render() and "- I live in Porto." in ctx.render()
    assert len(core_context(conn, scope="alpha", now=T0).memories) == 3
    with pytest.raises(ValueError, match="core block name"):
        set_core_block(conn, "bad name!", "x")


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kwargs,message", [
    ({"text": "   "}, "empty"),
    ({"text": "x", "kind": "hobby"}, "unknown kind 'hobby'"),
    ({"text": "x", "confidence": 1.5}, "confidence must be between 0 and 1"),
    ({"text": "x", "scope": " "}, "scope is empty"),
])
def test_bad_input_is_named_and_stores_nothing(conn, real_embedder, kwargs, message):
    remember(conn, real_embedder, "I like tea.", now=T0)
    text = kwargs.pop("text")
    with pytest.raises(ValueError, match=message):
        remember(conn, real_embedder, text, now=T0, **kwargs)
    assert [m.text for m in list_memories(conn, include_inactive=True)] == ["I like tea."]


def test_unknown_id_and_bad_queries(conn, real_embedder):
    with pytest.raises(MemoryNotFound, match="m-nope"):
        forget(conn, "m-nope")
    with pytest.raises(MemoryNotFound, match="m-nope"):
        history(conn, "m-nope")
    with pytest.raises(ValueError, match="query is empty"):
        recall(conn, real_embedder, " ")
    with pytest.raises(ValueError, match="k must be"):
        recall(conn, real_embedder, "tea", k=0)
    with pytest.raises(ValueError, match="unknown kind"):
        list_memories(conn, kind="nope")
    with pytest.raises(ValueError, match="empty"):
        add_alias(conn, "Olga", " ")


# ------------------------------------------------------------------ vault mirror
def test_rebuild_from_vault_mirror_after_deleting_the_index(home, embedder):
    with Cairn(home, embedder=embedder) as app:
        ronaldo = app.remember("My favourite football player is Ronaldo.", at="2025-02-10T12:00:00-05:00")
        messi = app.remember("My current favourite football player is Messi.", at="2025-08-20T12:00:00-04:00")
        locker = app.remember("My locker code is 4512.", scope="gym")
        app.forget(locker.memory.id)
        olga = app.remember("Olga plays the cello.")
        app.entity_alias("Olga", "Ольга")
        app.core_set("person", "Sam, a nurse in Leeds.")
        before = {m.id: m for m in app.memories(include_inactive=True)}
    (home / "index.db").unlink()
    for extra in ("index.db-wal", "index.db-shm"):
        (home / extra).unlink(missing_ok=True)
    with Cairn(home, embedder=embedder) as app:
        assert app.memories(include_inactive=True) == []
        report = app.reindex()
        assert report.failed == []
        after = {m.id: m for m in app.memories(include_inactive=True)}
        assert after.keys() == before.keys()
        for mid, m in before.items():
            assert after[mid].to_json() == m.to_json()
        assert after[ronaldo.memory.id].superseded_by == messi.memory.id
        assert after[locker.memory.id].tombstone
        assert app.core().blocks == {"person": "Sam, a nurse in Leeds."}
        hits = app.recall("Ольга")
        assert hits[0].memory.id == olga.memory.id
        assert app.search("Ronaldo", mode="keyword").hits == []  # mirror files are not notes


def test_edited_mirror_file_is_picked_up_by_reindex_and_bad_file_reported(home, embedder):
    with Cairn(home, embedder=embedder) as app:
        m = app.remember("My gym is on Kirk Street.").memory
        path = app.settings.vault / "_memory" / f"{m.id}.md"
        path.write_text(path.read_text(encoding="utf-8").replace("Kirk Street", "Mill Lane"), encoding="utf-8")
        broken = app.settings.vault / "_memory" / "mbroken.md"
        broken.write_text("---\nid: mbroken\nkind: hobby\n---\n\nText\n", encoding="utf-8")
        report = app.reindex()
        assert [(p.endswith("mbroken.md"), "unknown kind" in r) for p, r in report.failed] == [(True, True)]
        assert broken.exists()  # reported, never deleted
        [mem] = app.memories()
        assert mem.text == "My gym is on Mill Lane."
        assert app.recall("Mill Lane gym")[0].memory.id == m.id


def test_memory_settings_from_config(home):
    home.mkdir(parents=True)
    (home / "config.toml").write_text("[memory]\nhalf_life_days = 7\nmin_relevance = 0.2\n")
    s = load_settings(home)
    assert s.memory.half_life_days == 7.0 and s.memory.min_relevance == 0.2


def test_unwritable_vault_rolls_back_and_names_the_problem(tmp_path, conn, real_embedder):
    vault = tmp_path / "vault"
    (vault / "_memory").mkdir(parents=True)
    kept = remember(conn, real_embedder, "I like tea.", now=T0, vault=vault).memory
    blocker = vault / "_memory"
    shutil.rmtree(blocker)
    blocker.write_text("not a folder")  # _memory is now a file: nothing can be written under it
    with pytest.raises(OSError):
        remember(conn, real_embedder, "I live in Porto.", now=T0, vault=vault)
    assert [m.id for m in list_memories(conn, include_inactive=True)] == [kept.id]
    with pytest.raises(OSError):
        forget(conn, kept.id, vault=vault)
    assert list_memories(conn)[0].active


@pytest.mark.parametrize("old,new", [("The spare key is in drawer 1.", "The spare key is in drawer 83."),
                                     ("My locker code is 4417.", "My locker code is 4471."),
                                     ("The boiler pressure should be 1.5 bar.", "The boiler pressure should be 2.5 bar.")])
def test_facts_that_differ_only_in_a_number_are_not_merged(conn, real_embedder, old, new):
    """Issue 34: "drawer 1" / "drawer 83" were one memory (a paraphrase), so the newer one
    was never recalled. A statement with other numbers is never a restatement."""
    a = remember(conn, real_embedder, old, now=T0)
    b = remember(conn, real_embedder, new, now=T0 + timedelta(days=1))
    assert b.action != "reinforce" and b.memory.id != a.memory.id, b.reason
    texts = [h.memory.text if hasattr(h, "memory") else h.text for h in recall(conn, real_embedder, new, k=5)]
    assert new in texts
    again = remember(conn, real_embedder, new.replace("The ", "the "), now=T0 + timedelta(days=2))
    assert again.action == "reinforce"  # the same numbers still restate


@pytest.mark.parametrize("text, scope, named", [
    ("hi\x00there", "global", "U+0000"), ("call\x1b[2J Ana", "global", "U+001B"),
    ("My bike is red", "work\x00", "U+0000"), ("My bike is red", "work\x07", "U+0007"),
    ("bell\x7f", "global", "U+007F")])
def test_control_characters_in_a_memory_or_its_scope_are_refused(conn, real_embedder, tmp_path, text, scope, named):
    """probe21: POST /api/memories {"text": "hi\\u0000there"} was stored, and the NUL written
    into the vault's _memory/ markdown file; a scope "work\\u0000" was a scope of its own.
    Line breaks and tabs are white space (collapsed), not refused."""
    with pytest.raises(InvalidInput, match=re.escape(named)):
        remember(conn, real_embedder, text, scope=scope, now=T0, vault=tmp_path / "vault")
    assert list_memories(conn) == []
    assert not (tmp_path / "vault").exists()
    assert remember(conn, real_embedder, "My bike\tis\nred", now=T0).memory.text == "My bike is red"


def test_control_characters_in_a_core_block_are_refused(conn):
    with pytest.raises(InvalidInput, match=re.escape("U+0000")):
        set_core_block(conn, "persona", "I am\x00 Ana")
    set_core_block(conn, "persona", "I am Ana.\n\tI live in Porto.")  # lines and tabs are fine


def test_an_empty_memory_id_is_named_empty(app):
    """probe21: `cairn forget ""` said "no memory with id ''"; every other empty argument is
    named empty ("the reminder text is empty", "recall query is empty")."""
    for act in (app.forget, app.memory_history):
        with pytest.raises(InvalidInput, match="the memory id is empty"):
            act("  ")
