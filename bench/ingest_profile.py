#!/usr/bin/env python3
"""Where an ingest's time goes, beside the embedder's own throughput in the same run.

    python bench/ingest_profile.py                    # SciFact corpus, `import notes` path
    python bench/ingest_profile.py --limit 1000       # the first 1,000 abstracts only
    python bench/ingest_profile.py --replays 2        # embedder alone twice (before and after)
    python bench/ingest_profile.py --src ../main/src  # another checkout's code, same bench
    python bench/ingest_profile.py --ab ner_nice --limit 150 --rounds 2   # a change off and on

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
4. the embedder alone on exactly the texts the ingest passed it, in its best order (all of
   them by length, in calls of 64): chunks/s. With --replays 2 it runs once before the ingest too (texts from a first
   `import` into a scratch home, not timed), and the mean of the two is the baseline.

With --ab NAME[,NAME] (SWITCHES: a module constant that turns a change off), each round runs
the ingest with the changes on and with them off (the order alternating, a fresh home each)
and then the embedder alone; each variant's throughput is compared with the mean of the alone
passes, wall and CPU, with its stages.

The figure the issue asks for: ingest chunks/s / embedder-alone chunks/s (target >= 0.90),
with the load average beside it (the machine is shared), and the same ratio in process CPU
seconds (what a busy machine distorts least; worker processes the import started and stopped
included). Stage CPU is the CPU of the thread that ran it.
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
    """Exclusive wall time and CPU time (of the thread that runs it, `time.thread_time`) per
    stage: `wrap(fn, stage)` returns fn timed under `stage`; time spent in a wrapped callee is
    the callee's, not the caller's. The CPU figure is the one a shared machine distorts
    least (a stage's wall time includes waiting for a core)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._local = threading.local()
        self._lock = threading.Lock()

    def _stack(self) -> list:
        if not hasattr(self._local, "stack"):
            self._local.stack = []
        return self._local.stack

    @contextlib.contextmanager
    def stage(self, name: str, wall: bool = True):
        """Time the block under `name`. wall=False: its CPU only (a function that may run
        in a helper thread while its caller, timed under the same stage, waits: the wall
        time is the caller's, the CPU the helper's)."""
        stack = self._stack()
        frame = [name, 0.0, 0.0]  # [stage, wall s of nested stages, CPU s of nested stages]
        stack.append(frame)
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            yield
        finally:
            took, used = time.perf_counter() - t0, time.thread_time() - c0
            stack.pop()
            with self._lock:
                if wall:
                    self.seconds[name] += took - frame[1]
                    self.calls[name] += 1
                self.cpu[name] += used - frame[2]
            if stack:
                stack[-1][1] += took if wall else 0.0
                stack[-1][2] += used

    def wrap(self, fn, name: str, wall: bool = True):
        def timed(*a, **kw):
            with self.stage(name, wall):
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
    ("cairn.ner", "entities_many", "entities (spaCy)", False),  # CPU only: it may run in a niced thread
    ("cairn.graph.extract", "add_written", "written names"),
    ("cairn.graph.extract", "add_tech", "technology names"),
    ("cairn.graph.update", "update_graph", "entity graph (SQL)"),
    ("cairn.store.vectors", "put_vectors", "vector insert"),
    ("cairn.ingest.index", "_keep_version", "note history"),
]


def install(clock: StageClock) -> None:
    """Wrap the stage functions and the COMMIT of `store.notes.transaction`."""
    import importlib
    for modname, fname, stage, *wall in STAGES:
        mod = importlib.import_module(modname)
        orig = getattr(mod, fname)
        patch_everywhere(orig, clock.wrap(orig, stage, *wall))
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


def children_cpu() -> float:
    """CPU seconds of this process's ended children (an import's entity worker)."""
    t = os.times()
    return t.children_user + t.children_system


def cpu_time() -> float:
    """CPU seconds of this process (all threads) and of its children that have ended (an
    import's spaCy worker process, `ingest.embedding.entity_lane`, is stopped before the
    import returns, so its CPU is counted)."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


def replay(embedder, batches: list[list[str]]) -> tuple[float, float]:
    """(wall s, process CPU s) of the embedder alone over the texts of `batches`, in the
    embedder's best order whatever order the ingest used: all texts by length in calls of
    EMBED_BATCH (an import that embeds while it writes sorts by length within windows only,
    WriteAhead, and pads a little more; the baseline does not share that cost)."""
    from cairn.ingest.embedding import EMBED_BATCH
    texts = sorted((t for b in batches for t in b), key=len)
    w0, c0 = time.perf_counter(), cpu_time()
    for i in range(0, len(texts), EMBED_BATCH):
        embedder.embed(texts[i:i + EMBED_BATCH])
    return time.perf_counter() - w0, cpu_time() - c0


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


SWITCHES = {  # --ab NAME: (module, attribute, its value with the change switched off)
    "ner_nice": ("cairn.graph.update", "NER_NICE", 0),
    "tech_gate": ("cairn.graph.tech", "GATE", False),
    "name_gate": ("cairn.graph.extract", "NAME_GATE", False),
    # never a full window: nothing is embedded before every note is written
    "write_ahead": ("cairn.ingest.embedding", "WRITE_AHEAD_WINDOW", 10**9),
    # the first window as large as the others: the embedder waits for ~400 notes
    "first_window": ("cairn.ingest.embedding", "WRITE_AHEAD_FIRST", None),
    # spaCy in a thread of the importing process, as before
    "entity_worker": ("cairn.ingest.embedding", "NER_WORKER_MIN", 10**9),
}


def set_switches(names: list[str], on: bool, saved: dict) -> None:
    """Switch the changes `names` off (their SWITCHES value) or back on (the code's own value,
    remembered in `saved` the first time)."""
    import importlib
    for name in names:
        modname, attr, off = SWITCHES[name]
        mod = importlib.import_module(modname)
        saved.setdefault(name, getattr(mod, attr))
        setattr(mod, attr, saved[name] if on else off)


def ingest_once(notes: Path, home: Path, model, clock: StageClock | None):
    """One `import_notes` into a fresh `home`: (RecordingEmbedder, report, wall s, CPU s)."""
    from cairn.service import Cairn
    rec = RecordingEmbedder(model, clock)
    with Cairn(home, embedder=rec) as app:
        w0, c0, k0 = time.perf_counter(), cpu_time(), children_cpu()
        report = app.import_notes(notes)
        wall, cpu = time.perf_counter() - w0, cpu_time() - c0
    if clock is not None:  # the entity worker's process (spaCy, its start-up and model load)
        clock.cpu["entity worker (process)"] += children_cpu() - k0
    shutil.rmtree(home, ignore_errors=True)
    return rec, report, wall, cpu


def print_stages(clock: StageClock, wall: float, indent: str = "") -> None:
    claimed = sum(clock.seconds.values())
    other = max(0.0, wall - claimed)
    print(f"{indent}stage                    seconds   share of wall   CPU s (its thread)   calls")
    for name, sec in sorted(clock.seconds.items(), key=lambda kv: -kv[1]):
        print(f"{indent}{name:24} {sec:8.2f}   {100 * sec / wall:6.1f} %   {clock.cpu[name]:10.2f}   "
              f"{clock.calls[name]:7d}")
    print(f"{indent}{'other':24} {other:8.2f}   {100 * other / wall:6.1f} %")
    for name in sorted(set(clock.cpu) - set(clock.seconds)):  # CPU only: another process
        print(f"{indent}{name:24} {'':8}   {'':8}   {clock.cpu[name]:10.2f}")
    if claimed > wall:
        print(f"{indent}overlapped (stages timed in parallel threads): {claimed - wall:.2f} s")
    print(f"{indent}(the embedding stage's CPU is its calling thread's; onnxruntime's pool thread is not in it)")


def run_ab(args, notes: Path, tmp: Path, model) -> dict:
    """--ab: per round, the embedder alone, then the ingest with the changes on and off (the
    order alternating by round), every ingest into a fresh home; then the embedder alone once
    more. Each variant's throughput is compared with the mean of every alone pass."""
    names = [n.strip() for n in args.ab.split(",") if n.strip()]
    unknown = [n for n in names if n not in SWITCHES]
    if unknown:
        sys.exit(f"error: --ab {','.join(unknown)}: not a switch (known: {', '.join(SWITCHES)})")
    saved: dict = {}
    clocks = {"on": StageClock(), "off": StageClock()}
    install(_Switching())
    batches = None
    alone: list[tuple[float, float]] = []
    runs: dict[str, list[tuple[float, float]]] = {"on": [], "off": []}
    loads = [os.getloadavg()[0]]
    for r in range(args.rounds):
        for variant in (("on", "off") if r % 2 == 0 else ("off", "on")):
            set_switches(names, variant == "on", saved)
            ACTIVE[0] = clocks[variant]
            rec, report, wall, cpu = ingest_once(notes, tmp / f"home-{r}-{variant}", model, clocks[variant])
            batches = batches or rec.batches
            runs[variant].append((wall, cpu))
            loads.append(os.getloadavg()[0])
            print(f"round {r + 1}, changes {variant:3}: ingest {wall:7.1f} s wall, {cpu:7.1f} s CPU "
                  f"(load {loads[-1]:.2f})", flush=True)
            if variant == ("off" if r % 2 == 0 else "on"):
                a = replay(model, batches)
                alone.append(a)
                print(f"round {r + 1}, embedder alone: {a[0]:7.1f} s wall, {a[1]:7.1f} s CPU", flush=True)
    set_switches(names, True, saved)
    chunks = sum(len(b) for b in batches)
    a_wall = sum(a[0] for a in alone) / len(alone)
    a_cpu = sum(a[1] for a in alone) / len(alone)
    out = {"switches": names, "chunks": chunks, "embedder_alone_wall_s": round(a_wall, 2),
           "embedder_alone_cpu_s": round(a_cpu, 2), "load_avg": [round(x, 2) for x in loads]}
    print(f"\n--ab {','.join(names)}: {chunks} chunks, {args.rounds} rounds; load average (1 min) "
          f"min {min(loads):.2f}, max {max(loads):.2f}")
    print(f"embedder alone (mean of {len(alone)}): {a_wall:.1f} s wall, {a_cpu:.1f} s CPU")
    for variant in ("on", "off"):
        w = sum(x[0] for x in runs[variant]) / len(runs[variant])
        c = sum(x[1] for x in runs[variant]) / len(runs[variant])
        print(f"\nchanges {variant}: ingest {w:.1f} s wall, {c:.1f} s CPU (mean of {len(runs[variant])}); "
              f"ingest / embedder throughput {a_wall / w:.3f} wall, {a_cpu / c:.3f} CPU")
        print_stages(clocks[variant], w * len(runs[variant]), "  ")
        out[variant] = {"ingest_wall_s": round(w, 2), "ingest_cpu_s": round(c, 2),
                        "ratio_wall": round(a_wall / w, 4), "ratio_cpu": round(a_cpu / c, 4),
                        "stages_cpu_s": {k: round(v, 3) for k, v in clocks[variant].cpu.items()}}
    return out


ACTIVE: list = [None]  # the StageClock the wrapped functions report to (--ab: one per variant)


class _Switching(StageClock):
    """Forwards `stage` to whichever clock is ACTIVE (set before each ingest)."""

    def stage(self, name: str, wall: bool = True):  # type: ignore[override]
        return ACTIVE[0].stage(name, wall)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N abstracts only")
    ap.add_argument("--replays", type=int, choices=(1, 2), default=1,
                    help="2: the embedder alone before and after the ingest (mean)")
    ap.add_argument("--ab", default=None,
                    help=f"comma-separated changes to switch off and on, interleaved ({', '.join(SWITCHES)})")
    ap.add_argument("--rounds", type=int, default=2, help="--ab: rounds of (alone, on, off)")
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
        if args.ab:
            # a first import, not timed: every lazy import and spaCy's model load happen here
            ingest_once(notes, tmp / "scratch", model, None)
            out = run_ab(args, notes, tmp, model)
            if args.json:
                args.json.write_text(json.dumps(out, indent=1))
            return 0
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
            w0, c0, k0 = time.perf_counter(), cpu_time(), children_cpu()
            report = app.import_notes(notes)
            wall, cpu = time.perf_counter() - w0, cpu_time() - c0
        clock.cpu["entity worker (process)"] += children_cpu() - k0
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
    print(f"ingest (import notes): {wall:.1f} s wall, {cpu:.1f} s CPU (this process, all threads, and its ended workers): "
          f"{ingest_rate:.1f} chunks/s")
    if before is not None:
        print(f"embedder alone, before: {before[0]:.1f} s wall ({chunks / before[0]:.1f} chunks/s), "
              f"{before[1]:.1f} s CPU")
    print(f"embedder alone, after: {after[0]:.1f} s wall ({chunks / after[0]:.1f} chunks/s), "
          f"{after[1]:.1f} s CPU")
    print(f"ingest / embedder throughput: {ingest_rate / embed_rate:.3f}  (target >= 0.90); "
          f"in CPU: {alone[1] / cpu:.3f}")
    print()
    print_stages(clock, wall)
    if args.json:
        args.json.write_text(json.dumps({
            "docs": n_docs, "chunks": chunks, "ingest_wall_s": round(wall, 2), "ingest_cpu_s": round(cpu, 2),
            "embedder_alone_wall_s": round(alone[0], 2), "embedder_alone_cpu_s": round(alone[1], 2),
            "ingest_chunks_per_s": round(ingest_rate, 2),
            "embedder_chunks_per_s": round(embed_rate, 2), "ratio": round(ingest_rate / embed_rate, 4),
            "ratio_cpu": round(alone[1] / cpu, 4),
            "stages_s": {k: round(v, 3) for k, v in stages.items()},
            "stages_cpu_s": {k: round(v, 3) for k, v in clock.cpu.items()}, "other_s": round(other, 3),
            "load_avg": [round(load0[0], 2), round(load1[0], 2)]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
