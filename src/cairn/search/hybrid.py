"""Hybrid retrieval: BM25 (FTS5) + semantic (cosine) + recency, fused.

Each channel gives a ranked candidate list of chunks; chunks are grouped into *units* (a
note, or one chat message) and the best chunk represents its unit. Fusion:

- "weighted" (default): convex combination of the normalised channel scores,
  score = (w_k * keyword + w_s * semantic + w_r * recency) / (w_k + w_s + w_r)
  (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", 2023);
- "rrf": reciprocal rank fusion, score = sum_c w_c / (k + rank_c)
  (Cormack, Clarke & Buettcher, SIGIR 2009), with k = `SearchSettings.rrf_k`.
On LoCoMo (conv-26, hit@10) the weighted sum scored 0.693 against RRF's 0.567 — see
bench/README.md for the measured figures behind the default.

For the weighted sum the cosine is min-max scaled over the query's semantic candidates
(Bruch et al.'s recommended normalisation), as BM25 is scaled by its best score.
The keyword channel's BM25 includes `phrase_weight` x the BM25 of the query's adjacent word
pairs as phrases (`with_phrases`). Signals reported per hit, each in [0, 1]: keyword = BM25 / best BM25 of the query;
semantic = max(0, cosine); recency = exp(-age_days / tau). A failing keyword channel is
reported in `SearchResult.warnings` / `keyword_error`, never hidden as zero hits.
"""

from __future__ import annotations

from cairn.errors import InvalidInput

import logging
import math
import re
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from cairn.config import SearchSettings
from cairn.model import FUSIONS, NOTE_TYPES, SEARCH_MODES, Hit
from cairn.search.query import Filters, ParsedQuery, parse_query
from cairn.search.vector_model import other_model_warning
from cairn.store import db, fts, keyword
from cairn.store.fts import STOPWORDS
from cairn.store.keyword import KeywordQueryError

log = logging.getLogger("cairn.search")

MODES = SEARCH_MODES
BM25_WEIGHTS = (2.0, 1.0, 1.0)  # title, body, tags


@dataclass
class SearchResult:
    """Hits best first, plus what went wrong on the way (never silently empty)."""

    hits: list[Hit]
    warnings: list[str] = field(default_factory=list)
    keyword_error: str | None = None
    mode: str = "hybrid"
    missing_words: list[str] = field(default_factory=list)  # query words no chunk holds
    below_floor: int = 0  # units (notes, chat messages) left out by the relevance floor
    semantic_floor: float | None = None  # the floor applied (None: keyword mode, no floor)
    vectors_pending: int = 0  # chunks not embedded yet: semantic results may be incomplete

    def to_json(self) -> dict:
        """{"hits": [Hit.to_json()], "warnings", "missing_words", "below_floor",
        "semantic_floor", "vectors_pending"} (the shape of `cairn search --json`)."""
        return {"hits": [h.to_json() for h in self.hits], "warnings": list(self.warnings),
                "missing_words": list(self.missing_words), "below_floor": self.below_floor,
                "semantic_floor": self.semantic_floor, "vectors_pending": self.vectors_pending}


Connection = Any  # an open store connection (store.backend.open_backend); search never sees SQL


def _allowed_ids(conn: Connection, types: list[str] | None, since: str | None,
                 until: str | None = None, tag: str | None = None, person: str | None = None,
                 status: str | None = None, input_source: str | None = None) -> set[int] | None:
    """Chunk ids passing the filters (None when there is none): see
    store.keyword.filtered_chunk_ids."""
    return keyword.filtered_chunk_ids(conn, types, since, until, tag, person=person, status=status,
                                      input_source=input_source)


COMMON_DF = 0.2  # a term in more than this fraction of chunks is left out of OR queries
COMMON_MIN_CHUNKS = 2000  # ... but only in indexes at least this large


@dataclass
class _DfStats:
    """Chunk count and per-stem document frequencies of one index state (`key`)."""

    key: tuple[int, int]
    total: int
    df: dict[str, int] = field(default_factory=dict)


# Per connection (db.connect's connections take weak references; a plain sqlite3
# connection is not cached): the statistics of the index state they were read at.
_DF_CACHE: "weakref.WeakKeyDictionary[Connection, _DfStats]" = weakref.WeakKeyDictionary()


def _count_chunks(conn: Connection) -> int:
    return keyword.chunk_count(conn)


def _df_stats(conn: Connection) -> _DfStats:
    """The cached statistics of this connection, recomputed (count of chunks, empty df
    cache) only when `store.db.index_state` has changed since they were read."""
    key = db.index_state(conn)
    try:
        stats = _DF_CACHE.get(conn)
    except TypeError:  # not weak-referenceable: no cache
        return _DfStats(key, _count_chunks(conn))
    if stats is None or stats.key != key:
        stats = _DfStats(key, _count_chunks(conn))
        _DF_CACHE[conn] = stats
    return stats


def document_frequency(conn: Connection, word: str, prefix: bool = False) -> int:
    """Number of chunks whose keyword index holds `word`, as FTS5 itself tokenizes and
    stems it (a phrase query on `chunks_fts`, so "races" counts chunks with "race", and the
    stem is exactly the index's: Python's Snowball Porter differs, e.g. it turns "us" into
    "u"). prefix=True counts chunks with any token starting with `word` (FTS5 prefix query);
    the index holds stems, so a prefix longer than a word's stem finds nothing ("happin" does
    not find "happiness", stored as "happi"): keep prefixes short.
    Cached per connection until the index changes (`_df_stats`). A word FTS5 cannot parse
    counts 0."""
    return _document_frequency(conn, _df_stats(conn), word, prefix)


def _document_frequency(conn: Connection, stats: _DfStats, word: str, prefix: bool = False) -> int:
    """`document_frequency` with the statistics of this index state already in hand."""
    key = word.lower() + ("*" if prefix else "")
    if key not in stats.df:
        stats.df[key] = keyword.document_frequency(conn, word, prefix)
    return stats.df[key]


def common_terms(conn: Connection, query: "str | ParsedQuery") -> frozenset[str]:
    """Words of the OR query (ParsedQuery.match_words: words, single characters, phrases) that
    occur in more than COMMON_DF of all chunks (`document_frequency`).
    Such words carry almost no BM25 weight (idf ~ log(1/df)) but dominate the cost of an OR
    query. Measured at 106k chunks (SciFact padded, same process, load ~5): hybrid p50
    130 -> 93 ms with 0.2; SciFact nDCG@10 hybrid 0.735 -> 0.737 (bench/README.md). The
    chunk count and the frequencies looked up are cached per connection until the index
    changes (`_df_stats`)."""
    top = keyword.max_chunk_id(conn)
    if top < COMMON_MIN_CHUNKS:
        return frozenset()
    stats = _df_stats(conn)
    return frozenset(w for w in parse_query(query).match_words()
                     if _document_frequency(conn, stats, w) > COMMON_DF * stats.total)


BM25_MAX_POSTINGS = 10_000  # keyword rows one OR query may score (sum of its words' frequencies)
# (20,000 until 2026-12-02: at 106k chunks 10,000 cut warm hybrid p50/p95 from ~29/50 to
# ~22/36 ms with SciFact nDCG@10 unchanged, 0.7415 hybrid and 0.6937 keyword; bench/README.md)


def capped_terms(conn: Connection, query: "str | ParsedQuery", drop: frozenset[str]) -> frozenset[str]:
    """`drop` plus the most frequent remaining words of the OR query, left out until the
    words kept match at most BM25_MAX_POSTINGS keyword rows in all (sum of document
    frequencies); the rarest word is always kept. The words are the OR query's own parts
    (ParsedQuery.match_words): single characters ("3") and phrases ("t cell" for "T-cell") too,
    whose rows BM25 scores like any word's (a SciFact claim's "3" matched 22,507 of 106k
    chunks and took 48 of its 55 ms of BM25). BM25 scores every row that matches any word of an OR query,
    so the cost of a query grows with its words' frequencies: at 100k chunks a query of
    several mid-frequency words (each in 2-20% of the chunks, under COMMON_DF) scored tens
    of thousands of rows and made the p95 latency (issue 16). The words left out are the
    least discriminating ones (idf ~ log(N/df)). Only in indexes of at least
    COMMON_MIN_CHUNKS chunks, where the frequencies are cached by `common_terms` anyway."""
    top = keyword.max_chunk_id(conn)
    if top < COMMON_MIN_CHUNKS:
        return drop
    stats = _df_stats(conn)
    words = sorted((w for w in parse_query(query).match_words() if w not in STOPWORDS and w not in drop),
                   key=lambda w: _document_frequency(conn, stats, w))
    total, extra = 0, set()
    for i, w in enumerate(words):
        total += _document_frequency(conn, stats, w)
        if i > 0 and total > BM25_MAX_POSTINGS:
            extra.add(w)
    return drop | frozenset(extra) if extra else drop


def keyword_candidates(conn: Connection, query: "str | ParsedQuery", limit: int,
                       allowed: set[int] | None = None, fields: bool = True,
                       drop: frozenset[str] | None = None) -> list[tuple[int, float]]:
    """(chunk_id, bm25) best first; bm25 is positive (higher = better). `drop`: words left
    out of the OR query (default: `common_terms(conn, query)`).
    Raises store.keyword.KeywordQueryError if the index rejects the query (should not happen)."""
    q = parse_query(query)
    if drop is None:
        drop = common_terms(conn, q)
    match = fts.render(q.or_words(fields=fields, drop=drop))
    return [] if match is None else _bm25(conn, match, limit, allowed)


def _bm25(conn: Connection, match: fts.Match, limit: int,
          allowed: set[int] | None) -> list[tuple[int, float]]:
    """(chunk_id, bm25) best first for a rendered keyword query (see keyword_candidates)."""
    fetch = limit if allowed is None else max(limit * 20, 2000)
    rows = keyword.bm25(conn, match, BM25_WEIGHTS, fetch)
    out = [(c, sc) for c, sc in rows if allowed is None or c in allowed]
    return out[:limit]


_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cairn-bm25")
NO_WORDS = "the query has no searchable words for keyword search (only punctuation or symbols)"


def missing_words(conn: Connection, query: "str | ParsedQuery") -> list[str]:
    """Query words (not stopwords) that no chunk holds, as FTS5 stems them
    (`document_frequency` == 0), in query order. Their frequencies are cached per
    connection (common_terms looks up the same words in a large index)."""
    stats = _df_stats(conn)
    words = dict.fromkeys(w for w in parse_query(query).terms if w not in STOPWORDS and not w.isdigit())
    return [w for w in words if _document_frequency(conn, stats, w) == 0]


def with_phrases(conn: Connection, query: "str | ParsedQuery", kw: list[tuple[int, float]], weight: float,
                 drop: frozenset[str]) -> list[tuple[int, float]]:
    """Keyword candidates `kw` ((chunk_id, bm25) best first) re-scored as bm25 + weight x the
    BM25 of the query's adjacent word pairs as phrases (ParsedQuery.pairs; a chunk without
    any pair, or outside the best max(len(kw), 1000) phrase matches, adds 0), best first again. A weighted sum of a unigram and an ordered-window
    score, as in Metzler & Croft's sequential dependence model (SIGIR 2005, weights 0.85 /
    0.1 for the two; here the unigram weight is 1). The pairs of words left out of the OR
    query (`drop`) are left out too, so the second query reads no posting list the first
    did not. SciFact train nDCG@10 (hybrid, bench/README.md 2026-12-02): weight 0 / 0.05 /
    0.1 / 0.15 / 0.25 -> tuning half 0.7205 / 0.7215 / 0.7217 / 0.7224 / 0.7197, held out
    0.7639 / 0.7636 / 0.7650 / 0.7659 / 0.7629; the pairs OR-ed into the first query at full
    weight scored 0.7178 / 0.7512. Unchanged when weight <= 0, kw is empty or there is no pair.
    Raises store.keyword.KeywordQueryError if the index rejects the query."""
    if weight <= 0 or not kw:
        return kw
    match = fts.render(parse_query(query).pair_words(drop))
    if match is None:
        return kw
    ph = dict(keyword.bm25(conn, match, BM25_WEIGHTS, max(len(kw), 1000)))
    return sorted(((c, sc + weight * ph.get(c, 0.0)) for c, sc in kw), key=lambda x: -x[1])


def _keyword_channel(conn: Connection, q: ParsedQuery, limit: int, allowed: set[int] | None,
                     phrase_weight: float = 0.0) -> tuple[list[tuple[int, float]], list[str], list[str]]:
    """Keyword candidates, warnings (NO_WORDS when the query has no searchable word) and the
    query words found nowhere (`missing_words`); never raises for an FTS5 error (it is
    reported). The keyword query is rendered once from the parsed query `q` (store.fts.render);
    nothing here reads its text. phrase_weight: see `with_phrases`."""
    try:
        drop = capped_terms(conn, q, common_terms(conn, q))  # once: the fallback reuses it
        match = fts.render(q.or_words(drop=drop))
        if match is None:
            return [], [NO_WORDS], []
        kw = with_phrases(conn, q, _bm25(conn, match, limit, allowed), phrase_weight, drop)
        missing = missing_words(conn, q)
        if not kw and q.has_field_filter:
            kw = keyword_candidates(conn, q, limit, allowed, fields=False, drop=drop)
            return kw, ["no match for the title:/tags: filter; searched its words anywhere instead"], missing
        return kw, [], missing
    except KeywordQueryError as exc:
        log.warning("keyword channel failed for %r: %s", q.text, exc)
        return [], [f"keyword search failed: {exc}"], []


def _age_days(ts: str | None, now: datetime) -> float | None:
    if not ts:
        return None
    try:
        dt = datetime.fromisoformat(str(ts).replace("Z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return max(0.0, (now - dt).total_seconds() / 86400.0)


def make_snippet(text: str, terms: list[str], width: int = 240) -> str:
    """~`width` characters of `text` around the first occurrence of a query term, cut at
    word boundaries (a snippet never starts or ends mid-word, unless one word is longer
    than the whole snippet)."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= width:
        return flat
    low = flat.lower()
    pos = min((i for i in (low.find(t) for t in terms if len(t) > 1) if i >= 0), default=0)
    start = max(0, pos - width // 3)
    if start and flat[start - 1] != " ":
        nxt = flat.find(" ", start, pos + 1)  # the first whole word before the term
        if nxt >= 0:
            start = nxt + 1
        else:  # the term's own word: start where it starts
            start = flat.rfind(" ", 0, start) + 1
    end = min(len(flat), start + width)
    if end < len(flat) and flat[end] != " ":
        cut = flat.rfind(" ", max(start + 1, pos + 1), end)
        if cut > start:
            end = cut
    return ("…" if start else "") + flat[start:end].strip() + ("…" if end < len(flat) else "")


def _count_units(conn: Connection, dropped: list[int], kept: list[int], group: bool) -> int:
    """How many units (notes, chat messages; chunks when not grouping) the floor removed,
    not counting units still represented by a kept chunk."""
    if not group:
        return len(dropped)

    return len(keyword.chunk_units(conn, dropped) - keyword.chunk_units(conn, kept))


def missing_warning(words: list[str]) -> str:
    """The warning for query words no note holds: "no note contains 'a', 'b'"."""
    return "no note contains " + ", ".join(f"'{w}'" for w in words)


def _explain_empty(result: SearchResult, mode: str) -> None:
    """The warning that says why a search found nothing (words found nowhere, floor)."""
    if result.below_floor:
        result.warnings.append(
            f"{result.below_floor} nearest note(s) are below the relevance floor (cosine < "
            f"{result.semantic_floor:g}, [search] semantic_floor in config.toml) and are not shown")


def search(conn: Connection, vindex, embedder, query: "str | ParsedQuery", *, k: int = 10,
           mode: str = "hybrid", fusion: str = "weighted", types: list[str] | None = None,
           since: str | None = None, settings: SearchSettings | None = None,
           now: datetime | None = None, group: bool = True, until: str | None = None,
           tag: str | None = None, entity: str | None = None, person: str | None = None,
           status: str | None = None, input_source: str | None = None) -> SearchResult:
    """Search the index.

    query: any user text, or a query already parsed (search/query.py `parse_query`; the
    filter arguments here replace its filters). The text is parsed once, here; every channel
    reads the ParsedQuery. k: number of hits. mode: hybrid | keyword | semantic.
    types: note types to keep (e.g. ["pdf", "markdown"]). since: ISO date; keep units whose
    event/created time is on or after it; until: ISO date, on or before it (that whole day);
    tag: keep notes carrying this tag. person: only notes that person owns or that are
    shared (cairn.people; None: every note). group: one hit per unit (note or chat message);
    False returns the best chunks even when several come from one note (evidence for
    answers). entity: keep only units mentioning this entity (any of its names; graph/).
    status: keep notes with this content status (saved, read, archived; cairn.notestatus).
    input_source: keep notes that came in this way (text, voice, url, file, image, import).
    Hybrid mode adds the graph, source and context signals (graph/signal.py). Raises
    InvalidInput for an unknown mode/fusion, NotFound for an unknown entity.
    """
    if mode not in MODES:
        raise InvalidInput(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
    if fusion not in FUSIONS:
        raise InvalidInput(f"unknown fusion {fusion!r}; use one of {', '.join(FUSIONS)}")
    unknown = sorted(set(types or []) - set(NOTE_TYPES))
    if unknown:
        raise InvalidInput(f"unknown note type(s) {', '.join(unknown)}; use one of {', '.join(NOTE_TYPES)}")
    s = settings or SearchSettings()
    now = now or datetime.now(timezone.utc)
    result = SearchResult(hits=[], mode=mode)
    q = parse_query(query, Filters(tuple(types or ()), since, until, tag, status, entity, person, input_source))
    if q.empty:
        result.warnings.append("empty query")
        return result
    f = q.filters
    allowed = _allowed_ids(conn, list(f.types) or None, f.since, f.until, f.tag, f.person, f.status, f.input_source)
    if f.entity is not None:
        from cairn.graph.ops import entity_chunk_ids
        only = entity_chunk_ids(conn, f.entity)
        allowed = only if allowed is None else allowed & only
    n_cand = max(s.candidates, k * 3)

    kw_result: tuple[list[tuple[int, float]], list[str], list[str]] = ([], [], [])
    kw_job = None
    other_model = None
    if mode in ("hybrid", "semantic"):
        vindex.refresh()  # touches the connection: do it before the keyword thread starts
        other_model = other_model_warning(conn, embedder)
    if mode in ("hybrid", "keyword"):
        if mode == "hybrid":
            # BM25 runs in a worker thread (SQLite releases the GIL) while the query is
            # embedded and the vectors scanned; only that thread uses `conn` meanwhile.
            kw_job = _POOL.submit(_keyword_channel, conn, q, n_cand, allowed, s.phrase_weight)
        else:
            kw_result = _keyword_channel(conn, q, n_cand, allowed, s.phrase_weight)
    sem: list[tuple[int, float]] = []
    if mode == "hybrid":
        # Needed after the fusion; imported now because a cold process would otherwise
        # wait here idle for the model session that embeds the query (cli_start).
        from cairn.graph import signal as graph_signal
    if mode in ("hybrid", "semantic"):
        try:
            if other_model is None:
                from cairn.embed.cache import embed_query
                qvec = embed_query(embedder, q.text)
                sem = vindex.search(qvec, n_cand, allowed, refresh=False)
            else:
                result.warnings.append(other_model)
        finally:
            if kw_job is not None:
                kw_result = kw_job.result()
    kw, notes, result.missing_words = kw_result
    if f.person is not None:
        # The index's word counts cover every person's notes: "no note contains X" would
        # tell a named person that X is in someone else's note when it is not said (people.py).
        result.missing_words = []
    for note in notes:
        result.warnings.append(note)
        if note.startswith("keyword search failed"):
            result.keyword_error = note
    if result.missing_words:
        result.warnings.append(missing_warning(result.missing_words))

    cand_ids = list(dict.fromkeys([c for c, _ in kw] + [c for c, _ in sem]))
    if mode != "keyword":
        result.semantic_floor = s.semantic_floor
    if mode != "keyword" and s.semantic_floor > 0:  # 0: the nearest notes, however far
        # Relevance floor: a candidate with no query word must be close in meaning, so a
        # word found nowhere does not bring back the nearest notes ranked as matches.
        kw_ids = {c for c, _ in kw}
        sem_cos = dict(sem)
        dropped = [c for c in cand_ids if c not in kw_ids and sem_cos.get(c, 0.0) < s.semantic_floor]
        if dropped:
            gone = set(dropped)
            cand_ids = [c for c in cand_ids if c not in gone]
            result.below_floor = _count_units(conn, dropped, cand_ids, group)
    if not cand_ids:
        _explain_empty(result, mode)
        return result
    rows = keyword.chunk_details(conn, cand_ids)
    kw_max = max((sc for _, sc in kw), default=0.0) or 1.0
    kw_score = {c: sc / kw_max for c, sc in kw}
    kw_rank = {c: i + 1 for i, (c, _) in enumerate(kw)}
    sem_score = {c: max(0.0, sc) for c, sc in sem}
    sem_rank = {c: i + 1 for i, (c, _) in enumerate(sem)}
    # For fusion, cosine is min-max scaled over this query's candidates (as BM25 is scaled
    # by its best score); the reported signal stays the raw cosine.
    if sem:
        lo, hi = min(sc for _, sc in sem), max(sc for _, sc in sem)
        sem_fuse = {c: (sc - lo) / (hi - lo) if hi > lo else 1.0 for c, sc in sem}
    else:
        sem_fuse = sem_score
    rec_score = {}
    for c in cand_ids:
        age = _age_days(rows[c]["t"], now) if c in rows else None
        rec_score[c] = math.exp(-age / s.recency_tau_days) if age is not None else 0.0
    use_recency = mode == "hybrid" and s.recency_weight > 0
    rec_rank = ({c: i + 1 for i, c in enumerate(sorted(cand_ids, key=lambda c: -rec_score[c]))}
                if fusion == "rrf" else {})

    fused: dict[int, float] = {}
    for c in cand_ids:
        if fusion == "rrf":
            f = 0.0
            if c in kw_rank:
                f += s.keyword_weight / (s.rrf_k + kw_rank[c])
            if c in sem_rank:
                f += s.semantic_weight / (s.rrf_k + sem_rank[c])
            if use_recency:
                f += s.recency_weight / (s.rrf_k + rec_rank[c])
            norm = (s.keyword_weight * (mode != "semantic") + s.semantic_weight * (mode != "keyword")
                    + s.recency_weight * use_recency) / (s.rrf_k + 1)
            fused[c] = f / norm
        else:
            wk = s.keyword_weight if mode != "semantic" else 0.0
            ws = s.semantic_weight if mode != "keyword" else 0.0
            wr = s.recency_weight if use_recency else 0.0
            fused[c] = (wk * kw_score.get(c, 0.0) + ws * sem_fuse.get(c, 0.0)
                        + wr * rec_score[c]) / ((wk + ws + wr) or 1.0)

    extra_signals: dict[int, dict[str, float]] = {}
    if mode == "hybrid":
        extra_signals = graph_signal.apply(conn, q.text, fused, rows, allowed, s,
                                           lambda ids: keyword.chunk_details(conn, ids), dates=list(q.dates))
        cand_ids = list(fused)
    terms = list(q.terms)
    best_by_unit: dict[tuple[str, str | None], int] = {}
    for c in sorted(cand_ids, key=lambda c: -fused[c]):
        r = rows.get(c)
        if r is None:
            continue
        if group:
            unit = (r["note_id"], r["source_id"] if r["type"] == "chat" else None)
        else:
            unit = (str(c), None)
        if unit not in best_by_unit:
            best_by_unit[unit] = c
        if len(best_by_unit) >= k:
            break
    for c in best_by_unit.values():
        r = rows[c]
        signals = {"keyword": kw_score.get(c, 0.0), "semantic": sem_score.get(c, 0.0),
                   "recency": rec_score.get(c, 0.0), **extra_signals.get(c, {})}
        result.hits.append(Hit(
            id=f"c{c}", note_id=r["note_id"], source_id=r["source_id"], title=r["title"],
            path=r["path"], source=r["source"], snippet=make_snippet(r["text"], terms),
            text=r["text"], start=r["start"], end=r["end"], page=r["page"], score=fused[c],
            signals=signals, type=r["type"], event_time=r["c_time"] or None, speaker=r["speaker"] or None,
        ))
    return result
