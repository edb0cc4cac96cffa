"""BM25 over the tsvector keyword rows, with FTS5's formula, so keyword ranking on
PostgreSQL matches SQLite's (ts_rank_cd has no IDF: on SciFact it scored nDCG@10 0.417
against FTS5's 0.694, bench/store_quality.py).

FTS5's bm25() (sqlite.org/fts5.html, "The bm25() function"; fts5_aux.c), k1 = 1.2, b = 0.75:

    score(D) = sum over phrases P of  IDF(P) * f(P,D) * (k1 + 1) / (f(P,D) + k1 * (1 - b + b * |D| / avgdl))
    IDF(P)   = log((N - n(P) + 0.5) / (n(P) + 0.5)), at least 1e-6
    f(P,D)   = sum over columns c of weight_c * (occurrences of P in column c of D)

N: chunks; n(P): chunks containing P (GIN-indexed count); |D|: tokens of the keyword row
(chunks.kw_len), avgdl: their mean. Occurrences come from the tsvector's positions and
weights (title A, body B, tags C); a phrase occurs where its lexemes sit at consecutive
positions. Candidates are the chunks matching the tsquery (the GIN index), scored here.
"""

from __future__ import annotations

import math
from collections import defaultdict

from cairn.store.postgres.notes import TS_CONFIG

K1, B = 1.2, 0.75
_COLUMN = {"A": 0, "B": 1, "C": 2, "D": 1}


def phrase_lexemes(conn, phrases: list[tuple[str, list[str], bool]]) -> list[list[str]]:
    """The stemmed lexemes of each phrase's words, in order (stop words dropped)."""
    out = []
    for _, words, _ in phrases:
        rows = conn.execute(f"SELECT lexeme, positions FROM unnest(to_tsvector('{TS_CONFIG}', %s))",
                            (" ".join(words),)).fetchall()
        at = sorted((p, lex) for lex, positions, *_ in rows for p in positions)
        out.append([lex for _, lex in at])
    return out


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


def score(conn, phrases: list[tuple[str, list[str], bool]], tsquery: str,
          weights: tuple[float, float, float], limit: int) -> list[tuple[int, float]]:
    """(chunk id, BM25 score, higher is better) of the best `limit` chunks matching
    `tsquery`. phrases: (column letter "A"/"C" or "", words, prefix) as parsed from the
    store.fts expression that `tsquery` was built from."""
    lexemes = phrase_lexemes(conn, phrases)
    wanted = sorted({lex for group in lexemes for lex in group})
    if not wanted:
        return []
    n, avgdl = conn.execute("SELECT count(*), coalesce(avg(kw_len), 0) FROM chunks").fetchone()
    avgdl = float(avgdl) or 1.0
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
