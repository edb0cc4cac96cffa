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
    results waiting. Iterating yields (batch, result) in the order of `batches`; an
    exception raised by fn is re-raised in the iterating thread (the thread then stops).
    Leaving the block early (an error in the caller) stops the thread after its current
    batch; nothing is left running."""

    def __init__(self, fn: Callable[[T], R], batches: Sequence[T], ahead: int = AHEAD) -> None:
        self._fn, self._batches = fn, list(batches)
        self._out: queue.Queue = queue.Queue(maxsize=max(1, ahead))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cairn-embed-ahead", daemon=True)

    def _run(self) -> None:
        try:
            for batch in self._batches:
                if self._stop.is_set():
                    return
                self._put((batch, self._fn(batch), None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            self._put((None, None, exc))
            return
        self._put(_DONE)

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
