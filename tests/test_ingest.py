"""Ingest: every supported format end to end (file -> vault note -> index -> search),
reports, unchanged re-ingest, metadata-only edits, refusal of bad input."""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import write


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def titles(app, query, mode="keyword", k=10):
    return [h.title for h in app.search(query, mode=mode, k=k).hits]


def make_pdf(path, pages):
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("Boiler manual")
    for text in pages:
        y = 800
        for line in text.split("\n"):
            c.drawString(72, y, line)
            y -= 16
        c.showPage()
    c.save()
    return path


def make_docx(path):
    import docx

    d = docx.Document()
    d.add_heading("Allotment plan", level=1)
    d.add_paragraph("The runner beans go along the north fence next to the compost bins.")
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text = "Crop"
    t.cell(0, 1).text = "Bed"
    t.cell(1, 0).text = "Kohlrabi"
    t.cell(1, 1).text = "Bed seven"
    d.save(str(path))
    return path


@pytest.fixture
def corpus(tmp_path):
    src = tmp_path / "src"
    write(src / "garden" / "tomatoes.md",
          "---\ntitle: Tomato diary\ntags: [garden, food]\naliases: [Tomatoes]\ncreated: 1608327637133\n---\n\n"
          "# Tomato diary\n\nThe San Marzano seedlings went into the greenhouse on 12 April. "
          "See [[compost|the compost note]] and [[Watering#Schedule]].\n")
    write(src / "garden" / "compost.md", "# Compost\n\nTurn the heap every fortnight; add cardboard when it smells.\n")
    write(src / "budget.txt", "Café budget: naïve estimate 40 € per month for espresso beans.\n", "cp1252")
    write(src / "page.html",
          "<html><head><title>Heat pump FAQ</title></head><body><nav><a href='/'>Home</a> | <a href='/shop'>Shop</a></nav>"
          "<article><h1>Heat pump FAQ</h1><p>The outdoor unit needs thirty centimetres of clearance on every side "
          "so that the fan can breathe freely during the winter months.</p><p>Defrost cycles are normal when "
          "the outside temperature drops below five degrees and the coil ices over.</p></article>"
          "<footer>Copyright footer text</footer></body></html>")
    make_pdf(src / "manual.pdf", ["Boiler manual\nSet the system pressure to 1.5 bar when cold.",
                                  "Annual service\nThe flue gas analyser reading must stay under 100 ppm."])
    make_docx(src / "plan.docx")
    return src


def test_every_format_is_searchable(app, corpus):
    report = app.ingest([corpus])
    assert report.failed == []
    assert report.skipped == []
    assert len(report.added) == 6
    assert "Tomato diary" in titles(app, "San Marzano")
    assert any("budget" in t.lower() for t in titles(app, "espresso"))
    assert "Heat pump FAQ" in titles(app, "clearance outdoor unit")
    assert "Boiler manual" in titles(app, "flue gas analyser")
    assert "Allotment plan" in titles(app, "Kohlrabi")
    # page numbers are kept for PDFs
    hit = app.search("flue gas analyser", mode="keyword").hits[0]
    assert hit.page == 2
    assert "analyser" in hit.text
    # navigation chrome of the HTML page is not indexed
    assert app.search("Copyright footer", mode="keyword").hits == [] or \
        "Heat pump FAQ" not in titles(app, "Copyright footer")


def test_vault_notes_and_originals(app, corpus, home):
    before = {p: sha(p) for p in corpus.rglob("*") if p.is_file()}
    app.ingest([corpus])
    # the person's own files are never rewritten
    assert before == {p: sha(p) for p in corpus.rglob("*") if p.is_file()}
    vault = home / "vault"
    copy = vault / "notes" / "src" / "garden" / "tomatoes.md"
    text = copy.read_text(encoding="utf-8")
    assert text.count("\n---\n") == 1 and text.startswith("---\n")
    assert "cairn_id:" in text and "title: Tomato diary" in text
    pdf_notes = list((vault / "pdf").glob("*.md"))
    assert len(pdf_notes) == 1
    note = pdf_notes[0].read_text(encoding="utf-8")
    assert "generator: cairn" in note and "pages:" in note
    originals = list((vault / "_files").glob("*.pdf"))
    assert len(originals) == 1
    assert originals[0].read_bytes() == (corpus / "manual.pdf").read_bytes()


def test_frontmatter_metadata_and_links(app, corpus):
    app.ingest([corpus])
    row = app.conn.execute("SELECT * FROM notes WHERE title = 'Tomato diary'").fetchone()
    assert json.loads(row["tags"]) == ["garden", "food"] or set(json.loads(row["tags"])) >= {"garden", "food"}
    assert json.loads(row["aliases"]) == ["Tomatoes"]
    assert row["created"].startswith("2020-12-18")  # epoch milliseconds
    links = {r["target"] for r in app.conn.execute("SELECT target FROM links WHERE note_id = ?", (row["id"],))}
    assert {"compost", "Watering"} <= links
    assert titles(app, "tags:garden")  # documented column filter


def test_unchanged_reingest_does_no_embedding_work(app, corpus, embedder):
    first = app.ingest([corpus])
    assert first.embedded > 0
    calls, texts = embedder.calls, embedder.texts
    again = app.ingest([corpus])
    assert len(again.unchanged) == 6 and not again.added and not again.updated
    assert (embedder.calls, embedder.texts) == (calls, texts)


def test_metadata_only_edit_is_not_reembedded(app, corpus, embedder):
    app.ingest([corpus])
    note = corpus / "garden" / "compost.md"
    write(note, "---\ntags: [soil]\n---\n# Compost\n\nTurn the heap every fortnight; add cardboard when it smells.\n")
    texts = embedder.texts
    report = app.ingest([corpus])
    assert report.updated == [str(note)]
    assert embedder.texts == texts  # same body: vectors kept
    assert "Compost" in titles(app, "tags:soil")


def test_body_edit_replaces_vectors(app, corpus, embedder):
    app.ingest([corpus])
    note = corpus / "garden" / "compost.md"
    write(note, "# Compost\n\nThe worm bin lives under the stairs now and gets coffee grounds.\n")
    texts = embedder.texts
    report = app.ingest([corpus])
    assert report.updated == [str(note)]
    assert 0 < embedder.texts - texts <= 3
    st = app.status()
    assert st["missing_vectors"] == 0 and st["orphan_vectors"] == 0
    assert "Compost" in titles(app, "worm bin coffee grounds")
    assert "Compost" not in titles(app, "fortnight cardboard")


def test_binary_with_text_name_is_refused(app, tmp_path):
    png = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
    bad = write(tmp_path / "in" / "notes.txt", png)
    good = write(tmp_path / "in" / "ok.md", "# Fine\n\nA perfectly fine note about sourdough.\n")
    report = app.ingest([tmp_path / "in"])
    assert [n for n, _ in report.skipped] == [str(bad)]
    assert "PNG" in report.skipped[0][1] or "image" in report.skipped[0][1].lower()
    assert report.added == [str(good)]


def test_a_dangling_symlink_in_a_folder_is_skipped_never_queued(app, tmp_path):
    """leftovers26: it was queued and became a dead letter a retry could never clear."""
    good = write(tmp_path / "in" / "ok.md", "# Fine\n\nA perfectly fine note about herons.\n")
    gone = tmp_path / "in" / "sub" / "gone.md"
    gone.parent.mkdir()
    gone.symlink_to(tmp_path / "nowhere.md")
    report = app.ingest([tmp_path / "in"])
    assert report.added == [str(good)] and report.failed == []
    assert report.skipped == [(str(gone), f"dangling symbolic link to {tmp_path / 'nowhere.md'}: nothing to read, skipped")]
    assert app.jobs()["dead"] == []


def test_missing_path_is_reported(app, tmp_path):
    report = app.ingest([tmp_path / "nope"])
    assert report.failed == [(str(tmp_path / "nope"), "no such file or directory")]


def test_status_counts(app, corpus):
    app.ingest([corpus])
    st = app.status()
    assert st["notes"] == 6
    assert st["chunks"] >= 6
    assert st["embedded_chunks"] == st["chunks"]
    assert st["missing_keyword_rows"] == 0 and st["missing_vectors"] == 0


def test_reindex_gives_same_results_without_reembedding(app, corpus, embedder):
    app.ingest([corpus])
    queries = ["San Marzano", "system pressure", "Kohlrabi bed", "defrost coil", "espresso budget"]
    before = {q: [(h.note_id, h.title, h.start, h.end) for h in app.search(q).hits] for q in queries}
    texts = embedder.texts
    report = app.reindex()
    assert len(report.added) == 6 and report.failed == []
    assert embedder.texts == texts  # vectors of identical chunk text were reused
    after = {q: [(h.note_id, h.title, h.start, h.end) for h in app.search(q).hits] for q in queries}
    assert after == before


def test_reindex_from_vault_alone(home, corpus, embedder):
    from cairn.service import Cairn

    with Cairn(home, embedder=embedder) as a:
        a.ingest([corpus])
        expected = [(h.note_id, h.title) for h in a.search("flue gas").hits]
    (home / "index.db").unlink()
    for extra in ("index.db-wal", "index.db-shm", "vectors.npy", "vector_ids.npy", "vectors.gen"):
        (home / extra).unlink(missing_ok=True)
    with Cairn(home, embedder=embedder) as b:
        b.reindex()
        assert [(h.note_id, h.title) for h in b.search("flue gas").hits] == expected
        hit = b.search("flue gas analyser", mode="keyword").hits[0]
        assert hit.page == 2 and hit.source.endswith("manual.pdf")


def test_interrupted_ingest_does_not_duplicate_vault_notes(app, corpus, home, monkeypatch):
    import cairn.ingest.files as ingest_mod  # ingest_file looks index_note_file up in its own module

    real = ingest_mod.index_note_file
    calls = {"n": 0}

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            # An interrupt, not an OSError: the job queue retries OSErrors (test_jobs.py).
            raise KeyboardInterrupt("simulated interrupt while indexing")
        return real(*args, **kwargs)

    monkeypatch.setattr(ingest_mod, "index_note_file", flaky)
    with pytest.raises(KeyboardInterrupt):
        app.ingest([corpus])
    monkeypatch.setattr(ingest_mod, "index_note_file", real)
    report = app.ingest([corpus])
    assert report.failed == []
    files = [p for p in (home / "vault").rglob("*.md")]
    assert len(files) == 6, files  # the half-done note was reused, not copied again
    app.reindex()
    assert app.status()["notes"] == 6


def test_chat_reimport_keeps_earlier_messages(app, tmp_path):
    def line(i, text):
        return json.dumps({"conversation": "c", "session": "s1", "id": f"m{i}", "speaker": "Ana",
                           "time": f"2024-01-01T10:0{i}:00", "text": text})

    write(tmp_path / "a.jsonl", line(1, "The heron came back to the pond.") + "\n")
    write(tmp_path / "b.jsonl", line(2, "We planted water lilies by the jetty.") + "\n")
    app.import_chat(tmp_path / "a.jsonl")
    app.import_chat(tmp_path / "b.jsonl")
    ids = {h.source_id for h in app.search("heron pond lilies jetty", mode="keyword").hits}
    assert ids == {"m1", "m2"}


def test_vectors_of_another_model_are_replaced(home, corpus, embedder):
    from conftest import CountingEmbedder
    from cairn.service import Cairn

    class OtherPrecision(CountingEmbedder):
        model_id = "all-MiniLM-L6-v2/other"

    with Cairn(home, embedder=embedder) as a:
        a.ingest([corpus])
        n = a.status()["chunks"]
    other = OtherPrecision(embedder.inner)
    with Cairn(home, embedder=other) as b:
        report = b.ingest([corpus])
        assert len(report.unchanged) == 6 and report.embedded == n
        assert b.status()["vector_models"] == {"all-MiniLM-L6-v2/other": n}


def test_another_embedding_model_is_never_mixed_and_sync_embeds_again(home, corpus, embedder):
    """Another embedder configured after data exists (here: 512 dimensions from the real
    model's vectors): search failed with numpy's "matmul: ... size 512 is different from 384"
    (a same-size model would have compared unlike vectors silently), and `cairn sync` with
    no file changed never embedded again, so it stayed so."""
    import numpy as np
    from conftest import CountingEmbedder
    from cairn.service import Cairn

    class Wider(CountingEmbedder):
        model_id = model_name = "wider-512"
        dim = 512

        def embed(self, texts):
            v = np.asarray(super().embed(texts), dtype=np.float32)
            w = np.concatenate([v, v[:, :128]], axis=1)
            return w / np.linalg.norm(w, axis=1, keepdims=True)

    with Cairn(home, embedder=embedder) as a:
        a.ingest([corpus])
        n = a.status()["chunks"]
        before = [h.path for h in a.search("boiler system pressure", mode="semantic").hits][:1]
    with Cairn(home, embedder=Wider(embedder.inner)) as b:
        res = b.search("boiler system pressure", mode="semantic")
        assert res.hits == [] and any("another embedding model" in w and "cairn sync" in w for w in res.warnings)
        hybrid = b.search("boiler system pressure", mode="hybrid")
        assert hybrid.hits and all(h.signals.get("semantic", 0) == 0 for h in hybrid.hits)  # keyword only
        assert b.sync().embedded == n
        assert b.status()["vector_models"] == {"wider-512": n}
        res = b.search("boiler system pressure", mode="semantic")
        assert [h.path for h in res.hits][:1] == before and not any("another" in w for w in res.warnings)


def test_an_empty_path_and_cairns_own_home_are_not_ingested(app, tmp_path, monkeypatch):
    """`cairn ingest ""` once ingested the current folder; the home's own files (session logs,
    traces, exports) must never become notes, whether named or met in a folder walk."""
    home = app.settings.home
    (home / "traces").mkdir(parents=True, exist_ok=True)
    (home / "traces" / "t1.json").write_text('{"question": "secret trace"}')
    (home / "uploads" / "u1").mkdir(parents=True)
    (home / "uploads" / "u1" / "up.md").write_text("# Uploaded\n\nAn uploaded note about kestrels.\n")
    monkeypatch.chdir(tmp_path)
    from cairn.errors import InvalidInput
    with pytest.raises(InvalidInput, match="empty path"):
        app.ingest(["", tmp_path])
    assert app.notes_list()["total"] == 0
    report = app.ingest([home])
    assert report.failed and "own data" in report.failed[0][1] and not report.added
    report = app.ingest([home / "traces" / "t1.json"])
    assert report.failed and not report.added
    # a folder holding the home: its other files are ingested, the home's own are left out
    (tmp_path / "mine.md").write_text("# Mine\n\nA note about owls.\n")
    report = app.ingest([tmp_path])
    names = [str(n) for n in report.added]
    assert any(n.endswith("mine.md") for n in names) and not any("traces" in n for n in names)
    assert any("left out" in w for _, w in report.warnings)
    assert any(n.endswith("up.md") for n in names)  # uploads arrive to be ingested
    assert app.search("secret trace", mode="keyword").hits == []


def test_control_characters_in_a_file_name_stay_out_of_the_vault(tmp_path, hash_embedder):
    """probe22: a source named "a<LF>b.md" or with an escape sequence kept those characters in
    its vault copy's name; a line break is a space there, other control characters are dropped."""
    from cairn.service import Cairn
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a\nb.md").write_text("hello newline\n", encoding="utf-8")
    (tmp_path / "in" / "x\x1b[31mred.md").write_text("escape\n", encoding="utf-8")
    with Cairn(tmp_path / "home", embedder=hash_embedder) as app:
        report = app.ingest([tmp_path / "in"])
        assert len(report.added) == 2 and not report.failed
        names = sorted(p.name for p in (app.settings.vault / "notes" / "in").iterdir())
        assert names == ["a b.md", "x[31mred.md"]
        assert app.sync().to_json()["unchanged"] == 2  # the vault agrees with the index
