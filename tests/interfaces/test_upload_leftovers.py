"""Upload copies nothing points to are not kept (session 26 probes): a web upload refused for
a file over the size limit leaves none of the files saved before it, and an upload whose bytes
an earlier upload already made a note of (reported unchanged) leaves no second copy."""

from __future__ import annotations

from rest_support import RestServer
from upload_support import TEXT, upload_files as _upload_files, web_client

from cairn.interfaces.web import tasks


def test_a_web_upload_refused_as_too_large_keeps_none_of_its_files(tmp_path, real_embedder, monkeypatch):
    monkeypatch.setattr(tasks, "MAX_UPLOAD_BYTES", 1000)
    with web_client(tmp_path, real_embedder) as (home, c):
        r = c.post("/ingest/upload", headers={"Accept": "application/json"},
                   files=[("files", ("small.md", TEXT, "text/markdown")),
                          ("files", ("big.md", b"x" * 5000, "text/markdown"))])
        assert r.status_code == 413 and "big.md" in r.json()["error"], r.text
    assert _upload_files(home) == []  # small.md, saved first, is gone with its folder


def test_discard_removes_only_a_folder_directly_in_the_homes_uploads(tmp_path):
    from cairn.uploads import discard, upload_folder
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.md").write_bytes(TEXT)
    assert discard(home, elsewhere) is False and (elsewhere / "a.md").exists()
    folder = upload_folder(home)
    (folder / "a.md").write_bytes(TEXT)
    assert discard(home, folder) is True and not folder.exists() and (home / "uploads").is_dir()


def test_a_second_upload_of_the_same_bytes_leaves_no_copy(tmp_path):
    home = tmp_path / "home"
    with RestServer(home) as srv, srv.client() as c:
        first = c.post("/api/ingest/files", files=[("files", ("kestrels.md", TEXT, "text/markdown"))])
        assert first.status_code == 200 and first.json()["added"] == 1, first.text
        kept = _upload_files(home)
        again = c.post("/api/ingest/files", files=[("files", ("kestrels.md", TEXT, "text/markdown"))])
        body = again.json()
        assert again.status_code == 200 and body["added"] == 0 and body["unchanged"] == 1, again.text
        assert _upload_files(home) == kept  # the second copy and its folder are gone
        # Two files of the same bytes in one upload: one note, one copy kept.
        both = c.post("/api/ingest/files", files=[("files", ("owls.md", TEXT + b"Owls too.\n", "text/markdown")),
                                                  ("files", ("owls2.md", TEXT + b"Owls too.\n", "text/markdown"))])
        assert both.json()["added"] == 1 and both.json()["unchanged"] == 1, both.text
        now = _upload_files(home)
        assert len(now) == len(kept) + 2, now  # one more folder with one original in it
        notes = c.get("/api/notes").json()["notes"]
        assert len(notes) == 2 and all(c.get(f"/api/notes/{n['id']}").status_code == 200 for n in notes)
