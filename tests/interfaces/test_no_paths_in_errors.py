"""Error messages sent to callers elsewhere name no absolute path of this machine (issue 34):
the vault, the home folder and the user's home directory are written `<vault>`, `<home>`,
`~` (REST error bodies, MCP tool errors)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from rest_support import RestServer

from cairn.redact_paths import without_paths


def test_without_paths_replaces_known_folders(tmp_path):
    home = tmp_path / "home"
    vault = home / "vault"
    vault.mkdir(parents=True)
    link = tmp_path / "v-link"
    link.symlink_to(vault)
    s = SimpleNamespace(home=home, vault=link)
    text = (f"{link}/notes/a.md: is a directory; {vault}/b.md; {home}/uploads/1/x.pdf; "
            f"{Path.home()}/other; /api/notes stays")
    out = without_paths(text, s)
    assert out == ("<vault>/notes/a.md: is a directory; <vault>/b.md; <home>/uploads/1/x.pdf; "
                   "~/other; /api/notes stays"), out
    assert str(tmp_path) not in out


def test_rest_error_bodies_name_no_absolute_path(tmp_path):
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        assert c.post("/api/notes", json={"title": "Wrens", "body": "Wrens sing loud."}).status_code == 201
        f = srv.home / "vault" / "Wrens.md"
        f.unlink()
        f.mkdir()  # the note's file is now a folder: reading it fails with the OS's message
        r = c.get("/api/notes/Wrens")
        assert r.status_code >= 400
        msg = r.json()["message"]
        assert str(tmp_path) not in msg and "/root" not in msg, msg
        assert "<vault>" in msg or "Wrens" in msg, msg
