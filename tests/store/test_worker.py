"""`cairn worker` on the PostgreSQL queue: two worker processes drain one queue with no job
done twice; a job queued again for unchanged bytes is a no-op (content hash); a worker
killed (SIGKILL) in the middle of a job leaves it to be claimed again by another worker once
its visibility timeout has passed; a job that keeps failing ends in the dead letters."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cairn.service import Cairn
from cairn.store.postgres import PostgresBackend

SRC = str(Path(__file__).resolve().parents[2] / "src")


def env(url: str) -> dict:
    return {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": "", "CAIRN_STORE_URL": url}


def worker(home: Path, url: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "worker", "--json", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(url))


def finish(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return json.loads(out)


@pytest.fixture
def queue_home(tmp_path, pg_url, monkeypatch):
    monkeypatch.setenv("CAIRN_STORE_URL", pg_url)
    src = tmp_path / "in"
    src.mkdir()
    for i in range(16):
        (src / f"item{i}.md").write_text(f"# Item {i}\n\nLantern {i} hangs in shed {i * 7}; its wick is {i} cm.\n")
    return tmp_path / "home", src


def test_two_workers_drain_one_queue_with_no_job_done_twice(queue_home, pg_url, hash_embedder):
    home, src = queue_home
    with Cairn(home, embedder=hash_embedder) as app:
        queued = app.enqueue([src]).jobs
    assert len(queued) == 16
    a, b = worker(home, pg_url, "--once"), worker(home, pg_url, "--once")
    ra, rb = finish(a), finish(b)
    done_a = [d["id"] for d in ra["done"]]
    done_b = [d["id"] for d in rb["done"]]
    assert not set(done_a) & set(done_b)
    assert sorted(done_a + done_b) == sorted(queued)
    pg = PostgresBackend(pg_url)
    try:
        jobs = pg.jobs.by_state("done")
        assert sorted(j.id for j in jobs) == sorted(queued)
        assert {j.attempts for j in jobs} == {1}  # each claimed once
        assert pg.notes.counts()["notes"] == 16 and pg.notes.counts()["missing_vectors"] == 0
    finally:
        pg.close()

    # queued again with the same bytes: every job runs, and changes nothing (content hash)
    with Cairn(home, embedder=hash_embedder) as app:
        again = app.enqueue([src]).jobs
        assert sorted(again) == sorted(queued)
        report = app.work(once=True, poll_s=0.2)
        assert sorted(i for i, _ in report.done) == sorted(queued)
        assert {o for _, o in report.done} == {"unchanged"} and report.embedded == 0
        assert app.status().to_json()["notes"] == 16
    assert len(list((home / "vault").rglob("item*.md"))) == 16


def test_a_killed_workers_job_is_claimed_again_after_the_visibility_timeout(queue_home, pg_url, tmp_path,
                                                                             hash_embedder):
    home, _ = queue_home
    big = tmp_path / "big"
    big.mkdir()
    para = "The harbour master logs every boat that enters the basin and the hour of the tide. "
    (big / "ledger.md").write_text("# Ledger\n\n" + "\n\n".join(f"## Day {d}\n\n" + para * 40 for d in range(60)))
    home.mkdir(parents=True)
    (home / "config.toml").write_text("[chunk]\nembed_max_chunks = 1\n")  # the point is the job, not embedding
    with Cairn(home, embedder=hash_embedder) as app:
        [job_id] = app.enqueue([big]).jobs
    pg = PostgresBackend(pg_url)
    try:
        victim = worker(home, pg_url, "--visibility-timeout", "3")
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            job = pg.jobs.get(job_id)
            if job.state == "running" and job.owner_pid == victim.pid:
                break
            assert victim.poll() is None, victim.communicate()
            time.sleep(0.02)
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=60)
        left = pg.jobs.get(job_id)
        assert left.state == "running" and left.attempts == 1  # killed mid-job: still claimed

        report = finish(worker(home, pg_url, "--once", "--visibility-timeout", "60", "--poll", "0.5"))
        assert report["reclaimed"] == [job_id]
        assert [d["id"] for d in report["done"]] == [job_id]
        job = pg.jobs.get(job_id)
        assert job.state == "done" and job.attempts == 2 and job.last_error is None
        assert pg.notes.counts()["notes"] == 1
    finally:
        pg.close()
    assert [p.name for p in (home / "vault").rglob("*.md")] == ["ledger.md"]


def test_a_job_that_keeps_failing_is_retried_then_dead_lettered(queue_home, pg_url, hash_embedder):
    home, _ = queue_home
    calls = []

    def flaky(job):
        calls.append(job.attempts)
        raise OSError(5, "Input/output error")  # transient: retried with back-off

    with Cairn(home, embedder=hash_embedder) as app:
        jid, _ = app.store.jobs.enqueue("flaky", "disk://1", {}, max_attempts=3)
        app.settings.jobs.backoff_base_s = app.settings.jobs.backoff_max_s = 0.05
        report = app.work(once=True, poll_s=0.05, handlers={"flaky": flaky})
        assert calls == [1, 2, 3]
        assert report.retried == [jid, jid] and [i for i, _ in report.dead] == [jid]
        assert "Input/output error" in report.dead[0][1]
        assert app.jobs().to_json()["dead"][0]["id"] == jid
