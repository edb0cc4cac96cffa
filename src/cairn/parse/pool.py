"""Heavy parsers (OCR, speech-to-text, PDF) in bounded worker processes.

Images, recordings and PDFs are parsed by `parse_file` in a separate process, so the ingest
process stays small (the OCR and speech models, a decoded 40-megapixel photo, live in the
worker) and a pathological file cannot take it down:

- memory cap: each worker sets `resource.setrlimit(RLIMIT_AS, cap)` on itself, so an
  allocation beyond the cap fails inside the worker (MemoryError, or the worker dies);
- time limit: the parent kills a worker that spends more than `timeout_s` seconds of wall
  time on one file and reports that file as too slow;
- a worker that dies (killed, out of memory, a crash in a native library) is replaced and
  the file it held is reported with the reason; every other file goes on.
Workers are started on first use as `python -m cairn.parse.pool FD_IN FD_OUT MEMORY_BYTES` (a
fresh interpreter: never a fork of a process holding onnxruntime threads, and unlike
multiprocessing's "spawn" it never re-imports the parent's __main__, which for
`python -m cairn` would run the command again) and kept for the whole run, so each loads
its models once (`ocr.ocr_engine` and `audio.asr_model` are cached per process). Requests
for named entities go to one more worker of their own, the entity lane, so they never wait
behind a file (spaCy's model then lives only there). Requests
and replies are pickled over two pipes of their own (a parser printing to stdout cannot
garble them).

    pool = ParsePool(workers=1, memory_mib=2048, timeout_s=600)
    pool.prefetch([(path, kwargs), ...])      # start parsing in the background
    doc = pool.parse(path, **kwargs)          # ParsedDocument; ParseError / OSError as parse_file
    pool.close()

`prefetch` starts the workers on files while the caller does other work; the ingest's media
pass (cairn.ingest.run) prefetches the pictures, recordings and PDFs once every text note is
embedded, to file workers started at niceness `nice` (MEDIA_NICE): low priority.

The text lane (cairn.parse.text_lane) does the same for the text notes of a large ingest
(phase 1): `prefetch_text` hands a worker of its own batches of notes to read, hash, parse
and summarise a window ahead of the ingest, which meanwhile writes the vault copies and
indexes; `take_text` gives the ingest a note's result when the worker parsed exactly the
bytes the ingest hashed, else None (the ingest parses the note itself, so every error is
reported as before; it never waits for the lane). That worker runs niced (TEXT_NICE): it
uses a core the ingest leaves idle and never takes one from it; `end_text` stops it. Two
cores then share phase 1 (bench/README.md, session 11).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_ready
from pathlib import Path
from typing import Any

from ..model import ParsedDocument
from .errors import ParseError
from .text_lane import TEXT_NICE, TEXT_REQUEST, TEXT_WINDOW, TextLane, text_batch

HEAVY_KINDS = frozenset({"image", "audio", "pdf"})  # parsed in a worker (detect.detect_kind)
# A request for named entities (cairn/ner.py) instead of a file: spaCy's model (~250 MiB
# with its libraries) then lives in the worker, not in the ingest process.
NER_REQUEST = "\x00entities"
MEDIA_NICE = 10  # niceness of the file workers of an ingest's media pass (cairn.ingest.run)
_Key = tuple[str, tuple]


def _key(path: Path | str, kwargs: dict[str, Any]) -> _Key:
    return str(path), tuple(sorted(kwargs.items()))


def _worker_main(fd_in: int, fd_out: int, memory_bytes: int, nice: int = 0) -> None:
    """Worker loop: receive (key, path, kwargs), send (key, status, payload) until None.
    nice: added to the process's niceness first (the text lane's worker: it only uses a
    core the ingest leaves idle)."""
    import resource
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    if memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    from cairn.parse import parse_file

    inbox, conn = Connection(fd_in, writable=False), Connection(fd_out, readable=False)
    while True:
        try:
            msg = inbox.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        key, path, kwargs = msg
        try:
            if path == NER_REQUEST:
                from cairn.ner import entities_many
                reply = (key, "ok", entities_many(kwargs["texts"]))
            elif path == TEXT_REQUEST:
                reply = (key, "ok", text_batch(kwargs["items"], kwargs["options"], kwargs["summarise"]))
            else:
                reply = (key, "ok", parse_file(Path(path), **kwargs))
        except ParseError as exc:
            text = str(exc)
            if "memory" in text.lower() and memory_bytes:
                text += f" (the worker's memory cap is {memory_bytes >> 20} MiB, [ingest] parse_memory_mib)"
            reply = (key, "parse", (type(exc).__name__, text))
        except OSError as exc:
            reply = (key, "os", (exc.errno, exc.strerror or str(exc), exc.filename))
        except MemoryError:
            reply = (key, "parse", ("ParseError", f"parser ran out of memory (worker cap {memory_bytes >> 20} MiB)"))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, never raised here
            reply = (key, "parse", ("ParseError", f"parser failed: {type(exc).__name__}: {exc}"))
        try:
            conn.send(reply)
        except MemoryError:
            conn.send((key, "parse", ("ParseError", f"parser ran out of memory (worker cap {memory_bytes >> 20} MiB)")))


def _worker_env() -> dict[str, str]:
    """The environment of a worker: this one, with the folder this `cairn` package was
    imported from first on PYTHONPATH (the worker must run the same code)."""
    import cairn
    root = str(Path(cairn.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


class _Worker:
    """One worker process and the two pipes to it (`send` requests, `conn` replies)."""

    def __init__(self, memory_bytes: int, nice: int = 0) -> None:
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cairn.parse.pool", str(req_r), str(rep_w), str(memory_bytes), str(nice)],
                pass_fds=(req_r, rep_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, close_fds=True, env=_worker_env())
        except OSError:  # no process: the pipes are not kept open
            for fd in (req_r, req_w, rep_r, rep_w):
                os.close(fd)
            raise
        os.close(req_r)
        os.close(rep_w)
        self.send = Connection(req_w, readable=False)
        self.conn = Connection(rep_r, writable=False)
        self.task: tuple[_Key, str, dict] | None = None
        self.started = 0.0

    @property
    def exitcode(self) -> int | None:
        return self.proc.poll()

    def stop(self, wait_s: float) -> None:
        """Ask the worker to end (it leaves its loop on None), give it up to `wait_s`
        seconds, then kill it and close the pipes."""
        try:
            self.send.send(None)
            if wait_s > 0:
                self.proc.wait(wait_s)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for c in (self.send, self.conn):
            try:
                c.close()
            except OSError:
                pass


class ParsePool:
    """Worker processes for heavy parsers; see the module docstring.

    workers: file worker processes (>= 1); entity requests get one more (`entities_many`).
    memory_mib: RLIMIT_AS of each worker in MiB (0 = no cap).
    timeout_s: wall seconds one file may take in a worker.
    nice: added to the file workers' niceness (the ingest's media pass runs them at
    MEDIA_NICE: low priority). `first_file_at`: time.monotonic() when the first file's
    reply came (None before). Thread-safe; `close()` stops the workers (also at
    interpreter exit: they are daemons)."""

    def __init__(self, workers: int = 1, memory_mib: int = 2048, timeout_s: float = 600.0, *,
                 nice: int = 0, ner_nice: int = 0) -> None:
        self.workers = max(1, int(workers))
        self.nice = max(0, int(nice))
        self.ner_nice = max(0, int(ner_nice))  # the entity lane's worker
        self.first_file_at: float | None = None
        self.memory_bytes = max(0, int(memory_mib)) << 20
        self.timeout_s = float(timeout_s)
        self._pool: list[_Worker] = []
        self._ner: _Worker | None = None  # the entity lane: a worker for entity requests only
        self._lane: _Worker | None = None  # the text lane's worker (niced; see prefetch_text)
        self._lane_done = False  # end_text was called: the lane's worker is stopped when idle
        self._queue: list[tuple[_Key, str, dict]] = []
        self._results: dict[_Key, tuple[str, Any]] = {}
        self._cond = threading.Condition()
        self._driver: threading.Thread | None = None
        self._closed = False
        self.peak_rss_mib = 0.0  # largest worker VmHWM seen (a worker's own peak, MiB)
        self.restarts = 0
        self._requests = 0  # entity requests sent (their keys)
        self._text = TextLane()  # the notes the text lane reads ahead (prefetch_text / take_text)

    # ------------------------------------------------------------------ public
    def prefetch(self, items: list[tuple[Path | str, dict[str, Any]]]) -> None:
        """Queue files to parse in the background (results kept until `parse` takes them)."""
        with self._cond:
            for path, kwargs in items:
                key = _key(path, kwargs)
                if key not in self._results and all(q[0] != key for q in self._queue):
                    self._queue.append((key, str(path), dict(kwargs)))
            self._ensure_driver()
            self._cond.notify_all()

    def prefetch_text(self, items: list[tuple[Path | str, Path | str | None, str | None]],
                      options: dict[str, Any], *, summarise: str | None = None, window: int = TEXT_WINDOW) -> None:
        """Read, parse and summarise text notes in the text lane's worker ahead of the
        ingest, in the order given, at most `window` (at least one batch) notes past the last
        one taken.
        items: (path, root folder or None, sha256 hex the note is indexed with or None);
        a path whose hash is the known one is only hashed. options: parse_file's keyword
        arguments. summarise: "module:function" (text -> text) applied to each document's
        body in the worker (the ingest's lexical gist), or None. The results wait for
        `take_text`."""
        with self._cond:
            self._text.add(items, options, summarise, window)
            self._lane_done = False
            self._ensure_driver()
            self._cond.notify_all()

    def take_text(self, path: Path | str, sha256: str, *, wait: bool = False) -> tuple[ParsedDocument, str | None] | None:
        """The text lane's (document, summary) for `path` when a worker parsed exactly the bytes
        whose sha256 (hex) is `sha256`; None when the note was not prefetched, its result is
        not back yet (the caller parses it sooner itself: a busy machine never makes the
        ingest wait for the worker; wait=True waits instead), it failed there, or it changed
        since. Taking a note lets the lane read further ahead, from the next one."""
        path = str(path)
        with self._cond:
            if self._text.mark_taken(path, wait) is None:
                return None
            if wait or self._text.room():
                self._cond.notify_all()  # the driver hands out the next batch (not once per note)
            if not wait and path not in self._text.results:
                return None  # not back yet: the lane goes on after this note
            while path not in self._text.results:
                if self._closed:
                    return None
                self._cond.wait(0.5)
            digest, doc, summary, block = self._text.results.pop(path)
        if doc is None or digest != sha256:
            return None
        if block is not None:  # the ingest adds its keys to this block next: not read again
            from cairn.safe_yaml import remember
            remember(*block)
        return doc, summary

    def end_text(self) -> None:
        """Stop the text lane: results not taken are dropped and its worker is stopped
        (once its batch is back, if it holds one)."""
        with self._cond:
            self._text.clear()
            self._lane_done = self._lane is not None
            self._cond.notify_all()

    def parse(self, path: Path | str, **kwargs: Any) -> ParsedDocument:
        """Parse `path` in a worker (waiting for a prefetched result if there is one).
        Raises ParseError (content problems, the memory cap, the time limit, a crashed
        worker: the message says which) or OSError, as `parse_file` would."""
        key = _key(path, kwargs)
        with self._cond:
            if key not in self._results and all(q[0] != key for q in self._queue) \
                    and all(w.task is None or w.task[0] != key for w in self._pool):
                self._queue.insert(0, (key, str(path), dict(kwargs)))
        status, payload = self._wait(key)
        if status == "ok":
            return payload
        if status == "os":
            errno, strerror, filename = payload
            raise OSError(errno, strerror, filename)
        raise ParseError(payload[1])

    def entities_many(self, texts: list[str]) -> list:
        """cairn.ner.entities_many run in a worker: for each text, its list of ner.Entity.
        Runs in the entity lane, a worker of its own (started on the first request, never
        given a file), so it never waits behind an image or a recording: the ingest embeds
        its text notes, which need their entities, while the file workers OCR (before,
        each request waited for the file the one worker held: 144 s of a loaded Dendron
        ingest, bench/README.md). Raises ParseError when the worker fails or dies (the
        message says why)."""
        with self._cond:
            self._requests += 1
            key: _Key = (NER_REQUEST, (("request", self._requests),))
            self._queue.insert(0, (key, NER_REQUEST, {"texts": list(texts)}))
        status, payload = self._wait(key)
        if status != "ok":
            raise ParseError(payload[1])
        return payload

    def _wait(self, key: _Key) -> tuple[str, Any]:
        """Start the driver and wait for the reply to the queued `key`."""
        with self._cond:
            self._ensure_driver()
            self._cond.notify_all()
            while key not in self._results:
                if self._closed:
                    raise ParseError("the parser pool was closed")
                self._cond.wait(0.5)
            return self._results.pop(key)

    def close(self) -> None:
        """Stop the workers (the driver thread ends with them)."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._text.clear()
            self._cond.notify_all()
        if self._driver is not None:
            self._driver.join(10)
        for w in self._workers():
            w.stop(2)
        self._pool.clear()
        self._ner = None
        self._lane = None

    # ------------------------------------------------------------------ driver
    def _ensure_driver(self) -> None:
        if self._driver is None or not self._driver.is_alive():
            self._driver = threading.Thread(target=self._drive, name="cairn-parse-pool", daemon=True)
            self._driver.start()

    def _finish(self, w: _Worker, status: str, payload: Any) -> None:
        key, kind, kwargs = w.task
        w.task = None
        with self._cond:
            if kind == TEXT_REQUEST:  # per note: its result, or None (the ingest parses it itself)
                if status == "ok":
                    self._text.store(payload)
                else:
                    self._text.failed(kwargs["items"])
            else:
                self._results[key] = (status, payload)
                if kind != NER_REQUEST and self.first_file_at is None:
                    self.first_file_at = time.monotonic()
            self._cond.notify_all()

    def _replace(self, w: _Worker) -> None:
        w.kill()
        if w is self._ner:
            self._ner = None
        elif w is self._lane:
            self._lane = None
        else:
            self._pool.remove(w)
        self.restarts += 1

    def _workers(self) -> list[_Worker]:
        """The file workers and the entity lane's worker, if started."""
        return self._pool + [w for w in (self._ner, self._lane) if w is not None]

    def _dispatch(self) -> None:
        """Hand queued requests to idle workers, in queue order (call with the lock held):
        entity requests to the entity lane, files to the file workers (at most `workers`);
        a request whose worker is busy waits in the queue; one whose worker cannot be started
        (OSError from the process start) is answered at once with a ParseError saying so."""
        kept: list[tuple[_Key, str, dict]] = []
        for task in self._queue:
            try:
                if task[1] == NER_REQUEST:
                    if self._ner is None:
                        self._ner = _Worker(self.memory_bytes, nice=self.ner_nice)
                    w = self._ner if self._ner.task is None else None
                else:
                    w = next((w for w in self._pool if w.task is None), None)
                    if w is None and len(self._pool) < self.workers:
                        w = _Worker(self.memory_bytes, nice=self.nice)
                        self._pool.append(w)
            except OSError as exc:  # no process could be started (EMFILE, EAGAIN, ENOMEM): the
                # request fails with the reason, instead of the driver dying and the caller waiting forever
                self._results[task[0]] = ("parse", ("ParseError", f"could not start a parser process: {exc}"))
                self._cond.notify_all()
                continue
            if w is None:
                kept.append(task)
                continue
            w.task = task
            w.started = time.monotonic()
            try:
                w.send.send(task)
            except (OSError, ValueError):
                kept.append(task)
                w.task = None
                self._replace(w)
        self._queue[:] = kept
        self._dispatch_text()

    def _dispatch_text(self) -> None:
        """Hand the next batch of the text lane to its worker (started here, niced by
        TEXT_NICE) when it is idle and the window has room for the batch; after `end_text`,
        stop that worker once it is idle (lock held)."""
        if not self._text.args and not self._lane_done:
            return
        if self._lane_done:
            if self._lane is not None and self._lane.task is None:
                lane, self._lane = self._lane, None
                lane.stop(0)  # idle: it ends on the None at once (the driver holds the lock)
                self._lane_done = False
            return
        if not self._text.room():
            return
        try:
            if self._lane is None:
                self._lane = _Worker(self.memory_bytes, nice=TEXT_NICE)
        except OSError:  # no worker: the ingest parses every note itself
            self._text.clear()
            return
        w = self._lane
        if w.task is not None:
            return
        request = self._text.next_request()
        w.task = ((TEXT_REQUEST, (("batch", self._text.batches),)), TEXT_REQUEST, request)
        w.started = time.monotonic()
        try:
            w.send.send(w.task)
        except (OSError, ValueError):
            task, w.task = w.task, None
            self._text.failed(task[2]["items"])
            self._cond.notify_all()
            self._replace(w)

    def _note_rss(self, w: _Worker) -> None:
        try:
            for line in Path(f"/proc/{w.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    self.peak_rss_mib = max(self.peak_rss_mib, int(line.split()[1]) / 1024)
        except (OSError, ValueError, IndexError):
            pass

    def _drive(self) -> None:
        """Hand queued files to idle workers, collect replies, enforce the time limit."""
        while True:
            with self._cond:
                if self._closed:
                    return
                self._dispatch()
                busy = [w for w in self._workers() if w.task is not None]
                if not busy:
                    if not self._queue:
                        self._cond.wait(0.5)
                    continue
            ready = wait_ready([w.conn for w in busy], timeout=0.2)
            now = time.monotonic()
            for w in busy:
                if w.conn in ready:
                    try:
                        key, status, payload = w.conn.recv()
                    except (EOFError, OSError):
                        try:
                            w.proc.wait(2)
                        except subprocess.TimeoutExpired:
                            pass
                        self._finish(w, "parse", ("ParseError", self._death_reason(w.exitcode)))
                        self._replace(w)
                        continue
                    self._note_rss(w)
                    self._finish(w, status, payload)
                elif now - w.started > self.timeout_s:
                    self._finish(w, "parse", ("ParseError", f"parser took longer than {self.timeout_s:g} s "
                                              "([ingest] parse_timeout_s); stopped"))
                    self._replace(w)

    def _death_reason(self, exitcode: int | None) -> str:
        cap = f"{self.memory_bytes >> 20} MiB" if self.memory_bytes else "no cap"
        how = f"signal {-exitcode}" if isinstance(exitcode, int) and exitcode < 0 else f"exit code {exitcode}"
        return (f"parser process died ({how}); the file may need more memory than the worker cap "
                f"({cap}, [ingest] parse_memory_mib) or crash its parser")


if __name__ == "__main__":  # a worker: python -m cairn.parse.pool FD_IN FD_OUT MEMORY_BYTES NICE
    _worker_main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
