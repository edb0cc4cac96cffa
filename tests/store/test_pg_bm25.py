"""BM25 on PostgreSQL in one SQL statement (store/postgres/bm25.py): the same ids and
scores as the Python reference over the same rows, including column filters and prefix
phrases; and the kw_stats counters (N and the token total) follow every kind of write."""

from __future__ import annotations

import pytest

from cairn.model import Chunk
from cairn.store.fts import build_match_query
from cairn.store.notes import NoteRow
from cairn.store.postgres import PostgresBackend, bm25, keyword

TEXTS = ["the grey heron waits by the heron pond", "herons and egrets fish at dawn",
         "a kingfisher dives; the heron watches", "bread needs flour and water",
         "flour mills grind wheat", "egret plumes were once fashionable", "waiting herons waiting"]


def _note(i: int, title: str, tags: list[str]) -> NoteRow:
    return NoteRow(id=f"n{i}", path=f"n{i}.md", title=title, type="markdown", source=None, source_hash=None,
                   file_hash=f"f{i}", body_hash=f"b{i}", mtime_ns=0, size=0, created=None, updated=None,
                   event_time=None, tags=tags, aliases=[], meta={}, warnings=[], encoding=None)


@pytest.fixture()
def pg(pg_url):
    backend = PostgresBackend(pg_url)
    with backend.transaction():
        for i, text in enumerate(TEXTS):
            title, tags = ("Heron notes", ["birds"]) if i % 2 else ("Kitchen", ["heron"])
            backend.notes.upsert_note(_note(i, title, tags))
            backend.notes.insert_chunks(f"n{i}", title, tags, [Chunk(ord=0, text=text, start=0, end=1),
                                                               Chunk(ord=1, text=text[::-1], start=1, end=2)])
    yield backend
    backend.close()


def _stats_match(pg) -> None:
    with pg.session.connection() as conn:
        n, total = conn.execute("SELECT count(*), coalesce(sum(kw_len), 0) FROM chunks").fetchone()
        assert bm25.stats(conn) == (n, (total / n if n else 0.0) or 1.0)


@pytest.mark.parametrize("query", ["heron", "heron flour egret", "title:heron wait", "tags:heron fish",
                                   "waiting", "heron*", "egret OR bread"])
def test_sql_scores_equal_the_python_reference(pg, query):
    match = build_match_query(query).replace('"heron"', '"hero"*') if "*" in query else build_match_query(query)
    tsquery, phrases = keyword.parse(match)
    with pg.session.connection() as conn:
        got = bm25.score(conn, phrases, tsquery, (3.0, 1.0, 2.0), 10)
        want = bm25.score(conn, phrases, tsquery, (3.0, 1.0, 2.0), 10, in_sql=False)
    assert got and [c for c, _ in got] == [c for c, _ in want]
    assert all(abs(a - b) < 1e-9 * max(1.0, abs(b)) for (_, a), (_, b) in zip(got, want))


def test_keyword_stats_follow_inserts_updates_deletes_and_truncate(pg):
    _stats_match(pg)
    with pg.transaction():
        pg.notes.update_fts_metadata("n1", "A much longer title for the heron note", ["birds", "water"])
    _stats_match(pg)
    with pg.transaction():
        pg.notes.delete_note("n2")  # chunks go by ON DELETE CASCADE
    _stats_match(pg)
    with pg.transaction():
        pg.notes.delete_chunks("n3")
    _stats_match(pg)
    import psycopg
    with pytest.raises(psycopg.errors.DivisionByZero), pg.transaction():  # rolled back: counters unchanged
        pg.notes.upsert_note(_note(99, "t", []))
        pg.notes.insert_chunks("n99", "t", [], [Chunk(ord=0, text="one two three", start=0, end=1)])
        pg.notes.delete_note("n4")
        with pg.session.connection() as conn:
            conn.execute("SELECT 1/0")
    _stats_match(pg)


def test_keyword_stats_after_truncate_and_reload(pg):
    with pg.transaction():
        pg.notes.clear_index()
    with pg.session.connection() as conn:
        assert bm25.stats(conn) == (0, 1.0)
    with pg.transaction():
        pg.notes.upsert_note(_note(1, "Herons", []))
        pg.notes.insert_chunks("n1", "Herons", [], [Chunk(ord=0, text="heron heron", start=0, end=1)])
    _stats_match(pg)
    assert [s > 0 for _, s in pg.keywords.bm25(build_match_query("heron"), (3, 1, 2), 5)] == [True]
