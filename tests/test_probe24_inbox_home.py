"""probe24: `[sync] inbox` naming the home folder, or a folder holding it, made `cairn watch`
ingest Cairn's own files: config.toml (with its Telegram token) and history/log.jsonl became
notes, and every index write (index.db-wal) was an inbox event, skipped and reported again
every half second without end. An inbox that is the home is a config error; an inbox above
the home leaves the home's own files out, also live."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.config import ConfigError, load_settings
from cairn.ingest.run import own_files
from cairn.store.backend import open_index
from cairn.watch import _Watcher


def test_an_inbox_that_is_the_home_is_a_config_error(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('[sync]\ninbox = ["."]\n')
    with pytest.raises(ConfigError, match="sync.inbox .* is the Cairn home folder itself"):
        load_settings(home)


def test_an_inbox_above_the_home_leaves_its_own_files_out(tmp_path):
    outer = tmp_path / "outer"
    home = outer / "home"
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f'[sync]\ninbox = ["{outer}"]\n[telegram]\ntoken = "123:SECRET"\n')
    (outer / "dropped.txt").write_text("The boiler code is 4471.\n")
    settings = load_settings(home)
    settings.ensure_dirs()
    own = own_files(settings)
    assert own((home / "config.toml").resolve()) and own((home / "index.db-wal").resolve())
    assert not own((outer / "dropped.txt").resolve())
    assert not own((home / "uploads" / "x.txt").resolve())  # arrival folders stay arrivals
    conn = open_index(settings)
    handed: list = []
    try:
        w = _Watcher(settings, HashEmbedder(), conn, lambda c, files: handed.extend(files) or None, None)
        w.start()
        w.background.stop()
        assert [f.name for f in handed] == ["dropped.txt"]
        assert not w._inbox_relevant(home / "index.db-wal", outer.resolve())
        assert not w._inbox_relevant(home / "config.toml", outer.resolve())
        assert w._inbox_relevant(outer / "new.txt", outer.resolve())
    finally:
        conn.close()
