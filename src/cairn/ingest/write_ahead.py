"""Vault notes of an import written a few at a time in helper threads, ahead of the one being
indexed: each write ends with an fsync (vault.atomic_write), which waits for the disk, not
for the CPU; done one after another they were a serial stretch before the embedder could
start (bench/ingest_profile.py: ~10 ms a note, 6.5 % of a 1,000-note import's wall time on
this machine's disk). Written side by side, the file system commits them together, and the
indexing of note i overlaps the writes of the notes after it.

The order of indexing, the report and the undo list are as a one-at-a-time loop makes them;
the rendering, the folder check and the undo entry of a note happen in the calling thread
before its write is handed out, so an undo list always covers every file a helper may have
written.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Callable, Iterable

from cairn import vault as V

WRITERS = 4
"""Helper threads writing vault notes (0: each note written and indexed in turn, in the
calling thread: the bench's switch, bench/ingest_profile.py --ab write_ahead)."""
AHEAD = 16  # notes handed out and not yet indexed


def write_then_index(items: Iterable, plan: Callable, index: Callable[[Path, object], None]) -> None:
    """For each item in order: `plan(item)` in this thread -> (target path, text to write or
    None when the file already holds it); the write (V.atomic_write) in a helper thread; then,
    once that write is done, `index(target, item)` in this thread. Up to AHEAD writes run
    ahead of the indexing. An exception from any step stops the loop: writes not yet started
    are cancelled and those under way finish before it propagates (so a caller's roll-back
    sees every file that was written)."""
    if WRITERS <= 0:
        for item in items:
            target, text = plan(item)
            if text is not None:
                V.atomic_write(target, text)
            index(target, item)
        return
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(WRITERS, thread_name_prefix="cairn-vault-write")
    pending: deque = deque()
    source = iter(items)

    def hand_out() -> None:
        item = next(source, None)
        if item is None:
            return
        target, text = plan(item)
        pending.append((item, target, pool.submit(V.atomic_write, target, text) if text is not None else None))

    try:
        for _ in range(AHEAD):
            hand_out()
        while pending:
            item, target, written = pending.popleft()
            if written is not None:
                written.result()
            index(target, item)
            hand_out()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
