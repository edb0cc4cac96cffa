"""The home's own people (CAIRN_PERSON, Cairn(person=...), an API key's person) are one
person however their name is typed: "Alice", "alice" and " ALICE " see and change the same
notes, memories, core blocks, reminders, sessions, mood and exports (compared through
cairn.people.person_key: surrounding spaces trimmed, case folded), while the name is kept as
the person wrote it (a note's `cairn_owner`, their folder) and another name stays another
person. Before, CAIRN_PERSON=alice did not see what Alice wrote."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cairn.errors import InvalidInput, NotFound
from cairn.service import Cairn

from conftest import HashEmbedder, write


def test_names_compare_without_case_or_surrounding_spaces():
    from cairn.people import (check_person, core_key, memory_visible, note_visible, own_core_blocks, person_key,
                              record_visible, same_person)
    assert check_person("  Alice ") == "Alice" and check_person("   ") is None
    with pytest.raises(InvalidInput, match="person 'Al ice'"):
        check_person("Al ice")
    assert person_key(" ALICE ") == "alice" and same_person("Alice", "alice") and not same_person("Alice", "Alicia")
    assert same_person(None, "") and not same_person(None, "alice")
    assert note_visible({"cairn_owner": "Alice"}, "alice") and not note_visible({"cairn_owner": "Alice"}, "bob")
    assert memory_visible("@Alice", "alice") and memory_visible("@Alice/work", "ALICE")
    assert not memory_visible("@Alicia", "alice") and not memory_visible("global", "alice")
    assert own_core_blocks({"@Alice/name": "A", "@Bob/name": "B", "name": "Home"}, "alice") == {"name": "A"}
    assert record_visible("Alice", "alice") and not record_visible("Bob", "alice")
    assert core_key("alice", "name", ["@Alice/name", "@Bob/name"]) == "@Alice/name"
    assert core_key("alice", "mood", ["@Alice/name"]) == "@alice/mood"


@pytest.fixture
def alice_home(tmp_path):
    """Alice (typed "Alice") wrote a note, a memory, a core block, a reminder and a session
    turn; Bob a note of his own."""
    home = tmp_path / "home"
    with Cairn(home, embedder=HashEmbedder(), person="Alice") as alice:
        alice.note_create("Alice diary", "The spare key is under the heron statue.")
        alice.remember("I am allergic to peanuts")
        alice.core_set("name", "Alice")
        with alice.scheduler() as sch:
            sch.remind("water the ferns", every="every day at 9")
        alice.extract_transcript([("s-a#1", "I'm exhausted and so worried about the exam",
                                   "2026-01-05T10:00:00+00:00")], llm="none")
    with Cairn(home, embedder=HashEmbedder(), person="Bob") as bob:
        bob.note_create("Bob boiler", "The boiler pressure is 1.5 bar near the heron.")
    return home


@pytest.mark.parametrize("typed", ["alice", " ALICE ", "Alice"])
def test_the_same_person_typed_another_way_sees_and_changes_their_own(alice_home, typed):
    from datetime import datetime, timezone
    with Cairn(alice_home, embedder=HashEmbedder(), person=typed) as me:
        assert me.settings.owner == typed.strip()  # kept as written
        titles = [n["title"] for n in me.notes_list().to_json()["notes"]]
        assert titles == ["Alice diary"], titles
        assert [h.title for h in me.search("heron", mode="keyword").hits] == ["Alice diary"]
        assert "I am allergic to peanuts" in [m.text for m in me.memories()]
        assert [h.memory.text for h in me.recall("peanuts")][0] == "I am allergic to peanuts"
        assert me.core().blocks == {"name": "Alice"}
        me.core_set("name", "Alice M.")  # the same block, not a second one
        assert me.core().blocks == {"name": "Alice M."}
        me.note_update("Alice diary", "The spare key moved to the shed.")  # theirs: may change it
        with me.scheduler() as sch:
            assert [r.text for r in sch.list()] == ["water the ferns"]
        now = datetime(2026, 1, 5, 11, 0, tzinfo=timezone.utc)
        assert me.mood(at=now).to_json()["mood"] != "neutral"
        exp = me.export(format="json")
        assert [e["title"] for e in exp.to_json()["notes"]] == ["Alice diary"]
    # the note keeps the name as Alice wrote it; her exports have one folder, found whichever
    # way her name is typed
    diary = next(p for p in (alice_home / "vault").rglob("*.md") if "spare key" in p.read_text())
    assert "cairn_owner: Alice" in diary.read_text()
    [folder] = (alice_home / "exports").iterdir()
    assert folder.name.lower() == "@alice"
    with Cairn(alice_home, embedder=HashEmbedder(), person="Alice") as alice:
        assert alice.export_path(exp.name).is_file()
    with Cairn(alice_home, embedder=HashEmbedder(), person="alicia") as other:  # another name
        assert other.notes_list().to_json()["notes"] == [] and list(other.memories()) == []
        with pytest.raises(NotFound):
            other.note_show("Alice diary")


def test_cairn_person_in_another_case_on_the_command_line(alice_home):
    env = {**os.environ, "CAIRN_PERSON": " alice "}
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(alice_home), "memories", "--json"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "I am allergic to peanuts" in r.stdout
