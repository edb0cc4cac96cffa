"""Session 26 (probe26), through the official `mcp` client over stdio: the file tools named the
vault by its absolute path in their results (`list_files` -> {"folder": "/home/…/vault"},
`read_file` -> {"path": "/home/…/vault/a.md"}), which tells a client elsewhere the account name
and the disk's layout (docs/server.md keeps absolute paths out of messages). They now name a
vault file relative to the vault, and that name reads back."""

from __future__ import annotations

import pytest

from cairn.service import Cairn
from mcp_support import call, run, stdio_session


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    home = tmp_path_factory.mktemp("p26mcp") / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boiler", "The boiler was serviced on 3 May 2024 by Ana.", folder="house")
    return home


def test_file_tools_name_vault_files_relative_to_the_vault(home):
    async def conversation():
        async with stdio_session(home) as s:
            top = await call(s, "list_files", {})
            house = await call(s, "list_files", {"folder": "house"})
            read = await call(s, "read_file", {"path": "house/Boiler.md"})
            again = await call(s, "read_file", {"path": read[1]["path"]})
            outside = await call(s, "read_file", {"path": "../config.toml"})
        return top, house, read, again, outside
    top, house, read, again, outside = run(conversation())
    assert top[1]["folder"] == "." and {"name": "house", "dir": True} in top[1]["entries"]
    assert house[1]["folder"] == "house" and house[1]["entries"] == [{"name": "Boiler.md", "dir": False}]
    assert read[1]["path"] == "house/Boiler.md" and "serviced on 3 May" in read[1]["text"]
    assert again[1]["text"] == read[1]["text"]
    assert outside[0] and "outside the folders" in outside[2]
    for result in (top, house, read, outside):
        assert str(home) not in result[2] and "/tmp" not in result[2], result[2]
