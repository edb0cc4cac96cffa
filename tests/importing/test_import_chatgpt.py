"""`cairn import chatgpt`: the branch the person saw, speakers and times, a second import
adds nothing, an updated export updates only what changed, --dry-run writes nothing, a bad
conversation is skipped, a truncated file stops with a clear error and loses nothing."""

from __future__ import annotations

import json

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import gpt_conversation, imported_notes, vault_snapshot, write_chatgpt

TRIP = [("user", "I am planning a trip to Lisbon with Marta in May."),
        ("assistant", "Lisbon in May is lovely: book the tram tour early."),
        ("user", "My favourite food is grilled sardines.")]
BIKE = [("user", "The tandem bicycle needs a new chain."), ("assistant", "Chains wear out; measure stretch.")]


def export(tmp, extra=()):
    convs = [gpt_conversation("c-trip", "Trip to Lisbon", TRIP, branch_at=1),
             gpt_conversation("c-bike", "Bike repair", BIKE, t0=1_710_000_000.0),
             *extra]
    return write_chatgpt(tmp / "export" / "conversations.json", convs)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gpt")
    app = Cairn(tmp / "home", embedder=HashEmbedder())
    path = export(tmp, extra=[{"title": "broken", "id": "c-broken"}])
    first = app.import_export("chatgpt", path)
    yield app, tmp, path, first
    app.close()


def _note(app, title):
    return imported_notes(app, "chatgpt")[title]


def test_the_seen_branch_becomes_a_chat_note_with_speakers_and_times(imported):
    app, _, _, first = imported
    assert first.to_json()["counts"] == {"added": 2, "updated": 0, "unchanged": 0, "skipped": 1}
    assert "c-broken" in first.skipped[0][0] + first.skipped[0][1] or "broken" in first.skipped[0][0]
    fm, text = _note(app, "Trip to Lisbon")
    assert fm["type"] == "chat" and fm["source_id"] == "c-trip" and fm["speakers"] == ["ChatGPT", "User"]
    assert "Lisbon in May is lovely" in text and "ABANDONED BRANCH" not in text
    assert "## [c-trip-m0] User · 2023-11-14T22:13:30Z" in text
    assert "ChatGPT · 2023-11-14T22:13:40Z" in text
    hits = app.search("sardines", mode="keyword")
    assert hits.hits and hits.hits[0].title == "Trip to Lisbon"


def test_memories_are_extracted_and_speakers_become_people(imported):
    app, _, _, first = imported
    assert first.facts_extracted >= 1
    assert any("sardines" in m.text for m in app.memories())


def test_a_second_import_adds_nothing(imported):
    app, _, path, _ = imported
    again = app.import_export("chatgpt", path, extract=False)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 2)
    assert again.embedded == 0


def test_an_updated_export_updates_only_what_changed_and_dry_run_writes_nothing(imported, tmp_path):
    app, _, _, _ = imported
    longer = gpt_conversation("c-bike", "Bike repair", BIKE + [("user", "I bought a KMC chain.")], t0=1_710_000_000.0)
    path = write_chatgpt(tmp_path / "conversations.json",
                         [gpt_conversation("c-trip", "Trip to Lisbon", TRIP, branch_at=1), longer,
                          gpt_conversation("c-new", "Sourdough", [("user", "Feed the starter rye.")])])
    before = vault_snapshot(app)
    dry = app.import_export("chatgpt", path, dry_run=True)
    assert dry.dry_run and (len(dry.added), len(dry.updated), len(dry.unchanged)) == (1, 1, 1)
    assert vault_snapshot(app) == before
    real = app.import_export("chatgpt", path, extract=False)
    assert (len(real.added), len(real.updated), len(real.unchanged)) == (1, 1, 1)
    assert "KMC chain" in _note(app, "Bike repair")[1]


def test_a_truncated_export_stops_with_one_clear_error_and_loses_nothing(imported, tmp_path):
    app, _, path, _ = imported
    before = vault_snapshot(app)
    data = path.read_bytes()
    cut = tmp_path / "conversations.json"
    cut.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(InvalidInput) as err:
        app.import_export("chatgpt", cut)
    assert str(cut) in err.value.message and "truncated" in err.value.message
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"not": "an export"}))
    with pytest.raises(InvalidInput, match="not a JSON array"):
        app.import_export("chatgpt", other)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'[{"title": "caf\xe9"}]')
    with pytest.raises(InvalidInput, match="not UTF-8"):
        app.import_export("chatgpt", latin)
    assert vault_snapshot(app) == before
    assert "sardines" in _note(app, "Trip to Lisbon")[1]


def test_current_node_picks_an_earlier_branch(tmp_path):
    conv = gpt_conversation("c-b", "Branches", TRIP, branch_at=1, current="c-b-old1")
    from cairn.ingest.importing.chatgpt import conversation
    item = conversation(conv)
    assert [m.text for m in item.messages] == [TRIP[0][1], "ABANDONED BRANCH " + TRIP[1][1]]


def test_a_deeply_nested_item_is_a_clear_error_not_a_crash(imported, tmp_path):
    app, _, _, _ = imported
    before = vault_snapshot(app)
    good = json.dumps(gpt_conversation("c-new", "New one", [("user", "Otters play at dusk.")]))
    deep = tmp_path / "conversations.json"
    deep.write_text(f"[{good}, {'[' * 100_000}{']' * 100_000}]")
    with pytest.raises(InvalidInput) as err:
        app.import_export("chatgpt", deep)
    assert str(deep) in err.value.message and "item 2" in err.value.message and "nested" in err.value.message
    assert vault_snapshot(app) == before


@pytest.mark.parametrize("damage", [
    lambda c: c.update(current_node=[]),
    lambda c: next(iter(c["mapping"].values())).update(parent=[]),
    lambda c: [n["message"].update(author=5) for n in c["mapping"].values() if n.get("message")],
    lambda c: [n["message"].update(content=5) for n in c["mapping"].values() if n.get("message")],
    lambda c: [n["message"].update(metadata=5) for n in c["mapping"].values() if n.get("message")],
])
def test_odd_types_in_one_conversation_do_not_stop_the_import(tmp_path, damage):
    odd = gpt_conversation("c-odd", "Odd", [("user", "The ladder is in the barn.")])
    damage(odd)
    path = write_chatgpt(tmp_path / "conversations.json",
                         [odd, gpt_conversation("c-ok", "Fine", [("user", "Swifts return in May.")])])
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        report = app.import_export("chatgpt", path, extract=False)
        assert "Fine" in imported_notes(app, "chatgpt") and len(report.added) + len(report.skipped) == 2


def test_a_symlink_out_of_the_export_folder_is_not_followed(tmp_path):
    outside = write_chatgpt(tmp_path / "elsewhere" / "conversations.json",
                            [gpt_conversation("c-out", "Outside", [("user", "Not part of this export.")])])
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "conversations.json").symlink_to(outside)
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        with pytest.raises(InvalidInput, match="no conversations.json in this folder"):
            app.import_export("chatgpt", folder)
        assert "Outside" not in imported_notes(app, "chatgpt")
