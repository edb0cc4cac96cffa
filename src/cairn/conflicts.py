"""Vault copies the person edited: never overwritten by a re-ingest.

A source ingested from outside the vault (a PDF, a markdown file, a URL) has a vault copy
that is the source of truth and may be edited. When the source changes and is ingested again,
the copy is replaced only while its bytes are still what Cairn wrote (store/copies.py; for a
note ingested before that record existed, the file hash in the index). Otherwise the copy is
kept as it is and the new version goes beside it as a *conflict copy*
`<stem>.conflict-<YYYYMMDD-HHMMSS>.md` (UTC), an ordinary note of its own (own id, no
`source`, so the source's note stays the person's copy).
"""

from __future__ import annotations

import glob
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from cairn import vault as V
from cairn.store.copies import record_write, written_hashes

MARK = ".conflict-"


def copy_edited(conn: sqlite3.Connection, path: Path, note_id: str,
                indexed_hash: str | None) -> tuple[bytes, str] | None:
    """The edited vault copy as (bytes, their sha256 hex) when the copy at `path` (of note
    `note_id`) exists and its bytes are not a copy Cairn wrote: their sha256 is none of the
    recorded writes, or, when none is recorded, differs from `indexed_hash` (the index's
    file hash; None = nothing known, not edited); else None. The caller hands the bytes and
    hash on to `ingest.index_note_file(data=, file_hash=)`, so the copy is read once.
    A missing copy is not edited (it is written again). Raises OSError when the file exists
    but cannot be read."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    known = written_hashes(conn, note_id) or ({indexed_hash} if indexed_hash else set())
    if not known:
        return None
    digest = V.sha256_bytes(data)
    return None if digest in known else (data, digest)


def keep_reference(conn: sqlite3.Connection, note_id: str, indexed_hash: str | None) -> None:
    """Record `indexed_hash` as Cairn's version of note `note_id` when no write of it is
    recorded, before the index takes in the person's edit (which replaces the index's file
    hash, the only other reference)."""
    if indexed_hash and not written_hashes(conn, note_id):
        record_write(conn, note_id, indexed_hash)


def conflict_relpath(vault: Path, relpath: str, when: datetime) -> str:
    """A free vault-relative path beside `relpath` for its conflict copy:
    `<stem>.conflict-<YYYYMMDD-HHMMSS><suffix>`, with `-2`, `-3`... added if taken."""
    stem, suffix = os.path.splitext(relpath)
    return V.free_relpath(vault, f"{stem}{MARK}{when:%Y%m%d-%H%M%S}", suffix)


def find_conflict_copy(vault: Path, relpath: str, source_hash: str, data: bytes) -> str | None:
    """The vault-relative path of a conflict copy of `relpath` that already holds the source
    version `source_hash` (its frontmatter `source_hash`/`cairn_source_hash`, or, for a copy
    whose frontmatter Cairn could not touch, bytes equal to the source `data`); else None.
    So ingesting the same new version again does not add a second conflict copy."""
    stem, suffix = os.path.splitext(relpath)
    folder = (vault / relpath).parent
    for p in sorted(folder.glob(glob.escape(Path(stem).name) + MARK + "*" + glob.escape(suffix))):
        try:
            raw = p.read_bytes()
        except OSError:
            continue
        if raw == data:
            return V.rel(vault, p)
        meta, _ = V.split_frontmatter(raw.decode("utf-8", errors="replace"), lenient=True)
        if source_hash in (meta.get("source_hash"), meta.get("cairn_source_hash")):
            return V.rel(vault, p)
    return None


def edited_warning(relpath: str, conflict: str, *, already: bool = False) -> str:
    """The report warning for a source whose vault copy was edited."""
    where = f"this version is already in {conflict}" if already else f"new version written to {conflict}"
    return f"vault copy {relpath} edited since last ingest; {where} (your copy is kept)"
