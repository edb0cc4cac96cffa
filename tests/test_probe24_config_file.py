"""probe24: a home whose config.toml is a symbolic link to nothing (a dotfiles folder not
mounted) ran every command on the defaults without a word: its settings (a vault elsewhere,
allow lists, a model) silently dropped. A config.toml that is a FIFO made every command
block on reading it. Both are now errors naming the file."""

from __future__ import annotations

import os
import threading

import pytest

from cairn.config import ConfigError, load_settings


def test_a_dangling_symlinked_config_is_named(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").symlink_to(tmp_path / "dotfiles" / "cairn.toml")
    with pytest.raises(ConfigError, match="config.toml: a symbolic link to .*cairn.toml, which does not exist"):
        load_settings(home)


def test_a_fifo_config_is_refused_without_blocking(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / "config.toml")
    done: list = []

    def load():
        try:
            load_settings(home)
        except ConfigError as exc:
            done.append(str(exc))

    t = threading.Thread(target=load, daemon=True)
    t.start()
    t.join(10)
    if t.is_alive():  # unblock the reader so the test process can end
        with open(home / "config.toml", "w"):
            pass
        pytest.fail("load_settings blocked on a FIFO config.toml")
    assert done and "not a regular file" in done[0]


def test_a_symlinked_config_that_exists_is_read(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "real.toml").write_text('llm = "none"\n')
    (home / "config.toml").symlink_to(tmp_path / "real.toml")
    assert load_settings(home).llm == "none"
