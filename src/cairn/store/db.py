"""SQLite connection and versioned schema migrations for the index (`<home>/index.db`).

The index is derived data: everything in it can be rebuilt from the vault (`cairn reindex`).
WAL mode and a busy timeout let readers and one writer share the file across processes.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

from cairn.store.writable import index_file_problems
from cairn.errors import Unavailable

BUSY_TIMEOUT_MS = 10_000

# Each migration is (version, sql). Never edit an applied migration: append a new one.
MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE notes (
            id TEXT PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,          -- vault-relative, '/' separators
            title TEXT NOT NULL,
            type TEXT NOT NULL,                 -- markdown, text, html, pdf, docx, chat, record
            source TEXT,                        -- original file path or URL
            source_hash TEXT,                   -- sha256 of the original bytes
            file_hash TEXT NOT NULL,            -- sha256 of the vault file bytes
            body_hash TEXT NOT NULL,            -- sha256 of the indexed body text
            mtime_ns INTEGER NOT NULL DEFAULT 0,
            size INTEGER NOT NULL DEFAULT 0,
            created TEXT, updated TEXT, event_time TEXT,
            tags TEXT NOT NULL DEFAULT '[]',     -- JSON list
            aliases TEXT NOT NULL DEFAULT '[]',  -- JSON list
            meta TEXT NOT NULL DEFAULT '{}',     -- JSON object
            warnings TEXT NOT NULL DEFAULT '[]', -- JSON list
            encoding TEXT,
            indexed_at TEXT NOT NULL
        );
        CREATE INDEX notes_source ON notes(source);
        CREATE TABLE chunks (
            id INTEGER PRIMARY KEY,
            note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            ord INTEGER NOT NULL,
            source_id TEXT,
            heading TEXT NOT NULL DEFAULT '',
            text TEXT NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            page INTEGER,
            speaker TEXT,
            event_time TEXT
        );
        CREATE INDEX chunks_note ON chunks(note_id, ord);
        CREATE INDEX chunks_source_id ON chunks(source_id);
        -- Keyword index. Text is pre-tokenised for CJK (see store/fts.py); rowid = chunks.id.
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            title, body, tags, tokenize = "unicode61 remove_diacritics 2"
        );
        CREATE TABLE vectors (
            chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            text_hash TEXT NOT NULL,           -- sha1 of the embedded text
            vec BLOB NOT NULL                  -- float32 little-endian, L2-normalised
        );
        -- Vectors of chunks that were just deleted, reusable by identical text (same run).
        CREATE TABLE vector_cache (
            text_hash TEXT PRIMARY KEY,
            model TEXT NOT NULL,
            vec BLOB NOT NULL
        );
        CREATE TABLE links (
            note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            target TEXT NOT NULL,
            alias TEXT, anchor TEXT,
            embed INTEGER NOT NULL DEFAULT 0,
            start INTEGER NOT NULL DEFAULT -1
        );
        CREATE INDEX links_note ON links(note_id);
        CREATE INDEX links_target ON links(target);
        """,
    ),
    (
        2,
        """
        -- English stemming for the keyword index (Porter over unicode61): on SciFact it lifted
        -- BM25 nDCG@10 from 0.631 to 0.656 (bench/README.md). CJK stays one token per character.
        CREATE VIRTUAL TABLE chunks_fts_v2 USING fts5(
            title, body, tags, tokenize = "porter unicode61 remove_diacritics 2"
        );
        INSERT INTO chunks_fts_v2(rowid, title, body, tags)
            SELECT rowid, title, body, tags FROM chunks_fts;
        DROP TABLE chunks_fts;
        ALTER TABLE chunks_fts_v2 RENAME TO chunks_fts;
        """,
    ),
    (
        3,
        """
        -- Notes deleted in the app (file moved to <vault>/.trash/). A tombstone stops a
        -- reconcile, reindex or inbox scan from bringing the note back: a vault file whose
        -- bytes equal a tombstone's file_hash (or an inbox source with the same source and
        -- source_hash) is reported as trashed, not indexed.
        CREATE TABLE tombstones (
            note_id TEXT PRIMARY KEY,
            path TEXT NOT NULL,                 -- vault-relative path at deletion
            title TEXT NOT NULL,
            file_hash TEXT NOT NULL,            -- sha256 of the vault file bytes
            source TEXT, source_hash TEXT,
            trash_path TEXT,                    -- vault-relative, under .trash/
            deleted_at TEXT NOT NULL
        );
        CREATE INDEX tombstones_file_hash ON tombstones(file_hash);
        CREATE INDEX tombstones_source ON tombstones(source);
        """,
    ),
    (
        4,
        """
        -- Persistent job queue (src/cairn/jobs.py): one row per ingested source (file path or
        -- URL), reused when the source is ingested again. state: queued | running | done | dead
        -- (dead = the dead-letter list). Times are unix seconds (REAL).
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,                  -- file | url
            source TEXT NOT NULL,                -- resolved path or URL (dedupe key)
            payload TEXT NOT NULL DEFAULT '{}',  -- JSON object for the handler
            state TEXT NOT NULL DEFAULT 'queued',
            attempts INTEGER NOT NULL DEFAULT 0,
            max_attempts INTEGER NOT NULL DEFAULT 5,
            next_attempt_at REAL NOT NULL DEFAULT 0,
            last_error TEXT,
            outcome TEXT,                        -- added, updated, unchanged, skipped: reason
            owner_pid INTEGER,
            owner_start TEXT,                    -- process start time, tells a reused pid apart
            lease_until REAL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            finished_at REAL
        );
        CREATE UNIQUE INDEX jobs_source ON jobs(kind, source);
        CREATE INDEX jobs_state ON jobs(state, next_attempt_at)
        """,
    ),
    (
        5,
        """
        -- Memory about the person (src/cairn/memory, docs/memory.md). Mirrored to
        -- <vault>/_memory/ and rebuilt from there by reindex.
        CREATE TABLE memories (
            rowid INTEGER PRIMARY KEY,          -- rowid of memories_fts
            id TEXT NOT NULL UNIQUE,
            text TEXT NOT NULL,
            kind TEXT NOT NULL,
            confidence REAL NOT NULL,
            scope TEXT NOT NULL DEFAULT 'global',
            source TEXT NOT NULL DEFAULT 'user',
            source_ids TEXT NOT NULL DEFAULT '[]',  -- JSON list
            created TEXT NOT NULL,
            event_time TEXT, valid_from TEXT, valid_to TEXT, superseded_by TEXT,
            importance REAL NOT NULL,
            last_used TEXT,
            use_count INTEGER NOT NULL DEFAULT 0,
            tombstone INTEGER NOT NULL DEFAULT 0,
            entities TEXT NOT NULL DEFAULT '[]',    -- JSON list of names
            log TEXT NOT NULL DEFAULT '[]',         -- JSON list of change events
            model TEXT,                             -- embedding model of vec
            vec BLOB                                -- float32, L2-normalised
        );
        CREATE INDEX memories_scope ON memories(scope, kind);
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            text, tokenize = "porter unicode61 remove_diacritics 2"
        );
        CREATE TABLE entities (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            kind TEXT NOT NULL DEFAULT 'entity'
        );
        CREATE TABLE aliases (
            alias TEXT PRIMARY KEY,                 -- casefolded name
            display TEXT NOT NULL,
            entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE
        );
        CREATE INDEX aliases_entity ON aliases(entity_id);
        CREATE TABLE memory_entities (
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            PRIMARY KEY (memory_id, entity_id)
        );
        CREATE INDEX memory_entities_entity ON memory_entities(entity_id);
        CREATE TABLE core_blocks (
            name TEXT PRIMARY KEY,
            text TEXT NOT NULL,
            updated TEXT NOT NULL
        );
        """,
    ),
    (
        6,
        """
        -- Fact-augmented keys (LongMemEval: key = message + facts extracted from it). Facts
        -- extracted from a chat message, by (note id, message source_id). No foreign key to
        -- notes: the rows survive `cairn reindex` (which rebuilds notes and chunks) and are
        -- re-applied to the rebuilt keyword rows and embedding texts; `cairn extract`
        -- recomputes them. facts: JSON list of fact texts.
        CREATE TABLE fact_keys (
            note_id TEXT NOT NULL,
            source_id TEXT NOT NULL,
            facts TEXT NOT NULL DEFAULT '[]',
            method TEXT NOT NULL DEFAULT 'rules',
            updated TEXT NOT NULL,
            PRIMARY KEY (note_id, source_id)
        );
        """,
    ),
    (
        7,
        """
        -- The vault copy Cairn last wrote for an outside source, by note id (store/copies.py).
        -- Re-ingest overwrites a copy only while its bytes are still one of these hashes,
        -- else the person edited it and the new version goes beside it (ingest.py). Recorded
        -- before the write, with the write before it in prev_hash, so a crash between the
        -- two never reads as an edit. conflict_hash: the source hash of the version last
        -- written beside the edited copy (never written again, even once that copy is
        -- deleted). No foreign key to notes: rows survive `cairn reindex`.
        CREATE TABLE vault_copies (
            note_id TEXT PRIMARY KEY,
            file_hash TEXT NOT NULL,
            prev_hash TEXT,
            written_at TEXT NOT NULL,
            conflict_hash TEXT
        );
        -- Notes ingested before this migration: their file as last indexed counts as Cairn's.
        INSERT INTO vault_copies (note_id, file_hash, prev_hash, written_at)
            SELECT id, file_hash, NULL, indexed_at FROM notes WHERE source IS NOT NULL;
        """,
    ),
    (
        8,
        """
        -- Entities of everything ingested (src/cairn/graph, issue 17). entity_mentions: a
        -- note (or one chat message of it: source_id, '' for the whole note) mentions an
        -- entity `count` times; method is what created the edge (ner, wikilink, tag,
        -- frontmatter, title, speaker). Capped per note (graph/extract.py MAX_PER_NOTE).
        -- entity_cooccur: two entities mentioned in one unit, a < b, with counts and the
        -- first/last date of the units. graph_state: the file hash each note's entities were
        -- extracted from (a note is re-extracted only when it changed). Derived data: all
        -- three are rebuilt from notes by `cairn reindex`.
        CREATE TABLE IF NOT EXISTS entity_mentions (
            note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            source_id TEXT NOT NULL DEFAULT '',
            entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            method TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (note_id, source_id, entity_id)
        );
        CREATE INDEX IF NOT EXISTS entity_mentions_entity ON entity_mentions(entity_id);
        CREATE TABLE IF NOT EXISTS entity_cooccur (
            a TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            b TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            count INTEGER NOT NULL DEFAULT 0,
            first TEXT, last TEXT,
            PRIMARY KEY (a, b)
        );
        CREATE INDEX IF NOT EXISTS entity_cooccur_b ON entity_cooccur(b);
        CREATE TABLE IF NOT EXISTS graph_state (
            note_id TEXT PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
            file_hash TEXT NOT NULL
        );
        """,
    ),
    (
        9,
        """
        -- Emotional weight of a memory (memory/affect.py, issue 18): impact is a signed
        -- integer in [-10, 10], tags a JSON list (identity, vulnerability, turning_point,
        -- commitment, correction). Recall ranks by |impact| / 10 and a bonus for any tag.
        ALTER TABLE memories ADD COLUMN impact INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE memories ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
        """,
    ),
    (
        10,
        """
        -- The approximate vector index (store/ann.py, issue 37): every write of a vector logs
        -- its chunk id in the same transaction; the HNSW file beside the index replays the log
        -- after the last entry it holds. index_uuid tells one index database from another (a
        -- rebuilt index starts its log again).
        CREATE TABLE IF NOT EXISTS vector_log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            chunk_id INTEGER NOT NULL
        );
        CREATE TRIGGER IF NOT EXISTS vectors_logged_insert AFTER INSERT ON vectors
            BEGIN INSERT INTO vector_log(chunk_id) VALUES (new.chunk_id); END;
        CREATE TRIGGER IF NOT EXISTS vectors_logged_update AFTER UPDATE ON vectors
            BEGIN INSERT INTO vector_log(chunk_id) VALUES (new.chunk_id); END;
        CREATE TRIGGER IF NOT EXISTS vectors_logged_delete AFTER DELETE ON vectors
            BEGIN INSERT INTO vector_log(chunk_id) VALUES (old.chunk_id); END;
        INSERT OR IGNORE INTO meta(key, value) VALUES ('index_uuid', lower(hex(randomblob(16))));
        """,
    ),
]


class IndexOpenError(Unavailable):
    """The index database cannot be opened or migrated (message names the file)."""


class IndexConnection(sqlite3.Connection):
    """A connection to the index. A subclass only so that per-connection caches (search's
    term statistics) can hold weak references to it; it behaves as sqlite3.Connection."""


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) the index at `path`, in WAL mode, migrated to the latest
    schema version. Raises IndexOpenError if the file is not a SQLite database (a damaged
    file's message names `cairn reindex`, store/damaged.py)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False, factory=IndexConnection)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        for attempt in range(20):
            # Switching a brand-new file to WAL can report "locked" at once (no busy wait)
            # while another process creates the same index: retry for a bounded time.
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 19:
                    raise
                time.sleep(0.05 * (attempt + 1))
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        problems = index_file_problems(path)  # SQLite's message names no file
        from cairn.store.damaged import is_damaged_error, rebuild_hint
        if is_damaged_error(exc):
            problems.append(rebuild_hint(path))
        raise IndexOpenError(f"{path}: cannot open index database: {exc}"
                             + "".join(f"; {p}" for p in problems)) from exc
    return conn


def index_state(conn: sqlite3.Connection) -> tuple[int, int]:
    """(PRAGMA data_version, total_changes): changes whenever the index may have changed —
    data_version when another connection commits, total_changes on this connection's own
    writes (which data_version does not count). Per-connection caches (search's term
    statistics, the service's alias set) are valid while it stays the same."""
    return conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes


def schema_version(conn: sqlite3.Connection) -> int:
    """The highest applied migration version (0 for a new file)."""
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection) -> None:
    """Apply every migration newer than the file's `user_version`, each in one transaction."""
    for version, sql in MIGRATIONS:
        if version <= schema_version(conn):
            continue
        conn.execute("BEGIN IMMEDIATE")
        if version <= schema_version(conn):  # another process migrated while we waited
            conn.execute("ROLLBACK")
            continue
        try:
            # executescript would COMMIT implicitly; run statements one by one instead.
            for statement in _split_sql(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except Exception:
            conn.execute("ROLLBACK")
            raise


def _split_sql(sql: str) -> list[str]:
    """Split a migration script into statements (comments start with `--`; no string
    literal in a migration may contain `--` or `;`). A trigger's body (BEGIN ... END) stays
    one statement: pieces are joined until sqlite3.complete_statement says it is whole."""
    text = re.sub(r"--[^\n]*", "", sql)
    out, buf = [], ""
    for part in text.split(";"):
        buf += part + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \n\t;"):
                out.append(buf.strip().rstrip(";").strip())
            buf = ""
    if buf.strip(" \n\t;"):
        out.append(buf.strip().rstrip(";").strip())
    return out


def set_busy_timeout(conn: sqlite3.Connection, seconds: float) -> None:
    """How long a statement on `conn` waits for another process's lock before it fails
    ("database is locked"); store.db.connect sets BUSY_TIMEOUT_MS."""
    conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "db")  # PostgreSQL twins when conn is a PgConn (store/route.py)
