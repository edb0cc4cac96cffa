"""ingest.embedding.WriteAhead: `cairn import notes` embeds the notes it has written while
it writes the rest; every chunk is embedded once, a vector computed for text that changed
before it was stored is dropped, and an import that fails and rolls back leaves no thread
and nothing stored."""

from __future__ import annotations

import threading

import pytest

import cairn.ingest.embedding as E
import cairn.ingest.importers as I
from cairn.ingest.embedding import WriteAhead, embed_missing
from cairn.service import Cairn
from conftest import HashEmbedder, fail_nth_write, write_jsonl


class Recording(HashEmbedder):
    """HashEmbedder that keeps every text it was given and signals its first call."""

    def __init__(self):
        self.texts: list[str] = []
        self.called = threading.Event()

    def embed(self, texts):
        self.texts += texts
        self.called.set()
        return super().embed(texts)


def _rows(n, word="tidepool"):
    return [{"id": f"r{i}", "text": f"Note {i} on the {word} survey of cove {i}."} for i in range(n)]


def _import_embedding_by(tmp_path, monkeypatch, rows: int, by_note: int, why: str):
    """Import `rows` records, asserting that something was embedded before note `by_note` was
    written; returns (report, status, notes written, texts embedded)."""
    emb, written = Recording(), []
    real = I._write_and_index

    def writing(*a, **kw):
        note_id = real(*a, **kw)
        written.append(note_id)
        if len(written) == by_note:
            assert emb.called.wait(20), why
        return note_id

    monkeypatch.setattr(I, "_write_and_index", writing)
    with Cairn(tmp_path / "home", embedder=emb) as app:
        report = app.import_notes(write_jsonl(tmp_path / "n.jsonl", _rows(rows)))
        status = app.status()
    return report, status, written, emb.texts


def test_an_import_embeds_while_it_writes_and_each_chunk_once(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "WRITE_AHEAD_WINDOW", 3)  # the first window (3 chunks) is queued after the third note
    report, status, written, texts = _import_embedding_by(tmp_path, monkeypatch, 10, 7,
                                                          "nothing was embedded while the import was writing")
    assert len(written) == 10 and report.embedded == 10
    assert status["embedded_chunks"] == status["chunks"] == 10 and status["missing_vectors"] == 0
    assert len(texts) == len(set(texts)) == 10


def test_the_first_window_is_queued_sooner_than_the_others(tmp_path, monkeypatch):
    """WRITE_AHEAD_FIRST: the embedder starts after the first few notes, not a whole window."""
    monkeypatch.setattr(E, "WRITE_AHEAD_WINDOW", 100)
    monkeypatch.setattr(E, "WRITE_AHEAD_FIRST", 2)  # the first window (2 chunks) is queued after the second note
    report, _, written, texts = _import_embedding_by(tmp_path, monkeypatch, 8, 5,
                                                     "the first window waited for a whole window of notes")
    assert len(written) == 8 and report.embedded == 8 and len(texts) == len(set(texts)) == 8


def test_a_vector_of_text_changed_after_it_was_queued_is_not_stored(tmp_path):
    emb = Recording()
    with Cairn(tmp_path / "home", embedder=emb) as app:
        conn, settings = app.conn, app.settings
        with WriteAhead(conn, emb, window=1) as ahead:
            first = I._write_and_index(conn, settings, "records/one.md", {"id": "n1", "title": "One"},
                                       "The heron nests by the sluice gate.", I.IngestReport(), "one")
            ahead.written(first)  # queued with this text
            I._write_and_index(conn, settings, "records/one.md", {"id": "n1", "title": "One"},
                               "The kingfisher fishes below the weir.", I.IngestReport(), "one")
            embedded, _ = embed_missing(conn, emb, ahead=ahead)
        assert embedded == 1
        assert app.status()["embedded_chunks"] == app.status()["chunks"] == 1
        # the stored vector is the new text's (HashEmbedder: shared words give the cosine)
        assert app.search("kingfisher fishes below weir", mode="semantic", k=1).hits
        assert not app.search("heron nests by sluice gate", mode="semantic", k=1).hits
    assert any("kingfisher" in t for t in emb.texts)


def test_a_failed_import_stops_the_embedding_thread_and_stores_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "WRITE_AHEAD_WINDOW", 1)
    fail_nth_write(monkeypatch, 5)
    with Cairn(tmp_path / "home", embedder=Recording()) as app:
        with pytest.raises(I.ImportFormatError, match="No space left on device.*nothing was imported"):
            app.import_notes(write_jsonl(tmp_path / "n.jsonl", _rows(8)))
        status = app.status()
    assert status["notes"] == 0 and status["chunks"] == 0 and status["embedded_chunks"] == 0
    assert not [t for t in threading.enumerate() if t.name == "cairn-embed-ahead"]


def test_a_failed_reimport_gives_the_restored_notes_their_vectors_back(tmp_path, monkeypatch):
    """An import that updates notes and then fails midway puts the old notes back with their
    old vectors (from the vector cache, nothing computed): missing_vectors stays 0 and the
    old text is found by meaning. The error names the line and the file that failed."""
    emb = Recording()
    rows = _rows(6)
    with Cairn(tmp_path / "home", embedder=emb) as app:
        path = write_jsonl(tmp_path / "n.jsonl", rows)
        app.import_notes(path)
        before = len(emb.texts)
        write_jsonl(path, [{**r, "text": r["text"] + " Rewritten after the storm."} for r in rows]
                    + [{"id": "blocked", "text": "A record whose note path is a folder."}])
        folder = next((tmp_path / "home" / "vault" / "records" / "n").glob("r0-*.md")).parent
        (folder / f"blocked-{I._sha1('blocked')[:6]}.md").mkdir()
        with pytest.raises(I.ImportFormatError, match=r"line 7: the import stopped \(.*blocked-.*\.md: "
                                                      r"Is a directory\); nothing was imported"):
            app.import_notes(path)
        status = app.status()
        assert status["notes"] == 6 and status["missing_vectors"] == 0
        assert status["embedded_chunks"] == status["chunks"] == 6
        assert len(emb.texts) == before  # the old vectors came back from the cache
        assert "storm" not in app.search("tidepool survey cove 3", mode="semantic", k=1).hits[0].snippet


def test_a_stop_while_writing_rolls_back_and_says_so(tmp_path, monkeypatch, capsys):
    """Ctrl-C (or SIGTERM) while `import notes` writes: everything is put back, and the CLI's
    line says that nothing from the file was imported, not "what was stored so far is kept"."""
    from cairn.interfaces import cli_io
    import cairn.vault as V
    real, calls = V.atomic_write, []

    def stopping(target, text):
        calls.append(target)
        if len(calls) == 4:
            raise KeyboardInterrupt
        real(target, text)

    monkeypatch.setattr(V, "atomic_write", stopping)
    monkeypatch.setitem(cli_io.STATE, "home", tmp_path / "home")
    path = write_jsonl(tmp_path / "n.jsonl", _rows(6))
    with pytest.raises(SystemExit) as stop:
        with cli_io._service() as app:
            app._embedder = Recording()  # no model load: the stop comes while writing
            app.import_notes(path)
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip() == (f"interrupted: nothing from {path} was imported "
                                               "(the vault and index are as before)")
    with Cairn(tmp_path / "home", embedder=Recording()) as app:
        assert app.status()["notes"] == 0 and not list((tmp_path / "home" / "vault").rglob("*.md"))


def _children() -> set[int]:
    """Process ids of this process's live children (Linux /proc)."""
    import os
    from pathlib import Path
    me = str(os.getpid())
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            out.add(int(stat.parent.name))
    return out


@pytest.mark.parametrize("workers", [1, 0])
def test_a_large_import_finds_entities_in_a_worker_process_then_stops_it(tmp_path, monkeypatch, workers):
    """From NER_WORKER_MIN notes spaCy runs in a worker process (no interpreter lock shared
    with the embedder), stopped when the import ends; with `parse_workers = 0` in this process.
    Either way the same people are found."""
    monkeypatch.setattr(E, "NER_WORKER_MIN", 3)
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "config.toml").write_text(f"[ingest]\nparse_workers = {workers}\n")
    before = _children()
    rows = [{"id": f"p{i}", "text": f"Ilse Brandvold met Tomasz Wierzbicki at the harbour office on day {i}."}
            for i in range(4)]
    with Cairn(tmp_path / "home", embedder=Recording()) as app:
        app.import_notes(write_jsonl(tmp_path / "people.jsonl", rows))
        assert _children() == before  # the worker (if any) is gone
        names = {e["name"] for e in app.entities()}
    assert {"Ilse Brandvold", "Tomasz Wierzbicki"} <= names


def test_imports_into_one_home_take_turns(tmp_path, monkeypatch):
    """An import waits while another holds the home's import lock (ops.jobs.import_file), so a
    failed import's rollback can never undo what a concurrent import of the same file wrote."""
    from cairn.store.locks import exclusive
    wrote = threading.Event()
    real = I._write_and_index

    def writing(*a, **kw):
        wrote.set()
        return real(*a, **kw)

    monkeypatch.setattr(I, "_write_and_index", writing)
    path = write_jsonl(tmp_path / "n.jsonl", _rows(3))
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        done: dict = {}
        with exclusive(app.conn, "import"):  # another import is running
            worker = threading.Thread(target=lambda: done.update(report=app.import_notes(path)))
            worker.start()
            assert not wrote.wait(2), "an import wrote while another import held the lock"
        worker.join(60)
        assert len(done["report"].added) == 3
