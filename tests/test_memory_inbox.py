"""The review inbox of extracted memories (cairn.memory.review, `Cairn.memory_review*`,
`cairn memories review`): extracted facts are deduplicated against existing memories before
they are stored; what extraction keeps waits in the inbox with its near-duplicates; confirm,
edit, reject and merge each change exactly one thing; bad input changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cairn.errors import Conflict, InvalidInput
from cairn.memory.match import EXTRACTED_PARAPHRASE_COS
from cairn.memory.store import MemoryNotFound
from cairn.service import Cairn

SID = "s-20260101-000000-abcdef"


def _said(seq: int, text: str) -> tuple[str, str, str]:
    return (f"{SID}#{seq}", text, f"2026-01-01T10:{seq:02d}:00+00:00")


@pytest.fixture
def app(tmp_path, real_embedder):
    with Cairn(tmp_path / "home", embedder=real_embedder) as a:
        yield a


@pytest.mark.parametrize("threshold,action", [(None, "add"), (EXTRACTED_PARAPHRASE_COS, "reinforce")])
def test_a_reworded_fact_reinforces_under_the_extraction_threshold(app, threshold, action):
    """cosine 0.86 (measured): above the extraction threshold, below the person's own."""
    from cairn.memory import remember
    # no day named: "on Friday" resolves to other dates by tense ("told ... Friday" is the last
    # one), and statements with other dates are never paraphrases (match.numbers)
    remember(app.conn, app.embedder, "I promised to call Ana soon")
    change = remember(app.conn, app.embedder, "I told Ana I would phone her soon",
                      source=f"{SID}#2", source_ids=[f"{SID}#2"], paraphrase_cos=threshold)
    assert change.action == action, change.reason


def test_extracted_facts_are_deduplicated_before_they_are_stored(app, monkeypatch):
    import cairn.memory as M
    seen = []
    real = M.remember
    monkeypatch.setattr(M, "remember", lambda *a, **kw: seen.append(kw.get("paraphrase_cos")) or real(*a, **kw))
    app.extract_transcript([_said(2, "My dog is called Rex."),
                            _said(4, "My dog's name is Rex and he is three.")], llm="none")
    assert seen and set(seen) == {EXTRACTED_PARAPHRASE_COS}
    assert len([m for m in app.memories() if "Rex" in m.text]) == 1


def test_the_inbox_holds_extracted_memories_with_their_near_duplicates(app):
    mine = app.remember("I promised to call Ana on Friday").memory
    app.extract_transcript([_said(2, "I told Ana I would phone her on Friday."),
                            _said(4, "My dog is called Rex.")], llm="none")
    items = app.memory_review()
    assert mine.id not in [it.memory.id for it in items]  # the person's own words need no review
    assert len(items) == 2
    ana = next(it for it in items if "Ana" in it.memory.text)
    assert [n["memory"].id for n in ana.near] == [mine.id] and ana.near[0]["cosine"] >= 0.7
    assert ana.sources == [{"id": f"{SID}#2", "text": None}]
    assert json.loads(json.dumps(items.to_json()))[0].keys() == {"memory", "near", "sources"}
    # merge the extracted duplicate into the person's memory
    change = app.memory_review_act("merge", mine.id, other=ana.memory.id)
    assert change.action == "merge" and f"{SID}#2" in change.memory.source_ids
    dropped = app.memory_history(ana.memory.id)[-1]
    assert [m.id for m in app.memory_history(ana.memory.id)] == [ana.memory.id, mine.id]
    assert dropped.id == mine.id
    assert [it.memory.text for it in app.memory_review()] == ["The person's dog is Rex."]


def test_confirm_edit_and_reject_each_take_the_memory_out_of_the_inbox(app):
    app.extract_transcript([_said(2, "My dog is called Rex."), _said(4, "I live in Porto."),
                            _said(6, "I work at the bakery on Main Street.")], llm="none")
    items = {it.memory.text: it.memory for it in app.memory_review()}
    assert len(items) == 3
    dog, porto, bakery = (next(m for t, m in items.items() if w in t) for w in ("Rex", "Porto", "bakery"))
    assert app.memory_review_act("confirm", dog.id).memory.confidence >= 0.9
    edited = app.memory_review_act("edit", porto.id, text="I live in Lisbon")
    assert edited.memory.text == "I live in Lisbon" and edited.previous.superseded_by == edited.memory.id
    assert app.memory_review_act("reject", bakery.id).memory.tombstone
    assert app.memory_review() == []
    active = {m.text for m in app.memories()}
    assert "I live in Lisbon" in active and not any("bakery" in t for t in active)


def test_bad_review_actions_change_nothing(app):
    app.extract_transcript([_said(2, "My dog is called Rex.")], llm="none")
    (item,) = app.memory_review()
    before = [m.to_json() for m in app.memories(include_inactive=True)]
    with pytest.raises(InvalidInput, match="unknown review action 'approve'"):
        app.memory_review_act("approve", item.memory.id)
    with pytest.raises(InvalidInput, match="corrected text"):
        app.memory_review_act("edit", item.memory.id, text="  ")
    with pytest.raises(InvalidInput, match="merge needs"):
        app.memory_review_act("merge", item.memory.id)
    with pytest.raises(Conflict, match="with itself"):
        app.memory_review_act("merge", item.memory.id, other=item.memory.id)
    with pytest.raises(MemoryNotFound):
        app.memory_review_act("confirm", "m-nope")
    assert [m.to_json() for m in app.memories(include_inactive=True)] == before
    app.memory_review_act("reject", item.memory.id)
    with pytest.raises(Conflict, match="forgotten"):
        app.memory_review_act("confirm", item.memory.id)


def test_cli_memories_review_lists_and_merges(tmp_path, real_embedder):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as a:
        mine = a.remember("I promised to call Ana on Friday").memory
        a.extract_transcript([_said(2, "I told Ana I would phone her on Friday.")], llm="none")
    env = {**os.environ, "CAIRN_LOAD_PLUGINS": ""}

    def cairn(*args):
        return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args],
                              capture_output=True, text=True, env=env, timeout=300)
    listed = cairn("memories", "review", "--json")
    assert listed.returncode == 0, listed.stderr
    (item,) = json.loads(listed.stdout)
    assert item["near"][0]["memory"]["id"] == mine.id
    bad = cairn("memories", "review", "--merge", item["memory"]["id"])
    assert bad.returncode == 2 and "--into" in bad.stderr
    merged = cairn("memories", "review", "--merge", item["memory"]["id"], "--into", mine.id, "--json")
    assert merged.returncode == 0, merged.stderr
    assert json.loads(merged.stdout)["action"] == "merge"
    with Cairn(home, embedder=real_embedder) as a:
        assert a.memory_review() == [] and [m.id for m in a.memories()] == [mine.id]
