"""Two processes on one home: the server and another Cairn process (as a CLI `cairn note
create` or a second server) write at the same time. No write is lost, no 'database is
locked' reaches a client, and the server's searches see the other process's notes and
vectors at once."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rest_support import RestServer

TESTS = Path(__file__).resolve().parents[1]
B30 = TESTS / "cases" / "B30-sqlite-database-locked" / "steps.yaml"

OTHER = textwrap.dedent("""
    import sys
    from fakes.embedder import HashEmbedder
    from cairn.service import Cairn
    with Cairn(sys.argv[1], embedder=HashEmbedder()) as app:
        for i in range(15):
            app.note_create(f"Other {i}", f"written by the other process zqother{i:03d}")
            app.remember(f"The other process counted {i} cranes zqmem{i:03d}") if i % 3 == 0 else None
    print("done")
""")


def test_server_and_another_process_write_together(tmp_path):
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), *[p for p in sys.path if p]])}
        other = subprocess.Popen([sys.executable, "-c", OTHER, str(srv.home)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with ThreadPoolExecutor(6) as pool:
            writes = list(pool.map(lambda i: c.post("/api/notes", json={
                "title": f"Server {i}", "body": f"written through the server zqserver{i:03d}"}), range(15)))
            reads = list(pool.map(lambda i: c.get("/api/search", params={"q": "written"}), range(10)))
        out, err = other.communicate(timeout=300)
        assert other.returncode == 0 and out.strip() == "done", err
        assert [w.status_code for w in writes] == [201] * 15, [w.text for w in writes if w.status_code != 201]
        assert all(r.status_code == 200 for r in reads)
        for who in ("server", "other"):
            for i in range(15):
                hits = c.get("/api/search", params={"q": f"zq{who}{i:03d}", "mode": "keyword"}).json()
                assert hits and hits[0]["title"] == f"{who.title()} {i}", (who, i, hits)
        sem = c.get("/api/search", params={"q": "written by the other process zqother014",
                                           "mode": "semantic", "k": 3}).json()
        assert sem[0]["title"] == "Other 14"  # its vector is served, not a stale matrix
        texts = " ".join(m["text"] for m in c.get("/api/memories").json())
        assert all(f"zqmem{i:03d}" in texts for i in range(0, 15, 3))
        assert c.get("/api/notes", params={"limit": 100}).json()["total"] == 30


SIDE = textwrap.dedent("""
    # The other processes of case B30, in one: an MCP-like client searching, and CLI-like
    # reminder creations, on the same home as the server.
    import sys
    from fakes.embedder import HashEmbedder
    from cairn.service import Cairn
    with Cairn(sys.argv[1], embedder=HashEmbedder()) as app:
        sched = app.scheduler()
        for i in range(60):
            app.search("locker code", mode="hybrid")
            if i % 6 == 0:
                sched.remind(f"stretch {i}", at="in 1 minute")  # ten distinct: the same reminder twice is one
        print(len(sched.list()))
        sched.close()
""")


def test_case_b30_no_database_locked_under_mixed_load(tmp_path):
    """Case B30 (tests/cases/B30-sqlite-database-locked, scaled down): the API server takes
    fact writes and searches, another process searches and creates reminders, files dropped in
    the vault are synced — at the same time. No request fails, no write is lost, WAL is on and
    the index passes PRAGMA integrity_check."""
    assert "database is locked" in B30.read_text()
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), *[p for p in sys.path if p]])}
        side = subprocess.Popen([sys.executable, "-c", SIDE, str(srv.home)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        inbox = srv.settings.vault / "inbox"
        inbox.mkdir(parents=True)

        def fact(i):
            return c.post("/api/memories", json={"text": f"Fact number {i}: my locker code at the pool is {i}"})

        def search(i):
            return c.get("/api/search", params={"q": "locker code", "mode": "hybrid"})

        def drop(i):
            (inbox / f"n{i}.md").write_text(f"# Note {i}\nline {i}\n", encoding="utf-8")
            return c.post("/api/sync") if i % 10 == 9 else None

        with ThreadPoolExecutor(8) as pool:
            facts = pool.map(fact, range(40))
            searches = pool.map(search, range(40))
            syncs = [r for r in pool.map(drop, range(30)) if r is not None]
            facts, searches = list(facts), list(searches)
        out, err = side.communicate(timeout=300)
        assert side.returncode == 0, err
        assert "locked" not in err
        assert [r.status_code for r in facts if r.status_code != 200] == []
        assert [r.status_code for r in searches if r.status_code != 200] == []
        assert [r.status_code for r in syncs] == [202] * 3
        final = c.post("/api/sync").json()["id"]
        for _ in range(600):
            task = c.get(f"/api/tasks/{final}").json()
            if task["state"] in ("done", "failed"):
                break
            time.sleep(0.1)
        assert task["state"] == "done", task
        assert int(out.strip()) == 10  # reminders created by the other process
        written = {r.json()["memory"]["id"] for r in facts}
        listed = {m["id"] for m in c.get("/api/memories", params={"all": True}).json()}
        assert written <= listed  # no write reported as success was lost
        paths = {n["path"] for n in c.get("/api/notes", params={"limit": 1000}).json()["notes"]}
        assert {f"inbox/n{i}.md" for i in range(30)} <= paths
    conn = sqlite3.connect(srv.home / "index.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_service_proxy_routes_reads_writes_and_local_calls(tmp_path):
    """The ServiceProxy the web page and the MCP server use: reads on the reader pool, writes
    on the writer (audited as the door), and `scheduler()` made in the caller's thread (its
    connection is used there)."""
    from cairn import audit
    from cairn.interfaces.rest.proxy import ServiceProxy
    with RestServer(tmp_path / "home") as srv:
        svc = ServiceProxy(srv.app.state.runtime, actor="web")
        note = svc.note_create("Proxied", "through the proxy")
        assert svc.search("proxy").hits[0].title == "Proxied"
        assert [r["query_id"] for r in svc.search_batch([("a", "proxy")])] == ["a"]
        sched = svc.scheduler()
        try:
            assert sched.remind("stretch", at="in 1 minute").text == "stretch"
        finally:
            sched.close()
        assert any(e["actor"] == "web" and e["action"] == "web.note_create" and e["target"] == "Proxied"
                   for e in audit.entries(srv.home, 0))
        assert svc.settings.home == srv.home and note.title == "Proxied"
        with pytest.raises(AttributeError):
            svc.conn  # noqa: B018 - no connection leaves the runtime's threads
