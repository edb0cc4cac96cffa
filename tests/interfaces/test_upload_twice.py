"""Uploading the same file twice makes one note (issue 34: two notes with the same hash).
Each upload has a folder of its own, so the second copy was a new source; now an upload
whose bytes an earlier upload's note was made from is reported unchanged, naming that note.
A changed file, or the same bytes under another name, from an upload of new bytes, still
makes a note."""

from __future__ import annotations

from rest_support import RestServer

TEXT = b"# Kestrels\n\nKestrels hover over the motorway verge at noon.\n"


def test_same_file_uploaded_twice_is_one_note(tmp_path):
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        first = c.post("/api/ingest/files", files=[("files", ("kestrels.md", TEXT, "text/markdown"))])
        assert first.status_code == 200 and first.json()["added"] == 1, first.text
        for name in ("kestrels.md", "copy of kestrels.md"):
            again = c.post("/api/ingest/files", files=[("files", (name, TEXT, "text/markdown"))])
            body = again.json()
            assert again.status_code == 200 and body["added"] == 0 and body["unchanged"] == 1, again.text
            assert "uploaded before" in str(body["warnings"])
        other = c.post("/api/ingest/files", files=[("files", ("kestrels.md", TEXT + b"\nAnd at dusk.\n",
                                                              "text/markdown"))])
        assert other.json()["added"] == 1, other.text
        notes = c.get("/api/notes").json()
        assert notes["total"] == 2
        from cairn.store import db
        conn = db.connect(srv.settings.index_path)
        try:
            hashes = [r[0] for r in conn.execute("SELECT source_hash FROM notes")]
        finally:
            conn.close()
        assert len(hashes) == len(set(hashes)) == 2, hashes
