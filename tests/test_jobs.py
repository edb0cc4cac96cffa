"""The persistent job queue: states, back-off, dead letters, retry, crash recovery (a real
`kill -9` of a real `cairn ingest` subprocess) and the `cairn jobs` commands."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cairn import jobs as W
from cairn.config import ConfigError, JobSettings, load_settings
from cairn.store import db
from cairn.store import jobs as J
from conftest import write

SRC = str(Path(__file__).resolve().parents[1] / "src")
FAST = JobSettings(max_attempts=3, backoff_base_s=0.01, backoff_max_s=0.05, lease_s=60)


@pytest.fixture
def conn(tmp_path):
    c = db.connect(tmp_path / "index.db")
    yield c
    c.close()


def cli(home, *args, timeout=300):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, env=env, timeout=timeout)


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ----------------------------------------------------------------------------- queue rows

def test_enqueue_never_duplicates_a_pending_source_and_rearms_finished_ones(conn):
    a, created = J.enqueue(conn, "file", "/x/a.md", {"path": "/x/a.md"}, max_attempts=3)
    assert created
    b, created = J.enqueue(conn, "file", "/x/a.md", {"path": "/x/a.md"}, max_attempts=3)
    assert (b, created) == (a, False)
    assert J.counts(conn) == {"queued": 1, "running": 0, "done": 0, "dead": 0}
    job = J.claim_next(conn, os.getpid(), None, 60)
    assert job.id == a and job.state == "running" and job.attempts == 1 and job.owner_pid == os.getpid()
    assert J.enqueue(conn, "file", "/x/a.md", {}, max_attempts=3) == (a, False)  # running: left alone
    assert J.get(conn, a).state == "running"
    assert J.mark_done(conn, job, "added")
    assert J.get(conn, a).outcome == "added" and J.get(conn, a).finished_at
    J.enqueue(conn, "file", "/x/a.md", {"path": "/x/a.md"}, max_attempts=3)
    again = J.get(conn, a)
    assert again.state == "queued" and again.attempts == 0 and again.outcome is None
    assert conn.execute("SELECT count(*) FROM jobs").fetchone()[0] == 1


def test_claim_respects_next_attempt_at_and_ids(conn):
    a, _ = J.enqueue(conn, "file", "a", {}, max_attempts=3, now=time.time() + 100)
    b, _ = J.enqueue(conn, "file", "b", {}, max_attempts=3)
    assert J.claim_next(conn, 1, None, 60, ids=[a]) is None  # a is not due yet
    assert J.claim_next(conn, 1, None, 60).id == b
    assert J.next_due(conn) > time.time() + 50


def test_claims_come_in_batches_but_a_job_tried_before_is_claimed_alone(conn):
    ids = [J.enqueue(conn, "file", f"s{i}", {}, max_attempts=3)[0] for i in range(5)]
    conn.execute("UPDATE jobs SET attempts = 1 WHERE id = ?", (ids[2],))  # failed or crashed before
    first = J.claim_batch(conn, 1, None, 60, limit=10)
    assert [j.id for j in first] == ids[:2] and all(j.attempts == 1 for j in first)
    alone = J.claim_batch(conn, 1, None, 60, limit=10, done=[(first[0], "added"), (first[1], "unchanged")])
    assert [j.id for j in alone] == [ids[2]] and alone[0].attempts == 2
    assert J.get(conn, ids[0]).state == "done" and J.get(conn, ids[1]).outcome == "unchanged"
    assert [j.id for j in J.claim_batch(conn, 1, None, 60, limit=10)] == ids[3:]


def test_finishing_a_job_taken_over_by_another_process_is_refused(conn):
    a, _ = J.enqueue(conn, "file", "a", {}, max_attempts=3)
    job = J.claim_next(conn, 111, None, 60)
    J.requeue(conn, a, "owner died", dead=False)
    assert not J.mark_done(conn, job, "added")  # our claim was taken from us
    assert J.get(conn, a).state == "queued"


# ----------------------------------------------------------------------------- worker

def test_backoff_is_exponential_and_capped():
    p = JobSettings(backoff_base_s=1.0, backoff_max_s=10.0)
    assert [W.backoff_delay(n, p) for n in (1, 2, 3, 4, 5, 6)] == [1, 2, 4, 8, 10, 10]


def test_transient_failures_retry_with_backoff_then_succeed(conn):
    a, _ = J.enqueue(conn, "file", "a", {}, max_attempts=5)
    seen, failed_at = [], []

    def flaky(job):
        seen.append((job.attempts, job.next_attempt_at, time.time()))
        if job.attempts < 3:
            failed_at.append(time.time())
            raise sqlite3.OperationalError("database is locked")
        return "added"

    policy = JobSettings(max_attempts=5, backoff_base_s=0.05, backoff_max_s=1)
    res = W.run_queue(conn, {"file": flaky}, policy)
    assert [n for n, _, _ in seen] == [1, 2, 3] and res.retries == 2
    assert [o for _, o in res.done] == ["added"] and res.dead == []
    # Each retry was scheduled base * 2**(n-1) after the n-th failure, and not run before.
    for n, (fail_time, (_, due, started)) in enumerate(zip(failed_at, seen[1:]), start=1):
        assert 0.05 * 2 ** (n - 1) <= due - fail_time < 0.05 * 2 ** (n - 1) + 1.0
        assert started >= due
    job = J.get(conn, a)
    assert job.state == "done" and job.attempts == 3 and job.last_error is None


def test_a_job_that_keeps_failing_goes_to_the_dead_letters(conn):
    a, _ = J.enqueue(conn, "file", "/data/locked.md", {}, max_attempts=3)
    calls = []

    def always(job):
        calls.append(job.attempts)
        raise OSError(5, "Input/output error", "/data/locked.md")

    res = W.run_queue(conn, {"file": always}, FAST)
    assert calls == [1, 2, 3]
    job = J.get(conn, a)
    assert job.state == "dead" and job.attempts == 3
    assert job.last_error == "cannot read: Input/output error (/data/locked.md) (gave up after 3 attempts)"
    assert res.dead[0][0].id == a


def test_permanent_failures_are_not_retried(conn):
    a, _ = J.enqueue(conn, "file", "bug", {}, max_attempts=5)
    b, _ = J.enqueue(conn, "file", "gone", {}, max_attempts=5)
    c, _ = J.enqueue(conn, "odd", "x", {}, max_attempts=5)

    def handler(job):
        if job.source == "bug":
            raise ValueError("parser bug")
        if job.source == "locked":
            raise PermissionError(13, "Permission denied", job.source)
        raise FileNotFoundError(2, "No such file or directory", job.source)

    d, _ = J.enqueue(conn, "file", "locked", {}, max_attempts=5)
    W.run_queue(conn, {"file": handler}, FAST)
    # review3 M5: a refused permission is not retried five times (the mode waits for the person)
    assert J.get(conn, d).state == "dead" and J.get(conn, d).attempts == 1
    assert J.get(conn, d).last_error.startswith("cannot read: Permission denied (locked)")
    assert J.get(conn, a).state == "dead" and J.get(conn, a).attempts == 1
    assert J.get(conn, a).last_error == "failed: parser bug"  # no exception class name
    assert J.get(conn, b).state == "dead" and J.get(conn, b).attempts == 1
    assert J.get(conn, c).last_error == "no handler for job kind 'odd'"


def test_is_transient_classification():
    from cairn.fetch import FetchFailed, FetchTimeout, URLRefused
    assert W.is_transient(OSError(5, "I/O error")) and not W.is_transient(PermissionError())  # review3 M5
    assert W.is_transient(sqlite3.OperationalError("database is busy"))
    assert not W.is_transient(sqlite3.OperationalError("no such table: x"))
    assert not W.is_transient(FileNotFoundError()) and not W.is_transient(ValueError())
    assert W.is_transient(FetchTimeout("t")) and W.is_transient(FetchFailed("x", transient=True))
    assert not W.is_transient(FetchFailed("404", transient=False)) and not W.is_transient(URLRefused("r"))


def test_a_read_only_vault_is_a_write_failure_named_so_and_not_retried(conn):
    """Ingest into a vault on a read-only file system: the job was retried 5 times over 15 s
    and reported as "cannot read: Read-only file system (…/vault/notes)", though the source
    was read and the vault could not be written (probe23)."""
    import errno
    rofs = OSError(errno.EROFS, "Read-only file system", "/home/ana/.cairn/vault/notes")
    assert not W.is_transient(rofs)
    assert W._describe(rofs) == "cannot write: Read-only file system (/home/ana/.cairn/vault/notes)"
    full = OSError(errno.ENOSPC, "No space left on device", "/v/x.md")
    assert W.is_transient(full) and W._describe(full).startswith("cannot write: No space left")
    assert W._describe(PermissionError(errno.EACCES, "Permission denied", "/d/x.md")) == \
        "cannot read: Permission denied (/d/x.md)"


def test_interrupt_releases_the_job_without_spending_the_attempt(conn):
    a, _ = J.enqueue(conn, "file", "a", {}, max_attempts=3)

    def interrupted(job):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        W.run_queue(conn, {"file": interrupted}, FAST)
    job = J.get(conn, a)
    assert job.state == "queued" and job.attempts == 0


def test_orphans_of_dead_or_expired_owners_are_requeued(conn):
    ids = {name: J.enqueue(conn, "file", name, {}, max_attempts=2)[0]
           for name in ("dead-owner", "live-owner", "expired", "last-try", "mine")}
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        gone = dead_pid()
        me_pid, me_start = os.getpid(), W.process_start(os.getpid())
        live_start = W.process_start(sleeper.pid)
        J.claim_next(conn, gone, "1", 600, ids=[ids["dead-owner"]])
        J.claim_next(conn, sleeper.pid, live_start, 600, ids=[ids["live-owner"]])
        J.claim_next(conn, sleeper.pid, live_start, -1, ids=[ids["expired"]])  # lease already over
        J.claim_next(conn, me_pid, me_start, 600, ids=[ids["mine"]])
        conn.execute("UPDATE jobs SET attempts = 1 WHERE id = ?", (ids["last-try"],))
        J.claim_next(conn, gone, "1", 600, ids=[ids["last-try"]])  # attempt 2 of 2
        done = W.requeue_orphans(conn, FAST)
        assert sorted(done) == sorted([ids["dead-owner"], ids["expired"], ids["last-try"]])
        assert J.get(conn, ids["dead-owner"]).state == "queued"
        assert "stopped before it finished" in J.get(conn, ids["dead-owner"]).last_error
        assert J.get(conn, ids["expired"]).state == "queued"
        assert J.get(conn, ids["live-owner"]).state == "running"
        assert J.get(conn, ids["mine"]).state == "running"
        assert J.get(conn, ids["last-try"]).state == "dead"  # a source that kills the process every time
        # A live pid whose start time differs is another process reusing the pid: orphan.
        assert not W.process_alive(sleeper.pid, "12345")
        assert W.process_alive(sleeper.pid, live_start)
    finally:
        sleeper.kill()
        sleeper.wait()


# ----------------------------------------------------------------------------- ingest through jobs

def test_ingest_makes_one_job_per_source_and_skips_content_problems(app, tmp_path):
    write(tmp_path / "in" / "a.md", "# A\n\nKayak club minutes.\n")
    write(tmp_path / "in" / "blob.txt", b"\x00\x01\x02\x03" * 200)
    report = app.ingest([tmp_path / "in", tmp_path / "in" / "a.md"])  # a.md given twice
    assert len(report.added) == 1 and len(report.skipped) == 1 and report.failed == []
    info = app.jobs()
    assert info["counts"] == {"queued": 0, "running": 0, "interrupted": 0, "done": 2, "dead": 0}
    outcomes = sorted(j["outcome"] for j in J_all(app))
    assert outcomes[0] == "added" and outcomes[1].startswith("skipped: binary data")
    app.ingest([tmp_path / "in"])
    assert app.conn.execute("SELECT count(*) FROM jobs").fetchone()[0] == 2  # rows re-armed, not added


def J_all(app):
    return [J.JobRow.from_row(r).to_json() for r in app.conn.execute("SELECT * FROM jobs")]


def test_transient_read_error_retries_then_dead_letter_then_retry(app, tmp_path, monkeypatch):
    """A file that cannot be read (an OSError) is retried with back-off, goes to the dead
    letters with its error, and `retry` ingests it once it is readable; nothing else is lost."""
    app.settings.jobs = FAST
    write(tmp_path / "in" / "ok.md", "# Ok\n\nHeron counts by the weir.\n")
    bad = write(tmp_path / "in" / "bad.md", "# Bad\n\nOtter tracks near the mill.\n")
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "bad.md" and self.parent == bad.parent:
            raise OSError(5, "Input/output error", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    report = app.ingest([tmp_path / "in"])
    assert len(report.added) == 1 and report.retried == 2
    (name, reason), = report.failed
    assert name == str(bad) and "Input/output error" in reason and "gave up after 3 attempts" in reason
    dead = app.jobs()["dead"]
    assert len(dead) == 1 and dead[0]["attempts"] == 3 and "Input/output error" in dead[0]["last_error"]
    monkeypatch.setattr(Path, "read_bytes", real)
    with pytest.raises(ValueError, match="not a dead letter"):
        app.jobs_retry([dead[0]["id"] + 100])
    report = app.jobs_retry([dead[0]["id"]])
    assert report.added == [str(bad)] and app.jobs()["counts"]["dead"] == 0
    assert app.search("otter tracks", mode="keyword").hits
    assert app.status()["notes"] == 2


def test_file_deleted_after_it_was_queued_is_skipped(app, tmp_path):
    f = write(tmp_path / "in" / "temp.md", "# T\n\nShort-lived.\n")
    from cairn.ingest import IngestReport, enqueue_sources
    enqueue_sources(app.conn, app.settings, [tmp_path / "in"], IngestReport())
    f.unlink()
    report = app.jobs_run()
    assert report.skipped and "no such file" in report.skipped[0][1]
    assert app.jobs()["counts"]["done"] == 1


def test_fetch_and_jobs_settings_are_validated(tmp_path):
    home = tmp_path / "h"
    write(home / "config.toml", "[fetch]\nallow_private = true\nmax_url_bytes = 1000\n[jobs]\nmax_attempts = 2\n")
    s = load_settings(home)
    assert s.fetch.allow_private is True and s.fetch.max_url_bytes == 1000 and s.jobs.max_attempts == 2
    write(home / "config.toml", "[fetch]\nallow_private = \"yes\"\n")
    with pytest.raises(ConfigError, match="fetch.allow_private must be true or false"):
        load_settings(home)
    write(home / "config.toml", "[jobs]\nmax_attempts = true\n")
    with pytest.raises(ConfigError, match="jobs.max_attempts"):
        load_settings(home)


# ----------------------------------------------------------------------------- kill -9

def _make_sources(folder: Path, n: int) -> dict[str, str]:
    tokens = {}
    for i in range(n):
        tokens[f"k{i:04d}.md"] = f"killtok{i:04d}z"
        write(folder / f"k{i:04d}.md", f"# Kill note {i}\n\nEntry {i} holds killtok{i:04d}z among words.\n")
    return tokens


def test_kill_9_mid_ingest_then_restart_indexes_every_file_exactly_once(tmp_path):
    """A real `cairn ingest` subprocess is killed with SIGKILL once the index holds some but
    not all notes; `cairn jobs run` then finishes: every file is indexed exactly once."""
    n = 150
    src, home = tmp_path / "src", tmp_path / "home"
    tokens = _make_sources(src, n)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "cairn.cli", "--home", str(home), "ingest", "-q", str(src)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    at_kill = None
    deadline = time.time() + 240
    while proc.poll() is None and time.time() < deadline:
        try:
            c = sqlite3.connect(f"file:{home / 'index.db'}?mode=ro", uri=True, timeout=0.2)
            notes = c.execute("SELECT count(*) FROM notes").fetchone()[0]
            c.close()
        except sqlite3.Error:
            notes = 0
        if notes >= 10:
            os.kill(proc.pid, signal.SIGKILL)
            at_kill = notes
            break
        time.sleep(0.003)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    assert 10 <= at_kill < n  # killed midway (the index held some but not all notes)
    c = sqlite3.connect(home / "index.db")
    states = dict(c.execute("SELECT state, count(*) FROM jobs GROUP BY state").fetchall())
    c.close()
    assert states.get("queued", 0) > 0  # work was left

    r = cli(home, "jobs", "run", "-q")
    assert r.returncode == 0, r.stderr
    assert "failed 0" in r.stdout

    from cairn.service import Cairn
    with Cairn(home) as app:
        q = lambda sql: app.conn.execute(sql).fetchone()[0]  # noqa: E731
        assert q("SELECT count(*) FROM notes") == n
        assert q("SELECT count(DISTINCT source) FROM notes") == n
        assert len(list((home / "vault").rglob("*.md"))) == n
        for name, token in tokens.items():
            hits = app.search(token, mode="keyword").hits
            assert len(hits) == 1 and Path(hits[0].source).name == name, (name, hits)
        assert q("SELECT count(*) FROM chunks WHERE note_id NOT IN (SELECT id FROM notes)") == 0
        assert q("SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)") == 0
        assert q("SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)") == 0
        assert q("SELECT count(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM vectors)") == 0
        assert app.jobs()["counts"] == {"queued": 0, "running": 0, "interrupted": 0, "done": n, "dead": 0}


# ----------------------------------------------------------------------------- CLI

class Flaky(BaseHTTPRequestHandler):
    ok = False

    def log_message(self, *a):
        pass

    def do_GET(self):  # noqa: N802
        if not Flaky.ok:
            body, status = b"try later", 503
        else:
            body = (b"<html><head><title>Weir report</title></head><body><article><p>The weir gauge "
                    b"read two metres, token weirgaugeok, after the storm passed overnight.</p></article></body></html>")
            status = 200
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_cli_jobs_lists_dead_letters_and_retry_runs_them(tmp_path):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        home = tmp_path / "h"
        write(home / "config.toml", "[fetch]\nallow_private = true\n[jobs]\nmax_attempts = 2\n"
                                    "backoff_base_s = 0.01\n")
        url = f"http://127.0.0.1:{srv.server_address[1]}/weir"
        r = cli(home, "ingest", "-q", url)
        assert r.returncode == 1 and "failed 1" in r.stdout and "HTTP 503" in r.stderr
        assert "Traceback" not in r.stderr
        r = cli(home, "jobs")
        assert r.returncode == 0
        assert "queued 0, running 0, interrupted 0, done 0, dead 1" in r.stdout and "HTTP 503" in r.stdout
        info = json.loads(cli(home, "jobs", "--json").stdout)
        (dead,) = info["dead"]
        assert dead["source"] == url and dead["attempts"] == 2
        r = cli(home, "jobs", "retry", "-q")
        assert r.returncode == 2 and "give job ID(s) or --all" in r.stderr  # a usage error
        r = cli(home, "jobs", "retry", "-q", "999")
        assert r.returncode == 1 and "not a dead letter: job 999 (no such job)" in r.stderr
        Flaky.ok = True
        r = cli(home, "jobs", "retry", "-q", str(dead["id"]))
        assert r.returncode == 0 and "added 1" in r.stdout, r.stderr
        assert "queued 0, running 0, interrupted 0, done 1, dead 0" in cli(home, "jobs").stdout
        r = cli(home, "search", "--mode", "keyword", "--json", "weirgaugeok")
        assert url in r.stdout
        r = cli(home, "jobs", "retry", "--all", "-q")  # nothing dead: a no-op
        assert r.returncode == 0 and "added 0" in r.stdout
        r = cli(home, "jobs", "run", "-q")
        assert r.returncode == 0 and "added 0" in r.stdout
    finally:
        srv.shutdown()
        srv.server_close()
