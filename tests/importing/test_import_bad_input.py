"""Bad input for every export importer, one case per line: a file cut off, in a wrong
encoding, or of another format. Each stops the import with InvalidInput whose message names
the file (and the item, where there is one) and what is wrong, and leaves the vault exactly
as it was. (Formats that legitimately carry 8-bit text are read instead: mail headers, the
cp1252 bookmark files of old browsers.)"""

from __future__ import annotations

import io
import zipfile

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import gpt_conversation, vault_snapshot, write_chatgpt

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 30


def _zip(members: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return buf.getvalue()


CLIP = ("Book (A)\r\n- Your Highlight on page 1 | Location 1-2 | Added on Monday, 3 February 2025 10:00:00\r\n\r\n"
        "caf\xe9\r\n==========\r\n")
CASES = [
    ("claude", "conversations.json", b'[{"uuid": "a", "name": "x", "chat_messages": [{"sender": "human", "te',
     r"item 1: invalid or truncated JSON"),
    ("claude", "conversations.json", b'[{"name": "caf\xe9"}]', "not UTF-8 text"),
    ("claude", "conversations.json", PNG, "not UTF-8 text"),
    ("chatgpt", "export.zip", _zip({"conversations.json": "[]"})[:40], "not a readable zip archive"),
    ("mbox", "mail.mbox", PNG, "not an mbox file"),
    ("kindle", "My Clippings.txt", CLIP.encode("latin-1"), "not UTF-8 text"),
    ("kindle", "My Clippings.txt", PNG, "not UTF-8 text"),
    ("readwise", "readwise.csv", "Highlight,Book Title\ncaf\xe9,B\n".encode("latin-1"), "not UTF-8 text"),
    ("bookmarks", "bookmarks.html", PNG, "not a bookmark export"),
    ("enex", "n.enex", PNG, "note 1: not well-formed ENEX"),
    ("enex", "n.enex", b'<?xml version="1.0" encoding="UTF-8"?><en-export><note><title>caf\xe9</title></note></en-export>',
     "note 1: not well-formed ENEX"),
    ("notion", "n.zip", _zip({"a 0123456789abcdef0123456789abcdef.md": "x"})[:30], "not a readable zip archive"),
    ("keep", "k.zip", PNG, "not a readable zip archive"),
    ("ics", "c.ics", PNG, "not an iCalendar file"),
    ("applenotes", "a.zip", PNG, "not a readable zip archive"),
]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bad")
    with Cairn(tmp / "home", embedder=HashEmbedder()) as a:
        a.import_export("chatgpt", write_chatgpt(tmp / "c.json", [gpt_conversation("k", "Kept", [("user", "Kept words.")])]),
                        extract=False)
        yield a


@pytest.mark.parametrize("source,name,data,reason", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_bad_export_is_refused_naming_the_file_and_nothing_is_lost(app, tmp_path, source, name, data, reason):
    before = vault_snapshot(app)
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InvalidInput, match=reason) as err:
        app.import_export(source, path, extract=False)
    assert str(path) in err.value.message and err.value.message.endswith("nothing was imported")
    assert vault_snapshot(app) == before
