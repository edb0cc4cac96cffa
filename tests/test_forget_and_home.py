"""`cairn forget` on a memory already forgotten says so (exit 0, nothing changes), and a
--home that is a file is named as a file, not reported as a missing "vault" folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cairn.config import ConfigError, load_settings
from conftest import write


def cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600, env={**os.environ})


def test_forget_twice_reports_already_forgotten(app):
    m = app.remember("Ana keeps the spare key under the blue pot").memory
    first = app.forget(m.id, at="2025-01-02T10:00:00+00:00")
    assert first.action == "forget" and first.memory.tombstone
    mirror_before = sorted(p.read_text(encoding="utf-8") for p in (app.settings.vault / "_memory").rglob("*.md"))
    again = app.forget(m.id, at="2025-03-01T10:00:00+00:00")
    assert again.action == "none" and again.reason == "already forgotten on 2025-01-02T10:00:00+00:00"
    logged = [e["action"] for e in app.memory_history(m.id)[0].log]
    assert logged.count("forget") == 1  # nothing appended the second time
    assert sorted(p.read_text(encoding="utf-8") for p in (app.settings.vault / "_memory").rglob("*.md")) == mirror_before


def test_cli_forget_twice(tmp_path):
    home = tmp_path / "h"
    r = cairn(home, "remember", "Ben's bike lock code is on the fridge note", "--json")
    assert r.returncode == 0, r.stderr
    mid = json.loads(r.stdout)["memory"]["id"]
    r1 = cairn(home, "forget", mid)
    assert r1.returncode == 0 and r1.stdout.startswith("forgotten: ")
    r2 = cairn(home, "forget", mid)
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout.startswith("already forgotten on ") and mid in r2.stdout


def test_home_that_is_a_file_is_named(tmp_path):
    f = write(tmp_path / "notes.md", "# not a home\n")
    r = cairn(f, "status")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"the Cairn home {f} is a file, not a directory" in " ".join(r.stderr.split())
    assert "/vault" not in r.stderr
    assert f.read_text(encoding="utf-8") == "# not a home\n"  # untouched


def test_home_below_a_file_is_named(tmp_path):
    f = write(tmp_path / "notes.md", "x")
    with pytest.raises(ConfigError, match=rf"cannot be created: {f} is a file, not a directory"):
        load_settings(f / "sub").ensure_dirs()


def test_vault_that_is_a_file_is_named(tmp_path):
    home = tmp_path / "h"
    write(home / "vault", "oops")
    with pytest.raises(ConfigError, match=rf"the vault {home / 'vault'} is a file, not a directory"):
        load_settings(home).ensure_dirs()
