"""Why the index cannot be written, named by file.

SQLite in WAL mode writes three files: `index.db`, `index.db-wal` and `index.db-shm`. When
one of them is left read-only (a `-shm` left behind by another user's or a crashed
process, an index copied from a read-only medium) or is not a file at all, SQLite says
only "attempt to write a readonly database" or "unable to open database file", naming no
file. `index_file_problems` finds which file and why, by opening each for writing (as
SQLite does: os.access misses read-only mounts and root's capabilities), and
`readonly_message` puts it into one error message with the fix.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

SQLITE_READONLY = 8  # primary result code (sqlite3.h); extended codes keep it in the low byte
SUFFIXES = ("", "-wal", "-shm")


def index_file_problems(index: Path) -> list[str]:
    """For `index` (the index.db path) and its `-wal` and `-shm` files: "PATH <problem>;
    <fix>" for each that exists but cannot be opened for writing by this process (a
    directory, read-only, ...). Missing files are fine (SQLite creates them). [] when
    every existing file can be written."""
    out = []
    for suffix in SUFFIXES:
        path = Path(f"{index}{suffix}")
        try:
            fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)  # no O_CREAT: nothing is created
        except FileNotFoundError:
            continue
        except IsADirectoryError:
            out.append(f"{path} is a directory, not a file; move it out of the way")
            continue
        except PermissionError:
            fix = f"make it writable (chmod u+w {path})"
            if suffix == "-shm":
                fix += " or, while no Cairn process runs, delete it (SQLite rebuilds it)"
            out.append(f"{path} is read-only; {fix}")
            continue
        except OSError as exc:
            out.append(f"{path} cannot be written: {(exc.strerror or str(exc)).lower()}")
            continue
        os.close(fd)
    return out


def is_readonly_error(exc: BaseException) -> bool:
    """True for SQLite's SQLITE_READONLY errors ("attempt to write a readonly database")."""
    if not isinstance(exc, sqlite3.Error):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == SQLITE_READONLY
    return "readonly database" in str(exc)


def readonly_message(index: Path, exc: BaseException) -> str:
    """The error for a write refused by SQLite (`is_readonly_error`): names the index, the
    file that cannot be written and the fix (`index_file_problems`)."""
    problems = index_file_problems(index)
    where = "; ".join(problems) if problems else ("every index file can be opened for writing "
                                                  "(is the file system mounted read-only?)")
    return f"the index {index} cannot be written ({exc}): {where}"
