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
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Iterator

from cairn import paths as P
from cairn import vault as V
from cairn.people import owner_keys
from cairn.config import Settings
from cairn.errors import Conflict
from cairn.model import input_source_of
from cairn.store.locks import busy
from cairn.links import NoteNotFound, Resolver, find_note, key
from cairn.model import NOTE_UPDATE_MODES
from cairn.store import history as H
from cairn.store import notes as N
from cairn.controls import BIDI
from cairn.errors import Conflict, InvalidInput, storage_full

MODES = NOTE_UPDATE_MODES


class NoteConflict(Conflict):
    """The operation would create a duplicate note or overwrite another file (message names it)."""


class EditConflict(Conflict):
    """The note's file changed since the editor read it (an outside edit): nothing was written.
    details: path, expected_hash, current_hash, current_body (the file's body now)."""


def _safe_filename(title: str) -> str:
    """The file name (without ".md") a note titled `title` gets, valid on Linux, macOS and
    Windows: characters no file system takes become "-"; at most 120 characters and
    cairn.paths.fit_name's bytes and device-name rule ("CON" -> "CON_", "COM1.txt" -> "COM1_.txt")."""
    name = re.sub(r'[\x00-\x1f/\\:*?"<>|]+', "-", title).strip(" .-")[:120].strip(" .-") or "note"
    return P.fit_name(name + ".md")[:-3]


def _index(conn: sqlite3.Connection, settings: Settings, embedder, path: Path) -> N.NoteRow:
    from cairn.ingest import index_note_file  # the writes only: reading a note needs no ingest
    _status, note_id, _ = index_note_file(conn, settings, path)
    _embed(conn, settings, embedder, note_id)
    note = N.get_note(conn, note_id)
    assert note is not None
    return note


_GRAPH_LATER: ContextVar[bool] = ContextVar("cairn_graph_later", default=False)


@contextmanager
def graph_later() -> Iterator[None]:
    """Inside the block a note write indexes and embeds its note at once but leaves the
    note's entities (the graph pass: spaCy, a few CPU seconds to load in a fresh process) to
    the next `embed_missing`: the next ingest, sync or watch event, or `Cairn.catch_up_notes`,
    which the assistant runs when a session ends (cairn.assistant). Search and answers find
    the note at once; only its entity links wait. Used for the assistant's writes in a chat
    turn (a one-shot `cairn chat --message` would otherwise load spaCy for "add bread to
    the Groceries note")."""
    token = _GRAPH_LATER.set(True)
    try:
        yield
    finally:
        _GRAPH_LATER.reset(token)


def _embed(conn: sqlite3.Connection, settings: Settings, embedder, note_id: str) -> None:
    """Vectors for the note just indexed (and, when no ingest is embedding and the graph is
    not left for later (`graph_later`), for every chunk still without one: embed_missing,
    which also brings the entity graph up to date)."""
    from cairn.ingest import embed_missing
    from cairn.ingest.embedding import embed_note
    if embedder is not None and (_GRAPH_LATER.get() or busy(conn, "ingest") or busy(conn, "embed")):
        # an ingest is running (it embeds all its chunks, minutes for a large folder, holding
        # the lock): this write embeds its own note now instead of waiting behind or doing
        # the ingest's work (issue 34)
        embed_note(conn, embedder, note_id, settings.chunk.embed_max_chunks,
                   fact_keys=settings.memory.fact_keys, neighbour_keys=settings.memory.neighbour_keys)
    elif embedder is not None:
        embed_missing(conn, embedder, None, settings.chunk.embed_max_chunks,
                      fact_keys=settings.memory.fact_keys,
                      neighbour_keys=settings.memory.neighbour_keys)


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
    from cairn.sync import reconcile
    reconcile(conn, settings, embedder)
    note = find_note(conn, ref)
    if not (settings.vault / note.path).is_file():  # sync kept it (a vault with no notes is not emptied)
        raise NoteNotFound(f"note {ref!r}: its file {note.path} is gone from the vault, though the index still "
                           "lists it (`cairn sync` says why it was kept)")
    return note


def _refuse_taken_title(conn: sqlite3.Connection, settings: Settings, embedder, title: str,
                        only: set[str] | None, way_out: str, other_than: str | None = None) -> None:
    """Raise NoteConflict when a note among `only` (None: all) other than `other_than` is
    titled `title` (case-insensitive), naming its paths and ending with `way_out`. When one
    of them has its file gone from the vault (deleted on disk since the index saw it) the
    vault is reconciled first, as `resolve` does: a note deleted in an editor does not keep
    its title taken; one sync keeps (an emptied vault) is named as gone. One stat per note."""
    for attempt in (0, 1):
        resolver = Resolver.from_db(conn)
        same = [i for i in resolver.by_title.get(key(title), []) if i != other_than and (only is None or i in only)]
        present = [i for i in same if (settings.vault / resolver.notes[i].path).is_file()]
        if len(present) == len(same) or attempt:
            break
        from cairn.sync import reconcile
        reconcile(conn, settings, embedder)
    if not same:
        return
    paths = ", ".join(sorted(resolver.notes[i].path for i in same))
    if not present:  # sync kept it
        raise NoteConflict(f"a note titled {title!r} is still indexed ({paths}) though its file is gone from "
                           "the vault; `cairn sync` says why it was kept")
    raise NoteConflict(f"a note titled {title!r} exists already ({paths}); {way_out}")


def _seen_path(conn: sqlite3.Connection, relpath: str, only: set[str]) -> bool:
    """Whether the note indexed at vault path `relpath` is one of the ids `only`."""
    note = N.get_note_by_path(conn, relpath)
    return note is not None and note.id in only


def create_note(conn: sqlite3.Connection, settings: Settings, embedder, title: str, body: str,
                folder: str = "", tags: list[str] | None = None, only: set[str] | None = None,
                input_source: str = "text") -> N.NoteRow:
    """Write a new note `<vault>/<folder>/<title>.md` and index it. Raises NoteConflict when
    a note with this title (case-insensitive) or a file at that path exists, ValueError for
    an empty title or a folder outside the vault. only: the ids of the notes the writer
    sees (one person's, cairn.people; None: all): only those conflict, and a file at the
    path that is not one of them (another person's) gets the new note a numbered name
    ("Title-2.md") instead of an error that would reveal it. input_source: how it came in
    (cairn.model.INPUT_SOURCES), kept in its frontmatter."""
    title = _one_line_title(title)
    _check_body(body)
    tags = _checked_tags(tags)
    _refuse_taken_title(conn, settings, embedder, title, only,
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
    _portable_new_folders(settings.vault, folder)
    for up in (target.parent, *target.parent.parents):
        if up == settings.vault or vault == P.resolved(up):
            break
        if up.exists() and not up.is_dir():
            raise InvalidInput(f"folder {folder!r}: {V.rel(settings.vault, up)} is a file in the vault, not a folder")
    n = 1
    while target.exists() and only is not None and not _seen_path(conn, V.rel(settings.vault, target), only):
        n += 1
        target = target.with_name(f"{_safe_filename(title)}-{n}.md")
    if target.exists():
        raise NoteConflict(f"{V.rel(settings.vault, target)} exists already")
    relpath = V.rel(settings.vault, target)
    fm: dict[str, Any] = {"title": title, "cairn_id": V.stable_id("note:" + relpath),
                          "created": N.now_iso(), "input_source": input_source, **owner_keys(settings.owner)}
    if tags:
        fm["tags"] = tags
    text = V.render_note(fm, body)
    try:
        V.atomic_create(target, text)  # never over a file another writer made since the checks above
    except FileExistsError:
        raise NoteConflict(f"{relpath} exists already (written by another program just now)") from None
    H.record(settings.home, fm["cairn_id"], relpath, text.encode("utf-8"), by=H.actor("cairn"), action="create")
    try:
        return _index(conn, settings, embedder, target)
    except Exception as exc:
        if not storage_full(exc):
            raise
        row = N.get_note_by_path(conn, relpath)
        if row is None:  # the disk filled before the index held it: the file goes too
            target.unlink(missing_ok=True)
            raise
        return row  # stored and searchable by keyword; its vectors come when there is room


def _checked_tags(tags: list[str] | None) -> list[str]:
    """The tags of a new note as its file will hold them: each as the index reads it back
    (parse.markdown.clean_tag: "#x" is x), repeats (any case) once. Raises InvalidInput for a
    tag that is empty once cleaned ("", " ", "#") or holds a control character (a line break
    would make one tag two lines of YAML), naming it; nothing is written then."""
    from cairn.controls import check_no_controls
    from cairn.parse.markdown import clean_tag
    out: list[str] = []
    for n, tag in enumerate(tags or [], 1):
        check_no_controls(tag, f"tag {n} ({tag!r})")
        cleaned = clean_tag(tag)
        if not cleaned:
            raise InvalidInput(f"tag {n} ({tag!r}) is empty; leave it out")
        if cleaned.casefold() not in {t.casefold() for t in out}:
            out.append(cleaned)
    return out


def _portable_new_folders(vault: Path, folder: str) -> None:
    """Raise InvalidInput naming the first folder of `folder` that does not exist yet and
    whose name a vault synced to Windows or macOS cannot hold: `\\ : * ? " < > |` or a
    control character, a trailing dot or space, a device name (CON, aux, COM1) or over
    cairn.paths.NAME_BYTES bytes; or that holds a bidirectional control (cairn.controls.BIDI).
    A folder that exists (the person made it) is theirs to use."""
    here = vault
    for part in Path(folder).parts:
        here = here / part
        if here.exists():
            continue
        if bidi := sorted({f"U+{ord(c):04X}" for c in part if BIDI.match(c)}):
            raise InvalidInput(f"folder name {part!r} holds bidirectional controls ({', '.join(bidi)}), which show "
                               "a name in another order than it is stored; remove them")
        if re.search(r'[\x00-\x1f\\:*?"<>|]', part) or P.fit_name(part) != part:
            raise InvalidInput(f"folder name {part!r} cannot be used on every system (Windows forbids "
                               "\\ : * ? \" < > |, a trailing dot or space and names such as CON or COM1); "
                               "choose another")


def read_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str) -> dict[str, Any]:
    """The note `ref` names: {id, path, title, type, tags, aliases, input_source, body,
    file_hash, status, enrichment} (body = the current file text after its frontmatter;
    input_source: how it came in, cairn.model.input_source_of; status: saved, read or
    archived, cairn.notestatus; enrichment: the frontmatter's `enrichment` block or None)."""
    from cairn.model import NOTE_STATUSES
    note = resolve(conn, settings, embedder, ref)
    path = note_file(settings, note)
    data = path.read_bytes()
    text = note_text(data)  # a UTF-16 or cp1252 note reads as its text, as the index read it
    meta, body = V.split_frontmatter(text, lenient=True)
    meta = meta if isinstance(meta, dict) else {}
    block = meta.get("enrichment")
    return {"id": note.id, "path": note.path, "title": note.title, "type": note.type,
            "tags": note.tags, "aliases": note.aliases, "input_source": input_source_of(note.meta, note.type),
            "body": body.strip("\n"), "file_hash": V.sha256_bytes(data),
            "status": str(meta.get("status") or "").strip().lower() if str(meta.get("status") or "").strip().lower()
            in NOTE_STATUSES else "saved",  # as notestatus.status_of (which imports this module)
            "enrichment": block if isinstance(block, dict) else None}


def update_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str, body: str,
                mode: str = "overwrite", *, expected_hash: str | None = None) -> N.NoteRow:
    """Replace (`overwrite`) or extend (`append`) the body of the note `ref` names, keeping
    its frontmatter block byte for byte, and re-index it. Raises ValueError for a bad mode
    or an empty body (an empty stdin in a script must not wipe a note: `delete_note`
    removes one on purpose), NoteNotFound / AmbiguousNote, and EditConflict when
    `expected_hash` (the file's sha256 when the editor read it) is given and the file now
    differs (edited outside meanwhile), Conflict when the file is binary data now. Nothing is
    written then."""
    if mode not in MODES:
        raise InvalidInput(f"mode {mode!r} is not one of {', '.join(MODES)}")
    if not body or not body.strip():
        raise InvalidInput(f"the new body for {ref!r} is empty; nothing was changed "
                         "(to remove the note use `cairn note delete`)")
    _check_body(body)
    note = resolve(conn, settings, embedder, ref)
    path = note_file(settings, note)
    data = path.read_bytes()
    text = rewrite_text(data, note.path)  # written back in the file's own encoding (_encode_like)
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
    new_text = V.with_newlines_of(head + new_body, data)  # a Windows or old Mac note keeps its line endings
    new_data = _encode_like(new_text, data, note.path)  # InvalidInput before anything is written
    keep_before(settings, note, data)
    V.atomic_write_bytes(path, new_data)
    H.record(settings.home, note.id, note.path, new_data, by=H.actor("cairn"), action="update")
    try:
        return _index(conn, settings, embedder, path)
    except Exception as exc:
        if not storage_full(exc):
            raise
        row = N.get_note(conn, note.id)
        if row is not None and row.file_hash != note.file_hash:
            return row  # the index holds the new version; its vectors come when there is room
        try:  # the index still holds the old version: so does the file again
            V.atomic_write_bytes(path, data)
        except OSError:
            pass  # the next sync reconciles the index with the file
        raise


def note_text(data: bytes) -> str:
    """The text of a note file from its bytes (cairn.parse.text.note_text: a UTF-16 or cp1252
    note reads as its characters, as the index read it), imported on first use."""
    from cairn.parse.text import note_text as decode
    return decode(data)


def _encode_like(text: str, data: bytes, relpath: str) -> bytes:
    from cairn.parse.text import encode_like
    return encode_like(text, data, relpath)


def _strict_text(data: bytes) -> str:
    from cairn.parse.text import note_text_to_rewrite
    return note_text_to_rewrite(data)


def rewrite_text(data: bytes, relpath: str) -> str:
    """The text of a note file Cairn is about to write back (parse.text.note_text_to_rewrite).
    Raises Conflict naming the note when the file is binary data now (changed outside Cairn):
    a write-back would destroy its bytes, so nothing is written."""
    try:
        return _strict_text(data)
    except ValueError as exc:
        raise Conflict(f"{relpath}: the file is not text now ({exc}); not rewritten") from None


def keep_before(settings: Settings, note: N.NoteRow, data: bytes) -> None:
    """Keep the note's current bytes as a version before Cairn changes it, unless its newest
    version holds them already (an edit made outside Cairn that no sync has seen yet)."""
    H.record(settings.home, note.id, note.path, data, by="outside", action="seen", only_if_new=True)


def _check_body(body: str | None) -> None:
    """Raises InvalidInput when a note body to be written holds a NUL character: a file with
    one is binary data to the index (parse.text.decode_bytes), so the note would be written
    but never indexed (create), or an indexed note's file would stop being readable (update);
    or an unpaired surrogate (U+D800-U+DFFF), which UTF-8 cannot encode (the write failed
    with UnicodeEncodeError). Checked before anything is written."""
    if body and "\x00" in body:
        raise InvalidInput("the note body holds a NUL character (U+0000), which would make the file "
                           "binary data; remove it (nothing was written)")
    try:
        (body or "").encode("utf-8")  # C speed; the characters are named only when it fails
    except UnicodeEncodeError:
        lone = sorted({f"U+{ord(c):04X}" for c in body if "\ud800" <= c <= "\udfff"})
        raise InvalidInput(f"the note body holds an unpaired surrogate ({', '.join(lone)}), which no "
                           "file can hold as UTF-8; remove it (nothing was written)")


def _one_line_title(title: str, what: str = "the note title") -> str:
    """`title` on one line: runs of white space (line breaks and tabs included) become one
    space. Raises InvalidInput when nothing is left or another control character remains."""
    title = " ".join((title or "").split())
    if not title:
        raise InvalidInput(f"{what} is empty")
    bad = sorted({f"U+{ord(c):04X}" for c in title if ord(c) < 32 or 127 <= ord(c) < 160})
    if bad:
        raise InvalidInput(f"{what} {title!r} holds control characters ({', '.join(bad)})")
    return title


def rewrite_refusal(text: str, keys: list[str]) -> str:
    """Why `V.add_frontmatter_keys(text, {k: ...})` returned None for a note whose block
    read as a mapping (read_for_rewrite checked it), for the error message: a block with YAML
    aliases (`*name` of an `&name` anchor, as an alias bomb has) whose anchor sits on a
    replaced key's line no longer reads; else the new block would not read back as one."""
    import yaml
    names = ", ".join(f"`{k}`" for k in keys)
    try:
        events = yaml.parse(V.frontmatter_block(text) or "", Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        aliases = sum(isinstance(e, yaml.AliasEvent) for e in events)
    except yaml.YAMLError:
        aliases = 0
    if aliases:
        return (f"its frontmatter holds {aliases} YAML alias(es) (*name of an &name anchor, as an alias bomb "
                f"has) that would no longer read with {names} replaced (refused YAML)")
    return f"its frontmatter would not read back as a YAML mapping with {names} replaced"


def rename_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str, title: str,
                only: set[str] | None = None) -> N.NoteRow:
    """Give the note `ref` names the title `title` (its frontmatter `title`, which wins over a
    heading; the file keeps its path and body) and re-index it. Raises InvalidInput for an
    empty title or a frontmatter block that is not a YAML mapping, Conflict for one that
    cannot be parsed (neither is ever rewritten), NoteConflict when another note has the
    title already (case-insensitive, as create_note; only: the ids the writer sees),
    NoteNotFound / AmbiguousNote. Nothing is written then."""
    title = _one_line_title(title, f"the new title for {ref!r}")
    note = resolve(conn, settings, embedder, ref)
    _refuse_taken_title(conn, settings, embedder, title, only, f"choose another title for {note.path}", note.id)
    path = note_file(settings, note)
    text, _meta, _body = V.read_for_rewrite(path, note.path, _strict_text)  # Conflict naming a YAML fault
    new = V.add_frontmatter_keys(text, {"title": title})
    if new is None:
        raise InvalidInput(f"{note.path}: {rewrite_refusal(text, ['title'])}, so it is not rewritten")
    data = path.read_bytes()
    new_data = _encode_like(V.with_newlines_of(new, data), data, note.path)  # its own encoding
    keep_before(settings, note, data)
    V.atomic_write_bytes(path, new_data)
    H.record(settings.home, note.id, note.path, new_data, by=H.actor("cairn"), action="update")
    return _index(conn, settings, embedder, path)


def delete_note(conn: sqlite3.Connection, settings: Settings, embedder, ref: str, *,
                undoes: int | None = None) -> dict[str, Any]:
    """Move the note's file to `<vault>/.trash/`, drop every index row of it and keep a
    tombstone; the note's history records the delete (as an "undo" of version `undoes`
    when given). Returns {id, path, title, trash_path}. Raises PathOutside (nothing moved,
    nothing dropped) when the note's path or the trash leads outside the vault."""
    note = resolve(conn, settings, embedder, ref)
    src = note_file(settings, note)  # never moves a file from outside the vault
    trash_rel = None
    file_hash = note.file_hash
    if src.exists():
        data = src.read_bytes()
        file_hash = V.sha256_bytes(data)
        keep_before(settings, note, data)
        trash_rel = V.free_relpath(settings.vault, *os.path.splitext(f".trash/{note.path}"))
        dest = settings.vault / trash_rel
        P.confine(settings.vault, dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        src.replace(dest)
    with N.transaction(conn):
        N.add_tombstone(conn, note, file_hash, trash_rel)
        N.delete_note(conn, note.id)
    H.record(settings.home, note.id, note.path, None, by=H.actor("cairn"),
             action="delete" if undoes is None else "undo", undoes=undoes)
    return {"id": note.id, "path": note.path, "title": note.title, "trash_path": trash_rel}


def write_version(conn: sqlite3.Connection, settings: Settings, embedder, note_id: str, version: int, *,
                  action: str = "restore", undoes: int | None = None) -> N.NoteRow:
    """Write the exact bytes of `version` of note `note_id` (store.history) back to its file
    and re-index it; the state replaced is kept as a version first, and the write becomes a
    new version (`action`: "restore" or "undo"). A deleted note comes back at the path of
    that version (NoteConflict when another file took that path meanwhile). Raises
    history.VersionNotFound for a version that does not exist or records a delete, and
    PathOutside for a path leading outside the vault."""
    entry = H.get(settings.home, note_id, version)
    data = H.read_bytes(settings.home, entry)
    note = N.get_note(conn, note_id)
    if note is not None:
        path = note_file(settings, note)
        if path.is_file():
            keep_before(settings, note, path.read_bytes())
        relpath = note.path
    else:
        relpath = str(entry["path"])
        path = settings.vault / relpath
        P.confine(settings.vault, path)
        if path.exists():
            raise NoteConflict(f"{relpath} exists already: the deleted note cannot come back there")
    V.atomic_write_bytes(path, data)
    H.record(settings.home, note_id, relpath, data, by=H.actor("cairn"), action=action, undoes=undoes)
    from cairn.ingest import index_note_file
    _status, new_id, _ = index_note_file(conn, settings, path, note_id=note_id)
    _embed(conn, settings, embedder, new_id)
    row = N.get_note(conn, new_id)
    assert row is not None
    return row
