"""`cairn import mbox` and `cairn import maildir`: messages become notes with sender (a
person), time and thread; mboxrd "From " quoting is undone; attachments are read by the
existing parsers; a second import adds nothing; another format is refused clearly."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import imported_notes, mail, vault_snapshot, write_maildir, write_mbox

FIRST = mail("a1@example.org", "Marta Lopez <marta@example.org>", "me@example.org", "Offsite venue",
             "The offsite is at the lighthouse in Porto.\nFrom the station take tram 1.\n>From here it is close.\n")
REPLY = mail("a2@example.org", "Ben Okafor <ben@example.org>", "marta@example.org", "Re: Offsite venue",
             "Great, I will book the rooms.", date="Tue, 04 Feb 2025 09:30:00 +0000", reply_to="a1@example.org",
             attachment=("agenda.txt", b"Day one: kayaking on the Douro.\n", "text/plain"))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mail")
    with Cairn(tmp / "home", embedder=HashEmbedder()) as a:
        yield a


def test_mbox_messages_become_notes_with_people_threads_and_quoting_undone(app, tmp_path):
    box = write_mbox(tmp_path / "Inbox.mbox", [FIRST, REPLY])
    raw = box.read_bytes()
    assert b"\n>From the station" in raw and b"\n>>From here" in raw  # written quoted (mboxrd)
    report = app.import_export("mbox", box)
    assert (len(report.added), len(report.skipped)) == (2, 0)
    notes = imported_notes(app, "mbox")
    fm, text = notes["Offsite venue"]
    assert fm["source_id"] == "a1@example.org" and fm["people"] == ["Marta Lopez"]
    assert fm["created"] == "2025-02-03T09:00:00Z"
    assert "\nFrom the station take tram 1.\n>From here it is close." in text
    fm2, text2 = notes["Re: Offsite venue"]
    assert fm2["thread"] == "a1@example.org" and fm2["in_reply_to"] == "a1@example.org"
    assert "## Attachment: agenda.txt" in text2 and "kayaking on the Douro" in text2
    assert fm2["files"] and (app.settings.vault / fm2["files"][0]).read_bytes().startswith(b"Day one")
    assert app.search("kayaking", mode="keyword").hits[0].title == "Re: Offsite venue"
    names = {e["name"] for e in app.entities() if e["kind"] == "person"}
    assert {"Marta Lopez", "Ben Okafor"} <= names
    again = app.import_export("mbox", box)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 2)


def test_maildir_same_messages_and_flags_changes_are_not_new(app, tmp_path):
    nomid = mail(None, "Ana <ana@example.org>", "me@example.org", "No id", "Pottery class on Thursday.")
    root = write_maildir(tmp_path / "Mail", {"1700000000.M1P1.host:2,S": nomid, "1700000001.M2P1.host:2,": FIRST})
    report = app.import_export("maildir", root)
    # FIRST is the same message (same Message-ID) as in the mbox: known, not added again
    assert (len(report.added), len(report.unchanged)) == (1, 1)
    (root / "cur" / "1700000000.M1P1.host:2,S").rename(root / "cur" / "1700000000.M1P1.host:2,RS")
    again = app.import_export("maildir", root)
    assert (len(again.added), len(again.updated)) == (0, 0)
    assert imported_notes(app, "maildir")["No id"][0]["source_id"] == "maildir:1700000000.M1P1.host"


def test_other_formats_are_refused_naming_the_file(app, tmp_path):
    before = vault_snapshot(app)
    notmbox = tmp_path / "notes.txt"
    notmbox.write_text("Just a text file\nFrom here on\n")
    with pytest.raises(InvalidInput, match="not an mbox file") as err:
        app.import_export("mbox", notmbox)
    assert str(notmbox) in err.value.message
    with pytest.raises(InvalidInput, match="not a Maildir"):
        app.import_export("maildir", tmp_path)
    assert vault_snapshot(app) == before
