"""`cairn serve`, `cairn keys`, `cairn audit` as a person runs them (subprocesses), and the
server's shutdown: SIGTERM stops it cleanly, and ingest jobs it held go back to the queue."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx

from rest_support import free_port

from cairn.config import load_settings

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def cairn(*args, home, timeout=120, **kw):
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=timeout, env=ENV, stdin=subprocess.DEVNULL, **kw)


def test_serve_on_all_interfaces_without_key_refuses_and_says_how(tmp_path):
    r = cairn("serve", "--host", "0.0.0.0", "--port", str(free_port()), home=tmp_path / "h")
    assert r.returncode == 1
    assert "cairn keys create" in r.stderr and "0.0.0.0" in r.stderr


def test_keys_cli_create_list_revoke_and_audit(tmp_path):
    home = tmp_path / "h"
    r = cairn("keys", "create", "laptop", "--scope", "write", home=home)
    assert r.returncode == 0, r.stderr
    token = r.stdout.strip()
    assert token.startswith("cairn_") and "not shown again" in r.stderr
    assert token not in (home / "keys.json").read_text()
    listed = json.loads(cairn("keys", "list", "--json", home=home).stdout)
    assert [(k["name"], k["scope"], k["active"]) for k in listed] == [("laptop", "write", True)]
    assert token not in json.dumps(listed)
    bad = cairn("keys", "create", "x", "--scope", "root", home=home)
    assert bad.returncode == 1 and "scope" in bad.stderr
    assert cairn("keys", "revoke", "laptop", home=home).returncode == 0
    again = cairn("keys", "revoke", "laptop", home=home)
    assert again.returncode == 1 and "no active key" in again.stderr
    log = json.loads(cairn("audit", "--json", home=home).stdout)
    assert [e["action"] for e in log] == ["key.create", "key.revoke"]
    assert "key.revoke" in cairn("audit", home=home).stdout


def test_serve_answers_then_stops_cleanly_on_sigterm(tmp_path):
    home, port = tmp_path / "h", free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "serve", "--port", str(port)],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(240):
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.25)
        else:
            raise AssertionError("cairn serve did not come up: " + proc.stderr.read()[-2000:])
        spec = httpx.get(base + "/openapi.json", timeout=30).json()
        assert "/api/search" in spec["paths"]
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "stopped" in err and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_stopping_releases_held_ingest_jobs(tmp_path):
    """What SIGINT/SIGTERM does to a running ingest: the next progress step raises
    KeyboardInterrupt (the job runner puts unfinished jobs back), and jobs this process
    still holds are released to the queue on close."""
    import pytest

    from cairn.interfaces.rest.runtime import Runtime
    from cairn.service import Cairn
    from cairn.store import jobs as J
    from fakes.embedder import HashEmbedder

    settings = load_settings(tmp_path / "h")
    with Cairn(settings=settings, embedder=HashEmbedder()) as svc:
        job_id, _ = J.enqueue(svc.conn, "file", str(tmp_path / "x.md"), {}, max_attempts=3)
        claimed = J.claim_batch(svc.conn, os.getpid(), None, 3600, limit=5)
        assert [j.id for j in claimed] == [job_id] and J.get(svc.conn, job_id).state == "running"
    rt = Runtime(settings, HashEmbedder())
    tick = rt.progress()
    tick("ingest", 1, 3)  # not stopping: nothing happens
    rt.stopping.set()
    with pytest.raises(KeyboardInterrupt):
        tick("ingest", 2, 3)
    rt.close()
    with Cairn(settings=settings, embedder=HashEmbedder()) as svc:
        job = J.get(svc.conn, job_id)
        assert job.state == "queued" and job.attempts == 0


def test_ask_trace_prints_the_stages(tmp_path):
    home, notes = tmp_path / "h", tmp_path / "in"
    notes.mkdir()
    (notes / "heron.md").write_text("# Heron\n\nThe heron nests by the mill pond.\n")
    assert cairn("ingest", "-q", str(notes), home=home, timeout=300).returncode == 0
    r = cairn("ask", "Where does the heron nest?", "--llm", "none", "--trace", home=home, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "mill pond" in r.stdout
    lines = r.stderr.splitlines()
    header = next(i for i, l in enumerate(lines) if l.startswith("trace "))
    stages = [l.split()[0] for l in lines[header + 1:]]
    assert stages[:2] == ["model", "search"] and "answer" in stages
    trace_id = lines[header].split()[1]
    assert (home / "traces" / f"{trace_id}.json").is_file()
    plain = cairn("ask", "Where does the heron nest?", "--llm", "none", "--json", home=home, timeout=300)
    assert "trace " not in plain.stderr and json.loads(plain.stdout)["verdict"]


def test_serve_on_a_port_in_use_says_so_and_exits_1(tmp_path):
    """probe23: a second `cairn serve` on a taken port printed "Cairn serving … on
    http://127.0.0.1:PORT" (untrue), then uvicorn's "[Errno 98] error while attempting to
    bind" among INFO lines, and exited with 3, a code docs/cli.md does not list."""
    import socket
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = held.getsockname()[1]
        r = cairn("serve", "--port", str(port), home=tmp_path / "h")
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert f"error: cannot listen on 127.0.0.1:{port}: address already in use" in r.stderr.lower()
    assert "--port" in r.stderr and "Cairn serving" not in r.stderr and "INFO" not in r.stderr
