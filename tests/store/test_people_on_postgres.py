"""Several people in one home with the index on PostgreSQL (CAIRN_STORE_URL): notes,
search, memories, core blocks, entities and exports are kept apart as on SQLite
(tests/interfaces/test_people.py has every door on SQLite)."""

from __future__ import annotations

import pytest

from cairn.errors import NotFound
from cairn.service import Cairn


def titles(hits) -> set[str]:
    return {h.title for h in hits}


def entity_names(listing) -> set[str]:
    rows = listing.to_json()
    rows = rows.get("entities", rows) if isinstance(rows, dict) else rows
    return {e["name"] for e in rows}


def test_people_are_kept_apart_on_postgresql_too(tmp_path, pg_url, monkeypatch, hash_embedder):
    """The same isolation with the index on PostgreSQL (CAIRN_STORE_URL): notes, search,
    memories, core blocks, entities and exports."""
    monkeypatch.setenv("CAIRN_STORE_URL", pg_url)
    home = tmp_path / "home"
    for who, name, text in (("ana", "heron", "---\npeople: [Marta Kowalski]\n---\n# Heron log\n\nThe heron nests here.\n"),
                            ("bob", "boiler", "---\npeople: [Piotr Nowak]\n---\n# Boiler\n\nThe heron-grey boiler.\n")):
        (tmp_path / who).mkdir()
        (tmp_path / who / f"{name}.md").write_text(text)
        with Cairn(home, embedder=hash_embedder, person=who) as svc:
            assert svc.on_postgres
            assert not svc.ingest([tmp_path / who]).failed
            svc.remember(f"{who} likes tea")
            svc.core_set("name", who.title())
    with Cairn(home, embedder=hash_embedder, person="bob") as bob:
        assert titles(bob.search("heron", mode="keyword").hits) == {"Boiler"}
        assert titles(bob.search("heron", mode="hybrid").hits) <= {"Boiler"}
        assert {n["title"] for n in bob.notes_list().to_json()["notes"]} == {"Boiler"}
        assert [m.text for m in bob.memories()] == ["bob likes tea"]
        assert bob.core().blocks == {"name": "Bob"}
        names = entity_names(bob.entities())
        assert "Piotr Nowak" in names and "Marta Kowalski" not in names
        with pytest.raises(NotFound):
            bob.entity_show("Marta Kowalski")
        with pytest.raises(NotFound):
            bob.note_show("Heron log")
        assert {n["title"] for n in bob.export(format="json").to_json()["notes"]} == {"Boiler"}
    with Cairn(home, embedder=hash_embedder) as owner:
        assert titles(owner.search("heron", mode="keyword").hits) == {"Heron log", "Boiler"}
        assert owner.core().blocks == {}
