"""`cairn import imap`: mail read from an IMAP server (a real-protocol fake on loopback)
without changing it (EXAMINE and BODY.PEEK only); the same message from an mbox is one note;
a second import adds nothing; a refused login is one clear error without the password."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import imported_notes, mail, write_mbox
from fake_imap import FakeImap

M1 = mail("i1@example.org", "Li Wei <li@example.org>", "ana@example.org", "Quarry swim", "Saturday at the quarry, 10am.")
M2 = mail(None, "Tom <tom@example.org>", "ana@example.org", "Lantern walk", "Bring a lantern on Friday.")


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
        assert fm["source_id"] == "imap:127.0.0.1/INBOX;UIDVALIDITY=7/;UID=2" and fm["people"] == ["Tom"]
        assert app.search("quarry", mode="keyword").hits  # the mbox's note, the same message
        again = app.import_export("imap", None, extract=False)
        assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 2)
        assert "SELECT" not in server.commands and "EXAMINE" in server.commands
        assert not {"STORE", "EXPUNGE", "COPY", "MOVE", "APPEND", "DELETE"} & set(server.commands)
        cfg.password = "wrong-pass"
        with pytest.raises(InvalidInput, match="login as 'ana' refused") as err:
            app.import_export("imap", None)
        assert "wrong-pass" not in err.value.message and "127.0.0.1" in err.value.message
        cfg.host = ""
        with pytest.raises(InvalidInput, match=r"no server configured"):
            app.import_export("imap", None)
