"""BM25 on PostgreSQL in one SQL statement (store/postgres/bm25.py): the same ids and
scores as the Python reference over the same rows, including column filters and prefix
phrases; and the kw_stats counters (N and the token total) and the kw_postings inverted
list follow every kind of write."""

from __future__ import annotations

import pytest

from cairn.model import Chunk
from cairn.search.query import build_match_query
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
        postings = "SELECT lexeme, chunk_id, na, nb, nc, kw_len FROM kw_postings"
        from_rows = ("SELECT u.lexeme, c.id, (SELECT count(*) FROM unnest(u.weights) w WHERE w = 'A'), "
                     "(SELECT count(*) FROM unnest(u.weights) w WHERE w IN ('B', 'D')), "
                     "(SELECT count(*) FROM unnest(u.weights) w WHERE w = 'C'), c.kw_len "
                     "FROM chunks c, unnest(c.tsv) u")
        assert sorted(conn.execute(postings).fetchall()) == sorted(conn.execute(from_rows).fetchall())


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


def test_migration_5_rebuilds_english_keyword_rows_with_porter_and_no_stop_words(pg_url):
    """A database written before migration 5 (Snowball `english`, stop words dropped) gets its
    chunk keyword rows rebuilt with the `cairn` configuration, facts and speaker included."""
    import psycopg

    from cairn.store.postgres import schema
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with conn.transaction():
            conn.execute("CREATE TABLE IF NOT EXISTS cairn_migrations "
                         "(version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            for version, sql in schema.MIGRATIONS[:4]:
                conn.execute(sql)
                conn.execute("INSERT INTO cairn_migrations(version) VALUES (%s)", (version,))
            conn.execute("INSERT INTO notes (id, path, title, type, file_hash, body_hash, tags, indexed_at) "
                         "VALUES ('c1', 'c1.md', 'Chat', 'chat', 'f', 'b', '[\"talks\"]', 'now')")
            conn.execute("INSERT INTO fact_keys (note_id, source_id, facts, updated) "
                         "VALUES ('c1', 'm1', '[\"Mel adopted a puppy\"]', 'now')")
            conn.execute("INSERT INTO chunks (note_id, ord, source_id, text, start, \"end\", speaker, kw_len, tsv) "
                         "VALUES ('c1', 0, 'm1', 'the generously given', 0, 1, 'Ann', 6, "
                         "to_tsvector('english', 'the generously given'))")
            conn.execute("INSERT INTO chunks (note_id, ord, text, start, \"end\", kw_len, tsv) "
                         "VALUES ('c1', 1, '内存告警', 0, 1, 4, to_tsvector('english', '内存告警'))")
    backend = PostgresBackend(pg_url)  # opening migrates
    try:
        with backend.session.connection() as conn:
            assert schema.schema_version(conn) == len(schema.MIGRATIONS)
            lexemes = set(conn.execute("SELECT tsvector_to_array(tsv) FROM chunks WHERE ord = 0").fetchone()[0])
            cjk = set(conn.execute("SELECT tsvector_to_array(tsv) FROM chunks WHERE ord = 1").fetchone()[0])
        assert {"the", "gener", "ann", "puppi", "chat", "talk"} <= lexemes  # stop word kept, Porter stems
        assert {"告", "警"} <= cjk  # one CJK character per token, as store.fts.index_text writes them
        assert [c for c, _ in backend.keywords.bm25(build_match_query("puppy"), (3, 1, 2), 5)] != []
        assert [c for c, _ in backend.keywords.bm25(build_match_query("告警"), (3, 1, 2), 5)] != []
    finally:
        backend.close()
