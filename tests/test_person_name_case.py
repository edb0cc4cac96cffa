"""A person (an entity) stored capitalised is found under their name in any case: `entity
show`, `search --entity`, recall's entity anchor and the answer's person check all fold the
name (cairn.names.alias_keys), while two different names stay two entities. A guard for the
session-12 check (closing11: "person names matched case-sensitively somewhere"): no
case-sensitive lookup was found. The home's own people (CAIRN_PERSON, cairn.people) are
compared without case and surrounding spaces too, since session 13
(tests/test_person_owner_case.py)."""

from __future__ import annotations

import pytest

from cairn.service import Cairn

from conftest import HashEmbedder, write, write_jsonl


@pytest.fixture
def people(tmp_path):
    write(tmp_path / "src" / "trip.md", "# Lisbon trip\n\nAlice Moreno booked the flights to Lisbon in May.\n")
    chat = write_jsonl(tmp_path / "chat.jsonl", [
        {"conversation": "c1", "session": "s1", "id": "m1", "speaker": "Lena",
         "time": "2025-11-19T18:30:00+01:00", "text": "I'm vegetarian, so I love the new falafel place."},
        {"conversation": "c1", "session": "s1", "id": "m2", "speaker": "Sam",
         "time": "2025-11-19T18:31:00+01:00", "text": "I started learning the cello last week."}])
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        app.ingest([str(tmp_path / "src")])
        app.import_chat(chat)
        app.remember("Alicia prefers window seats")  # a different name: a different entity
        yield app


@pytest.mark.parametrize("name", ["Alice Moreno", "alice moreno", "ALICE MORENO"])
def test_entity_show_and_search_by_entity_find_the_name_in_any_case(people, name):
    assert people.entity_show(name)["name"] == "Alice Moreno"
    hits = people.search("flights", mode="keyword", entity=name).hits
    assert [h.title for h in hits] == ["Lisbon trip"]


def test_a_different_name_is_not_merged_by_folding(people):
    assert people.entity_show("alicia")["name"] == "Alicia"
    assert people.entity_show("alicia")["id"] != people.entity_show("alice moreno")["id"]


def test_recall_anchors_a_lowercase_name_as_the_capitalised_one(people):
    upper = people.recall("what does Lena eat", k=5)
    lower = people.recall("what does lena eat", k=5)
    anchored = {r.memory.id for r in upper if r.signals["anchor_raw"] == 1.0}
    assert anchored and anchored == {r.memory.id for r in lower if r.signals["anchor_raw"] == 1.0}
