#!/usr/bin/env python3
"""Where an ingest's time goes, beside the embedder's own throughput in the same run.

    python bench/ingest_profile.py                    # SciFact corpus, `import notes` path
    python bench/ingest_profile.py --limit 1000       # the first 1,000 abstracts only
    python bench/ingest_profile.py --replays 2        # embedder alone twice (before and after)
    python bench/ingest_profile.py --src ../main/src  # another checkout's code, same bench

Steps, in one process (nothing is asserted; figures are printed):
1. the SciFact abstracts (`beir-scifact/corpus.jsonl` under CAIRN_DATA, id/title/text) are
   written as a notes JSONL file, as bench/scifact.py imports them;
2. the packaged embedder (int8 all-MiniLM-L6-v2, cairn.embed) is loaded and warmed on one batch,
   so neither side below pays the model load;
3. `Cairn.import_notes` into a fresh home (the service's own path: check every record, write the
   vault notes, index them, entity graph, embed). Every stage is timed by wrapping the functions
   that do it (exclusive time: a stage nested in another is counted once, in the inner one):
   parse (render + read back the note, markdown parse), chunk, vault write, keyword index (note
   row, chunks and their FTS rows), commit (the COMMIT of each transaction), entities (spaCy)
   and the entity graph's SQL, embedding (`embedder.embed`), vector insert (`put_vectors`), note
   history; "other" is the wall time no stage claims (job bookkeeping, hashing, the Python
   between the stages). Stages that run in a second thread are timed in that thread, so
   their sum can exceed the wall time: the "overlapped" line says by how much;
4. the embedder alone on exactly the batches the ingest passed it (same texts, same order):
   chunks/s. With --replays 2 it runs once before the ingest too (texts from a first
   `import` into a scratch home, not timed), and the mean of the two is the baseline.

The figure the issue asks for: ingest chunks/s / embedder-alone chunks/s (target >= 0.90),
with the load average beside it (the machine is shared).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import data_dir, need  # noqa: E402  (also puts <repo>/src on sys.path)


class StageClock:
    """Exclusive wall time per stage and thread: `wrap(fn, stage)` returns fn timed under
    `stage`; time spent in a wrapped callee is the callee's, not the caller's."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._local = threading.local()
        self._lock = threading.Lock()

    def _stack(self) -> list:
        if not hasattr(self._local, "stack"):
            self._local.stack = []
        return self._local.stack

    @contextlib.contextmanager
    def stage(self, name: str):
        stack = self._stack()
        frame = [name, 0.0]  # [stage, seconds of nested stages]
        stack.append(frame)
        t0 = time.perf_counter()
        try:
            yield
        finally:
            took = time.perf_counter() - t0
            stack.pop()
            with self._lock:
                self.seconds[name] += took - frame[1]
                self.calls[name] += 1
            if stack:
                stack[-1][1] += took

    def wrap(self, fn, name: str):
        def timed(*a, **kw):
            with self.stage(name):
                return fn(*a, **kw)
        timed.__wrapped__ = fn
        return timed


def patch_everywhere(original, replacement) -> int:
    """Replace every binding of `original` in loaded cairn modules; returns how many."""
    n = 0
    for mod in list(sys.modules.values()):
        if mod is None or not getattr(mod, "__name__", "").startswith("cairn"):
            continue
        for key, val in list(vars(mod).items()):
            if val is original:
                setattr(mod, key, replacement)
                n += 1
    return n


STAGES = [  # (module, function, stage)
    ("cairn.ingest.importers", "_check_renders", "parse"),
    ("cairn.parse", "parse_markdown_text", "parse"),
    ("cairn.vault", "render_note", "parse"),
    ("cairn.ingest.index", "_chunks_for", "chunk"),
    ("cairn.vault", "atomic_write", "vault write"),
    ("cairn.store.notes", "upsert_note", "keyword index"),
    ("cairn.store.notes", "insert_chunks", "keyword index"),
    ("cairn.store.notes", "delete_chunks", "keyword index"),
    ("cairn.store.notes", "replace_links", "keyword index"),
    ("cairn.store.notes", "clear_tombstone", "keyword index"),
    ("cairn.graph.update", "_entities", "entities (spaCy)"),
    ("cairn.graph.update", "update_graph", "entity graph (SQL)"),
    ("cairn.store.vectors", "put_vectors", "vector insert"),
    ("cairn.ingest.index", "_keep_version", "note history"),
]


def install(clock: StageClock) -> None:
    """Wrap the stage functions and the COMMIT of `store.notes.transaction`."""
    import importlib
    for modname, fname, stage in STAGES:
        mod = importlib.import_module(modname)
        orig = getattr(mod, fname)
        patch_everywhere(orig, clock.wrap(orig, stage))
    import cairn.store.notes as N
    orig_tx = N.transaction

    @contextlib.contextmanager
    def transaction(conn):
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            with clock.stage("commit"):
                conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    patch_everywhere(orig_tx, transaction)


class RecordingEmbedder:
    """The real embedder, each call timed as "embedding" and its batch recorded."""

    def __init__(self, inner, clock: StageClock | None) -> None:
        self.inner, self.clock, self.batches = inner, clock, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def embed(self, texts):
        self.batches.append(list(texts))
        if self.clock is None:
            return self.inner.embed(texts)
        with self.clock.stage("embedding"):
            return self.inner.embed(texts)


def replay(embedder, batches: list[list[str]]) -> tuple[float, float]:
    """(wall s, process CPU s) of the embedder alone over `batches`."""
    w0, c0 = time.perf_counter(), time.process_time()
    for b in batches:
        embedder.embed(b)
    return time.perf_counter() - w0, time.process_time() - c0


def write_notes(corpus: Path, dest: Path, limit: int | None) -> int:
    n = 0
    with open(corpus, encoding="utf-8") as src, open(dest, "w", encoding="utf-8") as out:
        for line in src:
            d = json.loads(line)
            if not str(d.get("text") or "").strip():
                continue
            out.write(json.dumps({"id": d["_id"], "title": d.get("title") or "", "text": d["text"]}) + "\n")
            n += 1
            if limit and n >= limit:
                break
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N abstracts only")
    ap.add_argument("--replays", type=int, choices=(1, 2), default=1,
                    help="2: the embedder alone before and after the ingest (mean)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--src", type=Path, default=None,
                    help="import cairn from this src folder (another checkout: before/after in one window)")
    args = ap.parse_args()
    if args.src is not None:
        sys.path.insert(0, str(args.src.resolve()))
    corpus = need(data_dir() / "beir-scifact" / "corpus.jsonl", "SciFact corpus")

    from cairn.embed import shared_minilm
    from cairn.service import Cairn

    tmp = Path(tempfile.mkdtemp(prefix="cairn-ingprof-"))
    try:
        notes = tmp / "scifact.jsonl"
        n_docs = write_notes(corpus, notes, args.limit)
        model = shared_minilm()
        model.embed(["warm-up: load the model and its session"] * 8)
        before = None
        if args.replays == 2:
            scratch = RecordingEmbedder(model, None)
            with Cairn(tmp / "scratch", embedder=scratch) as app:
                app.import_notes(notes)
            before = replay(model, scratch.batches)
            shutil.rmtree(tmp / "scratch", ignore_errors=True)
        clock = StageClock()
        install(clock)
        rec = RecordingEmbedder(model, clock)
        load0 = os.getloadavg()
        with Cairn(tmp / "home", embedder=rec) as app:
            w0, c0 = time.perf_counter(), time.process_time()
            report = app.import_notes(notes)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        after = replay(model, rec.batches)
        load1 = os.getloadavg()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    chunks = sum(len(b) for b in rec.batches)
    alone = after if before is None else ((before[0] + after[0]) / 2, (before[1] + after[1]) / 2)
    ingest_rate, embed_rate = chunks / wall, chunks / alone[0]
    claimed = sum(clock.seconds.values())
    stages = dict(sorted(clock.seconds.items(), key=lambda kv: -kv[1]))
    other = max(0.0, wall - claimed)
    import cairn
    print(f"cairn from {Path(cairn.__file__).parent}")
    print(f"SciFact: {n_docs} abstracts, {len(report.added)} notes added, {chunks} chunks embedded "
          f"({len(rec.batches)} embedder calls)")
    print(f"load average before {load0[0]:.2f}, after {load1[0]:.2f} (1 min)")
    print(f"ingest (import notes): {wall:.1f} s wall, {cpu:.1f} s CPU (this process, all threads): "
          f"{ingest_rate:.1f} chunks/s")
    if before is not None:
        print(f"embedder alone, before: {before[0]:.1f} s wall ({chunks / before[0]:.1f} chunks/s)")
    print(f"embedder alone, after: {after[0]:.1f} s wall ({chunks / after[0]:.1f} chunks/s), "
          f"{after[1]:.1f} s CPU")
    print(f"ingest / embedder throughput: {ingest_rate / embed_rate:.3f}  (target >= 0.90)")
    print("\nstage                    seconds   share of wall   calls")
    for name, s in stages.items():
        print(f"{name:24} {s:8.2f}   {100 * s / wall:6.1f} %   {clock.calls[name]:7d}")
    print(f"{'other':24} {other:8.2f}   {100 * other / wall:6.1f} %")
    if claimed > wall:
        print(f"overlapped (stages timed in parallel threads): {claimed - wall:.2f} s")
    if args.json:
        args.json.write_text(json.dumps({
            "docs": n_docs, "chunks": chunks, "ingest_wall_s": round(wall, 2), "ingest_cpu_s": round(cpu, 2),
            "embedder_alone_wall_s": round(alone[0], 2), "ingest_chunks_per_s": round(ingest_rate, 2),
            "embedder_chunks_per_s": round(embed_rate, 2), "ratio": round(ingest_rate / embed_rate, 4),
            "stages_s": {k: round(v, 3) for k, v in stages.items()}, "other_s": round(other, 3),
            "load_avg": [round(load0[0], 2), round(load1[0], 2)]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
