"""`cairn export` in a subprocess: --json shape, --out copy, and a clear error (exit 1,
nothing written) for bad input."""

from __future__ import annotations

import pytest

import json
import os
import subprocess
import sys
import zipfile

from cairn.service import Cairn
from mcp_support import server_env


def cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=300, env=server_env())


def test_export_cli(tmp_path, real_embedder):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        for folder, body in (("work", "Ship the boiler monitor."), ("home", "Paint the fence.")):
            (app.settings.vault / folder).mkdir(parents=True)
            (app.settings.vault / folder / "Plan.md").write_text(
                f"---\ntitle: Plan\ntags: [{folder}]\n---\n{body}\n", encoding="utf-8")
        app.sync()
    out = tmp_path / "out"
    out.mkdir()
    r = cairn(home, "export", "--tag", "home", "--json")
    assert r.returncode == 0, r.stderr
    assert [n["path"] for n in json.loads(r.stdout)["notes"]] == ["home/Plan.md"]
    r = cairn(home, "export", "work/Plan.md", "home/Plan.md", "--format", "zip", "--name", "plans",
              "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["name"] == "plans.zip" and data["count"] == 2 and data["copied_to"] == str(out / "plans.zip")
    with zipfile.ZipFile(out / "plans.zip") as zf:
        assert sorted(zf.namelist()) == ["Plan-2.md", "Plan.md"]
    before = sorted(os.listdir(home / "exports"))
    for args, words in ((["--name", "../../evil"], "export name"), (["no-such-note"], "no-such-note")):
        r = cairn(home, "export", *args)
        assert r.returncode in (1, 2) and words in r.stderr, (args, r.stderr)
    assert sorted(os.listdir(home / "exports")) == before
    assert not (tmp_path / "evil.zip").exists()


def test_out_with_a_trailing_slash_must_be_an_existing_folder(tmp_path):
    from cairn.errors import Conflict, NotFound
    from cairn.exports import copy_export
    src = tmp_path / "export.md"
    src.write_text("# x\n")
    with pytest.raises(NotFound, match="no such folder"):
        copy_export(src, str(tmp_path / "outdir") + "/")
    assert not (tmp_path / "outdir").exists()  # no file named after the folder
    (tmp_path / "outdir").mkdir()
    assert copy_export(src, str(tmp_path / "outdir") + "/") == (tmp_path / "outdir" / "export.md").resolve()
    with pytest.raises(Conflict):
        copy_export(src, tmp_path / "outdir")
