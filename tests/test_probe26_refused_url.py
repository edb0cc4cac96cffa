"""Session 26 (probe26): `cairn ingest http://127.0.0.1:9/x` (or file:///etc/passwd, a data: URL)
was queued, refused by the fetcher, and kept as a dead letter whose message suggested `cairn jobs
retry N` — which fails the same way every time (file: never becomes http). A URL refused by its
form alone (scheme, credentials, a loopback / private literal, localhost) is now reported at once,
naming the reason, and queues no job; a name that needs DNS is still queued and checked at fetch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cairn.fetch import refused_at_once

SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.mark.parametrize("url, reason", [
    ("http://127.0.0.1:9/x", "loopback"), ("file:///etc/passwd", "scheme file:"), ("data:text/plain,hi", "scheme data:"),
    ("http://user:pw@example.org/", "credentials"), ("http://localhost/", "loopback"), ("http://10.0.0.8/", "private"),
    ("http://169.254.169.254/latest/meta-data", "cloud metadata")])
def test_refused_by_form_alone(url, reason):
    assert reason in (refused_at_once(url) or ""), refused_at_once(url)


def test_a_name_for_dns_and_allowed_private_are_not_refused_at_once():
    assert refused_at_once("https://example.org/page") is None
    assert refused_at_once("http://127.0.0.1:9/x", allow_private=True) is None


def test_cli_ingest_of_a_refused_url_names_it_and_leaves_no_dead_letter(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    run = lambda *a: subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=240, env={"PYTHONPATH": SRC, "PATH": "/usr/bin"})
    r = run("ingest", "http://127.0.0.1:9/x", "file:///etc/passwd")
    assert r.returncode == 1
    assert "127.0.0.1 (loopback) — refused (set [fetch] allow_private = true" in r.stderr, r.stderr
    assert "scheme file: is not allowed" in r.stderr and "jobs retry" not in r.stderr, r.stderr
    jobs = run("jobs", "--json")
    assert jobs.returncode == 0 and '"dead": 0' in jobs.stdout and "127.0.0.1" not in jobs.stdout, jobs.stdout
