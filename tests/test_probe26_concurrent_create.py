"""Session 26 (probe26): four `cairn note create Same --body "writer N"` at once: two printed
"created Same.md" and the file held only the last one's text — a note reported stored was lost.
The title check and the write were not one step: `note_create` now holds the index's note lock,
and the file is made with an exclusive create (vault.atomic_create: a link that fails when the
name exists), so a writer that lost the race gets a conflict naming the file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cairn import noteops
from cairn import vault as V
from cairn.errors import Conflict
from cairn.service import Cairn

SRC = str(Path(__file__).resolve().parents[1] / "src")


def test_atomic_create_never_replaces_a_file(tmp_path):
    target = tmp_path / "n.md"
    V.atomic_create(target, "first")
    with pytest.raises(FileExistsError):
        V.atomic_create(target, "second")
    assert target.read_text() == "first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.md"]  # no temporary file left


def test_a_file_made_between_the_check_and_the_write_is_kept(tmp_path, real_embedder, monkeypatch):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        render = V.render_note

        def other_writer(fm, body):  # runs after every check, just before the file is written
            (home / "vault" / "Same.md").write_text("the other writer's note\n")
            return render(fm, body)
        monkeypatch.setattr(noteops.V, "render_note", other_writer)
        with pytest.raises(Conflict, match="Same.md exists already"):
            app.note_create("Same", "writer 1")
    assert (home / "vault" / "Same.md").read_text() == "the other writer's note\n"


def test_four_processes_create_one_title_and_none_is_lost(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    procs = [subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "note", "create", "Same",
                               "--body", f"writer {i}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": SRC, "PATH": "/usr/bin"}) for i in range(4)]
    outs = [(p.wait(timeout=240), p.stdout.read(), p.stderr.read()) for p in procs]
    made = [i for i, (rc, out, _err) in enumerate(outs) if rc == 0 and "created Same.md" in out]
    assert len(made) == 1, outs
    assert f"writer {made[0]}" in (home / "vault" / "Same.md").read_text()
    assert all("exists already" in err for i, (rc, _o, err) in enumerate(outs) if i not in made), outs
