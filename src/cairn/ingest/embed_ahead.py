"""Embedding in a background thread while the calling thread does other work (the entity
graph, writing vectors): `EmbedAhead` runs a function over batches in order, a bounded
number of batches ahead of the consumer.

The embedder spends its time in onnxruntime and the Rust tokenizer, which release the GIL,
so the entity graph's spaCy pass and the SQLite writes of the calling thread overlap it
(bench/ingest_profile.py measured the serial order: spaCy was most of what an ingest spent
outside the embedder).
"""

from __future__ import annotations

import queue
import threading
from typing import Callable, Generic, Iterator, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

AHEAD = 32
"""Batches computed and not yet taken (64 chunks each: ~100 KB of vectors per batch, ~3 MB in
all). The consumer takes none while it builds the entity graph, whose spaCy pass runs at low
priority beside the embedder (graph.update.NER_NICE): the embedder keeps going for 2,048
chunks (1.5-4 min of embedding on two cores, by chunk length and load) before it waits for it."""
_DONE = object()


class EmbedAhead(Generic[T, R]):
    """`with EmbedAhead(fn, batches) as ahead: ...; for batch, result in ahead: ...`

    fn(batch) -> result runs in one daemon thread, batch after batch, at most `ahead`
    results waiting. Iterating yields (batch, result) in the order the batches were given;
    an exception raised by fn is re-raised in the iterating thread (the thread then stops).
    Leaving the block early (an error in the caller) stops the thread after its current
    batch; nothing is left running.

    Fed while it runs: `EmbedAhead(fn)` (no batches) takes them from `add(batch)`, in order,
    until `close()`; iterating before `close()` waits for more (an import embeds the notes
    it has written while it writes the rest: ingest.embedding.WriteAhead)."""

    def __init__(self, fn: Callable[[T], R], batches: Sequence[T] | None = None, ahead: int = AHEAD) -> None:
        self._fn = fn
        self._in: queue.SimpleQueue = queue.SimpleQueue()
        self._out: queue.Queue = queue.Queue(maxsize=max(1, ahead))
        self._stop = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="cairn-embed-ahead", daemon=True)
        if batches is not None:
            for batch in batches:
                self.add(batch)
            self.close()

    def add(self, batch: T) -> None:
        """Queue one more batch (after those already given). Raises RuntimeError after close()."""
        if self._closed:
            raise RuntimeError("EmbedAhead: add() after close()")
        self._in.put(batch)

    def close(self) -> None:
        """No more batches: iteration ends after the last one given."""
        if not self._closed:
            self._closed = True
            self._in.put(_DONE)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    batch = self._in.get(timeout=0.1)
                except queue.Empty:
                    continue
                if batch is _DONE:
                    self._put(_DONE)
                    return
                self._put((batch, self._fn(batch), None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            self._put((None, None, exc))

    def _put(self, item) -> None:
        while not self._stop.is_set():
            try:
                self._out.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def __enter__(self) -> "EmbedAhead[T, R]":
        self._thread.start()
        return self

    def __iter__(self) -> Iterator[tuple[T, R]]:
        while True:
            item = self._out.get()
            if item is _DONE:
                return
            batch, result, exc = item
            if exc is not None:
                raise exc
            yield batch, result

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()
