"""Graph and source signals of hybrid search (issue 17), each in [0, 1].

graph (spreading activation with decay): a unit (note, or one chat message) mentioning
an entity named in the query (alias match, any script) scores `hop1` x idf(entity); one
mentioning a neighbour of a query entity (co-occurrence, NEIGHBOURS most frequent) `hop2`
x idf; one sharing an entity with one of the TOP_HITS best direct hits `hop1` x idf x that
hit's fused score; each times the trust of the mention's method (TRUST: a wikilink,
frontmatter field or title 1.0, a tag 0.8, a spaCy name 0.5, a chat speaker 0.2). The best
path counts. idf(e) = ln(1 + U / df_e) / ln(1 + U) (U units with any mention, df_e units
mentioning e), so an entity in every message (a chat's speaker) adds almost nothing.
Hop weights start at EchoGarden's 0.7 / 0.4 (SearchSettings.graph_hop1 / graph_hop2).
Units reached only through the graph join the candidates (at most EXTRA).

source: the kind of material (EchoGarden's source boost): a note tagged `highlight`
(the capture feature) 1.0, the person's own markdown note 0.6 (written or ingested), an imported chat, record,
document or file 0.3, a page visit (an html note from a URL) 0.

context (neighbour context of conversations): a chat message up to CONTEXT_SPAN places
before or after one of the CONTEXT_TOP best candidates scores that candidate's fused score
(times CONTEXT_DECAY per place beyond the next one), so a short reply ("Yes, last
Tuesday!") is found through the message it answers. Such replies join the candidates.

speaker (conversations): when the question names a participant of the candidate chat
messages ("what did Ana say about the trip?"; the first one named when it names several),
the messages that participant wrote score 1.0, the others 0 (`query_speaker`).

time (dates named in the query): when the question names a calendar date ("on 7 July,
2023", "in July 2022", "in 2023"; search/dates.py), a unit scores exp(-d / TIME_TAU), d the
days between its time (a message's event time, else its note's) and the nearest date named
(0 inside it); units with no readable time score 0, and no unit scores when the query
names no date.

Fused score (hybrid mode) = (fused + w_g * graph + w_s * source + w_c * context + w_p *
speaker + w_t * time) / (1 + w_g + w_s + w_c + w_p + w_t), so it stays in [0, 1].
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import weakref

from cairn import names as E  # normalise, _COMMON: not the memory layer (cold start)
from cairn.search import dates as D
from cairn.store import db
from cairn.store import graph as G

TOP_HITS = 3
NEIGHBOURS = 5
PER_ENTITY = 200
EXTRA = 20
MAX_GRAM = 4
CONTEXT_TOP = 20
CONTEXT_SPAN = 2  # messages on each side that inherit a candidate's score (tuned: bench/README.md)
CONTEXT_DECAY = 0.5  # per message further away than the next one
TIME_TAU = 2.0  # days: how fast the time signal falls outside a date the query names (set a priori; LoCoMo tuning half flat over 0-7 days: bench/README.md)
# How much an edge is trusted, by the method that made it: links and metadata the person
# wrote are explicit; spaCy's names are guesses; a chat's speaker is in every message.
TRUST = {"wikilink": 1.0, "frontmatter": 1.0, "title": 1.0, "tag": 0.8, "ner": 0.5, "written": 0.5, "speaker": 0.2}


def query_entities(conn: sqlite3.Connection, query: str) -> dict[str, str]:
    """Entities named in `query`: {entity_id: alias}, by folded word n-grams (1..4 words;
    a single common word never counts) looked up in the alias table, plus any alias in a
    script without word breaks occurring in the query (as memory recall does)."""
    words = E.normalise(query).split()
    grams = set()
    for n in range(1, MAX_GRAM + 1):
        for i in range(len(words) - n + 1):
            g = " ".join(words[i:i + n])
            if n > 1 or (g not in E._COMMON and len(g) > 1):
                grams.add(g)
    found: dict[str, str] = {}
    for alias, eid in G.entities_of_alias_keys(conn, sorted(grams)):
        found.setdefault(eid, alias)
    return found


_UNITS: "weakref.WeakKeyDictionary[sqlite3.Connection, tuple[tuple[int, int], int]]" = weakref.WeakKeyDictionary()


def _unit_count(conn: sqlite3.Connection) -> int:
    """G.unit_count, re-read only when the index changed (store.db.index_state): it scans
    every mention, which a warm search should not pay."""
    state = db.index_state(conn)
    try:
        hit = _UNITS.get(conn)
    except TypeError:  # a plain sqlite3.Connection takes no weak reference: no cache
        return G.unit_count(conn)
    if hit is None or hit[0] != state:
        hit = (state, G.unit_count(conn))
        _UNITS[conn] = hit
    return hit[1]


def _idf(df: int, units: int) -> float:
    if units <= 1 or df <= 0:
        return 1.0 if df > 0 else 0.0
    return min(1.0, math.log(1 + units / df) / math.log(1 + units))


def graph_scores(conn: sqlite3.Connection, query: str, top_units: list[tuple[tuple[str, str], float]],
                 hop1: float, hop2: float) -> dict[tuple[str, str], float]:
    """{(note_id, source_id): graph score in [0, 1]} for units near the query's entities and
    the best direct hits. `top_units`: [(unit, fused score)] best first (source_id '' for a
    note). Spreading activation with decay: a unit mentioning a query entity scores hop1 x
    idf, one mentioning a neighbour of a query entity hop2 x idf; a unit sharing an entity
    with a top hit scores hop1 x idf x that hit's fused score; each times the trust of the mention's method (TRUST: a wikilink,
frontmatter field or title 1.0, a tag 0.8, a spaCy name 0.5, a chat speaker 0.2). The best
path counts."""
    q_ents = list(query_entities(conn, query))
    tops = dict(top_units[:TOP_HITS])
    near: dict[str, float] = {e: hop1 for e in q_ents}
    for e in q_ents:
        for other, _n, _f, _l in G.neighbours(conn, e, NEIGHBOURS):
            near.setdefault(other, hop2)
    from_hits: dict[str, float] = {}
    for unit, score in tops.items():
        for e in G.entities_of_units(conn, [unit]):
            if e not in near:
                from_hits[e] = max(from_hits.get(e, 0.0), hop1 * score)
    if not near and not from_hits:
        return {}
    units = _unit_count(conn)
    df = G.entity_df(conn, set(near) | set(from_hits))
    out: dict[tuple[str, str], float] = {}
    for weights, skip in ((near, set()), (from_hits, set(tops))):
        for e, w in weights.items():
            s = w * _idf(df.get(e, 0), units)
            if s <= 0:
                continue
            for unit, method in G.units_of_entity(conn, e, PER_ENTITY):
                su = s * TRUST.get(method, 0.5)
                if unit not in skip and su > out.get(unit, 0.0):
                    out[unit] = su
    return out


def source_score(note_type: str, source: str | None, tags: list[str]) -> float:
    """The source boost of one note (see module docstring), in [0, 1]."""
    if "highlight" in tags:
        return 1.0
    if note_type == "html" and source and source.startswith(("http://", "https://")):
        return 0.0
    if note_type in ("markdown", "note"):
        return 0.6
    return 0.3


def note_sources(conn: sqlite3.Connection, note_ids: set[str]) -> dict[str, float]:
    """{note_id: source score} of the given notes."""
    out: dict[str, float] = {}
    for nid, ntype, source, tag_json in G.note_kinds(conn, note_ids):
        try:
            tags = [str(t).lower() for t in json.loads(tag_json or "[]")]
        except ValueError:
            tags = []
        out[nid] = source_score(ntype, source, tags)
    return out


def query_speaker(query: str, speakers) -> str | None:
    """The chat participant a question is about: of the `speakers` (names as stored on chat
    messages) whose full name or first word occurs in `query` as a word (possessive
    allowed, any case), the one named first; None when it names none."""
    best: tuple[int, str] | None = None
    for sp in set(speakers):
        words = sp.split()
        if not words:
            continue
        for name in dict.fromkeys([sp, words[0]]):
            if len(name) < 2:
                continue
            m = re.search(r"(?<!\w)" + re.escape(name) + r"(?:['\u2019]s)?(?!\w)", query, re.IGNORECASE)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), sp)
    return best[1] if best else None


def unit_of(row) -> tuple[str, str]:
    """The graph unit of a candidate chunk row (note_id, source_id of a chat message or '')."""
    return (row["note_id"], row["source_id"] or "") if row["type"] == "chat" else (row["note_id"], "")


def apply(conn: sqlite3.Connection, query: str, fused: dict[int, float], rows: dict, allowed: set[int] | None,
          settings, fetch_rows, dates: list | None = None) -> dict[int, dict[str, float]]:
    """Add the graph, source and context signals to `fused` (chunk id -> score, changed in
    place) and the candidates only they reach (rows fetched with `fetch_rows(ids)` into
    `rows`). dates: the DateWindows the query names, as the search parsed them
    (search/query.py ParsedQuery.dates; None: read from `query` here). Returns
    {chunk_id: {"graph": g, "source": s, "context": x, "speaker": p, "time": t}} per candidate."""
    wg, ws = settings.graph_weight, settings.source_weight
    wc = getattr(settings, "context_weight", 0.0)
    wp = getattr(settings, "speaker_weight", 0.0)
    wt = getattr(settings, "time_weight", 0.0)
    if wg <= 0 and ws <= 0 and wc <= 0 and wp <= 0 and wt <= 0:
        return {}
    order = sorted((c for c in fused if c in rows), key=lambda c: -fused[c])
    base = {c: fused[c] for c in order}
    context: dict[int, float] = {}
    if wc > 0:
        for c, near in G.chat_neighbours(conn, order[:CONTEXT_TOP], CONTEXT_SPAN).items():
            for other, dist in near:
                x = base[c] * CONTEXT_DECAY ** (dist - 1)
                if x > context.get(other, 0.0):
                    context[other] = x
    top_units: dict[tuple[str, str], float] = {}
    for c in order:
        top_units.setdefault(unit_of(rows[c]), base[c])
        if len(top_units) >= TOP_HITS:
            break
    g_units = graph_scores(conn, query, list(top_units.items()), settings.graph_hop1, settings.graph_hop2) if wg > 0 else {}
    have = {unit_of(rows[c]) for c in order}
    extra = sorted((u for u in g_units if u not in have), key=lambda u: -g_units[u])[:EXTRA * 3]
    new = [c for c in context if c not in rows and (allowed is None or c in allowed)]
    if extra:
        chunk_of = G.unit_chunks(conn, extra)
        new += [cid for u, cid in chunk_of.items() if allowed is None or cid in allowed][:EXTRA]
    if new:
        rows.update(fetch_rows(list(dict.fromkeys(new))))
        for cid in new:
            if cid in rows:
                fused.setdefault(cid, 0.0)
    src = note_sources(conn, {rows[c]["note_id"] for c in fused if c in rows}) if ws > 0 else {}
    who = query_speaker(query, [rows[c]["speaker"] for c in fused if c in rows and rows[c]["speaker"]]) \
        if wp > 0 else None
    windows = (D.query_dates(query) if dates is None else list(dates)) if wt > 0 else []
    if not windows:
        wt = 0.0  # a query naming no date: scores as without the signal
    out: dict[int, dict[str, float]] = {}
    for c in list(fused):
        if c not in rows:
            continue
        g = g_units.get(unit_of(rows[c]), 0.0)
        s = src.get(rows[c]["note_id"], 0.0)
        x = context.get(c, 0.0)
        p = 1.0 if who is not None and rows[c]["speaker"] == who else 0.0
        day = D.day_of(rows[c]["t"]) if windows else None
        t = D.date_nearness(day, windows, TIME_TAU) if day is not None else 0.0
        fused[c] = (fused[c] + wg * g + ws * s + wc * x + wp * p + wt * t) / (1 + wg + ws + wc + wp + wt)
        out[c] = {"graph": g, "source": s, "context": x, "speaker": p, "time": t}
    return out
