"""BM25 over the tsvector keyword rows, with FTS5's formula, so keyword ranking on
PostgreSQL matches SQLite's (ts_rank_cd has no IDF: on SciFact it scored nDCG@10 0.417
against FTS5's 0.694, bench/store_quality.py).

FTS5's bm25() (sqlite.org/fts5.html, "The bm25() function"; fts5_aux.c), k1 = 1.2, b = 0.75:

    score(D) = sum over phrases P of  IDF(P) * f(P,D) * (k1 + 1) / (f(P,D) + k1 * (1 - b + b * |D| / avgdl))
    IDF(P)   = log((N - n(P) + 0.5) / (n(P) + 0.5)), at least 1e-6
    f(P,D)   = sum over columns c of weight_c * (occurrences of P in column c of D)

N: chunks; n(P): candidate chunks containing P; |D|: tokens of the keyword row
(chunks.kw_len), avgdl: their mean (N and the token total are kept in `kw_stats` by
triggers, schema migration 4, so no query scans the chunks). Occurrences come from the
tsvector's positions and weights (title A, body B, tags C). Candidates are the chunks
matching the tsquery (the GIN index); every chunk containing a phrase is a candidate, so
n(P) counted over them is exact.

When every phrase is one word (what store.fts.render makes of ordinary words),
the whole formula runs as one SQL statement over the postings of the words' lexemes
(`_POSTINGS_SQL`, table kw_postings: an index range per word, as FTS5 reads its doclists);
when every phrase is one lexeme, some of them prefixes, one statement over the matching
rows' tsvectors (`_SQL`). Only the top `limit` rows leave the server. A phrase of several lexemes (words joined by punctuation, CJK runs) needs
the positions compared, which `score` does here in Python over the matching rows.
"""

from __future__ import annotations

import math
from collections import defaultdict

from cairn.store.postgres.notes import TS_CONFIG

K1, B = 1.2, 0.75
_COLUMN = {"A": 0, "B": 1, "C": 2, "D": 1}


def phrase_lexemes(conn, phrases: list[tuple[str, list[str], bool]]) -> list[list[str]]:
    """The stemmed lexemes of each phrase's words, in order (stop words dropped); one query."""
    rows = conn.execute(
        f"""SELECT t.i, u.lexeme, p FROM unnest(%s::text[]) WITH ORDINALITY AS t(txt, i),
                   unnest(to_tsvector('{TS_CONFIG}', t.txt)) u, unnest(u.positions) p""",
        ([" ".join(words) for _, words, _ in phrases],)).fetchall()
    at: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for i, lex, pos in rows:
        at[int(i) - 1].append((pos, lex))
    return [[lex for _, lex in sorted(at[i])] for i in range(len(phrases))]


def _occurrences(lexemes: list[str], prefix: bool, terms: dict[str, list[tuple[int, str]]],
                 column: str | None) -> list[int]:
    """Occurrences of a phrase per column [title, body, tags] in one chunk's terms
    {lexeme: [(position, weight)]}."""
    counts = [0, 0, 0]
    if not lexemes:
        return counts
    def hits(lex, last):
        if last and prefix:
            return [pw for k, v in terms.items() if k.startswith(lex) for pw in v]
        return terms.get(lex, [])
    first = hits(lexemes[0], len(lexemes) == 1)
    rest = [set(hits(lex, i == len(lexemes) - 1)) for i, lex in enumerate(lexemes[1:], 1)]
    for pos, weight in first:
        if all((pos + i, weight) in rest[i - 1] for i in range(1, len(lexemes))):
            if column is None or weight == column:
                counts[_COLUMN[weight]] += 1
    return counts


def stats(conn) -> tuple[int, float]:
    """(N chunks, mean keyword-row length; 1.0 when empty) from the kw_stats slots."""
    n, tokens = conn.execute("SELECT coalesce(sum(chunks), 0), coalesce(sum(tokens), 0) FROM kw_stats").fetchone()
    n, tokens = int(n), float(tokens)
    return n, (tokens / n if n else 0.0) or 1.0


# One lexeme per phrase: ph(k, lex, col, pre) are the phrases (column letter or '', prefix);
# each candidate's tsvector is unnested down to the query's lexemes (pfx: prefix ones).
# f per (chunk, phrase) sums the column weight of each matching position; n per phrase
# counts the candidates holding it; the score sums IDF * f * (k1+1) / (f + k1 * norm);
# st: N and avgdl from the kw_stats slots.
_SQL = f"""
WITH st AS (SELECT coalesce(sum(chunks), 0)::float8 AS n,
                   coalesce(sum(tokens)::float8 / nullif(sum(chunks), 0), 0) AS dl FROM kw_stats),
ph AS (SELECT * FROM unnest(%(k)s::int[], %(lex)s::text[], %(col)s::text[], %(pre)s::bool[])
                AS t(k, lex, col, pre)),
cand AS (SELECT id, kw_len, tsv FROM chunks WHERE tsv @@ to_tsquery('{TS_CONFIG}', %(tsq)s)),
occ AS (SELECT c.id, c.kw_len, ph.k,
               sum(CASE w WHEN 'A' THEN %(wa)s WHEN 'C' THEN %(wc)s ELSE %(wb)s END) AS f
        FROM cand c CROSS JOIN LATERAL (SELECT * FROM unnest(c.tsv) x
                                        WHERE x.lexeme = ANY(%(lex)s) OR x.lexeme ^@ ANY(%(pfx)s)) u
             JOIN ph ON u.lexeme = ph.lex OR (ph.pre AND u.lexeme ^@ ph.lex)
             CROSS JOIN LATERAL unnest(u.weights) w
        WHERE ph.col = '' OR w = ph.col
        GROUP BY c.id, c.kw_len, ph.k),
df AS (SELECT k, greatest(1e-6, ln((st.n - count(*) + 0.5) / (count(*) + 0.5))) AS idf
       FROM occ, st GROUP BY k, st.n)
SELECT occ.id, sum(df.idf * occ.f * {K1 + 1}
                   / (occ.f + {K1} * (1 - {B} + {B} * occ.kw_len / coalesce(nullif(st.dl, 0), 1.0)))) AS s
FROM occ JOIN df USING (k) CROSS JOIN st WHERE occ.f > 0
GROUP BY occ.id ORDER BY s DESC, occ.id LIMIT %(limit)s
"""


# Every phrase one word, none a prefix (what build_match_query makes of ordinary words): the
# postings of each word's lexeme (kw_postings, schema migration 6) read from the covering
# index, the word stemmed in the same statement. o: occurrences in the phrase's column (all
# columns when none); f: weighted by column. A word that stems to several lexemes cannot be
# scored from postings: the statement then returns only the row (-1, 0) and `score` falls
# back to the other paths.
_POSTINGS_SQL = f"""
WITH st AS (SELECT coalesce(sum(chunks), 0)::float8 AS n,
                   coalesce(sum(tokens)::float8 / nullif(sum(chunks), 0), 0) AS dl FROM kw_stats),
ph AS (SELECT t.k, t.col, (SELECT array_agg(x.lexeme) FROM unnest(to_tsvector('{TS_CONFIG}', t.w)) x) AS lx
       FROM unnest(%(k)s::int[], %(w)s::text[], %(col)s::text[]) AS t(k, w, col)),
bad AS (SELECT 1 FROM ph WHERE cardinality(lx) > 1),
occ AS (SELECT ph.k, p.chunk_id, p.kw_len,
               CASE ph.col WHEN 'A' THEN %(wa)s * p.na WHEN 'C' THEN %(wc)s * p.nc
                    ELSE %(wa)s * p.na + %(wb)s * p.nb + %(wc)s * p.nc END AS f
        FROM ph JOIN kw_postings p ON p.lexeme = ph.lx[1]
        WHERE cardinality(ph.lx) = 1
          AND CASE ph.col WHEN 'A' THEN p.na WHEN 'C' THEN p.nc ELSE p.na + p.nb + p.nc END > 0),
df AS (SELECT k, greatest(1e-6, ln((st.n - count(*) + 0.5) / (count(*) + 0.5))) AS idf
       FROM occ, st GROUP BY k, st.n)
(SELECT occ.chunk_id, sum(df.idf * occ.f * {K1 + 1}
                          / (occ.f + {K1} * (1 - {B} + {B} * occ.kw_len / coalesce(nullif(st.dl, 0), 1.0)))) AS s
 FROM occ JOIN df USING (k) CROSS JOIN st WHERE NOT EXISTS (SELECT 1 FROM bad)
 GROUP BY occ.chunk_id HAVING sum(occ.f) > 0 ORDER BY s DESC, occ.chunk_id LIMIT %(limit)s)
UNION ALL
SELECT -1, 0 WHERE EXISTS (SELECT 1 FROM bad)
"""


def score(conn, phrases: list[tuple[str, list[str], bool]], tsquery: str,
          weights: tuple[float, float, float], limit: int, *, in_sql: bool = True) -> list[tuple[int, float]]:
    """(chunk id, BM25 score, higher is better) of the best `limit` chunks matching
    `tsquery`. phrases: (column letter "A"/"C" or "", words, prefix) as parsed from the
    store.fts expression that `tsquery` was built from. in_sql=False scores in Python even
    when one statement could (the reference the SQL is tested against)."""
    if in_sql and all(len(words) == 1 and not prefix for _, words, prefix in phrases):
        rows = conn.execute(_POSTINGS_SQL, {
            "k": list(range(len(phrases))), "w": [words[0] for _, words, _ in phrases],
            "col": [col for col, _, _ in phrases], "wa": float(weights[0]), "wb": float(weights[1]),
            "wc": float(weights[2]), "limit": limit}).fetchall()
        if not any(r[0] == -1 for r in rows):
            return [(int(r[0]), float(r[1])) for r in rows]
    lexemes = phrase_lexemes(conn, phrases)
    wanted = sorted({lex for group in lexemes for lex in group})
    if not wanted:
        return []
    if in_sql and all(len(g) <= 1 for g in lexemes):
        keep = [(i, g[0], p) for i, (g, p) in enumerate(zip(lexemes, phrases)) if g]
        rows = conn.execute(_SQL, {
            "k": [i for i, _, _ in keep], "lex": [lex for _, lex, _ in keep],
            "col": [p[0] for _, _, p in keep], "pre": [p[2] for _, _, p in keep], "tsq": tsquery,
            "pfx": [lex for _, lex, p in keep if p[2]],
            "wa": float(weights[0]), "wb": float(weights[1]), "wc": float(weights[2]),
            "limit": limit}).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]
    n, avgdl = stats(conn)
    rows = conn.execute(
        f"""SELECT c.id, c.kw_len, u.lexeme, u.positions, u.weights
            FROM chunks c, to_tsquery('{TS_CONFIG}', %s) q, unnest(c.tsv) u
            WHERE c.tsv @@ q AND (u.lexeme = ANY(%s) OR (%s AND u.lexeme ^@ ANY(%s)))""",
        (tsquery, wanted, any(p for *_, p in phrases), [g[-1] for g in lexemes if g])).fetchall()
    docs: dict[int, dict[str, list[tuple[int, str]]]] = defaultdict(dict)
    length: dict[int, int] = {}
    for cid, kw_len, lex, positions, wts in rows:
        docs[cid][lex] = list(zip(positions, wts))
        length[cid] = kw_len
    per_phrase = []
    for (column, _, prefix), group in zip(phrases, lexemes):
        occ = {cid: _occurrences(group, prefix, terms, column or None) for cid, terms in docs.items()}
        n_hit = sum(1 for c in occ.values() if any(c))
        idf = max(1e-6, math.log((n - n_hit + 0.5) / (n_hit + 0.5)))
        per_phrase.append((idf, occ))
    scores = []
    for cid in docs:
        total = 0.0
        norm = K1 * (1 - B + B * length[cid] / avgdl)
        for idf, occ in per_phrase:
            f = sum(w * o for w, o in zip(weights, occ[cid]))
            total += idf * f * (K1 + 1) / (f + norm) if f else 0.0
        if total > 0:
            scores.append((cid, total))
    scores.sort(key=lambda t: (-t[1], t[0]))
    return scores[:limit]
