"""FIFOs and device files are never read by ingest (a FIFO blocks, /dev/zero never ends):
they are skipped by name and the regular files beside them are ingested."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
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


def test_sigterm_during_ingest_releases_running_jobs(tmp_path):
    """SIGTERM stops like Ctrl-C: exit 130 with a hint, no job left 'running'."""
    folder = tmp_path / "many"
    for i in range(300):
        write(folder / f"n{i:03d}.md", f"# Note {i}\n\nunique token zq{i:03d}x and some text.\n")
    home = tmp_path / "home"
    proc = subprocess.Popen([sys.executable, "-m", "cairn.cli", "--home", str(home), "ingest", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not (home / "index.db").exists():
        time.sleep(0.1)
    time.sleep(1.5)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.fail("ingest finished before SIGTERM arrived; raise the file count")
    assert proc.returncode == 130, err
    assert "cairn jobs run" in err
    from cairn.service import Cairn
    with Cairn(home) as app:
        assert app.jobs()["counts"].get("running", 0) == 0
