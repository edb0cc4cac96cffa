"""FIFOs and device files are never read by ingest (a FIFO blocks, /dev/zero never ends):
they are skipped by name and the regular files beside them are ingested."""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from conftest import write


def test_fifo_in_a_folder_is_skipped_and_the_rest_ingested(app, tmp_path):
    folder = tmp_path / "in"
    write(folder / "ok.md", "# Ok\n\nThe heron count was seven.\n")
    os.mkfifo(folder / "pipe.md")
    report = app.ingest([folder])
    assert any(n.endswith("pipe.md") and "FIFO" in r for n, r in report.skipped), report.skipped
    assert len(report.added) == 1
    assert app.search("heron", mode="keyword").hits
    assert app.jobs()["counts"].get("queued", 0) == 0


def test_a_device_given_directly_is_skipped(app):
    report = app.ingest(["/dev/zero"])
    assert report.skipped and "character device" in report.skipped[0][1]
    assert app.status()["notes"] == 0


class _SlowPage(http.server.BaseHTTPRequestHandler):
    """Sends the headers and a first line of the page, then keeps the connection open."""

    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html><body><p>slow page")
        self.wfile.flush()
        time.sleep(30)

    def log_message(self, *args):
        pass


def test_sigterm_during_ingest_releases_running_jobs(tmp_path):
    """SIGTERM stops like Ctrl-C: exit 130 with a resume hint, and the job that was running
    (a download that never ends) is back in the queue, not left 'running'."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SlowPage)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    home = tmp_path / "home"
    write(home / "config.toml", "[fetch]\nallow_private = true\ntimeout_s = 120\n")
    url = f"http://127.0.0.1:{server.server_address[1]}/slow"
    proc = subprocess.Popen([sys.executable, "-m", "cairn.cli", "--home", str(home), "ingest", url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        running = 0
        while time.time() < deadline and not running:
            time.sleep(0.2)
            if (home / "index.db").exists():
                with contextlib.closing(sqlite3.connect(home / "index.db", timeout=10)) as db:
                    try:
                        running = db.execute("SELECT count(*) FROM jobs WHERE state = 'running'").fetchone()[0]
                    except sqlite3.OperationalError:
                        running = 0  # the schema is being created
        assert running == 1, "the download job never started"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.shutdown()
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    assert "cairn jobs run" in err
    with contextlib.closing(sqlite3.connect(home / "index.db")) as db:
        states = dict(db.execute("SELECT state, count(*) FROM jobs GROUP BY state").fetchall())
    assert states == {"queued": 1}, states
