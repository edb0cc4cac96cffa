"""Session 26 (probe26): `cairn export NOTE --out VAULT/x.md` copied the export into the vault, and
the next `cairn sync` indexed it as a second note (the same title and text twice); `--out ""` was
ignored without a word. Both are refused naming the problem; the copy is made nowhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=240, env={"PYTHONPATH": SRC, "PATH": "/usr/bin"})


def test_export_out_into_the_vault_or_empty_is_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    assert _cairn(home, "note", "create", "Boathouse", "--body", "The key is under the pot.").returncode == 0
    (tmp_path / "link").symlink_to(home / "vault")
    for out in (str(home / "vault" / "copy.md"), str(home / "vault") + "/", str(tmp_path / "link")):
        r = _cairn(home, "export", "Boathouse", "--out", out)
        assert r.returncode == 1 and "is inside the vault" in r.stderr and "second note" in r.stderr, (out, r.stderr)
    r = _cairn(home, "export", "Boathouse", "--out", "")
    assert r.returncode == 1 and "--out is empty" in r.stderr, r.stderr
    assert sorted(p.name for p in (home / "vault").iterdir()) == ["Boathouse.md"]
    ok = _cairn(home, "export", "Boathouse", "--out", str(tmp_path))
    assert ok.returncode == 0 and "copied to " + str(tmp_path) in ok.stdout, ok.stdout + ok.stderr
