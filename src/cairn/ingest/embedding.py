"""Phase 2 of ingest: embed every chunk that has no vector yet, in length-sorted batches,
reusing cached vectors of unchanged text.
"""

from __future__ import annotations

import json
import sqlite3

from cairn.model import Chunk
from cairn.store import notes as N
from cairn.store.locks import exclusive
from cairn.store.vectors import (cached_vectors, chat_context_rows, chunks_to_embed, claim_chunks_to_embed,
                                 clear_vector_cache, drop_other_models, neighbour_keys_state, other_model_count,
                                 put_vectors, set_neighbour_keys)
from cairn.ingest.neighbours import key_hash, mix
from cairn.report import Progress


EMBED_BATCH = 64  # chunks per embedder call (the embedder sub-batches internally)


def embed_text(title: str, chunk: Chunk, facts: list[str] | None = None) -> str:
    """The text given to the embedder for a chunk: title and heading give it context; a
    chat message is "speaker: text" followed by the facts extracted from it, one a line
    (fact-augmented key, see memory/keys.py)."""
    if chunk.speaker:
        return N.keyword_body(chunk.text, chunk.speaker, facts)
    head = title if not chunk.heading or chunk.heading == title else f"{title} — {chunk.heading}"
    return f"{head}\n{chunk.text}"


# A second embedding window for long chunks, measured by bench/second_window.py (SciFact
# nDCG@10 0.7415 -> 0.7390 with the sum of both windows: not used by ingest; bench/README.md).
TAIL_WORDS = 150  # words of a long chunk's second embedding window


def window_texts(embedder, text: str, title: str, tail_words: int | None = None) -> list[str]:
    """The texts to embed for one chunk: [text] when it fits the embedder's window
    (`max_seq_length` word pieces, counted by its `count_tokens`; an embedder without
    either is never windowed), else [text, title + its last `tail_words` words (TAIL_WORDS)]:
    the model truncates `text`, so the second window carries the tail it would lose."""
    count = getattr(embedder, "count_tokens", None)
    limit = getattr(embedder, "max_seq_length", None)
    if count is None or not limit or count(text) <= limit:
        return [text]
    words = text.split()
    return [text, f"{title}\n" + " ".join(words[-(tail_words or TAIL_WORDS):])]


def combine_windows(vecs: np.ndarray) -> np.ndarray:
    """One unit-length float32 vector from a chunk's window vectors (rows): their
    normalised sum, i.e. the direction of their mean."""
    import numpy as np
    v = np.asarray(vecs, dtype=np.float32).sum(axis=0)
    n = float(np.linalg.norm(v))
    return (v / n if n > 0 else v).astype(np.float32)


def model_key(embedder) -> str:
    """The id stored with each vector: model name plus precision ("all-MiniLM-L6-v2/int8")
    when the embedder reports one, else its model name."""
    return str(getattr(embedder, "model_id", None) or embedder.model_name)


def embed_missing(conn: sqlite3.Connection, embedder, progress: Progress | None = None,
                  max_chunks_per_note: int = 400, *, fact_keys: bool = True, neighbour_keys: float = 0.0,
                  entities_many=None) -> tuple[int, int]:
    """Embed every eligible chunk that has no vector (the first `max_chunks_per_note`
    chunks of each note; later chunks of huge notes stay keyword-only and are counted by
    `cairn status`). fact_keys: embed chat messages with their stored facts (`embed_text`).
    neighbour_keys: alpha of the neighbour-carrying chat message keys (ingest/neighbours.py;
    0: the message's own vector); when it differs from the alpha the stored vectors were
    made with, every chat message is embedded again (`set_neighbour_keys`).
    One process at a time (store.locks "embed"): processes sharing a home never embed the
    same chunk twice. First brings the entity graph in line with the notes (graph/update.py:
    entities of new or changed notes), under the same lock. Returns (embedded,
    reused_from_cache). entities_many: where spaCy runs (graph.update.update_graph)."""
    with exclusive(conn, "embed"):
        from cairn.graph import update as graph
        # spaCy (when it runs here) at low priority beside the embedder: graph.NER_NICE
        return _embed_missing(conn, embedder, progress, max_chunks_per_note, fact_keys=fact_keys,
                              neighbour_keys=neighbour_keys,
                              meanwhile=lambda: graph.update_graph(conn, entities_many=entities_many,
                                                                   nice=graph.NER_NICE))


def _embed_missing(conn: sqlite3.Connection, embedder, progress: Progress | None,
                   max_chunks_per_note: int, *, fact_keys: bool, neighbour_keys: float,
                   meanwhile=lambda: None) -> tuple[int, int]:
    """The vectors of `embed_missing`: computed in a background thread (EmbedAhead) while
    this thread runs `meanwhile()` (the entity graph) and then stores them, one
    transaction per batch."""
    import numpy as np
    from cairn.ingest.embed_ahead import EmbedAhead
    model = model_key(embedder)
    stale = other_model_count(conn, model)
    if stale:
        # Vectors of another model or precision are close but not comparable: replace them.
        with N.transaction(conn):
            drop_other_models(conn, model)
            N.bump_vector_generation(conn)
    _check_neighbour_keys(conn, neighbour_keys)
    rows = chunks_to_embed(conn, max_chunks_per_note)
    if not rows:
        meanwhile()
        clear_vector_cache(conn)
        return 0, 0
    items = _items(conn, rows, fact_keys, neighbour_keys)
    cache = cached_vectors(conn, [it[2] for it in items], model)
    reused = [(it[0], it[2]) for it in items if it[2] in cache]
    if reused:
        with N.transaction(conn):
            put_vectors(conn, [c for c, _ in reused], [h for _, h in reused],
                        np.stack([cache[h] for _, h in reused]), model)
    todo = [it for it in items if it[2] not in cache]
    # By length; messages with neighbours in chunk order (a session's messages are
    # consecutive), so a batch holds most of the neighbours it mixes in (`_vectors`).
    todo.sort(key=lambda it: (1, it[0]) if it[3] else (0, len(it[1])))
    done = 0
    batches = [todo[i:i + EMBED_BATCH] for i in range(0, len(todo), EMBED_BATCH)]
    with EmbedAhead(lambda batch: _vectors(embedder, batch, neighbour_keys), batches) as ahead:
        meanwhile()
        for batch, vecs in ahead:
            with N.transaction(conn):
                put_vectors(conn, [it[0] for it in batch], [it[2] for it in batch], vecs, model)
            done += len(batch)
            if progress:
                progress("embed", done, len(todo))
    clear_vector_cache(conn)
    return done, len(reused)


def embed_note(conn: sqlite3.Connection, embedder, note_id: str, max_chunks_per_note: int = 400, *,
               fact_keys: bool = True, neighbour_keys: float = 0.0) -> int:
    """Embed the chunks of note `note_id` that have no vector, without the "embed" lock: an
    interactive write while an ingest is embedding (the ingest holds the lock for all of its
    chunks, minutes for a large folder) gets its own note's vectors at once. The entity
    graph of the note follows at the next `embed_missing`. Returns how many were embedded."""
    import numpy as np
    rows = chunks_to_embed(conn, max_chunks_per_note, note_id)
    if not rows:
        return 0
    model = model_key(embedder)
    items = _items(conn, rows, fact_keys, neighbour_keys)
    cache = cached_vectors(conn, [it[2] for it in items], model)
    todo = [it for it in items if it[2] not in cache]
    vecs = _vectors(embedder, todo, neighbour_keys) if todo else None
    with N.transaction(conn):
        reused = [it for it in items if it[2] in cache]
        if reused:
            put_vectors(conn, [it[0] for it in reused], [it[2] for it in reused],
                        np.stack([cache[it[2]] for it in reused]), model)
        if todo:
            put_vectors(conn, [it[0] for it in todo], [it[2] for it in todo], vecs, model)
    clear_vector_cache(conn)
    return len(rows)


def _check_neighbour_keys(conn, alpha: float) -> None:
    """Re-key every chat message when the stored vectors were made with another alpha."""
    if neighbour_keys_state(conn) != float(alpha):
        with N.transaction(conn):
            set_neighbour_keys(conn, alpha)


def _items(conn, rows, fact_keys: bool, alpha: float = 0.0) -> list[tuple[int, str, str, list[str]]]:
    """(chunk id, text to embed, key hash, texts of its neighbours to mix in) of chunk rows
    to embed (`embed_text`). With alpha > 0 a chat message's neighbours are the messages
    just before and after it in its note (ingest/neighbours.py) and the hash covers them
    (`key_hash`); every other chunk has no neighbour and the sha1 of its text."""
    def text_of(r) -> str:
        ch = Chunk(ord=0, text=r["text"], start=0, end=0, heading=r["heading"], speaker=r["speaker"])
        return embed_text(r["title"], ch, json.loads(r["facts"]) if fact_keys and r["facts"] else None)

    around = chat_context_rows(conn, [r["id"] for r in rows if r["speaker"]]) if alpha > 0 else {}
    items = []
    for r in rows:
        t = text_of(r)
        nbs = [text_of(o) for o in around.get(r["id"], [])]
        items.append((r["id"], t, key_hash(t, nbs, alpha), nbs))
    return items


def _vectors(embedder, batch, alpha: float) -> np.ndarray:
    """The vectors to store for a batch of `_items`: each text embedded once (neighbours
    included), a chat message's mixed with its neighbours' (`neighbours.mix`)."""
    import numpy as np
    if not any(it[3] for it in batch):
        return embedder.embed([it[1] for it in batch])
    texts = list(dict.fromkeys(t for it in batch for t in (it[1], *it[3])))
    vec = dict(zip(texts, embedder.embed(texts)))
    return np.stack([mix(vec[it[1]], [vec[t] for t in it[3]], alpha) for it in batch])


def embed_some(conn, embedder, max_chunks_per_note: int = 400, *, fact_keys: bool = True,
               neighbour_keys: float = 0.0, limit: int = EMBED_BATCH) -> int:
    """Embed up to `limit` chunks that lack a vector, claimed for this process only (on
    PostgreSQL the rows stay locked, SKIP LOCKED, until their vectors are written, so
    concurrent workers embed disjoint chunks). Returns how many were embedded (0: none
    left). Vectors of unchanged text come from the text-hash cache. neighbour_keys: as
    `embed_missing`."""
    import numpy as np
    model = model_key(embedder)
    _check_neighbour_keys(conn, neighbour_keys)
    with N.transaction(conn):
        rows = claim_chunks_to_embed(conn, max_chunks_per_note, limit)
        if not rows:
            return 0
        items = _items(conn, rows, fact_keys, neighbour_keys)
        cache = cached_vectors(conn, [it[2] for it in items], model)
        todo = [it for it in items if it[2] not in cache]
        fresh = dict(zip([it[2] for it in todo], _vectors(embedder, todo, neighbour_keys))) if todo else {}
        put_vectors(conn, [it[0] for it in items], [it[2] for it in items],
                    np.stack([cache[it[2]] if it[2] in cache else fresh[it[2]] for it in items]), model)
    return len(items)
