"""probe25: after `index.db` is deleted (the vault intact), `cairn status` printed `notes 0` with
no hint, `cairn search` "no note contains 'boathouse'", `cairn ask` "Your Cairn holds no notes
yet: add some with `cairn ingest PATH`", and the web status page "Everything is indexed.".
Now `status` has `warnings` naming the problem, a vault file and `cairn reindex` (CLI: a
`warning:` line on stderr), and search / ask / the web page say the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from cairn.interfaces.rest.app import create_app
from cairn.service import Cairn

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _deleted_index(tmp_path, embedder) -> Path:
    home = tmp_path / "home"
    with Cairn(home, embedder=embedder) as app:
        app.note_create("Boathouse", "The boathouse key is under the green pot.")
        assert app.status()["warnings"] == []
    for f in home.glob("index.db*"):
        f.unlink()
    return home


def test_status_search_and_ask_name_the_deleted_index(tmp_path, real_embedder):
    home = _deleted_index(tmp_path, real_embedder)
    with Cairn(home, embedder=real_embedder) as app:
        st = app.status()
        res = app.search("boathouse")
        ans = app.ask("where is the boathouse key", llm="none")
        assert st["notes"] == 0 and len(st["warnings"]) == 1
        for text in (st["warnings"][0], " ".join(res.warnings), ans.answer):
            assert "Boathouse.md" in text and "cairn reindex" in text, text
        assert "cairn ingest" not in ans.answer
        app.reindex()
        assert app.status()["warnings"] == [] and app.status()["notes"] == 1  # the vault lost nothing
        assert app.ask("where is the boathouse key", llm="none").verdict == "pass"


def test_an_empty_home_has_no_warning(tmp_path, real_embedder):
    with Cairn(tmp_path / "home", embedder=real_embedder) as app:
        assert app.status()["warnings"] == []
        ans = app.ask("where is the boathouse key", llm="none")
    assert "cairn ingest" in ans.answer and "reindex" not in ans.answer


def test_cli_status_prints_the_warning_on_stderr(tmp_path, real_embedder):
    home = _deleted_index(tmp_path, real_embedder)
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_HOME": str(home)}
    plain = subprocess.run([sys.executable, "-m", "cairn", "status"], env=env, capture_output=True, text=True, timeout=120)
    as_json = subprocess.run([sys.executable, "-m", "cairn", "status", "--json"], env=env, capture_output=True,
                             text=True, timeout=120)
    assert plain.returncode == 0 and "warnings" not in plain.stdout
    assert "warning:" in plain.stderr and "cairn reindex" in plain.stderr and "Boathouse.md" in plain.stderr
    assert "cairn reindex" in json.loads(as_json.stdout)["warnings"][0]


def test_web_status_page_needs_attention(tmp_path, real_embedder):
    home = _deleted_index(tmp_path, real_embedder)
    with TestClient(create_app(home, embedder=real_embedder), base_url="http://127.0.0.1",
                    client=("127.0.0.1", 50000)) as c:
        page = c.get("/status", headers={"accept": "text/html"}).text
        api = c.get("/api/status").json()
    assert "Everything is indexed." not in page and "cairn reindex" in page
    assert "cairn reindex" in api["warnings"][0]


def test_status_names_vault_files_a_rebuilt_index_lacks(tmp_path, real_embedder):
    """index.db deleted, then one note written before any sync: the index holds notes again, but
    not the older one; status names it and `cairn sync` (which indexes it)."""
    home = _deleted_index(tmp_path, real_embedder)
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Garden", "The garden hose hangs in the shed.")
        [warning] = app.status()["warnings"]
        assert "1 note file(s)" in warning and "Boathouse.md" in warning and "cairn sync" in warning
        assert "Garden.md" not in warning
        app.sync()
        assert app.status()["warnings"] == []


def test_status_does_not_count_what_sync_leaves_out_by_rule(tmp_path, real_embedder):
    """Symlinks, temp files, hidden and reserved folders are no missing notes."""
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boathouse", "The boathouse key is under the green pot.")
        vault = app.settings.vault
        (vault / "link.md").symlink_to(vault / "Boathouse.md")
        (vault / ".hidden.md").write_text("x")
        (vault / ".trash").mkdir(exist_ok=True)
        (vault / ".trash" / "old.md").write_text("x")
        (vault / "_files").mkdir(exist_ok=True)
        (vault / "_files" / "a.md").write_text("x")
        (vault / "notes.md~").write_text("x")
        app.sync()
        assert app.status()["warnings"] == []
