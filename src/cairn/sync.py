"""Reconcile the vault with the index (startup sync, `cairn sync`, the watcher).

The vault is the source of truth; `reconcile` makes the index match it file by file:

- a file whose (mtime_ns, size) equal its index row is not read (fast path);
- a new file is indexed; a changed body is re-chunked and re-embedded; a frontmatter-only
  change updates metadata without re-embedding (`ingest.index_note_file` decides);
- a file gone from its indexed path whose bytes (sha256) now sit at a new path is a move:
  the row keeps its note id and only the path (and a title taken from the file name)
  changes, so links and backlinks stay; notes that carry an id in their frontmatter keep
  it through any move, even with edits;
- a file gone for good is removed from the keyword index, the vectors and the link graph;
- a file whose bytes equal a note deleted in Cairn (a tombstone) is reported as trashed and
  not indexed; unreadable files, dangling symlinks and symlink loops are reported, never
  raised.
Vectors of new or changed chunks are computed at the end (`ingest.embed_missing`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from cairn import paths as P
from cairn import vault as V
from cairn.config import Settings
from cairn.embed import model_key
from cairn.ingest import embed_missing, index_note_file
from cairn.parse.errors import ParseError
from cairn.store import notes as N
from cairn.store.vectors import any_chunk_to_embed, neighbour_keys_state, stored_vector_model


@dataclass
class SyncReport:
    """Outcome of one reconcile. Paths are vault-relative.

    added/updated/metadata: indexed new, body re-indexed, frontmatter-only update;
    moved: (old path, new path) with the note id kept; removed: notes whose file is gone;
    trashed: files equal to a note deleted in Cairn (not indexed); unchanged: count of
    files skipped unread or found byte-identical; failed: (path, reason) for unreadable
    files, symlink loops and parse errors; warnings: (path, message) for files indexed in
    spite of a problem (frontmatter that is not valid YAML: the note is kept, the warning
    names the file); embedded: chunks embedded at the end.
    """

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    metadata: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    trashed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    unchanged: int = 0
    embedded: int = 0

    @property
    def changed(self) -> bool:
        """True when the index was modified."""
        return bool(self.added or self.updated or self.metadata or self.moved or self.removed)

    def to_json(self) -> dict[str, Any]:
        return {
            "added": self.added, "updated": self.updated, "metadata": self.metadata,
            "moved": [{"from": a, "to": b} for a, b in self.moved], "removed": self.removed,
            "trashed": self.trashed, "unchanged": self.unchanged, "embedded_chunks": self.embedded,
            "failed": [{"path": p, "reason": r} for p, r in self.failed],
            "warnings": [{"path": p, "message": m} for p, m in self.warnings],
        }


def _scope(vault: Path, paths: Iterable[Path | str], indexed: dict[str, tuple]) -> tuple[
        list[V.NoteFile], list[str], list[tuple[str, str]]]:
    """Files present and indexed paths missing among `paths` (files or folders, absolute or
    vault-relative). A folder stands for every note under it."""
    files: dict[str, V.NoteFile] = {}
    gone: set[str] = set()
    problems: list[tuple[str, str]] = []
    root = vault.resolve()
    for p in paths:
        p = Path(p)
        absolute = p if p.is_absolute() else vault / p
        try:
            relpath = absolute.relative_to(vault).as_posix()
        except ValueError:
            try:
                relpath = P.resolved(absolute).relative_to(root).as_posix()
            except (ValueError, OSError):
                continue  # outside the vault
            absolute = vault / relpath  # the vault as configured (it may sit behind a symlink)
        if relpath == ".":
            relpath = ""  # the whole vault
        parts = relpath.split("/")
        if any(V.skip_dir_name(d) for d in parts[:-1]):
            continue
        if not relpath or absolute.is_dir():
            if relpath and V.skip_dir_name(parts[-1]):
                continue
            found, probs = V.scan_notes(vault, relpath)
            files.update((f.relpath, f) for f in found)
            problems.extend(probs)
            prefix = relpath + "/" if relpath else ""
            gone.update(r for r in indexed if r.startswith(prefix) and r not in files)
            continue
        outside = P.outside_reason(root, absolute) if V.is_note_name(parts[-1]) else None
        if V.is_note_name(parts[-1]) and P.name_problem(relpath) and absolute.exists():
            problems.append((P.shown(relpath), f"{P.name_problem(relpath)}, skipped"))  # as scan_notes
            continue
        if outside is not None:
            problems.append((relpath, f"{outside}, skipped"))  # never read; its row goes
        elif V.is_note_name(parts[-1]):
            try:
                st = absolute.stat()
                files[relpath] = V.NoteFile(relpath, absolute, st.st_mtime_ns, st.st_size)
                continue
            except FileNotFoundError:
                if absolute.is_symlink():
                    problems.append((relpath, "dangling symlink"))
            except OSError as exc:
                problems.append((relpath, V.stat_problem(exc)))
                continue
        if relpath in indexed:
            gone.add(relpath)
        # a folder that is gone: every note indexed under it
        gone.update(r for r in indexed if r.startswith(relpath + "/") and not (vault / r).exists())
    return sorted(files.values(), key=lambda f: f.relpath), sorted(gone - set(files)), problems


def _vectors_missing(conn: sqlite3.Connection, settings: Settings, embedder) -> bool:
    """True when some chunk that should have a vector has none (an interrupted run), the
    chat vectors were made with another `[memory] neighbour_keys` than the setting, or the
    vectors are another embedding model's than `embedder`'s (the configured one changed)."""
    stored = stored_vector_model(conn)
    return (any_chunk_to_embed(conn, settings.chunk.embed_max_chunks)
            or neighbour_keys_state(conn) != float(settings.memory.neighbour_keys)
            or (stored is not None and stored != model_key(embedder)))


def _remove_gone(conn: sqlite3.Connection, gone: list[str], report: SyncReport) -> None:
    """Drop the notes still indexed at the vault-relative paths `gone` (their files are
    gone for good), in one transaction: one lookup of their ids, then every row derived
    from them; each removed path goes to `report.removed`, in the order given."""
    if not gone:
        return
    with N.transaction(conn):
        ids = N.ids_by_path(conn, gone)
        removed = [r for r in gone if r in ids]
        for r in removed:
            N.delete_note(conn, ids[r])
    report.removed.extend(removed)  # after the commit


def reconcile(conn: sqlite3.Connection, settings: Settings, embedder, paths: Iterable[Path | str] | None = None,
              *, move_from: Iterable[str] = (), embed: bool = True) -> SyncReport:
    """Bring the index in line with the vault (all of it, or only `paths`).

    paths: files or folders (absolute or vault-relative) to look at, e.g. the watcher's
    changed paths; None = the whole vault. move_from: extra vault-relative paths (notes or
    folders) that are missing from disk and may be the origin of a move found among
    `paths`, but are not removed here (the watcher waits a little longer before it removes a vanished note).
    embed: compute vectors of new chunks at the end (`embed_missing`, skipped when nothing
    changed and no vector is missing, so a no-change startup never loads the model);
    embedder may be None when embed is False. Returns a SyncReport; never raises for a bad file.
    """
    vault = settings.vault
    report = SyncReport()
    indexed = N.file_stats(conn)  # path -> (id, mtime_ns, size, file_hash)
    if paths is None:
        files, problems = V.scan_notes(vault)
        present = {f.relpath for f in files}
        gone = [r for r in indexed if r not in present]
        if indexed and not files:
            # An empty or unreachable vault (an unmounted drive) must not wipe the index.
            problems.append((".", f"the vault {vault} holds no notes (missing or unmounted?); "
                                  f"nothing removed (`cairn reindex` clears the index on purpose)"))
            gone = []
    else:
        files, gone, problems = _scope(vault, paths, indexed)
    report.failed.extend(problems)
    origins = {indexed[r][0]: r for r in gone}  # note id -> old path
    by_hash: dict[str, list[str]] = {}
    extra = []
    for m in move_from:  # a note path, or a folder that went away with notes in it
        m = m.strip("/")
        extra.extend(r for r in indexed if (r == m or r.startswith(m + "/")) and not (vault / r).exists())
    for r in list(gone) + extra:
        origins.setdefault(indexed[r][0], r)
        by_hash.setdefault(indexed[r][3], []).append(r)
    trashed = N.tombstoned_hashes(conn)
    moved_from: set[str] = set()
    for f in files:
        row = indexed.get(f.relpath)
        if row and row[1] == f.mtime_ns and row[2] == f.size:
            report.unchanged += 1
            continue
        hint = data = digest = None
        if row is None and (by_hash or trashed):
            try:
                data = f.path.read_bytes()  # read once: index_note_file reuses these bytes
                digest = V.sha256_bytes(data)
            except OSError as exc:
                report.failed.append((f.relpath, f"cannot read: {exc.strerror or exc}"))
                continue
            if digest in trashed:
                report.trashed.append(f.relpath)
                continue
            candidates = [c for c in by_hash.get(digest, []) if c not in moved_from]
            if candidates:
                hint = indexed[candidates[0]][0]
        try:
            status, note_id, warnings = index_note_file(conn, settings, f.path, note_id=hint,
                                                        data=data, file_hash=digest,
                                                        stat_before=(f.mtime_ns, f.size))
        except (ParseError, OSError, UnicodeError) as exc:
            report.failed.append((f.relpath, str(exc)))
            continue
        report.warnings += [(f.relpath, w) for w in warnings]
        old = origins.get(note_id)
        if row is None and old is not None and old != f.relpath and old not in moved_from:
            moved_from.add(old)
            report.moved.append((old, f.relpath))
        elif status == "added":
            report.added.append(f.relpath)
        elif status == "updated":
            report.updated.append(f.relpath)
        elif status == "metadata":
            report.metadata.append(f.relpath)
        else:
            report.unchanged += 1
    _remove_gone(conn, [r for r in gone if r not in moved_from], report)
    if embed and embedder is not None and (report.changed or _vectors_missing(conn, settings, embedder)):
        report.embedded, _ = embed_missing(conn, embedder, None, settings.chunk.embed_max_chunks,
                      fact_keys=settings.memory.fact_keys,
                      neighbour_keys=settings.memory.neighbour_keys)
    return report
