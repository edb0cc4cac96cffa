"""probe24: `[backup] dir = ""` (or `cairn backup --to HOME`) wrote the snapshot into the home
folder it copies: the first snapshot's manifest listed its own `.cairn-backup-….partial/`
files, and each later one held every earlier snapshot (4 files, then 14). A backup folder that
is the home itself is refused, naming the setting or the folder; nothing is written."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.config import ConfigError, load_settings
from cairn.errors import InvalidInput
from cairn.service import Cairn


@pytest.mark.parametrize("value", ['""', '"."', '"./"'])
def test_a_backup_dir_naming_the_home_is_a_config_error(tmp_path, value):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(f"[backup]\ndir = {value}\nkeep = 2\n")
    with pytest.raises(ConfigError, match="backup.dir .* is the home folder itself"):
        load_settings(home)


def test_a_snapshot_into_the_home_itself_is_refused(tmp_path):
    home = tmp_path / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("Heron", "The heron nests by the mill pond.")
        before = sorted(p.name for p in home.iterdir())
        with pytest.raises(InvalidInput, match="is the home folder itself"):
            app.backup(home)
        with pytest.raises(InvalidInput, match="is the home folder itself"):
            app.backup(str(home / "vault" / ".."))
        assert sorted(p.name for p in home.iterdir()) == before
        taken = app.backup(home / "bk")  # a folder inside the home is still fine
        assert taken["files"] >= 2
