"""Two-phase ingest (issue 16): text is keyword-searchable before the vectors exist, search
says when vectors are pending, nothing is lost when the process dies between the phases,
and the watcher embeds in the background."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from conftest import write
from watching import RunningWatcher, wait_until

from cairn.ingest import ingest_paths


def cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600)


def test_text_first_then_vectors_and_search_says_they_are_pending(app, tmp_path):
    for i in range(3):
        write(tmp_path / "in" / f"n{i}.md", f"# Note {i}\n\nThe kestrel{i} hovers over the meadow.\n")
    report = ingest_paths(app.conn, app.settings, [tmp_path / "in"], app.embedder, embed=False)
    assert len(report.added) == 3 and report.embedded == 0
    assert [h.title for h in app.search("kestrel1", mode="keyword").hits] == ["Note 1"]
    assert app.status()["missing_vectors"] == 3
    res = app.search("bird of prey above grass")
    assert res.vectors_pending == 3 and any("not embedded yet" in w for w in res.warnings)
    r = cairn(app.settings.home, "search", "kestrel2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["vectors_pending"] == 3 and out["hits"][0]["title"] == "Note 2"
    assert app.search("kestrel0", mode="keyword").vectors_pending == 0  # keyword mode: not asked

    app.jobs_run()
    assert app.status()["missing_vectors"] == 0
    res = app.search("bird of prey above grass", mode="semantic")
    assert res.vectors_pending == 0 and res.hits and not any("not embedded" in w for w in res.warnings)


def test_ingest_reports_phase_times_and_memory(app, tmp_path):
    write(tmp_path / "in" / "a.md", "# A\n\nAlder catkins in February.\n")
    report = app.ingest([tmp_path / "in"])
    t = report.timings
    assert 0 < t["keyword_searchable_s"] <= t["text_embedded_s"] <= t["parsed_s"] <= t["embedded_s"]
    assert report.peak_rss_mib["ingest"] > 0
    j = report.to_json()
    assert set(j["timings"]) == {"keyword_searchable_s", "text_embedded_s", "parsed_s", "embedded_s"}


def _count(db, sql):
    if not db.exists():
        return -1
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    except sqlite3.OperationalError:
        return -1
    try:
        return conn.execute(sql).fetchone()[0]
    except sqlite3.OperationalError:  # not created yet, or busy
        return -1
    finally:
        conn.close()


def test_kill_between_the_phases_loses_nothing(tmp_path):
    """SIGKILL once every note's text is indexed but before every vector is stored; the
    notes are searchable at once and `cairn jobs run` finishes the vectors."""
    n = 30  # ~60 chunks: the packaged embedder needs seconds for its first batch, the kill takes milliseconds
    para = " ".join(f"word{j} meadow river stone" for j in range(60))
    for i in range(n):
        write(tmp_path / "in" / f"note{i:03}.md", f"# Note {i}\n\nuniq{i}tok {para}\n\n## More\n\n{para}\n")
    home = tmp_path / "home"
    db = home / "index.db"
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "ingest", str(tmp_path / "in"), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and proc.poll() is None:
            if _count(db, "SELECT count(*) FROM notes") == n:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "ingest ended before the kill: " + proc.stderr.read().decode()[-2000:]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    chunks = _count(db, "SELECT count(*) FROM chunks")
    vectors = _count(db, "SELECT count(*) FROM vectors")
    assert _count(db, "SELECT count(*) FROM notes") == n and vectors < chunks
    r = cairn(home, "search", f"uniq{n - 1}tok", "--mode", "keyword", "--json")
    assert json.loads(r.stdout)["hits"][0]["title"] == f"Note {n - 1}"
    status = json.loads(cairn(home, "status", "--json").stdout)
    assert status["missing_vectors"] == chunks - vectors > 0
    r = cairn(home, "jobs", "run", "-q")
    assert r.returncode == 0, r.stderr
    status = json.loads(cairn(home, "status", "--json").stdout)
    assert status["missing_vectors"] == 0 and status["notes"] == n and status["chunks"] == chunks
    assert len(list((home / "vault" / "notes" / "in").glob("*.md"))) == n
    assert _count(db, "SELECT count(*) FROM jobs WHERE state != 'done'") == 0


def test_watch_indexes_text_at_once_and_embeds_in_the_background(app):
    vault = app.settings.vault
    write(vault / "heron.md", "# Heron\n\nThe heron nests by the mill pond.\n")
    with RunningWatcher(app):
        wait_until(lambda: [h.title for h in app.search("heron", mode="keyword").hits] == ["Heron"],
                   what="text indexed")
        wait_until(lambda: app.status()["missing_vectors"] == 0, timeout=120, what="vectors computed")
        write(vault / "wren.md", "# Wren\n\nA wren sang in the hedge at dawn.\n")
        wait_until(lambda: [h.title for h in app.search("wren", mode="keyword").hits] == ["Wren"],
                   what="new note indexed")
        wait_until(lambda: app.status()["missing_vectors"] == 0, timeout=120, what="its vector computed")
        assert app.search("a wren sang in the hedge", mode="semantic").hits[0].title == "Wren"


def test_timings_count_from_the_request_not_from_the_process(tmp_path):
    """A long-lived process (a server) reports each ingest's phases from that ingest's start;
    a command (`cairn ingest`) from its process's start."""
    from cairn.ingest.run import process_started
    from cairn.service import Cairn
    from conftest import HashEmbedder
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.md").write_text("# A\n\nA note about rhubarb.\n")
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        before = time.monotonic()
        asked = app.ingest([tmp_path / "in"]).timings["keyword_searchable_s"]
        took = time.monotonic() - before
        (tmp_path / "in" / "b.md").write_text("# B\n\nA note about leeks.\n")
        waited = time.monotonic() - process_started()  # this test process's age when the command asks
        command = app.ingest([tmp_path / "in"], started=process_started()).timings["keyword_searchable_s"]
    assert 0 < asked <= took  # the request's own time, not the process's age
    assert command >= waited  # the command's start-up included
