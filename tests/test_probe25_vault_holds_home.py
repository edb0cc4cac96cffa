"""probe25: `vault = "."` in config.toml (or a vault folder holding the home, `vault = ".."` from a
home not hidden in it) made the home's own files notes: `cairn export` wrote exports/N1.md and the
next `cairn sync` added it as a second note of the same text; uploads and backups the same. Now such
a vault is a ConfigError naming the home and the way out; a home in a hidden folder of the vault
(which the vault scan skips, like ~/.cairn under vault = "~") stays allowed."""

from __future__ import annotations

import pytest

from cairn.config import ConfigError, load_settings


@pytest.mark.parametrize("vault", [".", "..", "../.."])
def test_a_vault_holding_the_home_is_refused(tmp_path, vault):
    home = tmp_path / "a" / "home"
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f'vault = "{vault}"\n')
    with pytest.raises(ConfigError) as exc:
        load_settings(home)
    assert "holds the Cairn home" in str(exc.value) and "hidden folder" in str(exc.value)


def test_a_hidden_home_inside_the_vault_is_allowed(tmp_path):
    home = tmp_path / "notes" / ".cairn"
    home.mkdir(parents=True)
    (home / "config.toml").write_text('vault = ".."\n')
    assert load_settings(home).vault == (tmp_path / "notes").resolve()


def test_a_vault_beside_the_home_is_allowed(tmp_path):
    (tmp_path / "notes").mkdir()
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('vault = "../notes"\n')
    assert load_settings(home).vault == (tmp_path / "notes").resolve()
