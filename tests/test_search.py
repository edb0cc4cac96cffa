"""Search: any text is a valid query (B09), CJK keyword search (B10), hybrid signals,
filters, batch mode, keyword-channel failures reported, stale vectors after edits (B12)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import write
from cairn.search.text import build_match_query

CASES = Path(__file__).parent / "cases"

B09_NOTE = """---
title: Home lab notes
tags: [homelab]
---

# Home lab notes

- Upgraded the NAS to ubuntu 20.04 last weekend.
- Transcripts are in Downloads/transcripts on the laptop.
- Config key health.base must stay at 30.
- Follow @orbitlab for launch updates; use #homelab tag.
- Rule of thumb: a=b in the old config meant "mirror".
- Learning C++ and C# this winter; 50% done with the course.
- Don't forget: why? because the UPS beeps! (battery at 80%)
- The file is called report_final-v2.pdf
- Dashboard URL path: /status?view=full&range=7d
- NEAR the rack there is a label that says AND-OR gate kit.
- Café opening hours: 08:00–17:00
"""

B09_FOUND = ["ubuntu 20.04", "20.04", "don't forget", "Downloads/transcripts", "health.base", "@orbitlab",
             "#homelab", "a=b", "C++", "C#", "50%", "why?", "hi!" , '"mirror', 'mirror"', "(battery",
             "report_final-v2.pdf", "-v2", "/status?view=full&range=7d", "NEAR", "AND", "OR gate", "NOT",
             "^homelab", "title:homelab", "tags:homelab", "café", "08:00"]
B09_EMPTY = ["*", "'", '"', "("]


@pytest.fixture
def b09(app, tmp_path):
    write(tmp_path / "v" / "note-with-punctuation.md", B09_NOTE)
    write(tmp_path / "v" / "other.md", "# Other\n\nShopping list: eggs, flour, yeast.\n")
    app.ingest([tmp_path / "v"])
    return app


@pytest.mark.parametrize("query", B09_FOUND)
def test_b09_punctuation_queries_find_the_note(b09, query):
    res = b09.search(query, mode="keyword")
    assert res.keyword_error is None
    if query in ("hi!", "NOT"):
        # words absent from the note ("hi", "not"): valid query, no error, no hit required
        return
    assert "Home lab notes" in [h.title for h in res.hits], query


@pytest.mark.parametrize("query", B09_EMPTY)
def test_b09_symbol_only_queries_give_empty_result_with_hint(b09, query):
    res = b09.search(query, mode="keyword")
    assert res.hits == []
    assert res.keyword_error is None
    assert any("no searchable words" in w for w in res.warnings)


@pytest.mark.parametrize("query", B09_FOUND + B09_EMPTY + ["NEAR(a b)", "a OR", "x:y:z", "🙂 emoji", "\\", "-"])
def test_b09_match_expression_is_always_valid(b09, query):
    match = build_match_query(query)
    if match is not None:
        b09.conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,)).fetchone()


CJK_NOTE = """---
title: 出差记录 / 出張メモ
tags: [travel]
---

# 出差记录

部署k8s-prod后内存告警已清零，修复已验证。
下周二和陈晓岚一起去杭州看新办公室。

# 出張メモ

サンドボックス修正テストは金曜日に完了。
大阪の倉庫で在庫を確認する。

# 회의 메모

다음 주 월요일에 예산 회의가 있습니다.
"""


@pytest.mark.parametrize("query", ["内存告警", "告警", "杭州", "陈晓岚", "k8s-prod", "k8s", "サンドボックス",
                                   "在庫", "大阪の倉庫", "예산 회의", "예산"])
def test_b10_cjk_keyword_search(app, tmp_path, query):
    write(tmp_path / "v" / "cjk-notes.md", CJK_NOTE)
    write(tmp_path / "v" / "en.md", "# English\n\nNothing in Chinese here, only a note about bicycles.\n")
    app.ingest([tmp_path / "v"])
    hits = app.search(query, mode="keyword").hits
    assert hits and hits[0].title == "出差记录 / 出張メモ"


def test_cjk_absent_word_not_found(app, tmp_path):
    write(tmp_path / "v" / "cjk-notes.md", CJK_NOTE)
    app.ingest([tmp_path / "v"])
    assert app.search("北京", mode="keyword").hits == []


def test_hybrid_hits_carry_signals_and_fields(b09):
    res = b09.search("which ubuntu version is on the NAS")
    h = res.hits[0]
    assert h.title == "Home lab notes"
    assert set(h.signals) == {"keyword", "semantic", "recency", "graph", "source", "context", "speaker", "time"}
    assert all(0.0 <= v <= 1.0 for v in h.signals.values())
    assert 0 < h.score <= 1.0
    j = h.to_json()
    for key in ("id", "source_id", "title", "path", "source", "snippet", "start", "end", "page", "score", "signals"):
        assert key in j
    assert j["path"].startswith("notes/") and j["source"].endswith("note-with-punctuation.md")


def test_semantic_mode_finds_paraphrase(b09):
    hits = b09.search("which operating system runs on my network storage", mode="semantic").hits
    assert hits[0].title == "Home lab notes"


def test_filters_type_and_since(app, tmp_path):
    write(tmp_path / "v" / "old.md", "---\ncreated: 2019-01-05\n---\n# Old trip\n\nWe walked to the lighthouse in fog.\n")
    write(tmp_path / "v" / "new.md", "---\ncreated: 2025-06-01\n---\n# New trip\n\nWe cycled to the lighthouse at dawn.\n")
    write(tmp_path / "v" / "t.txt", "The lighthouse keeper's log was typed up as plain text.\n")
    app.ingest([tmp_path / "v"])
    assert {h.title for h in app.search("lighthouse", since="2024-01-01", types=["markdown"]).hits} == {"New trip"}
    assert [h.type for h in app.search("lighthouse", types=["text"]).hits] == ["text"]


def test_unknown_mode_is_a_clear_error(b09):
    with pytest.raises(ValueError, match="unknown search mode"):
        b09.search("x", mode="fuzzy")


def test_keyword_channel_failure_is_reported_not_hidden(b09):
    b09.conn.execute("DROP TABLE chunks_fts")
    res = b09.search("ubuntu 20.04")
    assert res.keyword_error and "keyword search failed" in res.keyword_error
    assert any("keyword search failed" in w for w in res.warnings)
    assert res.hits and res.hits[0].title == "Home lab notes"  # semantic channel still answers


def test_batch_search(b09):
    rows = list(b09.search_batch([("q1", "C++"), ("q2", "*")], k=3, mode="keyword"))
    assert [r["query_id"] for r in rows] == ["q1", "q2"]
    assert rows[0]["hits"][0]["title"] == "Home lab notes"
    assert rows[1]["hits"] == [] and rows[1]["warnings"]


@pytest.mark.parametrize("line, problem", [
    ('{"id": "a", "query": null}', "query must be a string, got null"),
    ('{"id": "a", "query": ["x"]}', "query must be a string, got an array"),
    ('{"id": "a", "query": 42}', "query must be a string, got a number"),
    ('{"id": null, "query": "x"}', "id must be a string or a number, got null"),
    ('{"id": ["a"], "query": "x"}', "id must be a string or a number, got an array"),
])
def test_batch_file_fields_have_their_type(tmp_path, line, problem):
    """A null query was searched as the text "None" (str(None)); each field must have its type."""
    from cairn.service import read_batch_file
    f = write(tmp_path / "q.jsonl", '{"id": "ok", "query": "fine"}\n' + line + "\n")
    with pytest.raises(ValueError, match=rf"q\.jsonl: line 2: {re.escape(problem)}"):
        read_batch_file(f)


def test_batch_file_ids_default_to_the_line_and_may_be_numbers(tmp_path):
    from cairn.service import read_batch_file
    f = write(tmp_path / "q.jsonl", '{"query": "a"}\n\n{"id": 7, "query": "b"}\n{"id": "x", "query": ""}\n')
    assert read_batch_file(f) == [("1", "a"), ("7", "b"), ("x", "")]


def test_b12_edited_note_gets_new_vectors(app, tmp_path):
    note = write(tmp_path / "v" / "health" / "allergies.md",
                 "# Allergies\n\nSevere allergy: peanuts. Carry the auto-injector on hikes.\n")
    write(tmp_path / "v" / "other.md", "# Bikes\n\nThe tandem needs a new chain before the summer.\n")
    app.ingest([tmp_path / "v"])
    old = app.search("peanut allergy auto-injector hikes", mode="semantic").hits[0]
    assert old.title == "Allergies"
    write(note, "# Allergies\n\nCorrection from the clinic in March: the allergy is to shellfish.\n")
    app.ingest([tmp_path / "v"])
    new = app.search("shellfish allergy", mode="semantic").hits[0]
    assert new.title == "Allergies" and "shellfish" in new.snippet
    again = [h for h in app.search("peanut allergy auto-injector hikes", mode="semantic").hits if h.title == "Allergies"]
    assert again and again[0].signals["semantic"] < old.signals["semantic"] - 0.1
    note_id = new.note_id
    n_chunks = app.conn.execute("SELECT count(*) FROM chunks WHERE note_id = ?", (note_id,)).fetchone()[0]
    n_vecs = app.conn.execute(
        "SELECT count(*) FROM vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.note_id = ?", (note_id,)).fetchone()[0]
    assert n_vecs == n_chunks
    st = app.status()
    assert st["orphan_vectors"] == 0 and st["missing_vectors"] == 0


def test_keyword_search_stems_english(app, tmp_path):
    write(tmp_path / "v" / "run.md", "# Training\n\nShe was running intervals and trained for the marathons.\n")
    app.ingest([tmp_path / "v"])
    for q in ("run", "trains", "marathon"):
        assert [h.title for h in app.search(q, mode="keyword").hits] == ["Training"], q


def test_migration_from_v1_keeps_keyword_rows(tmp_path):
    """An index created at schema 1 (no stemming) is upgraded in place, rows kept."""
    import sqlite3
    from cairn.store import db

    path = tmp_path / "index.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for stmt in db._split_sql(db.MIGRATIONS[0][1]):
        conn.execute(stmt)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO chunks_fts(rowid, title, body, tags) VALUES (7, 'T', 'walking dogs', '')")
    conn.close()
    upgraded = db.connect(path)
    assert db.schema_version(upgraded) == db.MIGRATIONS[-1][0]
    rows = upgraded.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'walk'").fetchall()
    assert [r[0] for r in rows] == [7]


def _garden_beds(app, tmp_path, monkeypatch):
    """13 notes, 12 with "gardens" and one with "kohlrabi garden ... shed"; every index
    counts as large (COMMON_MIN_CHUNKS = 1)."""
    import cairn.search.hybrid as H

    for i in range(12):
        write(tmp_path / "v" / f"g{i}.md", f"# Bed {i}\n\nThe gardens need watering, bed number {i}.\n")
    write(tmp_path / "v" / "k.md", "# Kohlrabi\n\nKohlrabi goes in the garden by the shed.\n")
    app.ingest([tmp_path / "v"])
    monkeypatch.setattr(H, "COMMON_MIN_CHUNKS", 1)


def test_very_common_words_are_left_out_of_large_indexes(app, tmp_path, monkeypatch):
    import cairn.search.hybrid as H

    _garden_beds(app, tmp_path, monkeypatch)
    assert H.common_terms(app.conn, "kohlrabi garden") == {"garden"}  # stemmed: gardens/garden
    assert app.search("kohlrabi garden", mode="keyword").hits[0].title == "Kohlrabi"
    # a query made only of common words still searches them
    assert len(app.search("garden", mode="keyword").hits) == 10
    monkeypatch.setattr(H, "COMMON_MIN_CHUNKS", 10**9)
    assert H.common_terms(app.conn, "kohlrabi garden") == frozenset()


def test_common_terms_statistics_are_cached_until_the_index_changes(app, tmp_path, monkeypatch):
    import cairn.search.hybrid as H
    from cairn.store import db

    _garden_beds(app, tmp_path, monkeypatch)
    counts = []
    real = H._count_chunks
    monkeypatch.setattr(H, "_count_chunks", lambda conn: counts.append(1) or real(conn))
    assert H.common_terms(app.conn, "shed garden") == {"garden"}
    app.search("kohlrabi garden", mode="keyword")
    app.search("shed", mode="hybrid")  # the keyword channel runs in a worker thread
    assert len(counts) == 1  # no write in between: counted once
    for i in range(4):  # this connection's own writes (total_changes)
        write(tmp_path / "w" / f"s{i}.md", f"# Shed {i}\n\nThe shed door sticks, shelf {i}.\n")
    app.ingest([tmp_path / "w"])
    assert H.common_terms(app.conn, "shed garden") == {"shed", "garden"}  # 5 of 17 chunks
    assert len(counts) == 2
    other = db.connect(app.settings.index_path)  # another connection's commit (data_version)
    other.execute("INSERT INTO meta(key, value) VALUES ('test', '1')")
    other.close()
    H.common_terms(app.conn, "shed")
    H.common_terms(app.conn, "shed")
    assert len(counts) == 3


def test_search_builds_the_match_expression_once(b09, monkeypatch):
    import cairn.search.hybrid as H

    calls = []
    real = H.fts.render
    monkeypatch.setattr(H.fts, "render", lambda *a, **kw: calls.append(a) or real(*a, **kw))
    for mode in ("keyword", "hybrid"):
        calls.clear()
        assert b09.search("ubuntu 20.04", mode=mode).hits
        assert len(calls) == 2, mode  # the OR query and the adjacent pairs' phrase query
    calls.clear()
    res = b09.search("?!", mode="keyword")
    assert len(calls) == 1 and res.hits == [] and res.warnings == [H.NO_WORDS]


def test_preload_loads_the_embedder_in_the_background_for_vector_modes(tmp_path):
    """`Cairn.preload(mode)` (a cold `cairn search` calls it first) starts loading the
    embedding model for hybrid/semantic on another thread; keyword loads nothing."""
    import threading

    from cairn.service import Cairn

    class SlowToLoad:
        model_name = "slow"
        dim = 3

        def __init__(self):
            self.loaded, self.threads = False, []

        def load(self):
            self.threads.append(threading.current_thread().name)
            self.loaded = True
            return self

        def embed(self, texts):
            raise AssertionError("not called")

    emb = SlowToLoad()
    with Cairn(tmp_path / "home", embedder=emb) as app:
        app.preload("keyword")
        assert emb.threads == []
        app.preload("hybrid")
        for t in threading.enumerate():
            if t.name == "cairn-preload":
                t.join(60)
        assert emb.loaded and emb.threads == ["cairn-preload"]
        app.preload("semantic")  # already loaded: nothing more
        assert emb.threads == ["cairn-preload"]


def test_adjacent_query_words_rank_a_note_holding_them_as_a_phrase_higher(app, tmp_path):
    """[search] phrase_weight: "breast cancer" ranks the note saying "breast cancer" above a
    shorter one with both words apart, which plain BM25 puts first."""
    from dataclasses import replace

    write(tmp_path / "v" / "apart.md", "# Clinic\n\nBreast feeding was discussed, then lung cancer.\n")
    write(tmp_path / "v" / "phrase.md", "# Screening\n\nThe screening programme for breast cancer "
          "invites women.\n")
    for i, topic in enumerate(("garden beds", "bread dough", "train times", "tax forms", "bike repair", "tea")):
        write(tmp_path / "v" / f"other{i}.md", f"# Other {i}\n\nNotes about {topic}.\n")
    app.ingest([tmp_path / "v"])
    base = app.settings.search
    app.settings.search = replace(base, phrase_weight=0.0)
    assert [h.title for h in app.search("breast cancer", mode="keyword").hits] == ["Clinic", "Screening"]
    app.settings.search = replace(base, phrase_weight=0.15)
    assert [h.title for h in app.search("breast cancer", mode="keyword").hits] == ["Screening", "Clinic"]
