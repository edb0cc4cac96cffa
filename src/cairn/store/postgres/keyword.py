"""Keyword search on PostgreSQL: the twin of store/keyword.py over the `tsvector` column
`chunks.tsv` (title weight A, body B, tags C), plus the text-search query builder.

`render` turns a keyword query as the search layer hands it (a store.fts.Match: the OR of
phrases of a parsed query, search/query.py) into tsquery text without reading any text: a
phrase becomes `a <-> b`, a `title`/`tags` column restricts it to weight A/C, OR becomes `|`.
Callers that hold FTS5 text instead (`"a b" OR title : "c"`: tests, scripts) go through
`parse`; anything else (FTS5 syntax store/fts.py never produces) raises KeywordQueryError,
as FTS5 itself would for a malformed query.

Ranking: BM25 with FTS5's formula and column weights (store/postgres/bm25.py), so keyword
scores and order match SQLite's up to stemming (Snowball English vs Porter).
"""

from __future__ import annotations

import re
from typing import Iterable

from cairn.store.fts import Match
from cairn.store.keyword import KeywordQueryError, input_source_sql
from cairn.store.postgres.notes import OWNER_SQL, TS_CONFIG

_PART = re.compile(r'^(?:(title|tags)\s*:\s*)?"((?:[^"]|"")*)"(\*)?$')
_WORD = re.compile(r"[^\W_]+")
_WEIGHT = {"title": "A", "tags": "C"}


def to_tsquery_text(match) -> str:
    """tsquery text for a store.fts.Match (or its FTS5 text). Raises KeywordQueryError."""
    return parse(match)[0]


def render(match: Match) -> tuple[str, list[tuple[str, list[str], bool]]]:
    """(tsquery text, phrases) of a store.fts.Match, its phrases taken as they are (no text
    is parsed; of each token only its letters and digits, so no token can make tsquery
    syntax, as `parse` reads FTS5 text); each phrase is (column weight letter "A"/"C" or "", words, prefix). Raises
    KeywordQueryError when no phrase has a word."""
    out, phrases = [], []
    for p in match.phrases:
        words = [w for t in p.tokens for w in _WORD.findall(t)]  # tsquery-safe (as `parse` reads them)
        if not words:
            continue
        weight = _WEIGHT[p.column.lower()] if p.column else ""
        phrases.append((weight, list(words), p.prefix))
        out.append(_tsquery_part(words, weight, p.prefix))
    if not out:
        raise KeywordQueryError("keyword query has no searchable term")
    return " | ".join(out), phrases


def _tsquery_part(words: list[str], weight: str, prefix: bool) -> str:
    """One phrase as tsquery text: words joined by `<->`, the column weight on every word,
    the prefix mark on the last."""
    marks = [""] * len(words)
    if prefix or weight:  # prefix applies to the last word, a column to every word
        marks = [":" + weight] * len(words)
        marks[-1] = ":" + ("*" if prefix else "") + weight
    quoted = [f"'{w}'{mark}" for w, mark in zip(words, marks)]
    return "(" + " <-> ".join(quoted) + ")"


def parse(match) -> tuple[str, list[tuple[str, list[str], bool]]]:
    """(tsquery text, phrases) of a store.fts MATCH expression; each phrase is (column
    weight letter "A"/"C" or "", words, prefix). A store.fts.Match is rendered (`render`), not
    parsed. Raises KeywordQueryError."""
    if isinstance(match, Match):
        return render(match)
    out, phrases = [], []
    for part in match.split(" OR "):
        m = _PART.match(part.strip())
        if not m:
            raise KeywordQueryError(f"malformed keyword query near {part.strip()[:40]!r}")
        words = _WORD.findall(m.group(2).replace('""', '"'))
        if not words:
            continue
        weight = _WEIGHT[m.group(1).lower()] if m.group(1) else ""
        phrases.append((weight, list(words), bool(m.group(3))))
        out.append(_tsquery_part(list(words), weight, bool(m.group(3))))
    if not out:
        raise KeywordQueryError("keyword query has no searchable term")
    return " | ".join(out), phrases


def bm25(conn, match, weights: tuple[float, float, float], limit: int) -> list[tuple[int, float]]:
    """(chunk id, BM25 score, higher is better) of the best `limit` matches of `match` (a
    store.fts.Match, rendered by `render`; or FTS5 text, `parse`), with
    column weights (title, body, tags): FTS5's formula (store/postgres/bm25.py). Raises
    KeywordQueryError."""
    import psycopg

    from cairn.store.postgres import bm25 as okapi
    tsquery, phrases = parse(match)
    try:
        return okapi.score(conn, phrases, tsquery, weights, limit)
    except psycopg.Error as exc:
        raise KeywordQueryError(str(exc)) from exc


def document_frequency(conn, word: str, prefix: bool = False) -> int:
    """Chunks whose keyword row holds `word` (stemmed; `prefix`: words starting with it); a
    stop word of the configuration counts as in every chunk."""
    terms = _WORD.findall(word.lower())
    if not terms:
        return 0
    if conn.execute(f"SELECT numnode(plainto_tsquery('{TS_CONFIG}', %s)) = 0", (" ".join(terms),)).fetchone()[0]:
        # Only stop words of the text search configuration ("her", "s"): the index keeps no
        # lexeme for them, yet they are in the text; counted as in every chunk, as the most
        # common words are (FTS5 indexes them, so SQLite's count is large, never 0).
        return chunk_count(conn)
    if len(terms) == 1 and not prefix:  # one lexeme: its postings, from the index alone
        n = conn.execute(
            f"""SELECT CASE WHEN cardinality(x.lx) = 1
                            THEN (SELECT count(*) FROM kw_postings WHERE lexeme = x.lx[1]) END
                FROM (SELECT array(SELECT lexeme FROM unnest(to_tsvector('{TS_CONFIG}', %s))) AS lx) x""",
            (terms[0],)).fetchone()[0]
        if n is not None:
            return int(n)
    q = " <-> ".join(f"'{t}'" + (":*" if prefix else "") for t in terms)
    return conn.execute(f"SELECT count(*) FROM chunks WHERE tsv @@ to_tsquery('{TS_CONFIG}', %s)",
                        (q,)).fetchone()[0]


# store.keyword.INPUT_SOURCE_SQL with PostgreSQL's JSON operators
INPUT_SOURCE_SQL = input_source_sql(lambda key: f"(n.meta::jsonb ->> '{key}')", percent="%%")


def filtered_chunk_ids(conn, types: list[str] | None, since: str | None,
                       until: str | None = None, tag: str | None = None,
                       person: str | None = None, status: str | None = None,
                       input_source: str | None = None) -> set[int] | None:
    """As store.keyword.filtered_chunk_ids (times compared as timestamps with their offsets;
    a time without an offset counts as UTC)."""
    if not types and not since and not until and not tag and person is None and not status and not input_source:
        return None
    where, args = [], []
    if person is not None:
        where.append(OWNER_SQL)
        args.append(person.strip().casefold())  # as cairn.people.person_key
    when = ("(coalesce(c.event_time, n.event_time, n.created, n.updated, n.indexed_at)"
            "::timestamptz AT TIME ZONE 'UTC')")
    if types:
        where.append("n.type = ANY(%s)")
        args.append(list(types))
    if since:
        where.append(f"{when} >= (%s::timestamptz AT TIME ZONE 'UTC')")
        args.append(since)
    if until:
        if len(until) == 10:  # a bare date counts whole: up to the start of the next day
            where.append(f"{when} < (%s::date + 1)")
        else:
            where.append(f"{when} <= (%s::timestamptz AT TIME ZONE 'UTC')")
        args.append(until)
    if tag:
        where.append("n.tags::jsonb ? %s")
        args.append(tag)
    if status:
        where.append("lower(coalesce(n.meta::jsonb ->> 'status', 'saved')) = %s")
        args.append(status)
    if input_source:
        where.append(f"{INPUT_SOURCE_SQL} = %s")
        args.append(input_source)
    return {r[0] for r in conn.execute(
        f"SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id WHERE {' AND '.join(where)}", args)}


def chunk_units(conn, ids: Iterable[int]) -> set[tuple[str, str | None]]:
    """As store.keyword.chunk_units."""
    ids = list(ids)
    if not ids:
        return set()
    return {(r[0], r[1] if r[2] == "chat" else None) for r in conn.execute(
        "SELECT c.note_id, c.source_id, n.type FROM chunks c JOIN notes n ON n.id = c.note_id "
        "WHERE c.id = ANY(%s)", (ids,)).fetchall()}


def chunk_count(conn) -> int:
    return conn.execute("SELECT count(*) FROM chunks").fetchone()[0]


def max_chunk_id(conn) -> int:
    return conn.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]


def chunk_details(conn, ids: Iterable[int]) -> dict:
    """{chunk id: row}, the columns of store.keyword.chunk_details."""
    ids = list(ids)
    if not ids:
        return {}
    rows = conn.execute(
        """SELECT c.id, c.note_id, c.source_id, c.text, c.start, c."end", c.page, c.event_time AS c_time,
                  c.speaker, n.title, n.path, n.source, n.type,
                  coalesce(c.event_time, n.event_time, n.updated, n.created, n.indexed_at) AS t
           FROM chunks c JOIN notes n ON n.id = c.note_id WHERE c.id = ANY(%s)""", (ids,)).fetchall()
    return {r["id"]: r for r in rows}
