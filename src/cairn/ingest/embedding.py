"""Phase 2 of ingest: embed every chunk that has no vector yet, in length-sorted batches,
reusing cached vectors of unchanged text.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading

from cairn.embed import model_key  # noqa: F401 (also imported from here)
from cairn.model import Chunk
from cairn.store import notes as N
from cairn.store.locks import exclusive
from cairn.store.vectors import (cached_vectors, chat_context_rows, chunks_to_embed, claim_chunks_to_embed,
                                 clear_vector_cache, drop_other_models, neighbour_keys_state, other_model_count,
                                 put_vectors, set_neighbour_keys)
from cairn.ingest.embed_ahead import AHEAD, EmbedAhead
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


def embed_missing(conn: sqlite3.Connection, embedder, progress: Progress | None = None,
                  max_chunks_per_note: int = 400, *, fact_keys: bool = True, neighbour_keys: float = 0.0,
                  entities_many=None, ahead: "WriteAhead | None" = None) -> tuple[int, int]:
    """Embed every eligible chunk that has no vector (the first `max_chunks_per_note`
    chunks of each note; later chunks of huge notes stay keyword-only and are counted by
    `cairn status`). fact_keys: embed chat messages with their stored facts (`embed_text`).
    neighbour_keys: alpha of the neighbour-carrying chat message keys (ingest/neighbours.py;
    0: the message's own vector); when it differs from the alpha the stored vectors were
    made with, every chat message is embedded again (`set_neighbour_keys`).
    One process at a time (store.locks "embed"): processes sharing a home never embed the
    same chunk twice. First brings the entity graph in line with the notes (graph/update.py:
    entities of new or changed notes), under the same lock. Returns (embedded,
    reused_from_cache). entities_many: where spaCy runs (graph.update.update_graph).
    ahead: the WriteAhead of an import that already computes vectors of the notes it wrote:
    those still wanted are taken from it, the rest are queued behind them."""
    with exclusive(conn, "embed"):
        from cairn.graph import update as graph
        # spaCy (when it runs here) at low priority beside the embedder: graph.NER_NICE
        return _embed_missing(conn, embedder, progress, max_chunks_per_note, fact_keys=fact_keys,
                              neighbour_keys=neighbour_keys, ahead=ahead,
                              meanwhile=lambda: graph.update_graph(conn, entities_many=entities_many,
                                                                   nice=graph.NER_NICE))


def _embed_missing(conn: sqlite3.Connection, embedder, progress: Progress | None,
                   max_chunks_per_note: int, *, fact_keys: bool, neighbour_keys: float,
                   meanwhile=lambda: None, ahead: "WriteAhead | None" = None) -> tuple[int, int]:
    """The vectors of `embed_missing`: computed in a background thread (EmbedAhead, or the
    import's WriteAhead) while this thread runs `meanwhile()` (the entity graph) and then
    stores them, one transaction per batch."""
    import numpy as np
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
        if ahead is not None:
            ahead.stream.close()
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
    wanted = {it[0]: it[2] for it in todo}
    queued = ahead.queued if ahead is not None else {}
    rest = _batches([it for it in todo if queued.get(it[0]) != it[2]])
    done = 0
    with (contextlib.nullcontext(ahead.stream) if ahead is not None
          else EmbedAhead(lambda batch: _vectors(embedder, batch, neighbour_keys))) as stream:
        for batch in rest:
            stream.add(batch)
        stream.close()
        meanwhile()
        for batch, vecs in stream:
            # A batch queued while the import wrote may hold chunks no longer wanted.
            keep = [i for i, it in enumerate(batch) if wanted.get(it[0]) == it[2]]
            if not keep:
                continue
            if len(keep) < len(batch):
                batch, vecs = [batch[i] for i in keep], np.asarray(vecs)[keep]
            with N.transaction(conn):
                put_vectors(conn, [it[0] for it in batch], [it[2] for it in batch], vecs, model)
            done += len(keep)
            if progress:
                progress("embed", done, len(todo))
    clear_vector_cache(conn)
    return done, len(reused)


def _batches(items: list) -> list[list]:
    """`_items` in embedder calls of EMBED_BATCH: by length (less padding); messages with
    neighbours in chunk order (a session's messages are consecutive), so a batch holds most
    of the neighbours it mixes in (`_vectors`)."""
    items = sorted(items, key=lambda it: (1, it[0]) if it[3] else (0, len(it[1])))
    return [items[i:i + EMBED_BATCH] for i in range(0, len(items), EMBED_BATCH)]


NER_WORKER_MIN = 50
"""Text sources of an ingest (cairn.ingest.run), or notes of an import (`entity_lane`), from
which spaCy's entity pass runs in a parse worker process instead of the ingesting process
(bench/ingest_profile.py --ab entity_worker)."""


@contextlib.contextmanager
def entity_lane(settings, notes: int):
    """The `entities_many` for embed_missing's entity pass of an import of `notes` notes:
    from NER_WORKER_MIN on (and with `[ingest] parse_workers` > 0) spaCy runs in a worker
    process of its own (parse.pool.ParsePool's entity lane, niced as graph.update.NER_NICE),
    started now so that it loads spaCy while the import writes; a thread of this process
    would share the interpreter lock with the embedder's thread, whose every run waits for
    it. Otherwise None (spaCy in this process, loaded now: ner.preload). The worker is
    stopped on exit."""
    ing = settings.ingest
    if notes < NER_WORKER_MIN or ing.parse_workers <= 0:
        from cairn import ner
        ner.preload()
        yield None
        return
    from cairn.graph.update import NER_NICE
    from cairn.parse.pool import ParsePool
    pool = ParsePool(1, ing.parse_memory_mib, ing.parse_timeout_s, ner_nice=NER_NICE)

    def warm() -> None:  # the worker loads spaCy now; an error is the real call's to report
        with contextlib.suppress(Exception):
            pool.entities_many(["Warm up"])
    threading.Thread(target=warm, name="cairn-ner-warm", daemon=True).start()
    try:
        yield pool.entities_many
    finally:
        pool.close()


WRITE_AHEAD_WINDOW = 512
"""Chunks an import collects before it queues them for embedding (WriteAhead): sorted by
length within the window, as `_batches` sorts all; a smaller window starts the embedder
sooner but pads more."""
WRITE_AHEAD_FIRST = EMBED_BATCH
"""Chunks of the first window (None: WRITE_AHEAD_WINDOW): one embedder call's worth, so the
embedder starts after the first few notes are written instead of after ~400 (a core idle
meanwhile); bench/ingest_profile.py --ab first_window."""


class WriteAhead:
    """Embeds the notes an import has written while it writes the rest (on two cores the
    write phase, one thread of Python, left a core idle: bench/ingest_profile.py).

    `with WriteAhead(conn, embedder, ...) as ahead:` then `ahead.written(note_id)` after each
    note is committed, and `embed_missing(..., ahead=ahead)` inside the block. Only vectors
    are computed here (in EmbedAhead's thread, no database access there); they are stored
    by embed_missing under its "embed" lock, for the chunks that still lack one with the
    same key (`queued`: chunk id -> key hash). Leaving the block stops the thread (an
    import that fails and rolls back loses only the computing)."""

    def __init__(self, conn: sqlite3.Connection, embedder, max_chunks_per_note: int = 400, *,
                 fact_keys: bool = True, neighbour_keys: float = 0.0, window: int | None = None) -> None:
        self._conn, self._model, self._window = conn, model_key(embedder), window or WRITE_AHEAD_WINDOW
        self._first = window or WRITE_AHEAD_FIRST or self._window  # the window until one is queued
        self._max, self._fact_keys, self._alpha = max_chunks_per_note, fact_keys, neighbour_keys
        # Results are not taken until the import is written: room for the write phase too.
        self.stream = EmbedAhead(lambda batch: _vectors(embedder, batch, neighbour_keys), ahead=4 * AHEAD)
        self.queued: dict[int, str] = {}
        self._pending: list = []

    def written(self, note_id: str) -> None:
        """Collect the chunks of note `note_id` that lack a vector; queue a window when full."""
        self._pending += _items(self._conn, chunks_to_embed(self._conn, self._max, note_id),
                                self._fact_keys, self._alpha)
        if len(self._pending) >= min(self._first, self._window):
            cached = cached_vectors(self._conn, [it[2] for it in self._pending], self._model)
            for batch in _batches([it for it in self._pending if it[2] not in cached]):
                self.queued.update((it[0], it[2]) for it in batch)
                self.stream.add(batch)
            self._pending, self._first = [], self._window

    def __enter__(self) -> "WriteAhead":
        self.stream.__enter__()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stream.__exit__(*exc_info)


def embed_note(conn: sqlite3.Connection, embedder, note_id: str, max_chunks_per_note: int = 400, *,
               fact_keys: bool = True, neighbour_keys: float = 0.0, cached_only: bool = False) -> int:
    """Embed the chunks of note `note_id` that have no vector, without the "embed" lock: an
    interactive write while an ingest is embedding (the ingest holds the lock for all of its
    chunks, minutes for a large folder) gets its own note's vectors at once. The entity
    graph of the note follows at the next `embed_missing`. Returns how many were embedded.
    cached_only: only put back vectors kept for deleted chunks of the same text (the
    vector cache; nothing is computed and the cache is kept), as an import that rolls
    back does for the notes it restores."""
    import numpy as np
    rows = chunks_to_embed(conn, max_chunks_per_note, note_id)
    if not rows:
        return 0
    model = model_key(embedder)
    items = _items(conn, rows, fact_keys, neighbour_keys)
    cache = cached_vectors(conn, [it[2] for it in items], model)
    todo = [] if cached_only else [it for it in items if it[2] not in cache]
    vecs = _vectors(embedder, todo, neighbour_keys) if todo else None
    with N.transaction(conn):
        reused = [it for it in items if it[2] in cache]
        if reused:
            put_vectors(conn, [it[0] for it in reused], [it[2] for it in reused],
                        np.stack([cache[it[2]] for it in reused]), model)
        if todo:
            put_vectors(conn, [it[0] for it in todo], [it[2] for it in todo], vecs, model)
    if cached_only:
        return len(reused)
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
