"""A damaged index file: told apart from other SQLite errors, named with its fix, and set
aside by `cairn reindex`.

SQLite reports a damaged file as "database disk image is malformed" (SQLITE_CORRUPT) or
"file is not a database" (SQLITE_NOTADB), naming no file and no way out. The index is
derived from the vault (docs/concepts.md: "deleting or losing the index never loses a
note"), so the fix is to rebuild it. The damaged file is renamed, never deleted: the job
queue, the tombstones and the record of vault copies live only in it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from cairn.store.writable import SUFFIXES

SQLITE_CORRUPT = 11  # primary result codes (sqlite3.h); extended codes keep them in the low byte
SQLITE_NOTADB = 26
ASIDE = ".damaged-"  # index.db -> index.db.damaged-20261208T001500Z (and its -wal, -shm)


def is_damaged_error(exc: BaseException) -> bool:
    """True for SQLite's "database disk image is malformed" and "file is not a database"."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)
    return "malformed" in str(exc) or "not a database" in str(exc)


def rebuild_hint(index: Path) -> str:
    """The fix for a damaged `index`, for an error message."""
    return (f"the index file is damaged; your notes are safe in the vault: run `cairn reindex` to rebuild "
            f"the index from them (the damaged file is kept as {index.name}{ASIDE}TIME)")


def damaged_message(index: Path, exc: BaseException) -> str:
    """The error for a damaged database met while using the home of `index`: SQLite's
    words name no file, so the file is found by checking (`index_damage`). The index
    (rebuilt from the vault: `rebuild_hint`) unless only `<home>/schedule.db`, the
    reminders and scheduled jobs, is damaged: nothing rebuilds that one, a snapshot
    restores it."""
    schedule = index.with_name("schedule.db")
    if index_damage(schedule) and not index_damage(index):
        return (f"the reminder store {schedule} cannot be read ({exc}): the file is damaged, and the reminders "
                f"and scheduled jobs in it are not kept anywhere else; while no Cairn process runs, copy "
                f"schedule.db back from a snapshot of `cairn backup`, or move the file aside to start again "
                f"without them (your notes and memories are not in it)")
    return f"the index {index} cannot be read ({exc}): {rebuild_hint(index)}"


def index_damage(index: Path) -> str | None:
    """SQLite's words for what is wrong with the file `index` (PRAGMA quick_check, which
    reads every page: seconds on a large index), or None when it is sound or missing, and
    also when it cannot be checked for another reason (locked, unreadable, a -wal that is a
    folder): opening the index then names that problem and its fix (db.connect)."""
    if not index.is_file():
        return None
    try:
        conn = sqlite3.connect(index, timeout=10)
        try:
            rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc) if is_damaged_error(exc) else None
    return None if rows == ["ok"] else "; ".join(map(str, rows[:3]))


def set_aside(index: Path, now: float | None = None) -> Path:
    """Rename `index` and its -wal and -shm files to `<name>.damaged-<UTC time>` (so that a
    new index is made in their place); returns the new path of the main file. Raises
    OSError when a file cannot be renamed."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    kept = index.with_name(f"{index.name}{ASIDE}{stamp}")
    for suffix in SUFFIXES:
        src = Path(f"{index}{suffix}")
        if src.exists():
            os.replace(src, Path(f"{kept}{suffix}"))
    return kept
