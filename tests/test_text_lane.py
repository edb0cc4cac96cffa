"""The parse pool's text lane (issue 16, phase 1 on two cores): a worker reads, parses and
summarises the text notes of a large ingest ahead of it. The ingest only uses a result when
the worker parsed exactly the bytes it hashed; everything else (a changed note, a link out
of the folder, a FIFO, a plugin parser, a note not yet handed out) is parsed by the ingest
itself, so the vault and the index come out the same as without the lane."""

from __future__ import annotations

import hashlib
import os
import re

import pytest

from conftest import write
from cairn import registries
from cairn.hookspecs import hookimpl
from cairn.ingest import run as ingest_run
from cairn.parse import pool as pool_mod
from cairn.parse.pool import ParsePool
from cairn.plugins import load
from cairn.service import Cairn

OPTIONS = {"max_bytes": 1_000_000, "ocr": False, "asr": False, "max_ocr_pages": 1}
GIST = "cairn.enrich:lexical_gist"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _notes(folder, n: int) -> None:
    for i in range(n):
        write(folder / f"n{i:03d}.md",
              f"---\ntags: [lane]\n---\n# Note {i}\n\nThe heron number {i} nests by the mill pond. "
              f"Its keeper counts {i * 7} eggs every spring. The kettle whistles at dawn near the weir.\n")


class _Used(list):
    """The paths whose worker result the ingest took; `wait_first`: the ingest's first take
    of a lane's note waits for the worker's result (take_text(wait=True)) instead of parsing
    the note itself when the result is not back yet."""
    wait_first = False


@pytest.fixture
def counted(monkeypatch):
    """Counts the notes whose worker result the ingest took (ParsePool.take_text)."""
    used = _Used()
    orig = ParsePool.take_text
    asked: list[str] = []

    def take(self, path, sha256):
        # Without the wait, whether the worker is back with the first note before the ingest
        # reaches it is a race: under load the ingest can parse every note itself (the lane
        # never makes it wait), and "the lane was used" failed once in a loaded run.
        wait = used.wait_first and not asked and self._text.pos.get(str(path)) is not None
        asked.append(str(path))
        out = orig(self, path, sha256, wait=wait)
        if out is not None:
            used.append(str(path))
        return out
    monkeypatch.setattr(ParsePool, "take_text", take)
    return used


def _vault_and_index(app) -> tuple[dict, list]:
    vault = app.settings.vault
    files = {p.relative_to(vault).as_posix(): re.sub(r"\n  at: .*\n", "\n", p.read_text())
             for p in sorted(vault.rglob("*.md"))}
    rows = app.conn.execute("SELECT n.path, n.title, n.tags, c.ord, c.text FROM chunks c JOIN notes n "
                            "ON n.id = c.note_id ORDER BY n.path, c.ord").fetchall()
    return files, rows


def test_a_large_ingest_uses_the_lane_and_writes_what_the_ingest_alone_writes(tmp_path, hash_embedder, counted):
    src = tmp_path / "in"
    n = 3 * ingest_run.TEXT_LANE_MIN
    _notes(src, n)
    counted.wait_first = True  # the lane is certainly used once, however loaded the machine
    with Cairn(tmp_path / "lane", embedder=hash_embedder) as app:
        rep = app.ingest([src])
        assert len(rep.added) == n and not rep.failed
        lane = _vault_and_index(app)
    # The worker parsed notes ahead: the first one (waited for) and any it had back before the
    # ingest reached them (the others were parsed by the ingest).
    assert 0 < len(counted) <= n and counted[0] == str(src / "n000.md")
    counted.clear()
    counted.wait_first = False
    write(tmp_path / "alone" / "config.toml", "[ingest]\nparse_workers = 0\n")
    with Cairn(tmp_path / "alone", embedder=hash_embedder) as app:
        app.ingest([src])
        alone = _vault_and_index(app)
    assert not counted
    assert lane == alone
    assert "gist: " in next(iter(lane[0].values()))  # the worker's gist was written


def test_a_reingest_with_the_lane_finds_the_one_changed_note(tmp_path, hash_embedder):
    src = tmp_path / "in"
    _notes(src, ingest_run.TEXT_LANE_MIN)
    with Cairn(tmp_path / "h", embedder=hash_embedder) as app:
        app.ingest([src])
        write(src / "n007.md", "# Note 7\n\nThe otter moved to the lower weir.\n")
        rep = app.ingest([src])
        assert rep.added == [] and len(rep.updated) == 1 and len(rep.unchanged) == ingest_run.TEXT_LANE_MIN - 1
        [hit] = app.search("otter", mode="keyword").hits
        assert hit.title == "Note 7"
        titles = {h.title for h in app.search("heron", mode="keyword", k=100).hits}
        assert len(titles) == ingest_run.TEXT_LANE_MIN - 1 and "Note 7" not in titles


def test_a_note_with_its_known_hash_is_only_hashed(tmp_path):
    same, changed = tmp_path / "same.md", tmp_path / "changed.md"
    write(same, "# Same\n\nalready indexed\n")
    write(changed, "# Changed\n\nnew words\n")
    pool = ParsePool(workers=1, memory_mib=0, timeout_s=60)
    try:
        pool.prefetch_text([(same, None, _sha(same.read_bytes())), (changed, None, _sha(b"older bytes"))],
                           OPTIONS, summarise=GIST)
        assert pool.take_text(same, _sha(same.read_bytes()), wait=True) is None  # not parsed
        doc, gist = pool.take_text(changed, _sha(changed.read_bytes()), wait=True)
        assert doc.title == "Changed" and gist.endswith("new words")
    finally:
        pool.close()


def test_a_result_for_other_bytes_is_not_used(tmp_path):
    a = tmp_path / "a.md"
    write(a, "# A\n\nThe first version of the note.\n")
    b = tmp_path / "b.md"
    write(b, "# B\n\nAnother note about kestrels.\n")
    pool = ParsePool(workers=1, memory_mib=0, timeout_s=60)
    try:
        pool.prefetch_text([(a, None, None), (b, None, None)], OPTIONS, summarise=GIST)
        # The bytes the caller hashed are not the ones the worker read: its parse is not used.
        assert pool.take_text(a, _sha(b"# A\n\nThe second version.\n"), wait=True) is None
        doc, gist = pool.take_text(b, _sha(b.read_bytes()), wait=True)
        assert doc.title == "B" and "kestrels" in doc.body and gist == "Another note about kestrels."
    finally:
        pool.close()


def test_a_note_not_yet_handed_out_is_left_to_the_caller(tmp_path):
    paths = []
    for i in range(40):
        paths.append(tmp_path / f"{i}.md")
        write(paths[-1], f"# {i}\n\nnote {i}\n")
    pool = ParsePool(workers=1, memory_mib=0, timeout_s=60)
    try:
        pool.prefetch_text([(p, None, None) for p in paths], OPTIONS, window=1)
        doc, _gist = pool.take_text(paths[0], _sha(paths[0].read_bytes()), wait=True)
        assert doc.title == "0"
        # The window keeps the lane near the start: a note far ahead is not waited for...
        assert pool.take_text(paths[-1], _sha(paths[-1].read_bytes())) is None
        # ...nor one the lane skipped when the last was taken.
        assert pool.take_text(paths[20], _sha(paths[20].read_bytes())) is None
    finally:
        pool.close()


def test_a_link_out_of_the_folder_and_a_fifo_are_not_read_by_the_worker(tmp_path):
    root = tmp_path / "in"
    write(tmp_path / "secret.md", "# Secret\n\nnot in the folder\n")
    write(root / "ok.md", "# Ok\n\nfine\n")
    (root / "out.md").symlink_to(tmp_path / "secret.md")
    os.mkfifo(root / "pipe.md")
    pool = ParsePool(workers=1, memory_mib=0, timeout_s=60)
    try:
        pool.prefetch_text([(root / "out.md", root, None), (root / "pipe.md", root, None), (root / "ok.md", root, None)],
                           OPTIONS)
        secret = (tmp_path / "secret.md").read_bytes()
        assert pool.take_text(root / "out.md", _sha(secret), wait=True) is None
        assert pool.take_text(root / "pipe.md", _sha(b""), wait=True) is None
        doc, gist = pool.take_text(root / "ok.md", _sha((root / "ok.md").read_bytes()), wait=True)
        assert doc.title == "Ok" and gist is None
    finally:
        pool.close()


def test_a_file_over_max_bytes_is_not_read_by_the_worker(tmp_path, monkeypatch):
    """The ingest skips a file larger than max_file_bytes by its size without reading it; the
    lane did read max_bytes + 1 of it (50 MB by default, for each such file of the folder)
    only for parse_file to refuse it. Now it looks at the size first, as the ingest does."""
    from cairn.parse import text_lane
    big, small = tmp_path / "big.md", tmp_path / "small.md"
    write(big, "# Big\n\n" + "heron " * 400)
    write(small, "# Small\n\nheron\n")
    reads: list[int] = []
    fdopen = text_lane.os.fdopen

    def spy(fd, *args, **kwargs):
        reads.append(fd)
        return fdopen(fd, *args, **kwargs)
    monkeypatch.setattr(text_lane.os, "fdopen", spy)
    assert text_lane.read_regular(str(big), 1000) is None
    assert not reads  # never read
    assert text_lane.read_regular(str(small), 1000) == small.read_bytes() and len(reads) == 1
    assert text_lane.text_batch([(str(big), None, None)], {**OPTIONS, "max_bytes": 1000}, None) == \
        [(str(big), None, None, None, None)]
    assert len(reads) == 1


def test_the_worker_hands_over_the_frontmatter_it_read(tmp_path):
    """The ingest adds its keys to the source's frontmatter block next; the worker has read
    that block already, so the ingest is handed its value instead of reading it again."""
    import yaml

    from cairn import safe_yaml
    from cairn.vault import frontmatter_block
    note = tmp_path / "n.md"
    write(note, "---\ntitle: Kestrel\nseen: 2026-11-30\ntags: [birds]\n---\n\nIt hovers over the meadow.\n")
    block = frontmatter_block(note.read_text())
    pool = ParsePool(workers=1, memory_mib=0, timeout_s=60)
    try:
        pool.prefetch_text([(note, None, None)], OPTIONS)
        doc, _ = pool.take_text(note, _sha(note.read_bytes()), wait=True)
    finally:
        pool.close()
    assert doc.title == "Kestrel"
    hits = safe_yaml.stats()["hits"]
    assert safe_yaml.load(block) == yaml.safe_load(block)
    assert safe_yaml.stats()["hits"] == hits + 1


def test_a_symlink_swapped_in_is_still_refused_by_the_ingest(tmp_path, hash_embedder):
    """End to end: the lane changes nothing about the folder check of the ingest itself."""
    src = tmp_path / "in"
    _notes(src, ingest_run.TEXT_LANE_MIN)
    write(tmp_path / "secret.md", "# Secret\n\nthe vault must never hold this\n")
    os.remove(src / "n003.md")
    (src / "n003.md").symlink_to(tmp_path / "secret.md")
    with Cairn(tmp_path / "h", embedder=hash_embedder) as app:
        rep = app.ingest([src])
        assert any(name.endswith("n003.md") and "outside" in why for name, why in rep.skipped)
        assert app.search("vault must never hold", mode="keyword").hits == []


class UpperText:
    @hookimpl
    def register_parsers(self, register):
        def upper(data, name, **options):
            from cairn.model import ParsedDocument
            return ParsedDocument(kind="markdown", title="loud", body=data.decode().upper())
        register(".md", upper)


def test_a_plugin_parser_turns_the_lane_off(tmp_path, hash_embedder, counted):
    pm = load()
    pm.register(UpperText(), name="test-upper")
    registries.reset()
    try:
        src = tmp_path / "in"
        _notes(src, ingest_run.TEXT_LANE_MIN)
        with Cairn(tmp_path / "h", embedder=hash_embedder) as app:
            app.ingest([src])
            texts = [p.read_text() for p in app.settings.vault.rglob("*.md")]
        # The gist is the plugin's document's (a worker without the plugin would not know it).
        assert len(texts) == ingest_run.TEXT_LANE_MIN and all("gist: THE HERON NUMBER" in t for t in texts)
        assert counted == []
    finally:
        pm.unregister(name="test-upper")
        registries.reset()


def test_a_worker_that_cannot_start_leaves_every_note_to_the_ingest(tmp_path, hash_embedder, monkeypatch, counted):
    def no_process(*a, **k):
        raise OSError(11, "Resource temporarily unavailable")
    monkeypatch.setattr(pool_mod, "_Worker", no_process)
    src = tmp_path / "in"
    _notes(src, ingest_run.TEXT_LANE_MIN)
    with Cairn(tmp_path / "h", embedder=hash_embedder) as app:
        rep = app.ingest([src])
        assert len(rep.added) == ingest_run.TEXT_LANE_MIN and not rep.failed
    assert counted == []
