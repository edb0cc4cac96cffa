"""Two processes on one home: the server and another Cairn process (as a CLI `cairn note
create` or a second server) write at the same time. No write is lost, no 'database is
locked' reaches a client, and the server's searches see the other process's notes and
vectors at once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rest_support import RestServer

TESTS = Path(__file__).resolve().parents[1]

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
