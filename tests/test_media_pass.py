"""The media pass (issue 37): pictures, recordings and PDFs are parsed only after every text
note of the ingest is searchable by keyword and by meaning, in file workers at low priority,
and `status` counts the pass (`media`: pending, done, failed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import write
from cairn.parse import pool as pool_mod


@pytest.fixture(scope="module")
def picture(tmp_path_factory) -> Path:
    """A small PNG with printed words, drawn here."""
    from PIL import Image, ImageDraw
    d = tmp_path_factory.mktemp("pic")
    im = Image.new("RGB", (480, 120), "white")
    ImageDraw.Draw(im).text((10, 40), "HERON NESTS BY THE MILL POND", fill="black")
    im.resize((960, 240)).save(d / "board.png")
    return d / "board.png"


def _niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_text_notes_are_searchable_and_embedded_before_any_picture_is_parsed(tmp_path, picture, hash_embedder,
                                                                            monkeypatch):
    from cairn.service import Cairn
    src = tmp_path / "in"
    write(src / "a-kestrel.md", "# Kestrel\n\nThe kestrel hovers over the meadow at dusk.\n")
    write(src / "b-otter.md", "# Otter\n\nAn otter slid down the riverbank near the weir.\n")
    write(src / "c-board.png", picture.read_bytes())
    write(src / "d-board.png", picture.read_bytes() + b"\0")  # other bytes: a second picture
    seen: dict = {}
    app = Cairn(tmp_path / "home", embedder=hash_embedder)
    prefetch, parse = pool_mod.ParsePool.prefetch, pool_mod.ParsePool.parse

    def at_media_start(self, items):
        # The moment the media pass hands its first file to a worker.
        if "status" not in seen:
            seen["status"] = app.status().to_json()
            seen["kestrel"] = [h.title for h in app.search("kestrel", mode="keyword").hits]
            seen["otter"] = [h.title for h in app.search("otter weir", mode="semantic").hits]
            seen["items"] = [Path(p).name for p, _ in items]
        return prefetch(self, items)

    def parse_and_look(self, path, **kwargs):
        seen.setdefault("progress", []).append(app.status().to_json()["media"])
        doc = parse(self, path, **kwargs)
        seen["nice"] = [_niceness(w.proc.pid) - _niceness(os.getpid())
                        for w in self._pool]
        return doc

    monkeypatch.setattr(pool_mod.ParsePool, "prefetch", at_media_start)
    monkeypatch.setattr(pool_mod.ParsePool, "parse", parse_and_look)
    try:
        before = app.status().to_json()["media"]
        report = app.ingest([src])
        after = app.status().to_json()
    finally:
        app.close()
    assert before == {"pending": 0, "done": 0, "failed": 0}
    assert seen["items"] == ["c-board.png", "d-board.png"]
    st = seen["status"]
    assert st["media"] == {"pending": 2, "done": 0, "failed": 0}
    # Each picture is counted done as soon as it is read: status follows the pass file by file.
    assert seen["progress"] == [{"pending": 2, "done": 0, "failed": 0}, {"pending": 1, "done": 1, "failed": 0}]
    assert st["notes"] == 2 and st["missing_vectors"] == 0 and st["embedded_chunks"] == st["chunks"] > 0
    assert seen["kestrel"][:1] == ["Kestrel"]
    assert "Otter" in seen["otter"]
    assert seen["nice"] and all(n == pool_mod.MEDIA_NICE for n in seen["nice"]), seen["nice"]
    assert sorted(Path(n).name for n in report.added) == ["a-kestrel.md", "b-otter.md", "c-board.png", "d-board.png"]
    t = report.timings
    assert t["keyword_searchable_s"] <= t["text_embedded_s"] <= t["first_media_parsed_s"] <= t["embedded_s"]
    assert after["media"] == {"pending": 0, "done": 2, "failed": 0}
    assert after["missing_vectors"] == 0 and after["notes"] == 4
