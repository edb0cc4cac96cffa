"""Recall: rank memories for a query, showing every score component.

Formula (after EchoVessel's five-factor recall score, itself shaped like the "Generative
Agents" retrieval score of Park et al. 2023; weights in `config.MemorySettings`):

    score = w_relevance * relevance + w_recency * recency + w_importance * importance
          + w_reinforcement * reinforcement + w_confidence * confidence + w_anchor * anchor
          + w_slot * slot + w_impact * impact + w_relational * relational

- relevance = s * semantic + (1 - s) * keyword, s = `semantic_share` (0.7): semantic is the
  cosine of query and memory embeddings (all-MiniLM-L6-v2, clipped at 0); keyword is the
  share of the query's (Porter-stemmed, non-stopword) terms found in the memory, for
  memories the FTS5 table matches (their BM25 is shown as `bm25`; raw BM25 is not used as
  the signal because its IDF is near zero in a store of a few memories);
- recency = r_min + (1 - r_min) * 0.5 ** (age_days / half_life_days), age counted from the
  last use or, if never used, from valid_from/created; bounded below by r_min =
  `recency_min`, so a 2-year-old relevant memory is still found. Evergreen kinds
  (model.EVERGREEN_KINDS) have recency 1;
- importance, confidence: the memory's own values in [0, 1];
- reinforcement = use_count / (use_count + 3): restating or recalling a memory raises it;
- anchor = 1 when the query names an alias of an entity linked to the memory;
- slot = 1 when the query asks about an attribute slot of a subject (slots.query_slots:
  "where do I live" -> the user's "lives in"; "what's Kai's job" -> Kai's "job") and the
  memory fills that slot for that subject (slots.find_slots: "I moved to Lisbon"). The
  embedder sees little overlap between "where do I live" and "I moved to Lisbon", and much
  between it and "My sister Anna lives in Madrid"; the slot anchor ranks the user's current
  home first. A superseded value of the slot is excluded unless include_history.

- impact = |memory.impact| / 10 (its emotional weight, memory/affect.py): a moment that
  mattered outranks a forgettable one of the same relevance (EchoVessel weighs it 2.0
  against relevance 3.0; Cairn 1.0, as its importance and confidence already rank);
- relational = 1 when the memory carries any tag of affect.TAGS (identity, vulnerability,
  turning point, commitment, correction): EchoVessel's flat relational bonus.

A memory whose relevance is below `min_relevance` is dropped unless it is anchored by an
entity or a slot (the floor keeps an important but unrelated memory out; the anchor lets
"Ольга" find facts stored under "Olga" where the embedder sees no overlap). Superseded and
forgotten memories are excluded unless include_history, in which case their score is
halved (`history_factor`).
Scope: scope None sees only "global" memories; a project scope sees global ones plus its
own, never another project's. Recall bumps `last_used`/`use_count` of what it returns.
"""

from __future__ import annotations

from cairn.errors import InvalidInput

import json
import sqlite3
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import snowballstemmer

from cairn.config import MemorySettings
from cairn.memory import entities as E
from cairn.memory import mirror
from cairn.memory.affect import magnitude
from cairn.memory.model import EVERGREEN_KINDS, RecalledMemory
from cairn.memory.slots import find_slots, query_slots
from cairn.memory.store import _now, _row_to_memory, _update, row_vectors, search_text
from cairn.memory.temporal import as_aware, parse_time
from cairn.store import memories as S
from cairn.search.query import ParsedQuery, parse_query
from cairn.store import fts
from cairn.store.fts import STOPWORDS, query_terms
from cairn.store.notes import transaction

HISTORY_FACTOR = 0.5
_STEMMER = snowballstemmer.stemmer("porter")  # close to, not the same as, FTS5's porter tokenizer ("us" -> "u")


def _time_or(value: str | None, fallback: datetime) -> datetime:
    """temporal.parse_time(value) (aware; naive = UTC), or `fallback` when value is empty or
    not ISO 8601."""
    if not value:
        return fallback
    try:
        return parse_time(value)
    except ValueError:
        return fallback


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return _STEMMER.stemWord(word)  # pure Python and slow: cached per word


def _terms(text: str) -> set[str]:
    return {_stem(t) for t in query_terms(text) if t not in STOPWORDS}


def recall(conn: sqlite3.Connection, embedder, query: "str | ParsedQuery", *, scope: str | None = None, k: int = 10,
           now: datetime | None = None, include_history: bool = False,
           settings: MemorySettings | None = None, vault: Path | None = None,
           touch: bool = True) -> list[RecalledMemory]:
    """The top `k` memories for `query` with their score breakdown (formula above).

    scope: None = global memories only; a name = global + that scope. now: the time of the
    query (default: now), for recency. touch: bump last_used/use_count of the results (and
    rewrite their vault mirror files when `vault` is given). query: text, or a query already
    parsed (search/query.py; its text is not parsed again). Raises ValueError for an empty
    query or k < 1.
    """
    parsed = parse_query(query) if query is not None else None
    query = parsed.text if parsed is not None else None
    if not query or not query.strip():
        raise InvalidInput("recall query is empty")
    if k < 1:
        raise InvalidInput(f"k must be at least 1, got {k}")
    cfg = settings or MemorySettings()
    moment = _now(now)
    aware_moment = as_aware(moment)  # ages are counted between aware times (naive = UTC)
    rows = S.recall_rows(conn, scope or "global", include_history)
    if not rows:
        return []
    vecs = row_vectors(conn, embedder, rows, lambda i: _row_to_memory(rows[i]))  # stale ones embedded and stored
    qvec = embedder.embed([query])[0]
    cos = (vecs @ qvec).tolist()
    match = fts.render(parsed.or_words(fields=False))  # the query parsed once, rendered by the store
    bm25: dict[int, float] = S.keyword_scores(conn, match) if match else {}
    qterms = _terms(query)
    anchors = E.entities_in_query(conn, query)
    anchored_ids: set[str] = set()
    if anchors:
        anchored_ids = S.memories_of_entities(conn, anchors)

    @lru_cache(maxsize=None)  # one alias look-up per name per call, not one per memory row
    def resolve(name: str) -> str:  # the subject keys memory.store uses for slots
        return E.resolve(conn, name) or E.normalise(name)

    # subjects: capitalised names, and any alias of a known entity ("where does kai live")
    asked = set(query_slots(query, list(dict.fromkeys([*E.find_names(query), *anchors.values()])), resolve))
    results: list[RecalledMemory] = []
    for row, c in zip(rows, cos):
        rowid = row["rowid"]
        semantic = max(0.0, c)
        keyword = 0.0
        m = None
        if rowid in bm25 and qterms:
            m = _row_to_memory(row)
            keyword = len(qterms & _terms(search_text(m))) / len(qterms)
        relevance = cfg.semantic_share * semantic + (1 - cfg.semantic_share) * keyword
        anchor = 1.0 if row["id"] in anchored_ids else 0.0
        slot = 0.0
        if asked:
            names = json.loads(row["entities"])
            slot = 1.0 if any((f.subject, f.name) in asked
                              for f in find_slots(row["text"], names, resolve)) else 0.0
        if relevance < cfg.min_relevance and not anchor and not slot:
            continue  # the floor: decided before the full memory is even decoded
        m = m or _row_to_memory(row)
        if m.kind in EVERGREEN_KINDS:
            age_days, recency = 0.0, 1.0
        else:
            ref = max(_time_or(m.last_used or m.created, aware_moment),
                      _time_or(m.valid_from or m.created, aware_moment))
            age_days = max(0.0, (aware_moment - ref).total_seconds() / 86400)
            recency = cfg.recency_min + (1 - cfg.recency_min) * 0.5 ** (age_days / cfg.half_life_days)
        reinforcement = m.use_count / (m.use_count + 3)
        parts = {
            "relevance": cfg.w_relevance * relevance, "recency": cfg.w_recency * recency,
            "importance": cfg.w_importance * m.importance,
            "reinforcement": cfg.w_reinforcement * reinforcement,
            "confidence": cfg.w_confidence * m.confidence, "anchor": cfg.w_anchor * anchor,
            "slot": cfg.w_slot * slot, "impact": cfg.w_impact * magnitude(m.impact),
            "relational": cfg.w_relational * (1.0 if m.tags else 0.0),
        }
        factor = 1.0 if m.active else HISTORY_FACTOR
        score = sum(parts.values()) * factor
        signals = {"semantic": semantic, "keyword": keyword, "bm25": bm25.get(rowid, 0.0),
                   "relevance_raw": relevance, "recency_raw": recency, "age_days": age_days,
                   "importance_raw": m.importance, "reinforcement_raw": reinforcement,
                   "confidence_raw": m.confidence, "anchor_raw": anchor, "slot_raw": slot,
                   "impact_raw": float(m.impact), "tags": float(len(m.tags)),
                   "history_factor": factor, **parts}
        results.append(RecalledMemory(m, score, signals))
    results.sort(key=lambda r: (-r.score, r.memory.id))
    top = results[:k]
    if touch and top:
        stamp = moment.isoformat()
        with transaction(conn):
            for r in top:
                r.memory.use_count += 1
                r.memory.last_used = stamp
                _update(conn, r.memory)
        if vault is not None:
            for r in top:
                mirror.write_memory(vault, r.memory)
    return top


def explain(signals: dict[str, float]) -> str:
    """One-line summary of a score breakdown (for the CLI table)."""
    keys = ("relevance", "recency", "importance", "reinforcement", "confidence", "anchor", "slot", "impact",
            "relational")
    short = {"impact": "aff", "relational": "tag"}  # "imp" is importance
    return " + ".join(f"{short.get(k, k[:3])} {signals.get(k, 0.0):.2f}" for k in keys)


