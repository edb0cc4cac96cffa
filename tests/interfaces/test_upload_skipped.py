"""An upload that ingest skips (binary data, NUL bytes) is not kept, and the reply names
files as the person uploaded them (session 26 new-user trial: the skipped file stayed in
`<home>/uploads/<uuid>/` for good and the REST reply named that server path).
Files that made notes stay: they are the originals the notes point to."""

from __future__ import annotations

import json
import time

from rest_support import RestServer
from upload_support import TEXT, upload_files as _upload_files, web_client

BINARY = b"\x00\x01\x02junk\x00\xff\xfe" * 64


def test_a_skipped_upload_is_removed_and_named_as_uploaded(tmp_path):
    home = tmp_path / "home"
    with RestServer(home) as srv, srv.client() as c:
        r = c.post("/api/ingest/files", files=[("files", ("../junk.bin", BINARY, "application/octet-stream"))])
        body = r.json()
        assert r.status_code == 200 and body["added"] == 0, r.text
        assert [s["name"] for s in body["skipped"]] == ["junk.bin"], body
        assert str(home) not in r.text and "uploads" not in r.text, r.text
        assert _upload_files(home) == []  # the copy and its folder are gone


def test_a_mixed_upload_keeps_the_ingested_original_only(tmp_path):
    home = tmp_path / "home"
    outside = tmp_path / "junk.bin"  # a file of the same name outside uploads/ is never touched
    outside.write_bytes(BINARY)
    with RestServer(home) as srv, srv.client() as c:
        r = c.post("/api/ingest/files", files=[("files", ("kestrels.md", TEXT, "text/markdown")),
                                               ("files", ("junk.bin", BINARY, "application/octet-stream"))])
        body = r.json()
        assert r.status_code == 200 and body["added"] == 1, r.text
        assert [s["name"] for s in body["skipped"]] == ["junk.bin"], body
        assert str(home) not in json.dumps(body)
        kept = _upload_files(home)
        assert len(kept) == 2 and kept[1].endswith("/kestrels.md"), kept  # the folder and the original
        note = c.get("/api/notes").json()["notes"][0]
        assert c.get(f"/api/notes/{note['id']}").status_code == 200
    assert outside.read_bytes() == BINARY


def test_the_web_page_upload_drops_a_skipped_file_and_names_it_as_uploaded(tmp_path, real_embedder):
    with web_client(tmp_path, real_embedder) as (home, c):
        r = c.post("/ingest/upload", headers={"Accept": "application/json"},
                   files=[("files", ("kestrels.md", TEXT, "text/markdown")),
                          ("files", ("junk.bin", BINARY, "application/octet-stream"))])
        assert r.status_code == 202, r.text
        task, deadline = r.json(), time.time() + 120
        while task["state"] not in ("done", "failed") and time.time() < deadline:
            time.sleep(0.2)
            task = c.get(f"/ingest/tasks/{task['id']}").json()
    assert task["state"] == "done" and task["report"]["added"] == 1, task
    assert [s["name"] for s in task["report"]["skipped"]] == ["junk.bin"], task
    assert str(home) not in json.dumps(task)
    kept = _upload_files(home)
    assert len(kept) == 2 and kept[1].endswith("/kestrels.md"), kept


def test_settle_removes_nothing_outside_the_homes_uploads(tmp_path):
    from cairn.report import IngestReport
    from cairn.uploads import settle, upload_folder
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere" / "abc"
    elsewhere.mkdir(parents=True)
    stray = elsewhere / "junk.bin"
    stray.write_bytes(BINARY)
    report = IngestReport(skipped=[(str(stray), "binary")])
    settle(report, home, elsewhere, [stray])
    assert stray.exists() and report.skipped == [("junk.bin", "binary")]
    folder = upload_folder(home)  # a real upload folder: only the saved paths in it are removed
    mine, other = folder / "junk.bin", tmp_path / "other.bin"
    mine.write_bytes(BINARY)
    other.write_bytes(BINARY)
    settle(IngestReport(skipped=[(str(mine), "binary"), (str(other), "binary")]), home, folder, [mine, other])
    assert not mine.exists() and not folder.exists() and other.exists()
