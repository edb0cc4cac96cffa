"""`cairn watch`: keep the index in line with the vault, and ingest files dropped in inboxes.

One loop (watchfiles, i.e. inotify/FSEvents/ReadDirectoryChangesW through the Rust
`notify` crate, recursive on the *folders*, so editors that replace a file's inode on each
save keep being followed):

1. On start, the whole vault is reconciled (`sync.reconcile`) and every inbox file not yet
   ingested is ingested.
2. Each changed path waits until it has been quiet for `[sync] settle_ms` (300 ms), then the
   changed paths are reconciled together (a rename seen as delete + create in one batch is
   a move: same note id). A note that vanished, or shrank to 0 bytes while its indexed
   version had text, waits `missing_settle_ms` (1200 ms) instead: vim's rename-to-backup
   then write, JetBrains' rename-to-`___jb_old___` and truncate-then-write saves put the
   note back within that time, so it is never removed (no "deleted" state in between).
3. Temp files are never indexed (`vault.is_temp_name`: vim `4913` and `x~`, `.x.tmp-N`,
   `.goutputstream-*`, `___jb_tmp___`/`___jb_old___`, swap files, Cairn's own
   `.x.cairn-tmp`). The watcher writes nothing into the vault itself except through inbox
   ingest, whose notes are already indexed when their events arrive (their stat figures
   match, so they are skipped unread): it never loops on its own writes.

4. Every `[sync] rescan_s` (600 s) with nothing pending, the whole vault is reconciled
   again (20 ms for 1,000 unchanged notes): changes whose events the OS dropped are caught.

5. Vectors are computed in the background (`BackgroundEmbedder`, a thread on its own index
   connection): a changed note is keyword-searchable as soon as its text is indexed, and
   its meaning follows; `cairn status` counts the chunks still waiting as `missing_vectors`.

The loop runs until `stop` (a threading.Event) is set, so tests and servers run it in a
thread; errors while indexing are reported through `on_event` and never end the loop.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import watchfiles

# The notifier's own error (watchfiles 1.x: a changed path it cannot decode to a string)
_NOTIFY_ERROR = getattr(getattr(watchfiles, "_rust_notify", None), "WatchfilesRustInternalError", RuntimeError)

from cairn import vault as V
from cairn.config import Settings
from cairn.ingest import is_source_name, iter_sources, skip_source_dir
from cairn.store.backend import open_index
from cairn.store import notes as N
from cairn.sync import SyncReport, reconcile

class BackgroundEmbedder:
    """Embeds chunks that have no vector yet (`ingest.embed_missing`) in a daemon thread on
    its own index connection, whenever `wake()` is called (and once at start). Two-phase
    ingest under `cairn watch` (and servers that run the watcher): the index writes of the
    text phase never wait for the model. `stop()` ends the thread after the batch it is
    embedding; what is left is found by the next run (nothing is lost)."""

    def __init__(self, settings: Settings, embedder, on_error: Callable[[str], None] | None = None) -> None:
        self.settings = settings
        self.embedder = embedder
        self.on_error = on_error or (lambda message: None)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.embedded = 0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="cairn-embed", daemon=True)
        self._thread.start()
        self.wake()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def idle(self) -> bool:
        """True when no embedding is asked for or running (tests wait on it)."""
        return not self._wake.is_set() and not self._busy

    _busy = False

    def _run(self) -> None:
        from cairn.ingest import embed_missing
        conn = open_index(self.settings)
        try:
            while not self._stop.is_set():
                if not self._wake.wait(1.0):
                    continue
                self._busy = True
                self._wake.clear()
                try:
                    done, _ = embed_missing(conn, self.embedder, None, self.settings.chunk.embed_max_chunks,
                                            fact_keys=self.settings.memory.fact_keys,
                                            neighbour_keys=self.settings.memory.neighbour_keys)
                    self.embedded += done
                except Exception as exc:  # the next wake retries; text search is unaffected
                    self.on_error(f"background embedding failed: {exc}")
                finally:
                    self._busy = False
        finally:
            conn.close()


# (conn, files) -> IngestReport; files deleted in Cairn before go to its `tombstoned` list
# (`ingest.ingest_paths(..., skip_tombstoned=True)`).
IngestFn = Callable[[sqlite3.Connection, list[Path]], Any]


@dataclass
class WatchEvent:
    """What the watcher did. kind: "ready" (initial reconcile done, watching), "sync" (vault
    changes indexed: `sync`), "inbox" (files ingested: `ingest`, an IngestReport; `skipped`
    lists inbox files deleted in Cairn before; when `ingest` is set they are its `tombstoned`
    list too, so print one or the other), "error" (`message`)."""

    kind: str
    sync: SyncReport | None = None
    ingest: Any = None
    skipped: list[str] | None = None
    message: str = ""


class _Watcher:
    def __init__(self, settings: Settings, embedder, conn: sqlite3.Connection, ingest: IngestFn | None,
                 on_event: Callable[[WatchEvent], None] | None):
        self.settings = settings
        self.embedder = embedder
        self.conn = conn
        self.ingest = ingest
        self.on_event = on_event or (lambda e: None)
        self.vault = settings.vault.resolve()
        self.inboxes = [d for d in settings.inbox_dirs if d != self.vault and self.vault not in d.parents]
        from cairn.ingest.run import own_files
        self._own = own_files(settings)  # an inbox above the home: its index, logs, config are no arrivals
        self.short = settings.sync.settle_ms / 1000
        self.long = max(settings.sync.missing_settle_ms, settings.sync.settle_ms) / 1000
        self.pending_vault: dict[Path, float] = {}
        self.pending_inbox: dict[Path, float] = {}
        self.last_full = time.monotonic()
        self.background = BackgroundEmbedder(
            settings, embedder, lambda m: self._emit(WatchEvent("error", message=m)))

    # ------------------------------------------------------------ classification
    def _in_vault(self, path: Path) -> bool:
        return path == self.vault or self.vault in path.parents

    def _inbox_of(self, path: Path) -> Path | None:
        for d in self.inboxes:
            if d in path.parents:
                return d
        return None

    def _vault_relevant(self, path: Path) -> bool:
        parts = path.relative_to(self.vault).parts
        if not parts or any(V.skip_dir_name(p) for p in parts[:-1]):
            return False
        name = parts[-1]
        if V.is_note_name(name):
            return True
        if V.is_temp_name(name) or V.skip_dir_name(name):
            return False
        if path.is_dir():
            return True
        if path.exists():
            return False
        prefix = path.relative_to(self.vault).as_posix() + "/"  # a folder that went away?
        return N.has_notes_under(self.conn, prefix)

    def _inbox_relevant(self, path: Path, inbox: Path) -> bool:
        """Under no folder `iter_sources` skips, a name it takes that is no temp file, and
        none of Cairn's own files (an inbox holding the home: each index write would be an
        inbox event, without end)."""
        parts = path.relative_to(inbox).parts
        return (bool(parts) and not any(skip_source_dir(p) for p in parts[:-1]) and _inbox_name(parts[-1])
                and not self._own(path.resolve()))

    def _suspicious(self, path: Path) -> bool:
        """Vanished, or 0 bytes while the indexed version had content: wait longer."""
        try:
            st = path.stat()
        except OSError:
            return True
        if st.st_size:
            return False
        try:
            row = N.get_note_by_path(self.conn, path.relative_to(self.vault).as_posix())
        except ValueError:
            return True
        return bool(row and row.size)

    # ------------------------------------------------------------ actions
    def _emit(self, event: WatchEvent) -> None:
        try:
            self.on_event(event)
        except Exception:  # a faulty listener must not stop the watcher
            pass

    def _ingest_inbox(self, files: list[Path]) -> None:
        if self.ingest is None or not files:
            return
        todo = [f for f in files if f.is_file()]
        if not todo:
            return
        # The ingest callback skips files deleted in Cairn before (`report.tombstoned`),
        # checked inside ingest_file on the one read of each file.
        report = self.ingest(self.conn, todo)
        self.background.wake()
        skipped = list(getattr(report, "tombstoned", None) or [])
        if len(skipped) == len(todo):
            report = None  # nothing but deleted files: no ingest report to show
        self._emit(WatchEvent("inbox", ingest=report, skipped=skipped))

    def start(self) -> None:
        """Initial full reconcile and inbox scan."""
        report = reconcile(self.conn, self.settings, self.embedder, embed=False)
        self.background.start()
        self.last_full = time.monotonic()
        self._emit(WatchEvent("sync", sync=report))
        inboxes = [d for d in self.inboxes if d.is_dir()]
        unread: list[tuple[str, str]] = []  # a subfolder it cannot list, a link leading out
        files = [f for f, _root in iter_sources(inboxes, unread)
                 if _inbox_name(f.name) and not self._own(f.resolve())]
        for path, reason in unread:
            self._emit(WatchEvent("error", message=f"inbox: {path}: {reason}"))
        self._ingest_inbox(files)

    def note_changes(self, changes: set[tuple[Any, str]], now: float) -> None:
        for _change, raw in changes:
            path = Path(raw)
            if self._in_vault(path):
                if self._vault_relevant(path):
                    self.pending_vault[path] = now
                continue
            inbox = self._inbox_of(path)
            if inbox is not None and self._inbox_relevant(path, inbox):
                self.pending_inbox[path] = now

    def rescan_if_due(self, now: float) -> None:
        """Full reconcile every `[sync] rescan_s` seconds while nothing is pending: catches
        changes whose events the OS dropped (an overflowing event queue)."""
        every = self.settings.sync.rescan_s
        if every <= 0 or now - self.last_full < every or self.pending_vault:
            return
        self.last_full = now
        try:
            report = reconcile(self.conn, self.settings, self.embedder, embed=False)
        except Exception as exc:
            self._emit(WatchEvent("error", message=f"periodic reconcile failed: {exc}"))
            return
        self.background.wake()
        if report.changed or report.trashed:
            self._emit(WatchEvent("sync", sync=report))

    def process(self, now: float) -> None:
        # long >= short: the stat (and maybe a query) of `_suspicious` only once `short` has passed
        due = [p for p, t in self.pending_vault.items()
               if now - t >= self.short and (now - t >= self.long or not self._suspicious(p))]
        if due:
            waiting = [p.relative_to(self.vault).as_posix() for p in self.pending_vault
                       if p not in due and not p.exists()]
            for p in due:
                self.pending_vault.pop(p, None)
            try:
                report = reconcile(self.conn, self.settings, self.embedder, paths=due, move_from=waiting,
                                   embed=False)
                self.background.wake()
            except Exception as exc:  # keep watching; the next reconcile retries
                self._emit(WatchEvent("error", message=f"indexing {len(due)} path(s) failed: {exc}"))
            else:
                for old, _new in report.moved:
                    self.pending_vault.pop(self.vault / old, None)
                if report.changed or report.failed or report.trashed:
                    self._emit(WatchEvent("sync", sync=report))
        due_in = [p for p, t in self.pending_inbox.items()
                  if now - t >= (self.long if _size(p) <= 0 else self.short)]
        if due_in:
            for p in due_in:
                self.pending_inbox.pop(p, None)
            try:
                self._ingest_inbox([p for p in due_in if p.exists()])
            except Exception as exc:
                self._emit(WatchEvent("error", message=f"inbox ingest failed: {exc}"))


def _inbox_name(name: str) -> bool:
    """An inbox file name to ingest: what `cairn ingest` takes from a folder, minus editors'
    and downloaders' temp files (`vault.is_temp_name`: `x.part`, `x.crdownload`, `x~`...)."""
    return is_source_name(name) and not V.is_temp_name(name)


def _size(path: Path) -> int:
    """File size in bytes, -1 when it cannot be read."""
    try:
        return path.stat().st_size
    except OSError:
        return -1


def watch(settings: Settings, embedder, stop: threading.Event, *, ingest: IngestFn | None = None,
          on_event: Callable[[WatchEvent], None] | None = None, raise_interrupt: bool = False) -> None:
    """Watch the vault and the inbox folders until `stop` is set (see the module docstring).

    Opens its own index connection (safe to run in a thread beside other connections).
    ingest: called with (connection, files) for inbox files, returns an IngestReport whose
    `tombstoned` lists files deleted in Cairn before (see IngestFn).
    on_event: receives a WatchEvent for each action; "ready" comes after the initial
    reconcile, once changes are being recorded. raise_interrupt: let Ctrl-C raise
    KeyboardInterrupt (the CLI), else the loop just ends.
    """
    settings.ensure_dirs()
    for d in settings.inbox_dirs:
        d.mkdir(parents=True, exist_ok=True)
    conn = open_index(settings)
    w = _Watcher(settings, embedder, conn, ingest, on_event)
    roots = [w.vault, *w.inboxes]
    started = False
    try:
        while not stop.is_set():
            try:
                for changes in watchfiles.watch(*roots, watch_filter=None, debounce=400, step=50,
                                                stop_event=stop, rust_timeout=100, yield_on_timeout=True,
                                                raise_interrupt=raise_interrupt, ignore_permission_denied=True):
                    w.note_changes(changes, time.monotonic())
                    if not started:
                        started = True
                        w.start()
                        w._emit(WatchEvent("ready"))
                    w.process(time.monotonic())
                    w.rescan_if_due(time.monotonic())
                    if stop.is_set():
                        break
                break
            except _NOTIFY_ERROR as exc:  # a changed path whose name is not UTF-8 ends the notifier's loop
                w._emit(WatchEvent("error", message=f"{exc}: a file name must be UTF-8 text to be read; "
                                                    "rename it (watching again)"))
                w.last_full = 0.0  # a full reconcile once quiet: what changed while restarting
                stop.wait(1.0)
    finally:
        w.background.stop()
        conn.close()
