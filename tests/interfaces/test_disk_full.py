"""Disk full (issue 34): a write is a 507 with a clear message, nothing of it is stored
(no note, no file, no `.cairn-tmp` left), the connection keeps answering, reads keep
working, and the same write succeeds once there is room.

Two real ways to fill up, in process: SQLite's own limit (`PRAGMA max_page_count` on the
server's writer connection: SQLite raises SQLITE_FULL exactly as on a full disk), and the
file writes failing with ENOSPC (os.fsync raising what a full disk raises, after the
temporary file was written)."""

from __future__ import annotations

import errno
import os

import pytest

from rest_support import RestServer

BIG = "Larches turn gold before the first frost on the northern slope. " * 400


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with RestServer(tmp_path_factory.mktemp("full") / "home") as s:
        yield s


def _on_writer(srv, sql: str):
    rt = srv.app.state.runtime
    return rt.writer.submit(rt._call, lambda s: s.conn.execute(sql).fetchone(), 60).result()


def _leftovers(srv) -> list[str]:
    return [str(p) for p in srv.home.rglob("*") if p.name.endswith((".cairn-tmp", ".tmp"))]


def _full(r) -> None:
    assert r.status_code == 507, r.text
    body = r.json()
    assert body["error"] == "insufficient_storage" and "full" in body["message"]
    assert "nothing" in body["message"] and str(os.sep + "tmp") not in body["message"]


def test_index_full_is_507_and_nothing_is_half_written(srv):
    with srv.client() as c:
        assert c.post("/api/notes", json={"title": "Before", "body": "kept"}).status_code == 201
        pages = _on_writer(srv, "PRAGMA page_count")[0]
        _on_writer(srv, f"PRAGMA max_page_count = {pages}")
        try:
            for _ in range(2):  # the same keep-alive connection answers again
                _full(c.post("/api/notes", json={"title": "Larches", "body": BIG}))
            assert c.get("/api/notes/Larches").status_code == 404
            assert not (srv.home / "vault" / "Larches.md").exists() and _leftovers(srv) == []
            assert c.get("/api/notes").json()["total"] == 1  # reads keep answering
            assert c.get("/api/search", params={"q": "kept"}).status_code == 200
        finally:
            _on_writer(srv, "PRAGMA max_page_count = 1073741823")
        assert c.post("/api/notes", json={"title": "Larches", "body": BIG}).status_code == 201


def test_file_writes_full_is_507_and_temporary_files_go(srv, monkeypatch):
    real_fsync = os.fsync

    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    with srv.client() as c:
        total = c.get("/api/notes").json()["total"]
        monkeypatch.setattr(os, "fsync", no_space)
        _full(c.post("/api/notes", json={"title": "Alders", "body": "Alders by the river."}))
        _full(c.post("/api/ingest/text", json={"text": "Ospreys nest on the old pylon.", "title": "Ospreys"}))
        assert c.put("/api/notes/Before", json={"body": "changed", "mode": "overwrite"}).status_code == 507
        assert _leftovers(srv) == []
        assert c.get("/api/notes").json()["total"] == total
        assert c.get("/api/notes/Before").json()["body"] == "kept"
        monkeypatch.setattr(os, "fsync", real_fsync)
        assert c.post("/api/notes", json={"title": "Alders", "body": "Alders by the river."}).status_code == 201


def test_a_stored_change_is_not_answered_as_failed_when_its_audit_entry_cannot_be_written(srv, monkeypatch):
    from cairn import audit
    real = audit.record

    def audit_full(home, actor, action, target=None, outcome="ok", *a, **kw):
        if outcome == "ok":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(home, actor, action, target, outcome, *a, **kw)
    monkeypatch.setattr(audit, "record", audit_full)
    with srv.client() as c:
        r = c.post("/api/notes", json={"title": "Herons", "body": "Herons at dawn."})
        assert r.status_code == 201, r.text  # stored: an error here made the retry a 409
        assert c.get("/api/notes/Herons").status_code == 200
