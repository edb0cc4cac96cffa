"""`cairn import imap`: mail read from an IMAP server (a real-protocol fake on loopback)
without changing it (EXAMINE and BODY.PEEK only); the same message from an mbox is one note;
a second import fetches nothing (UIDVALIDITY + last UID kept), a new message alone is fetched,
a UIDVALIDITY change reads the folder again without duplicates; a refused login is one clear
error without the password."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import imported_notes, mail, write_mbox
from fake_imap import FakeImap

M1 = mail("i1@example.org", "Li Wei <li@example.org>", "ana@example.org", "Quarry swim", "Saturday at the quarry, 10am.")
M2 = mail(None, "Tom <tom@example.org>", "ana@example.org", "Lantern walk", "Bring a lantern on Friday.")
M3 = mail("i3@example.org", "Li Wei <li@example.org>", "ana@example.org", "Quarry again", "Sunday this time.")


@pytest.fixture
def server():
    s = FakeImap({"INBOX": [M1, M2], "Archive": []})
    yield s
    s.close()


def test_imap_read_only_and_incremental(server, tmp_path):
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        app.import_export("mbox", write_mbox(tmp_path / "a.mbox", [M1]), extract=False)
        cfg = app.settings.imap
        cfg.host, cfg.port, cfg.user, cfg.password, cfg.ssl = "127.0.0.1", server.port, "ana", "s3cret", False
        cfg.folders = ["INBOX", "Archive"]
        r = app.import_export("imap", None, extract=False)
        assert (len(r.added), len(r.updated), len(r.unchanged)) == (1, 0, 1)  # M1 came from the mbox
        fm, text = imported_notes(app, "imap")["Lantern walk"]
        assert fm["source_id"].startswith("sha1:") and fm["people"] == ["Tom"]
        assert app.search("quarry", mode="keyword").hits  # the mbox's note, the same message
        assert server.fetched == ["1,2"]
        again = app.import_export("imap", None, extract=False)
        assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 0)
        assert server.fetched == ["1,2"]  # nothing new: nothing fetched (UID 3:* gave only UID 2)
        server.folders["INBOX"].append(M3)
        new = app.import_export("imap", None, extract=False)
        assert (len(new.added), len(new.unchanged)) == (1, 0) and server.fetched[-1] == "3"
        server.uidvalidity = 8  # the folder was rebuilt: a full resync, without duplicates
        resync = app.import_export("imap", None, extract=False)
        assert (len(resync.added), len(resync.updated), len(resync.unchanged)) == (0, 0, 3)
        assert server.fetched[-1] == "1,2,3"
        assert app.notes_list(type="email")["total"] == 3
        assert "SELECT" not in server.commands and "EXAMINE" in server.commands
        assert not {"STORE", "EXPUNGE", "COPY", "MOVE", "APPEND", "DELETE"} & set(server.commands)
        cfg.password = "wrong-pass"
        with pytest.raises(InvalidInput, match="login as 'ana' refused") as err:
            app.import_export("imap", None)
        assert "wrong-pass" not in err.value.message and "127.0.0.1" in err.value.message
        cfg.host = ""
        with pytest.raises(InvalidInput, match=r"no server configured"):
            app.import_export("imap", None)
