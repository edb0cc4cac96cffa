"""cairn.config_peek: the home and the embedder name the program reads before cairn.config."""

from __future__ import annotations

from pathlib import Path

import pytest

from cairn.config import ConfigError, load_settings
from cairn.config_peek import embedder_name, home_path


@pytest.mark.parametrize("text, name", [
    (None, "minilm"),                                   # no config.toml
    ("[search]\nk = 5\n", "minilm"),                    # no embedder key
    ('embedder = "  other-model "\n', "other-model"),   # stripped, as load_settings does
    ('embedder = "minilm"\n[search]\nk = 3\n', "minilm"),
])
def test_the_embedder_name_is_the_one_load_settings_reads(tmp_path, text, name):
    if text is not None:
        (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    assert embedder_name(tmp_path) == name
    assert load_settings(tmp_path).embedder == name


@pytest.mark.parametrize("content", [b"[search\nk = 3\n", b'embedder = ""\n', b"embedder = 3\n", b"\xff\xfe\x00"])
def test_a_config_load_settings_refuses_gives_no_name(tmp_path, content):
    (tmp_path / "config.toml").write_bytes(content)
    assert embedder_name(tmp_path) is None
    with pytest.raises(ConfigError):
        load_settings(tmp_path)


def test_an_unreadable_config_gives_no_name(tmp_path):
    (tmp_path / "config.toml").mkdir()  # a folder where the file should be: read_text fails
    assert embedder_name(tmp_path) is None


def test_the_home_is_the_one_load_settings_uses(tmp_path, monkeypatch):
    monkeypatch.setenv("CAIRN_HOME", str(tmp_path / "env-home"))
    assert home_path(None) == home_path("") == (tmp_path / "env-home").resolve() == load_settings(None).home
    monkeypatch.setenv("CAIRN_HOME", "")
    assert home_path(None) == Path("~/.cairn").expanduser().resolve()
    assert home_path(tmp_path / "a" / ".." / "b") == (tmp_path / "b").resolve() == load_settings(tmp_path / "a" / ".." / "b").home
