"""Note operations inside Cairn: create, read, update (overwrite/append) and delete.

Every operation writes the vault file first (atomically) and then indexes it with
`ingest.index_note_file`, exactly as an outside edit picked up by the watcher would be.

- A note is found by id, vault path or name (file name, title, alias; `links.find_note`).
  If its indexed path no longer exists (moved or renamed outside Cairn), the vault is
  reconciled first, so the update goes to the moved file and no second note is created.
- create writes `<vault>/<folder>/<Title>.md` with frontmatter `title`, `cairn_id` (so the
  note keeps its id through moves and edits) and `created`; it refuses a title that an
  existing note already has.
- delete moves the file to `<vault>/.trash/<path>`, removes every index row of the note
  (chunks, keyword rows, vectors, links) and keeps a tombstone (migration 3), so neither a
  restart, a reconcile, a reindex nor an inbox scan brings it back. An explicit
  `cairn ingest` of the same source later is a new request and ingests it again.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path
from typing import Any

from cairn import paths as P
from cairn import vault as V
from cairn.people import owner_keys
from cairn.config import Settings
from cairn.errors import Conflict
from cairn.ingest import embed_missing, index_note_file
from cairn.links import NoteNotFound, Resolver, find_note, key
from cairn.model import NOTE_UPDATE_MODES
from cairn.store import notes as N
from cairn.sync import reconcile
from cairn.errors import Conflict, InvalidInput

MODES = NOTE_UPDATE_MODES


class NoteConflict(Conflict):
    """The operation would create a duplicate note or overwrite another file (message names it)."""


class EditConflict(Conflict):
    """The note's file changed since the editor read it (an outside edit): nothing was written.
    details: path, expected_hash, current_hash, current_body (the file's body now)."""


def _safe_filename(title: str) -> str:
    name = re.sub(r'[\x00-\x1f/\\:*?"<>|]+', "-", title).strip(" .-")
    return (name[:120].strip() or "note")


def _index(conn: sqlite3.Connection, settings: Settings, embedder, path: Path) -> N.NoteRow:
    _status, note_id, _ = index_note_file(conn, settings, path)
    if embedder is not None:
        embed_missing(conn, embedder, None, settings.chunk.embed_max_chunks,
                      fact_keys=settings.memory.fact_keys,
                      neighbour_keys=settings.memory.neighbour_keys)
    note = N.get_note(conn, note_id)
    assert note is not None
    return note


def note_file(settings: Settings, note: N.NoteRow) -> Path:
    """The vault file of `note`, confined to the vault (cairn.paths): raises PathOutside,
    touching nothing, when its path leads outside the vault through a symlink (a linked
    folder indexed before, or swapped in since)."""
    path = settings.vault / note.path
    reason = P.escape_reason(settings.vault, path)
    if reason is not None:
        raise P.PathOutside(f"note {note.path}: {reason}; Cairn does not read, change or move files "
                            "outside the vault (`cairn sync` drops this note from the index)")
    return path


def resolve(conn: sqlite3.Connection, settings: Settings, embedder, ref: str) -> N.NoteRow:
    """The note `ref` names, with its file present on disk: when the indexed file is gone
    the vault is reconciled first (a move made outside Cairn is followed). Raises
    NoteNotFound / AmbiguousNote (ValueError)."""
    try:
        note = find_note(conn, ref)
    except NoteNotFound:
        note = None
    if note is not None and (settings.vault / note.path).is_file():
        return note
    reconcile(conn, settings, embedder)
    return find_note(conn, ref)


def _seen_path(conn: sqlite3.Connection, relpath: str, only: set[str]) -> bool:
    """Whether the note indexed at vault path `relpath` is one of the ids `only`."""
    note = N.get_note_by_path(conn, relpath)
    return note is not None and note.id in only


def create_note(conn: sqlite3.Connection, settings: Settings, embedder, title: str, body: str,
                folder: str = "", tags: list[str] | None = None, only: set[str] | None = None) -> N.NoteRow:
    """Write a new note `<vault>/<folder>/<title>.md` and index it. Raises NoteConflict when
    a note with this title (case-insensitive) or a file at that path exists, ValueError for
    an empty title or a folder outside the vault. only: the ids of the notes the writer
    sees (one person's, cairn.people; None: all): only those conflict, and a file at the
    path that is not one of them (another person's) gets the new note a numbered name
    ("Title-2.md") instead of an error that would reveal it."""
    title = title.strip()
    if not title:
        raise InvalidInput("the note title is empty")
    resolver = Resolver.from_db(conn)
    same = [i for i in resolver.by_title.get(key(title), []) if only is None or i in only]
    if same:
        paths = ", ".join(sorted(resolver.notes[i].path for i in same))
        raise NoteConflict(f"a note titled {title!r} exists already ({paths}); "
                           "update it (`cairn note update`) or choose another title")
    folder = folder.strip().strip("/")
    target = (settings.vault / folder / f"{_safe_filename(title)}.md")
    vault = P.resolved(settings.vault)
    parent = P.resolved(target.parent)  # never raises: a loop is refused below by name
    if vault != parent and vault not in parent.parents:
        raise InvalidInput(f"folder {folder!r} is outside the vault")
    if P.is_loop(target.parent):
        raise InvalidInput(f"folder {folder!r} is a symlink loop in the vault")
    if any(V.skip_dir_name(p) for p in Path(folder).parts):
        raise InvalidInput(f"folder {folder!r} is a hidden or reserved vault folder")
    n = 1
    while target.exists() and only is not None and not _seen_path(conn, V.rel(settings.vault, target), only):
        n += 1
        target = target.with_name(f"{_safe_filename(title)}-{n}.md")
    if target.exists():
        raise NoteConflict(f"{V.rel(settings.vault, target)} exists already")
    relpath = V.rel(settings.vault, target)
    fm: dict[str, Any] = {"title": title, "cairn_id": V.stable_id("note:" + relpath),
                          "created": N.now_iso(), **owner_keys(settings.owner)}
    if tags:
        fm["tags"] = list(tags)
    V.atomic_write(target, V.render_note(fm, body))
    return _index(conn, settings, embedder, target)


def read_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str) -> dict[str, Any]:
    """The note `ref` names: {id, path, title, type, tags, aliases, body} (body = the
    current file text after its frontmatter)."""
    note = resolve(conn, settings, embedder, ref)
    path = note_file(settings, note)
    data = path.read_bytes()
    text = path.read_text(encoding="utf-8", errors="replace")
    return {"id": note.id, "path": note.path, "title": note.title, "type": note.type,
            "tags": note.tags, "aliases": note.aliases, "body": V.split_frontmatter(text, lenient=True)[1].strip("\n"),
            "file_hash": V.sha256_bytes(data)}


def update_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str, body: str,
                mode: str = "overwrite", *, expected_hash: str | None = None) -> N.NoteRow:
    """Replace (`overwrite`) or extend (`append`) the body of the note `ref` names, keeping
    its frontmatter block byte for byte, and re-index it. Raises ValueError for a bad mode
    or an empty body (an empty stdin in a script must not wipe a note: `delete_note`
    removes one on purpose), NoteNotFound / AmbiguousNote, and EditConflict when
    `expected_hash` (the file's sha256 when the editor read it) is given and the file now
    differs (edited outside meanwhile). Nothing is written then."""
    if mode not in MODES:
        raise InvalidInput(f"mode {mode!r} is not one of {', '.join(MODES)}")
    if not body or not body.strip():
        raise InvalidInput(f"the new body for {ref!r} is empty; nothing was changed "
                         "(to remove the note use `cairn note delete`)")
    note = resolve(conn, settings, embedder, ref)
    path = note_file(settings, note)
    data = path.read_bytes()
    text = path.read_text(encoding="utf-8", errors="replace")
    if expected_hash and V.sha256_bytes(data) != expected_hash:
        raise EditConflict(f"{note.path} was changed outside this editor since you opened it; "
                           "nothing was saved (your text is kept below the current version)",
                           path=note.path, expected_hash=expected_hash,
                           current_hash=V.sha256_bytes(data),
                           current_body=V.split_frontmatter(text, lenient=True)[1].strip("\n"))
    _meta, old_body = V.split_frontmatter(text, lenient=True)  # the block is kept byte for byte
    head = text[:len(text) - len(old_body)]
    if mode == "append":
        new_body = old_body.rstrip("\n") + ("\n\n" if old_body.strip() else "") + body.strip("\n") + "\n"
    else:
        new_body = ("\n" if head else "") + body.strip("\n") + "\n"
    V.atomic_write(path, head + new_body)
    return _index(conn, settings, embedder, path)


def rename_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str, title: str) -> N.NoteRow:
    """Give the note `ref` names the title `title` (its frontmatter `title`, which wins over a
    heading; the file keeps its path and body) and re-index it. Raises InvalidInput for an
    empty title or a frontmatter block that is not a YAML mapping (never rewritten),
    NoteNotFound / AmbiguousNote."""
    title = " ".join((title or "").split())
    if not title:
        raise InvalidInput(f"the new title for {ref!r} is empty; nothing was changed")
    note = resolve(conn, settings, embedder, ref)
    path = note_file(settings, note)
    new = V.add_frontmatter_keys(path.read_text(encoding="utf-8", errors="replace"), {"title": title})
    if new is None:
        raise InvalidInput(f"{note.path}: its frontmatter is not a YAML mapping, so it is not rewritten")
    V.atomic_write(path, new)
    return _index(conn, settings, embedder, path)


def delete_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str) -> dict[str, Any]:
    """Move the note's file to `<vault>/.trash/`, drop every index row of it and keep a
    tombstone. Returns {id, path, title, trash_path}. Raises PathOutside (nothing moved,
    nothing dropped) when the note's path or the trash leads outside the vault."""
    note = resolve(conn, settings, embedder, ref)
    src = note_file(settings, note)  # never moves a file from outside the vault
    trash_rel = None
    file_hash = note.file_hash
    if src.exists():
        file_hash = V.sha256_bytes(src.read_bytes())
        trash_rel = V.free_relpath(settings.vault, *os.path.splitext(f".trash/{note.path}"))
        dest = settings.vault / trash_rel
        P.confine(settings.vault, dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        src.replace(dest)
    with N.transaction(conn):
        N.add_tombstone(conn, note, file_hash, trash_rel)
        N.delete_note(conn, note.id)
    return {"id": note.id, "path": note.path, "title": note.title, "trash_path": trash_rel}
