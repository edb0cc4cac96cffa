"""The application service: the one set of functions every interface calls.

The CLI (and later the REST API, bot and MCP server) are thin adapters over `Cairn`; no
logic lives in them. `Cairn` owns the settings, the index connection, the vector index and
the (lazily loaded) embedder for one home folder.

    from cairn.service import Cairn
    app = Cairn("~/.cairn")
    app.ingest([Path("~/notes")])
    print(app.search("boiler pressure").hits[0].title)
    print(app.ask("When was the boiler serviced?", llm="none").answer)
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from cairn.config import HomeNotWritable, Settings, load_settings, write_problem
from cairn.ops.artifacts import ArtifactOps
from cairn.ops.backup import BackupOps
from cairn.ops.config import ConfigOps
from cairn.ops.entities import EntityOps
from cairn.ops.history import HistoryOps
from cairn.ops.jobs import ChatImportReport, JobOps
from cairn.ops.knowledge import KnowledgeOps
from cairn.ops.memory import MemoryOps, SessionExtraction, _chat_note_ids, _extraction_llm, _session_messages  # noqa: F401
from cairn.ops.notes import NotesOps, _LazyEmbedder  # noqa: F401
from cairn.ops.person import PersonOps
from cairn.ops.notepage import NotePageOps
from cairn.ops.review import ReviewOps
from cairn.ops.search import SearchOps, read_batch_file
from cairn.ops.sessions import SessionOps
from cairn.ops.skills import SkillOps
from cairn.ops.store import StoreOps
from cairn.ops.worker import WorkerOps
from cairn.store import db
from cairn.store.backend import SQLiteBackend, is_postgres, open_backend, open_index

if TYPE_CHECKING:
    from cairn.store.vectors import VectorIndex

# Names other modules and tests import from here (their homes are cairn.ops.*).
__all__ = ["Cairn", "ChatImportReport", "SessionExtraction", "read_batch_file"]


class Cairn(JobOps, SearchOps, MemoryOps, ReviewOps, EntityOps, NotesOps, NotePageOps, HistoryOps, BackupOps,
            StoreOps, PersonOps, WorkerOps, KnowledgeOps, SessionOps, ArtifactOps,
            SkillOps, ConfigOps):
    """Cairn for one home folder (`home`: path, or None for $CAIRN_HOME / ~/.cairn): the
    composition root. It owns the resources (settings, the index connection, the vector
    index, the lazily loaded embedder, the event bus); the operations come from the domain
    mixins of cairn.ops (jobs, search, memory, notes), each a method of Cairn under its name.
    The layers below are imported by the operations that use them (cold start).

    embedder: optional object with `embed(list[str]) -> (n, dim) array` and `model_name`
    (tests pass a counting wrapper); by default the packaged all-MiniLM-L6-v2.
    person: the person it acts for, kept as `settings.owner` (cairn.people; default env
    CAIRN_PERSON, else the home's own person, who sees everything); a named person sees only
    their own notes, memories, core blocks, entities, sessions, reminders, mood and the notes
    shared with everyone. Raises InvalidInput for a malformed name.
    """

    def __init__(self, home: str | Path | None = None, *, embedder=None, settings: Settings | None = None,
                 person: str | None = None):
        self.settings = settings or load_settings(home)
        import os
        from cairn.people import check_person
        # The owner this service acts for (cairn.people): given, else env CAIRN_PERSON, else
        # the settings' (None: the home's own person, who sees everything).
        chosen = person if person is not None else os.environ.get("CAIRN_PERSON") or None
        if chosen is not None:
            import dataclasses
            self.settings = dataclasses.replace(self.settings, owner=check_person(chosen))
        self.settings.ensure_dirs()
        self._conn: sqlite3.Connection | None = None
        self._embedder = embedder
        self._vectors: VectorIndex | None = None
        self._store: SQLiteBackend | None = None
        self._alias_cache: tuple[tuple[int, int], frozenset[str]] | None = None  # (index state, aliases)
        from cairn.events import OwnedBus, bus_for
        # typed events of this home (cairn.events), marked with the person they are for
        self.events = OwnedBus(bus_for(self.settings.home), lambda: self.settings.owner)
        self._pending_cache: tuple[tuple[int, int], int] | None = None  # (index state, vectors pending)
        self._in_use: int | None = None  # the home's shared in-use lock while the index is open

    @property
    def conn(self) -> sqlite3.Connection:
        """The index handle, opened on first use: a SQLite connection on `<home>/index.db`,
        or with a PostgreSQL store configured (`[store] url` / CAIRN_STORE_URL) a
        store.postgres.handle.PgConn that the store functions route to PostgreSQL
        (store/route.py). Raises HomeNotWritable when the SQLite index cannot be opened
        because its folder is not writable, IndexOpenError otherwise; Unavailable when the
        PostgreSQL server cannot be reached."""
        if self._conn is None:
            from cairn.store import locks
            if self._in_use is None:  # a restore (exclusive) finishes before the index opens
                try:
                    self._in_use = locks.hold_home(self.settings.home)
                except OSError:
                    pass  # an unwritable home: opening the index below says what is wrong
            try:
                self._conn = open_index(self.settings)
            except (db.IndexOpenError, sqlite3.OperationalError, PermissionError) as exc:
                folder = self.settings.index_path.parent
                reason = write_problem(folder) if folder.is_dir() else None
                if reason:
                    raise HomeNotWritable(folder, reason) from exc
                raise
        return self._conn

    @property
    def embedder(self):
        if self._embedder is None:
            from cairn.embed import get_embedder
            self._embedder = get_embedder(self.settings.embedder)
        return self._embedder

    @property
    def store(self) -> SQLiteBackend:
        """The storage backend on the index (store.backend: notes, keywords, vectors, links,
        jobs, memories), chosen by the settings; operations use it instead of SQL."""
        if self._store is None:
            self._store = open_backend(self.settings, self.conn)
        return self._store

    @property
    def vectors(self) -> VectorIndex:
        if self._vectors is None:
            if self.on_postgres:
                from cairn.store.postgres.vectors import PgVectorIndex
                self._vectors = PgVectorIndex(self.conn)  # type: ignore[assignment]
            else:
                from cairn.store.vectors import VectorIndex
                self._vectors = VectorIndex(self.conn, self.settings.home)
        return self._vectors

    @property
    def on_postgres(self) -> bool:
        """True when the index is a PostgreSQL store (`[store] url` / CAIRN_STORE_URL)."""
        return is_postgres(self.conn)

    def _index_label(self) -> str:
        """Where the index lives, for status: the SQLite file, or the PostgreSQL URL
        without its password."""
        if self.on_postgres:
            from cairn.ops.store import safe_url
            return safe_url(self.conn.url)
        return str(self.settings.index_path)

    def close(self) -> None:
        """Close the index (it reopens on next use) and drop the home's in-use lock."""
        if self._in_use is not None:
            from cairn.store import locks
            locks.release(self._in_use)
            self._in_use = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._vectors = None
            self._store = None
            self._alias_cache = None  # its index state belongs to the closed connection
            self._pending_cache = None

    def database_error_message(self, exc: sqlite3.DatabaseError) -> str:
        """One line for a SQLite error met while using the index, for any adapter to show:
        busy/locked (another process held the lock past the 10 s timeout), read-only (names
        the unwritable file and the fix: store/writable.py), a damaged file (names `cairn
        reindex`: store/damaged.py), or SQLite's own message."""
        from cairn.store.damaged import damaged_message, is_damaged_error
        if is_damaged_error(exc):
            return damaged_message(self.settings.index_path, exc)
        if "locked" in str(exc) or "busy" in str(exc):
            return (f"the index {self.settings.index_path} is busy: another Cairn process kept it "
                    f"locked for more than 10 s ({exc}); nothing was lost — try again")
        from cairn.store.writable import is_readonly_error, readonly_message
        if is_readonly_error(exc):
            return readonly_message(self.settings.index_path, exc)
        return f"index database error: {exc}"

    def __enter__(self) -> "Cairn":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
