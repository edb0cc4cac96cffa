"""The ingest indexes the bytes it has just written to the vault without reading them
back, unless the vault copy changed in between: then the file as it is now is indexed."""

from __future__ import annotations

import os
import sqlite3

import cairn.ingest.files as F
from cairn import vault as V
from cairn.service import Cairn

from conftest import write


def _search_texts(app, query):
    return [h.text for h in app.search(query, k=5, mode="keyword").hits]


def test_written_bytes_are_indexed(tmp_path, hash_embedder):
    src = write(tmp_path / "in" / "plan.md", "# Plan\n\nThe heron nests by the weir.\n")
    with Cairn(tmp_path / "home", embedder=hash_embedder) as app:
        rep = app.ingest([src])
        assert rep.added and not rep.failed
        assert any("heron" in t for t in _search_texts(app, "heron"))
    # the index holds the vault copy's own hash, size and mtime
    with sqlite3.connect(tmp_path / "home" / "index.db") as conn:
        path, file_hash, size, mtime_ns = conn.execute("SELECT path, file_hash, size, mtime_ns FROM notes").fetchone()
    copy = tmp_path / "home" / "vault" / path
    assert file_hash == V.sha256_bytes(copy.read_bytes())
    assert (size, mtime_ns) == (copy.stat().st_size, copy.stat().st_mtime_ns)


def test_a_copy_changed_after_the_write_is_read_again(tmp_path, hash_embedder, monkeypatch):
    src = write(tmp_path / "in" / "plan.md", "# Plan\n\nThe heron nests by the weir.\n")
    real = V.atomic_write

    def write_then_someone_edits(path, text):
        st = real(path, text)
        # An editor saves at once (a new file renamed over it, as editors save), same size.
        tmp = path.with_name("editor-save.tmp")
        tmp.write_text(text.replace("heron", "egret"), encoding="utf-8")
        os.replace(tmp, path)
        return st
    monkeypatch.setattr(F.V, "atomic_write", write_then_someone_edits)
    with Cairn(tmp_path / "home", embedder=hash_embedder) as app:
        rep = app.ingest([src])
        assert rep.added and not rep.failed
        assert any("egret" in t for t in _search_texts(app, "egret"))
        assert not _search_texts(app, "heron")


def test_written_compares_inode_mtime_and_size(tmp_path):
    p = tmp_path / "n.md"
    st = V.atomic_write(p, "one\n")
    assert F._written(p, b"one\n", st) == b"one\n"
    assert F._written(p, b"one!\n", st) is None  # bytes of another length than written
    V.atomic_write(p, "two\n")  # replaced since: another inode
    assert F._written(p, b"one\n", st) is None
    assert F._written(tmp_path / "gone.md", b"one\n", st) is None
