"""How the server runs service calls: reads on a pool, writes on one thread, tasks.

SQLite in WAL mode lets readers run beside one writer, on separate connections. So:
- reads run on `read_workers` threads, each with its own `Cairn` (own connection): a read
  never waits on a write;
- writes run on one writer thread with its own `Cairn`: they are serialised inside the
  process, so two requests never race for SQLite's write lock ("database is locked" cannot
  come from this server's own clients). Another process on the same home (a CLI ingest, a
  second server) is waited for up to `WRITE_BUSY_S` seconds (SQLite busy timeout) before
  the request fails with 503 "busy" and Retry-After — nothing half-written is kept;
- every write is recorded in the audit log (cairn.audit) by the writer thread, with its
  outcome, whether it succeeded or not;
- long writes (ingests of files and URLs, running or retrying the job queue, and the
  tasks: sync, reindex) run on a second, "bulk" thread with its own connection, so the
  interactive writes (a note, a memory, an undo) never queue behind them. The bulk thread
  gives way at every progress step (a job done, a batch of vectors written: each its own
  short transaction) while an interactive write is waiting or running, so an interactive
  write waits at most one step of an ingest, not the whole of it (issue 34); tasks report
  progress (`Task`).

All `Cairn` instances share one embedder (loaded once). `close()` stops the pools.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Callable

from cairn import audit
from cairn.config import Settings
from cairn.errors import FULL_MESSAGE, InsufficientStorage, NotFound, Unavailable, storage_full
from cairn.store.notes import vector_generation
from cairn.store.vectors import VectorIndex
from cairn.tools import current_person

log = logging.getLogger("cairn.server")
WRITE_BUSY_S = 60
READ_BUSY_S = 10
WRITE_YIELD_S = 0.1
"""How long a write waits, at most, for the reads in flight to finish before it starts: the
one writer thread shares the interpreter (and 2 cores) with the readers, so reads go first
and writes queue a little longer (they never wait more than this per write)."""
GIVE_WAY_S = 5.0
"""How long the bulk thread (ingests, tasks) waits, at most, at one of its steps for the
interactive writes to finish (Runtime.give_way)."""
SWITCH_INTERVAL_S = 0.001
"""The interpreter's thread switch interval while serving (Python's default is 5 ms): the
writer thread's Python work (markdown, YAML, memory rules) holds the GIL in slices of this
length, and a search gives the GIL up at every SQLite / numpy / onnxruntime call, so with
5 ms slices a search waited up to 5 ms each time it wanted the GIL back."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class _SharedMatrix:
    """The vector matrix the reader threads share: (generation, ids, matrix). One reader
    loads it per vector generation; the others reuse it (the arrays are never modified)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.gen = -1
        self.ids = None
        self.mat = None


class _ReaderVectors(VectorIndex):
    """A reader thread's VectorIndex: after a write changes the vectors, one reader reloads
    the matrix (from `vectors.npy` when current, else from the index) and the others take
    it from `shared`, instead of every thread loading its own copy. It never rewrites the
    on-disk cache (N threads racing on one file)."""

    def __init__(self, conn, cache_dir, shared: _SharedMatrix) -> None:
        super().__init__(conn, cache_dir)
        self._shared = shared

    def _load(self) -> None:
        gen = vector_generation(self.conn)
        if gen == self._gen:
            return
        sh = self._shared
        with sh.lock:
            if sh.gen != gen:
                super()._load()
                sh.gen, sh.ids, sh.mat = self._gen, self._ids, self._mat
                return
            self._gen, self._ids, self._mat = sh.gen, sh.ids, sh.mat

    def _write_cache(self, gen: int) -> None:
        return None


class Task:
    """A long write run in the background: {"id", "kind", "state", "progress", "result",
    "error", "created", "finished"}; state queued -> running -> done | failed."""

    def __init__(self, kind: str, person: str | None = None) -> None:
        self.id = uuid.uuid4().hex
        self.kind = kind
        self.person = person  # who started it (cairn.people; None: the home's own person)
        self.state = "queued"
        self.progress: dict = {}
        self.result: dict | None = None
        self.error: str | None = None
        self.created = _now()
        self.finished: str | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "state": self.state, "progress": dict(self.progress),
                "result": self.result, "error": self.error, "created": self.created,
                "finished": self.finished}


class Runtime:
    """Thread pools and per-thread services for one home; see the module docstring."""

    def __init__(self, settings: Settings, embedder=None) -> None:
        self.settings = settings
        self.home = settings.home
        self._embedder = embedder
        import sys
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self._local = threading.local()
        self._all: list = []
        self._all_lock = threading.Lock()
        self.readers = ThreadPoolExecutor(settings.server.read_workers, thread_name_prefix="cairn-read")
        self.repaired = threading.Event()  # set once the start-up vector repair has run (app.py)
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="cairn-write")
        self.bulk = ThreadPoolExecutor(1, thread_name_prefix="cairn-bulk")  # ingests, tasks
        self._interactive = 0  # interactive writes queued or running (the bulk thread gives way)
        self._interactive_done = threading.Condition()
        self.tasks: dict[str, Task] = {}
        self._matrix = _SharedMatrix()
        self.stopping = threading.Event()  # set on SIGINT/SIGTERM: ingest stops at its next step
        self._reads = 0  # read calls queued or running (WRITE_YIELD_S)
        self._reads_done = threading.Condition()
        from cairn.events import bus_for
        self.events = bus_for(settings.home)

    @property
    def embedder(self):
        if self._embedder is None:
            from cairn.embed import get_embedder
            self._embedder = get_embedder()
        return self._embedder

    def service(self, busy_s: int = READ_BUSY_S):
        """This thread's `Cairn` (created on first use, on its own connection)."""
        svc = getattr(self._local, "svc", None)
        if svc is None:
            from cairn.service import Cairn
            import dataclasses
            # its own Settings: the person is set per call (_call)
            svc = Cairn(settings=dataclasses.replace(self.settings), embedder=self.embedder)
            if not svc.on_postgres:  # PostgreSQL: row locks, a pool per service, HNSW in the database
                from cairn.store.db import set_busy_timeout
                set_busy_timeout(svc.conn, busy_s)
            if busy_s == READ_BUSY_S and not svc.on_postgres:  # readers use the on-disk vector cache but never rewrite it
                svc._vectors = _ReaderVectors(svc.conn, svc.settings.home, self._matrix)
            if busy_s == READ_BUSY_S:  # a read that meets a note moved or deleted on disk: the writer syncs
                svc.follow_vault = self._sync_on_writer
            self._local.svc = svc
            with self._all_lock:
                self._all.append(svc)
        return svc

    async def read(self, fn: Callable[[Any], Any]) -> Any:
        """Run `fn(service)` on a reader thread."""
        loop = asyncio.get_running_loop()
        with self._reads_done:
            self._reads += 1
        try:
            return await loop.run_in_executor(self.readers, self._call, fn, READ_BUSY_S, current_person.get())
        finally:
            with self._reads_done:
                self._reads -= 1
                if not self._reads:
                    self._reads_done.notify_all()

    def _yield_to_reads(self) -> None:
        """On the writer thread, before a write: wait until no read is queued or running,
        for at most WRITE_YIELD_S."""
        import time
        deadline = time.monotonic() + WRITE_YIELD_S
        with self._reads_done:
            while self._reads and not self.stopping.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._reads_done.wait(left)

    async def write(self, fn: Callable[[Any], Any], *, actor: str, action: str,
                    target: str | None = None, detail: dict | None = None) -> Any:
        """Run `fn(service)` on the writer thread and audit it (outcome ok or failed); the
        bulk thread gives way meanwhile (`give_way`)."""
        loop = asyncio.get_running_loop()
        self._interactive_begin()
        try:
            return await loop.run_in_executor(self.writer, self._audited, fn, actor, action, target, detail,
                                              current_person.get())
        finally:
            self._interactive_end()

    def _interactive_begin(self) -> None:
        with self._interactive_done:
            self._interactive += 1

    def _interactive_end(self) -> None:
        with self._interactive_done:
            self._interactive -= 1
            if not self._interactive:
                self._interactive_done.notify_all()

    def _sync_on_writer(self) -> Any:
        """Reconcile the vault with the index on the writer thread (a reader's
        Cairn.follow_vault); blocks the calling reader until it is done."""
        return self.submit_interactive(self._call, lambda svc: svc.sync(), WRITE_BUSY_S, None)

    def submit_interactive(self, *args) -> Any:
        """Run `args[0](*args[1:])` on the writer thread, counted as an interactive write the
        bulk thread gives way to; blocks the calling thread until it is done."""
        self._interactive_begin()
        try:
            return self.writer.submit(*args).result()
        finally:
            self._interactive_end()

    async def write_bulk(self, fn: Callable[[Any], Any], *, actor: str, action: str,
                         target: str | None = None, detail: dict | None = None) -> Any:
        """`write` for a long write (an ingest, the job queue) on the bulk thread; pass it
        `progress()` so that it gives way to interactive writes at each step."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.bulk, self._audited, fn, actor, action, target, detail,
                                          current_person.get())

    def give_way(self) -> None:
        """On the bulk thread between two steps: wait while interactive writes are queued or
        running (each is short), at most GIVE_WAY_S: an interactive write that needs a lock
        the bulk step holds (the entity graph's, during an ingest's embedding) must not wait
        for a bulk thread that waits for it. The server stopping ends the wait."""
        import time
        deadline = time.monotonic() + GIVE_WAY_S
        with self._interactive_done:
            while self._interactive and not self.stopping.is_set() and time.monotonic() < deadline:
                self._interactive_done.wait(0.05)

    def progress(self, task: "Task | None" = None, then=None):
        """A progress callback `(phase, done, total)` for ingest-like calls on the bulk
        thread: records it on `task`, calls `then` (another callback) if given, gives way to
        interactive writes (`give_way`) and raises KeyboardInterrupt once the server is
        stopping (the job runner then puts unfinished jobs back in the queue, as Ctrl-C does
        in the CLI)."""
        def update(phase: str, done: int, total: int) -> None:
            if task is not None:
                task.progress = {"phase": phase, "done": done, "total": total}
            if then is not None:
                then(phase, done, total)
            self.give_way()
            if self.stopping.is_set():
                raise KeyboardInterrupt("server stopping")
        return update

    async def write_unaudited(self, fn: Callable[[Any], Any]) -> Any:
        """Run `fn(service)` on the writer thread without an audit entry (housekeeping that
        records its own, only when it changed something)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.writer, self._call, fn, WRITE_BUSY_S, current_person.get())

    def _call(self, fn, busy_s: int, person: str | None = None):
        """`fn(service)` on this thread's service, acting for `person` (the request's: the
        API key's person, cairn.people; None: the home's own person)."""
        if busy_s == WRITE_BUSY_S:
            self._yield_to_reads()
        if self.stopping.is_set():
            raise Unavailable("the server is stopping; try again once it is back", retry_after=5)
        svc = self.service(busy_s)
        svc.settings.owner = person
        try:
            return fn(svc)
        except KeyboardInterrupt:
            raise Unavailable("the server is stopping: what was stored so far is kept; unfinished "
                              "ingest jobs stay queued (`cairn jobs run` finishes them)", retry_after=5) from None
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise Unavailable(f"the index is busy: another Cairn process held it for more than "
                                  f"{busy_s} s; nothing was changed — try again", retry_after=5) from None
            if storage_full(exc):
                raise InsufficientStorage(FULL_MESSAGE) from exc
            raise
        except OSError as exc:
            if storage_full(exc):
                raise InsufficientStorage(FULL_MESSAGE) from exc
            raise

    def _audited(self, fn, actor, action, target, detail, person: str | None = None):
        from cairn.store.history import acting, actor as H_actor
        try:
            with acting(H_actor() or ("rest" if actor == "local" else
                                      actor if actor in ("web", "mcp") else f"rest:{actor}")):  # versions' `by`
                result = self._call(fn, WRITE_BUSY_S, person)
        except BaseException as exc:
            audit.record(self.home, actor, action, target, "failed",
                         {**(detail or {}), "error": str(exc) or type(exc).__name__}, person)
            raise
        try:
            audit.record(self.home, actor, action, target, "ok", detail, person)
        except OSError as exc:  # the change is stored: answering an error would make a retry conflict
            log.error("the audit entry of %s %s by %s could not be written (%s); the change itself is stored",
                      action, target, actor, exc)
        return result

    # ------------------------------------------------------------------ tasks
    def start_task(self, kind: str, fn: Callable[[Any, Task], Any], *, actor: str) -> Task:
        """Queue `fn(service, task) -> JSON` on the writer; returns the Task at once. The
        result (or the error) lands in the task; progress events are published."""
        task = Task(kind, current_person.get())
        self.tasks[task.id] = task
        if len(self.tasks) > 200:  # keep the newest
            for old in list(self.tasks)[:-200]:
                self.tasks.pop(old, None)

        def run(svc):
            task.state = "running"
            self.events.publish("task.progress", task.to_json())
            try:
                task.result = fn(svc, task)
                task.state = "done"
            except Exception as exc:  # the message, as every REST error, names no absolute path
                from cairn.redact_paths import without_paths
                task.error, task.state = without_paths(str(exc) or type(exc).__name__, self.settings), "failed"
            task.finished = _now()
            self.events.publish("task.progress", task.to_json())

        self.bulk.submit(self._audited, run, actor, f"task.{kind}", task.id, None, current_person.get())
        return task

    def _release_jobs(self) -> None:
        """Put back in the queue the ingest jobs this process claimed and did not finish."""
        import os

        from cairn.service import Cairn
        from cairn.store import jobs as J
        try:
            with Cairn(settings=self.settings, embedder=self._embedder) as svc:
                mine = [j for j in J.running(svc.conn) if j.owner_pid == os.getpid()]
                if mine:
                    J.release(svc.conn, mine)
        except Exception:  # the next run requeues a dead process's jobs anyway (jobs.requeue_orphans)
            pass

    def visible_tasks(self, person: str | None) -> list[Task]:
        """The tasks `person` may see, oldest first: all for the home's own person (None), a
        named person's own for them (cairn.people)."""
        from cairn.people import same_person
        return [t for t in self.tasks.values() if person is None or same_person(t.person, person)]

    def task(self, task_id: str, person: str | None = None) -> Task:
        """One task `person` may see; NotFound otherwise (another person's reads as unknown)."""
        t = self.tasks.get(task_id)
        from cairn.people import same_person
        if t is None or (person is not None and not same_person(t.person, person)):
            raise NotFound(f"no task {task_id!r} (tasks are kept while the server runs)")
        return t

    def close(self) -> None:
        """Stop: running ingest steps end at their next progress tick, queued calls are
        cancelled, ingest jobs this process still holds go back to the queue, connections close."""
        self.stopping.set()
        self.bulk.shutdown(wait=True, cancel_futures=True)
        self.writer.shutdown(wait=True, cancel_futures=True)
        self.readers.shutdown(wait=True, cancel_futures=True)
        self._release_jobs()
        with self._all_lock:
            for svc in self._all:
                try:
                    svc.close()
                except Exception:
                    pass
            self._all.clear()
