"""`cairn worker --once` and the start-up repair (issue 34): a job is marked done only once
its chunks have vectors, and the command exits after printing its report; a note a killed
process left without vectors gets them when `cairn serve` starts, before any later write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fakes.embedder import HashEmbedder

from cairn.service import Cairn
from cairn.store import jobs as J
from cairn.store import notes as N

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _sources(folder: Path, n: int = 3) -> Path:
    folder.mkdir(parents=True)
    for i in range(n):
        (folder / f"wren{i}.md").write_text(f"# Wren {i}\n\nWren {i} sings from the hedge {i} at dawn.\n")
    return folder


def test_worker_marks_a_job_done_only_when_its_vectors_exist(tmp_path, monkeypatch):
    src = _sources(tmp_path / "in")
    seen: list[int] = []
    real = J.mark_done

    def spy(conn, job, outcome):
        seen.append(N.counts(conn)["missing_vectors"])
        return real(conn, job, outcome)
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        assert len(app.enqueue([src]).jobs) == 3
        monkeypatch.setattr(J, "mark_done", spy)
        report = app.work(once=True)
        assert len(report.done) == 3 and report.embedded >= 3
        assert seen == [0, 0, 0], seen  # at each "done", no chunk was waiting for its vector


def test_worker_once_exits_after_its_report(tmp_path):
    src = _sources(tmp_path / "in", 2)
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": ""}
    run = lambda *a: subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *a],  # noqa: E731
                                    capture_output=True, text=True, env=env, timeout=600)
    assert run("enqueue", str(src), "--json").returncode == 0
    done = run("worker", "--once", "--json")  # returns: the process ended after its report
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert len(report["done"]) == 2 and report["embedded"] >= 2
    status = json.loads(run("status", "--json").stdout)
    assert status["missing_vectors"] == 0


def test_serve_start_up_embeds_what_a_killed_process_left_without_vectors(tmp_path):
    import sys as _sys
    _sys.path.insert(0, str(Path(__file__).parent / "interfaces"))
    from rest_support import RestServer
    home = tmp_path / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("Kingfisher", "A kingfisher dives from the willow by the weir.")
        app.conn.execute("DELETE FROM vectors")  # killed after the index, before the vectors
        assert N.counts(app.conn)["missing_vectors"] >= 1
    with RestServer(home) as srv:
        assert srv.app.state.runtime.repaired.wait(300)
        with srv.client() as c:
            assert c.get("/api/status").json()["missing_vectors"] == 0
            hits = c.get("/api/search", params={"q": "kingfisher willow", "mode": "semantic"}).json()
            assert hits and hits[0]["title"] == "Kingfisher"
