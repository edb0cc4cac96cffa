"""`cairn import claude`: conversations from the export .zip become chat notes (speaker,
time, attachment text), idempotent, updated per conversation; a truncated zip is refused."""

from __future__ import annotations

import json
import zipfile

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import claude_conversation, imported_notes, vault_snapshot


def write_zip(path, convs):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("users.json", json.dumps([{"uuid": "acct-1", "full_name": "Ana"}]))
        zf.writestr("conversations.json", json.dumps(convs))
    return path


GARDEN = [("human", "My allotment is plot 14 at Hillside gardens."), ("assistant", "Nice, what do you grow?")]


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("claude")
    convs = [claude_conversation("u-garden", "Allotment", GARDEN),
             claude_conversation("u-empty", "Empty", []), "not an object"]
    convs[0]["chat_messages"][0]["attachments"] = [{"file_name": "seeds.txt", "file_size": 20,
                                                    "file_type": "txt", "extracted_content": "Kale, chard, leeks"}]
    path = write_zip(tmp / "data-2025.zip", convs)
    with Cairn(tmp / "home", embedder=HashEmbedder()) as app:
        yield app, tmp, app.import_export("claude", path, extract=False)


def test_conversations_become_chat_notes(imported):
    app, _, first = imported
    assert (len(first.added), len(first.skipped)) == (1, 2)
    fm, text = imported_notes(app, "claude")["Allotment"]
    assert fm["source_id"] == "u-garden" and fm["speakers"] == ["Claude", "User"]
    assert "## [u-garden-0] User · 2025-02-03T10:00:00Z" in text and "Attachment: seeds.txt" in text
    assert app.search("chard", mode="keyword").hits[0].title == "Allotment"


def test_reimport_and_update(imported):
    app, tmp, _ = imported
    again = app.import_export("claude", write_zip(tmp / "same.zip", [claude_conversation("u-garden", "Allotment", GARDEN)]),
                              extract=False)
    # the attachment is gone from this export: the conversation changed
    assert (len(again.added), len(again.updated)) == (0, 1)
    same = app.import_export("claude", tmp / "same.zip", extract=False)
    assert (len(same.added), len(same.updated), len(same.unchanged)) == (0, 0, 1)


def test_a_truncated_zip_is_refused_naming_the_file(imported):
    app, tmp, _ = imported
    before = vault_snapshot(app)
    data = (tmp / "data-2025.zip").read_bytes()
    cut = tmp / "cut.zip"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidInput) as err:
        app.import_export("claude", cut)
    assert str(cut) in err.value.message and "zip" in err.value.message
    assert vault_snapshot(app) == before


def test_odd_attachments_do_not_stop_the_import(tmp_path):
    odd = claude_conversation("u-odd", "Odd attachments", [("human", "The shed key is under the blue pot."),
                                                            ("assistant", "Noted.")])
    odd["chat_messages"][0]["attachments"] = [{"file_name": "n.txt", "extracted_content": 5}]
    odd["chat_messages"][1]["attachments"] = 7
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        report = app.import_export("claude", write_zip(tmp_path / "odd.zip", [odd]), extract=False)
        assert len(report.added) == 1
        assert "blue pot" in imported_notes(app, "claude")["Odd attachments"][1]
