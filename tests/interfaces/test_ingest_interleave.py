"""Interactive writes do not wait behind an ingest (issue 34). `cairn serve`'s application
on a real uvicorn runs an upload of many files whose embedding is held mid-way (an embedder
that blocks on the ingest's texts until the test releases it: the ingest then holds the
index's "ingest" and "embed" locks, as a large ingest does for minutes). Meanwhile a note
created over REST, a memory, an MCP-style tool call and `cairn note create` in its own
process all complete, and the ingest finishes afterwards with every file. No timing is
asserted: only that the writes complete while the ingest is provably still running."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx

from conftest import HashEmbedder
from web_site import serve

SRC = Path(__file__).resolve().parents[2] / "src"


class GateEmbedder(HashEmbedder):
    """HashEmbedder that blocks any batch holding a text with "bulkfile" until `release` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.blocked = threading.Event()

    def embed(self, texts):
        if any("bulkfile" in t for t in texts):
            self.blocked.set()
            assert self.release.wait(600), "the test never released the ingest"
        return super().embed(texts)


def test_interactive_writes_complete_while_an_ingest_holds_its_locks(tmp_path):
    from cairn.config import load_settings
    from cairn.interfaces.rest.app import create_app
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n\n[ingest]\nparse_workers = 0\n')
    gate = GateEmbedder()
    base, stop = serve(create_app(load_settings(home), embedder=gate))
    files = [("files", (f"bulk-{i:03d}.md", f"# Bulk {i}\n\nbulkfile number {i} about the boiler.\n".encode(),
                        "text/markdown")) for i in range(40)]
    result: dict = {}

    def upload() -> None:
        with httpx.Client(base_url=base, timeout=600) as c:
            result["ingest"] = c.post("/api/ingest/files", files=files)
    ingest = threading.Thread(target=upload)
    try:
        ingest.start()
        assert gate.blocked.wait(300), "the ingest never reached its embedding"
        with httpx.Client(base_url=base, timeout=120) as c:
            r = c.post("/api/notes", json={"title": "Written during the ingest", "body": "kettle descaled"})
            assert r.status_code == 201, r.text
            r = c.post("/api/memories", json={"text": "my locker code is 4417"})
            assert r.status_code < 300, r.text
            hits = c.get("/api/search", params={"q": "kettle descaled", "mode": "semantic"}).json()
            assert hits and hits[0]["title"] == "Written during the ingest"  # its vectors exist already
        env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
        r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "note", "create", "From the CLI",
                            "--body", "written while the server ingests"], capture_output=True, text=True,
                           env=env, timeout=300, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr
        assert ingest.is_alive() and "ingest" not in result  # all of it happened inside the ingest
    finally:
        gate.release.set()
        ingest.join(600)
        stop()
    assert result["ingest"].status_code == 200, result["ingest"].text
    assert result["ingest"].json()["added"] == 40
