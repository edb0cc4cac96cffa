"""The store suite, run on both backends (fixture `backend`: SQLite and PostgreSQL +
pgvector): notes and chunks, keyword search (stemming, title weight, column filters, CJK,
malformed queries), vectors, links, jobs, memories, and all-or-nothing transactions."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from cairn.model import Chunk, Link
from cairn.search.query import build_match_query
from cairn.store.keyword import KeywordQueryError
from cairn.store.notes import NoteRow

W = (3.0, 1.0, 2.0)


def note(nid: str, title: str, *, type: str = "markdown", tags=("birds",)) -> NoteRow:
    return NoteRow(id=nid, path=f"{nid}.md", title=title, type=type, source=None, source_hash=None,
                   file_hash="f" + nid, body_hash="b" + nid, mtime_ns=1, size=10, created="2026-01-02",
                   updated=None, event_time=None, tags=list(tags), aliases=[], meta={"k": 1}, warnings=[],
                   encoding=None)


def add(backend, nid: str, title: str, texts: list[str], **kw) -> list[int]:
    with backend.transaction():
        backend.notes.upsert_note(note(nid, title, **kw))
        return backend.notes.insert_chunks(nid, title, list(kw.get("tags", ("birds",))),
                                           [Chunk(ord=i, text=t, start=0, end=len(t)) for i, t in enumerate(texts)])


def search(backend, text: str, k: int = 10) -> list[int]:
    return [cid for cid, _ in backend.keywords.bm25(build_match_query(text), W, k)]


def unit(seed: int, dim: int = 384) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def nearest(backend, q, k, allowed=None):
    if backend.name == "postgresql":
        return backend.vectors.nearest(q, k, allowed)
    from cairn.store.vectors import VectorIndex
    return VectorIndex(backend.conn, None).search(q, k, allowed)


def test_notes_and_chunks_round_trip(backend):
    ids = add(backend, "n1", "Herons", ["The grey heron waits.", "It eats fish."])
    add(backend, "n2", "Recipes", ["Bread needs flour."], type="text", tags=("food",))
    assert len(ids) == 2 and ids[0] < ids[1]
    got = backend.notes.get_note("n1")
    assert (got.title, got.tags, got.meta) == ("Herons", ["birds"], {"k": 1})
    assert backend.notes.get_note_by_path("n2.md").id == "n2"
    assert backend.notes.get_note("nope") is None
    total, rows = backend.notes.list_notes(tag="food")
    assert total == 1 and [r.id for r in rows] == ["n2"]
    assert backend.notes.list_notes(type="markdown")[0] == 1
    c = backend.notes.counts()
    assert (c["notes"], c["chunks"], c["missing_keyword_rows"]) == (2, 3, 0)
    assert backend.keywords.chunk_count() == 3
    details = backend.keywords.chunk_details(ids)
    assert details[ids[1]]["text"] == "It eats fish." and details[ids[1]]["path"] == "n1.md"
    assert backend.keywords.filtered_chunk_ids(["text"], None) == set(backend.keywords.chunk_details(
        search(backend, "flour")))
    with backend.transaction():
        backend.notes.delete_note("n1")
    assert backend.notes.counts()["chunks"] == 1 and search(backend, "heron") == []
    # chunk ids are never reused (case B12)
    assert min(add(backend, "n3", "Later", ["new text"])) > max(ids)


def test_chunk_filters_and_units(backend):
    """Time filters compare instants (offsets honoured; a bare `until` date counts whole), tags
    match exactly, and chunk units are (note, None) for notes."""
    with backend.transaction():
        for nid, created, tags in (("a", "2026-03-01T23:30:00-02:00", ["x"]),  # 2026-03-02T01:30Z
                                   ("b", "2026-03-01T12:00:00Z", ["y"])):
            row = note(nid, nid.upper(), tags=tags)
            row.created = created
            backend.notes.upsert_note(row)
            backend.notes.insert_chunks(nid, nid.upper(), tags, [Chunk(ord=0, text="words " + nid, start=0, end=7)])
    ids = {nid: next(iter(backend.keywords.chunk_details(search(backend, "words " + nid, 1)))) for nid in "ab"}
    kw = backend.keywords
    assert kw.filtered_chunk_ids(None, None) is None
    assert kw.filtered_chunk_ids(None, "2026-03-02") == {ids["a"]}
    assert kw.filtered_chunk_ids(None, None, "2026-03-01") == {ids["b"]}
    assert kw.filtered_chunk_ids(None, None, "2026-03-02") == {ids["a"], ids["b"]}
    assert kw.filtered_chunk_ids(None, None, None, "x") == {ids["a"]}
    assert kw.chunk_units([ids["a"], ids["b"]]) == {("a", None), ("b", None)}
    assert kw.max_chunk_id() >= max(ids.values())


def test_input_source_filter(backend):
    """How a note came in: its frontmatter `input_source`, else told by the rule of
    cairn.model.input_source_of (import_source, a web source, image/audio type, any source)."""
    from cairn.model import INPUT_SOURCES, input_source_of
    metas = {"v": ({"input_source": "Voice"}, "markdown"), "i": ({"import_source": "keep"}, "note"),
             "u": ({"source": "https://example.org/a"}, "html"), "p": ({"source": "/in/p.png"}, "image"),
             "f": ({"cairn_source": "/in/walk.md", "source": ""}, "markdown"), "t": ({}, "markdown"),
             "w": ({"input_source": "fax", "source": "/in/a.m4a"}, "audio")}
    WORD = dict(zip(metas, ("violin", "imprint", "umbrella", "pottery", "ferry", "thistle", "walnut")))
    with backend.transaction():
        for nid, (meta, kind) in metas.items():
            row = note(nid, nid.upper(), type=kind)
            row.meta = meta
            backend.notes.upsert_note(row)
            backend.notes.insert_chunks(nid, nid.upper(), [], [Chunk(ord=0, text=WORD[nid], start=0, end=8)])
    chunk = {nid: next(iter(backend.keywords.chunk_details(search(backend, WORD[nid], 1)))) for nid in metas}
    for source in INPUT_SOURCES:
        want = {chunk[nid] for nid, (meta, kind) in metas.items() if input_source_of(meta, kind) == source}
        assert backend.keywords.filtered_chunk_ids(None, None, input_source=source) == want, source
    assert backend.keywords.filtered_chunk_ids(None, None, input_source="voice") == {chunk["v"], chunk["w"]}


def test_an_ingest_is_all_or_nothing(backend):
    with pytest.raises(RuntimeError, match="disk full"):
        with backend.transaction():
            backend.notes.upsert_note(note("n1", "Half"))
            backend.notes.insert_chunks("n1", "Half", [], [Chunk(ord=0, text="orphan words", start=0, end=5)])
            raise RuntimeError("disk full")
    assert backend.notes.get_note("n1") is None
    assert backend.notes.counts()["chunks"] == 0 and search(backend, "orphan") == []


def test_keyword_search_stems_weights_titles_and_filters_columns(backend):
    body_hit = add(backend, "a", "Notes", ["herons nesting near the lake"])[0]
    title_hit = add(backend, "b", "Heron", ["a tall wading bird"])[0]
    tag_hit = add(backend, "c", "Misc", ["unrelated words here"], tags=("heron",))[0]
    found = search(backend, "heron")
    assert set(found) == {body_hit, title_hit, tag_hit}  # "herons" stems to "heron"
    assert found[0] == title_hit  # the title weighs most
    assert search(backend, "title:heron") == [title_hit]
    assert search(backend, "tags:heron") == [tag_hit]
    assert search(backend, "nest") == [body_hit]
    assert backend.keywords.document_frequency("heron") == 3
    assert backend.keywords.document_frequency("wad", prefix=True) == 1
    add(backend, "d", "Her", ["she gave her heron a name"])
    assert backend.keywords.document_frequency("her") >= 1  # a stop word is never "missing" (PostgreSQL)
    assert backend.keywords.document_frequency("zebra") == 0
    assert search(backend, 'k8s-prod "quoted" OR NOT (') == []  # operators are plain words
    with pytest.raises(KeywordQueryError):
        backend.keywords.bm25('"unbalanced', W, 10)


def test_cjk_words_match_inside_a_run(backend):
    hit = add(backend, "z", "日志", ["内存告警已清零"])[0]
    add(backend, "y", "other", ["告 and 警 apart"])
    assert search(backend, "告警") == [hit]


def test_vectors_store_search_and_cache(backend):
    ids = add(backend, "v", "Vectors", ["one", "two", "three"])
    vecs = np.stack([unit(1), unit(2), unit(3)])
    with backend.transaction():
        backend.vectors.put_vectors(ids, ["h1", "h2", "h3"], vecs, "m")
    assert backend.notes.counts()["embedded_chunks"] == 3
    got = nearest(backend, unit(2), 2)
    assert got[0][0] == ids[1] and got[0][1] == pytest.approx(1.0, abs=1e-4)
    assert [i for i, _ in nearest(backend, unit(2), 3, allowed={ids[0], ids[2]})] != [] \
        and ids[1] not in [i for i, _ in nearest(backend, unit(2), 3, allowed={ids[0], ids[2]})]
    with backend.transaction():
        backend.notes.delete_chunks("v")
    cached = backend.vectors.cached_vectors(["h2", "nope"], "m")
    assert list(cached) == ["h2"] and np.allclose(cached["h2"], unit(2), atol=1e-6)
    assert backend.vectors.cached_vectors(["h2"], "other-model") == {}
    backend.vectors.clear_vector_cache()
    assert backend.vectors.cached_vectors(["h2"], "m") == {}
    with pytest.raises(ValueError):
        backend.vectors.put_vectors([1], ["a", "b"], vecs, "m")


def test_chat_neighbour_rows_release_and_neighbour_key_state(backend):
    """Neighbour-carrying keys (ingest/neighbours.py): the messages around a chat chunk,
    releasing vectors into the text-hash cache (same text: same vector back), and the
    alpha the chat vectors were made with (setting it releases every chat vector only)."""
    with backend.transaction():
        backend.notes.upsert_note(note("chat1", "Session", type="chat"))
        chat = backend.notes.insert_chunks("chat1", "Session", [], [
            Chunk(ord=i, text=t, start=0, end=len(t), speaker=sp, source_id=f"m{i}")
            for i, (sp, t) in enumerate([("Ana", "trip?"), ("Ben", "yes!"), ("Ana", "good")])])
    notes = add(backend, "plain", "Plain", ["a note", "another"])
    got = backend.vectors.chat_context_rows(chat + notes)
    assert set(got) == set(chat)  # notes are left out
    assert [r["text"] for r in got[chat[1]]] == ["trip?", "good"] and [r["text"] for r in got[chat[0]]] == ["yes!"]
    assert got[chat[1]][0]["speaker"] == "Ana" and got[chat[1]][0]["title"] == "Session"
    ids = chat + notes
    with backend.transaction():
        backend.vectors.put_vectors(ids, [f"h{i}" for i in range(5)], np.stack([unit(i) for i in range(5)]), "m")
    assert backend.vectors.neighbour_keys_state() == 0.0
    with backend.transaction():
        assert backend.vectors.set_neighbour_keys(0.3) == 3
    assert backend.vectors.neighbour_keys_state() == pytest.approx(0.3)
    assert backend.notes.counts()["embedded_chunks"] == 2  # the two note chunks keep theirs
    cached = backend.vectors.cached_vectors(["h0", "h1", "h2", "h3"], "m")
    assert sorted(cached) == ["h0", "h1", "h2"] and np.allclose(cached["h1"], unit(1), atol=1e-6)
    with backend.transaction():
        assert backend.vectors.release_vectors([notes[0]]) == 1
    assert backend.notes.counts()["embedded_chunks"] == 1
    assert backend.vectors.release_vectors([]) == 0


def test_links(backend):
    add(backend, "l1", "One", ["see two"])
    add(backend, "l2", "Two", ["see one"])
    with backend.transaction():
        backend.notes.replace_links("l1", [Link("Two", start=4), Link("", start=-1), Link("Three", start=0)])
        backend.notes.replace_links("l2", [Link("One", alias="first", start=4)])
    assert [r["target"] for r in backend.links.links_of("l1")] == ["Three", "Two", ""]
    assert [r["target"] for r in backend.links.links_elsewhere("l1")] == ["One"]
    assert sorted(r["target"] for r in backend.links.all_links()) == ["One", "Three", "Two"]
    assert sorted(r["id"] for r in backend.links.note_names()) == ["l1", "l2"]


def test_job_queue_states(backend):
    jobs = backend.jobs
    jid, created = jobs.enqueue("file", "/a.md", {"x": 1}, max_attempts=2, now=100.0)
    assert created and jobs.enqueue("file", "/a.md", {}, max_attempts=2, now=100.0) == (jid, False)
    jobs.enqueue("file", "/b.md", {}, max_attempts=2, now=200.0)
    assert jobs.claim_batch(1, "t", 30.0, limit=5, now=50.0) == []  # nothing due yet
    got = jobs.claim_batch(1, "t", 30.0, limit=5, now=300.0)
    assert [j.source for j in got] == ["/a.md", "/b.md"] and got[0].payload == {"x": 1}
    assert jobs.mark_done(got[0], "added") and not jobs.mark_done(got[0], "added")
    assert jobs.mark_dead(got[1], "broken")
    assert jobs.counts() == {"queued": 0, "running": 0, "done": 1, "dead": 1}
    assert [j.id for j in jobs.by_state("dead")] == [got[1].id]
    assert jobs.requeue_dead(None) == [got[1].id]
    assert jobs.enqueue("file", "/a.md", {"y": 2}, max_attempts=2, now=400.0) == (jid, False)  # re-armed
    assert jobs.get(jid).state == "queued" and jobs.get(jid).payload == {"y": 2}
    retry = jobs.claim_batch(1, "t", 30.0, limit=5)  # requeue_dead made it due now
    assert len(retry) == 2 and jobs.mark_retry(retry[0], "flaky", 900.0)
    assert jobs.get(retry[0].id).state == "queued" and jobs.get(retry[0].id).last_error == "flaky"


def test_media_counts_follow_the_media_jobs_states(backend):
    jobs = backend.jobs
    assert jobs.media_counts() == {"pending": 0, "done": 0, "failed": 0}
    for name in ("a.png", "b.wav", "c.pdf"):
        jobs.enqueue("file", f"/{name}", {"path": f"/{name}", "heavy": True}, max_attempts=1, now=1.0)
    jobs.enqueue("file", "/d.md", {"path": "/d.md"}, max_attempts=1, now=1.0)  # a text source: not media
    got = {j.source: j for j in jobs.claim_batch(1, "t", 30.0, limit=10, now=2.0)}
    assert jobs.media_counts() == {"pending": 3, "done": 0, "failed": 0}  # running counts as pending
    assert jobs.mark_done(got["/a.png"], "added") and jobs.mark_dead(got["/b.wav"], "corrupt")
    assert jobs.mark_done(got["/d.md"], "added")
    assert jobs.media_counts() == {"pending": 1, "done": 1, "failed": 1}


def test_memories_core_blocks_entities_and_fact_keys(backend):
    from cairn.store.memories import MEMORY_COLUMNS
    cols = [c.strip() for c in MEMORY_COLUMNS.split(",")]

    def values(mid, text, kind="fact"):
        d = dict(id=mid, text=text, kind=kind, confidence=0.9, scope="global", source="user", source_ids="[]",
                 created=f"2026-01-0{mid[-1]}", event_time=None, valid_from=None, valid_to=None,
                 superseded_by=None, importance=0.5, last_used=None, use_count=0, tombstone=0,
                 entities="[]", log="[]", impact=-6, tags='["vulnerability"]')
        return tuple(d[c] for c in cols)

    with backend.transaction():
        backend.memories.insert_memory_row(values("m1", "I live in Lisbon"), "I live in Lisbon", "m", b"\x00" * 8)
        backend.memories.insert_memory_row(values("m2", "Allergic to peanuts", "health"),
                                           "Allergic to peanuts", None, None)
    assert backend.memories.memory_row("m1")["impact"] == -6  # the emotional weight round-trips (migration 8 / pg 2)
    assert backend.memories.memory_row("m1")["text"] == "I live in Lisbon"
    assert [r["id"] for r in backend.memories.memory_rows(kind="health")] == ["m2"]
    backend.memories.update_memory_row("m2", confidence=0.5, source_ids="[]", valid_to="2026-02-01",
                                       superseded_by=None, last_used=None, use_count=1, tombstone=False, log="[]")
    assert [r["id"] for r in backend.memories.memory_rows()] == ["m1"]
    assert len(backend.memories.recall_rows("global", True)) == 2
    rows = backend.memories.recall_rows("global", False)
    assert len(rows) == 1 and bytes(rows[0]["vec"]) == b"\x00" * 8
    scores = backend.memories.keyword_scores(build_match_query("lisbon living"))
    assert list(scores) == [rows[0]["rowid"]] and scores[rows[0]["rowid"]] > 0
    backend.memories.put_core_block("persona", "v1", "t")
    backend.memories.put_core_block("persona", "v2", "t")
    assert backend.memories.core_blocks() == {"persona": "v2"}
    assert backend.memories.alias_entity("ana") is None and backend.memories.list_entities() == []
    backend.memories.replace_fact_keys("n1", {"s1": ["likes tea"], "s2": []}, "rules")


def test_pg_migrations_are_versioned_and_idempotent(pg_url):
    from cairn.store.postgres import PostgresBackend
    from cairn.store.postgres.schema import MIGRATIONS
    first = PostgresBackend(pg_url)
    first.notes.upsert_note(note("keep", "Kept"))
    errors: list[Exception] = []

    def reopen():
        try:
            PostgresBackend(pg_url).close()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=reopen) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert first.schema_version() == MIGRATIONS[-1][0]
    assert first.notes.get_note("keep").title == "Kept"
    first.close()


def test_pg_claimers_skip_each_others_jobs(pg_url):
    from cairn.store.postgres import PostgresBackend
    backend = PostgresBackend(pg_url)
    try:
        for i in range(40):
            backend.jobs.enqueue("file", f"/{i}.md", {}, max_attempts=3, now=1.0)
        taken: list[list[int]] = [[], [], [], []]

        def worker(slot):
            while batch := backend.jobs.claim_batch(slot, "t", 60.0, limit=3, now=10.0):
                taken[slot].extend(j.id for j in batch)
                for j in batch:
                    assert backend.jobs.mark_done(j, "added")

        threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        every = [i for part in taken for i in part]
        assert len(every) == 40 and len(set(every)) == 40  # each job taken exactly once
        assert backend.jobs.counts()["done"] == 40
    finally:
        backend.close()


def test_a_lease_that_runs_out_requeues_the_job(pg_url):
    from cairn.store.postgres import PostgresBackend
    backend = PostgresBackend(pg_url)
    try:
        jid, _ = backend.jobs.enqueue("file", "/x.md", {}, max_attempts=2, now=1.0)
        job = backend.jobs.claim_batch(7, "t", 5.0, now=10.0)[0]
        assert backend.jobs.requeue_expired(now=12.0) == []
        assert backend.jobs.requeue_expired(now=16.0) == [jid]
        assert not backend.jobs.mark_done(job, "added")  # the worker lost its claim
        again = backend.jobs.claim_batch(8, "t", 5.0, now=17.0)[0]
        assert backend.jobs.requeue_expired(now=30.0) == [jid]
        assert backend.jobs.get(jid).state == "dead" and again.attempts == 2
    finally:
        backend.close()


def test_the_entity_graph_lives_only_in_the_sqlite_index(backend):
    """SQLite keeps mentions and co-occurrence (store/graph.py); PostgreSQL has no graph
    tables and says so with `graph = None` (store/backend.py, GraphStore)."""
    if backend.name == "postgresql":
        assert backend.graph is None
        return
    from cairn.store import memories as S
    add(backend, "n1", "Trip", ["Bob and Kyoto."])
    with backend.transaction():
        S.insert_entity(backend.conn, "e1", "Bob", "person")
        S.insert_entity(backend.conn, "e2", "Kyoto", "place")
        S.insert_entity(backend.conn, "e3", "Robert", "person")
        backend.graph.replace_mentions("n1", "fn1", [("", "e1", "wikilink", 1), ("", "e2", "ner", 2)])
        backend.graph.add_cooccur({("e1", "e2"): 1}, {("e1", "e2"): "2026-01-02"})
    assert [n["title"] for n in backend.graph.notes_of_entity("e2")] == ["Trip"]
    assert backend.graph.neighbours("e1", 5) == [("e2", 1, "2026-01-02", "2026-01-02")]
    assert backend.graph.stale_notes() == []  # extracted from the note's current bytes
    with backend.transaction():
        backend.graph.move_entity("e1", "e3")  # a merge keeps mentions and co-occurrence
    assert backend.graph.neighbours("e3", 5) == [("e2", 1, "2026-01-02", "2026-01-02")]
    assert len(backend.graph.chunk_ids_of_entity("e3")) == 1
    with backend.transaction():
        backend.graph.clear_graph()
    assert backend.graph.neighbours("e3", 5) == [] and [r["id"] for r in backend.graph.stale_notes()] == ["n1"]


def test_words_joined_by_punctuation_are_split_as_fts5_splits_them(backend):
    """"health.base", "k8s-prod" and "ops@example.org" are indexed as their words on both
    backends (PostgreSQL's parser alone would keep them whole as a host, a compound, an email),
    so the phrase query store.fts builds for them, and each word alone, finds the chunk."""
    ids = add(backend, "p1", "Endpoints", ["Deploy health.base to k8s-prod; mail ops@example.org."])
    add(backend, "p2", "Other", ["Nothing to see here."])
    for query in ("health.base", "base", "k8s-prod", "prod", "ops@example.org", "example"):
        assert search(backend, query) == [ids[0]], query


# A small corpus for the bulk path: titles, tags, repeats, punctuation, CJK, a fact-keyed chunk.
BULK_NOTES = [("b0", "Herons", ("birds",), ["The grey heron waits; heron, heron.", "Herons eat fish at dawn."]),
              ("b1", "Bread", ("food", "kitchen"), ["Bread needs flour and water.", "k8s-prod x.y heron"]),
              ("b2", "日本語", ("cjk",), ["東京の天気は晴れ", "the egret 東京 fishes"]),
              ("b3", "Gone", ("birds",), ["deleted heron text"]),
              ("b4", "Retitled", ("birds",), ["egrets and herons share the pond"]),
              ("b5", "Late", ("water",), ["a late note written by the ordinary writer, heron"])]
BULK_QUERIES = ["heron", "heron fish", "title:heron", "tags:food flour", "东京", "東京 egret", "k8s prod",
                "egret OR bread", "herons*", "retold"]


def _bulk_corpus_by_writes(backend) -> None:
    for nid, title, tags, texts in BULK_NOTES:
        add(backend, nid, title, texts, tags=tags)
    with backend.transaction():
        backend.notes.delete_note("b3")
        backend.notes.update_fts_metadata("b4", "Retold herons", ["birds", "water"])


def _bulk_corpus_by_bulk_load(pg) -> None:
    from cairn.store.postgres.bulk import (NOTE_COLUMNS, advance_ids, bulk_load, chunk_row, copy_rows,
                                           copy_vectors, insert_chunk_rows, note_row)
    with pg.session.transaction() as conn, bulk_load(conn, memory="64MB", workers=0) as load:
        copy_rows(conn, "notes", NOTE_COLUMNS, [note_row(note(n, t, tags=g)) for n, t, g, _ in BULK_NOTES])
        rows, cid = [], 0
        for nid, title, tags, texts in BULK_NOTES[:-1]:
            for i, text in enumerate(texts):
                cid += 1
                rows.append(chunk_row(cid, nid, title, list(tags), Chunk(ord=i, text=text, start=0, end=len(text))))
        insert_chunk_rows(conn, rows)
        copy_vectors(conn, [r[0] for r in rows], ["m"] * len(rows), [f"h{r[0]}" for r in rows],
                     [unit(r[0]) for r in rows])
        advance_ids(conn)
        # ordinary writes inside the load: the trigger records them, postings come at the end
        nid, title, tags, texts = BULK_NOTES[-1]
        pg.notes.insert_chunks(nid, title, list(tags), [Chunk(ord=0, text=texts[0], start=0, end=len(texts[0]))])
        pg.notes.delete_note("b3")
        pg.notes.update_fts_metadata("b4", "Retold herons", ["birds", "water"])
    assert set(load.timings) == {"rows", "postings", "chunks_tsv", "vectors_hnsw_384"}


def _by_place(backend, ids) -> list[tuple[str, str]]:
    details = backend.keywords.chunk_details(ids)
    return [(details[i]["note_id"], details[i]["text"]) for i in ids]


def test_pg_bulk_load_ranks_and_indexes_as_ordinary_writes(backend, pg_server):
    """A PostgreSQL bulk load (store/postgres/bulk.py: COPY, postings built once, indexes
    built after) ends with the keyword rows, kw_postings, kw_stats and rankings that
    ordinary writes give, on PostgreSQL (trigger path) and on SQLite (FTS5)."""
    from cairn.store.postgres import PostgresBackend
    _bulk_corpus_by_writes(backend)
    pg = PostgresBackend(pg_server.fresh_url())
    try:
        _bulk_corpus_by_bulk_load(pg)
        for q in BULK_QUERIES:
            want = backend.keywords.bm25(build_match_query(q), W, 10)
            got = pg.keywords.bm25(build_match_query(q), W, 10)
            assert _by_place(pg, [c for c, _ in got]) == _by_place(backend, [c for c, _ in want]), q
            assert [round(s, 6) for _, s in got] == [round(s, 6) for _, s in want], q
        (best, sim), = pg.vectors.nearest(unit(3), 1)  # binary COPY kept the vector; HNSW rebuilt
        assert _by_place(pg, [best]) == [("b1", "Bread needs flour and water.")] and sim > 0.999
        assert pg.notes.counts()["chunks"] == backend.notes.counts()["chunks"] == 8
        if backend.name == "postgresql":
            def rows(b):
                with b.session.connection() as conn:
                    places = {i: (n, o) for i, n, o in conn.execute("SELECT id, note_id, ord FROM chunks")}
                    postings = sorted((lex, places[c], na, nb, nc, kl) for lex, c, na, nb, nc, kl in conn.execute(
                        "SELECT lexeme, chunk_id, na, nb, nc, kw_len FROM kw_postings"))
                    tsv = sorted((n, o, str(t)) for n, o, t in conn.execute("SELECT note_id, ord, tsv FROM chunks"))
                    return postings, tsv, conn.execute("SELECT sum(chunks), sum(tokens) FROM kw_stats").fetchone()
            assert rows(pg) == rows(backend)
    finally:
        pg.close()


def test_pg_bulk_load_refuses_a_worker_count_out_of_range_and_changes_nothing(pg_server):
    """bulk_load(workers=...) outside 0-8 raises ValueError naming the bound before it drops
    an index or sets bulk mode: the loaded rows, the indexes and search stay as they were."""
    from cairn.store.postgres import PostgresBackend
    from cairn.store.postgres.bulk import bulk_load
    pg = PostgresBackend(pg_server.fresh_url())
    try:
        _bulk_corpus_by_bulk_load(pg)
        before = pg.notes.counts()
        for bad in (-1, 9):
            with pytest.raises(ValueError, match="workers must be 0-8, got " + str(bad)):
                with pg.session.transaction() as conn, bulk_load(conn, workers=bad):
                    raise AssertionError("the block must not run")
        assert pg.notes.counts() == before
        from cairn.store.postgres.schema import BULK_INDEXES
        with pg.session.connection() as conn:
            names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes")}
        assert set(BULK_INDEXES) <= names  # nothing dropped
        assert [c for c, _ in pg.keywords.bm25(build_match_query("flour"), W, 10)]
    finally:
        pg.close()
