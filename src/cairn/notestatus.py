"""A note's content status (EchOS's saved / read / archived), kept in its frontmatter.

`status: read` is one frontmatter key of the note's vault file: the vault stays the source of
truth and `cairn reindex` keeps it. A note without the key counts as "saved" (what came in and
has not been read yet). Search filters on it through the index's copy of the frontmatter
(`notes.meta`, store.keyword.filtered_chunk_ids).

    from cairn.notestatus import mark_note
    row = mark_note(app, "Boiler", "read")
"""

from __future__ import annotations

from cairn.errors import Conflict, InvalidInput
from cairn.model import NOTE_STATUSES

DEFAULT_STATUS = "saved"


def check_status(status: str) -> str:
    """The status, lower-cased; InvalidInput naming the choices for anything else."""
    value = (status or "").strip().lower()
    if value not in NOTE_STATUSES:
        raise InvalidInput(f"status {status!r} is not one of {', '.join(NOTE_STATUSES)}")
    return value


def status_of(meta: dict) -> str:
    """The status recorded in a note's frontmatter `meta` (DEFAULT_STATUS when none or unknown)."""
    value = str(meta.get("status") or "").strip().lower()
    return value if value in NOTE_STATUSES else DEFAULT_STATUS


def mark_note(app, ref: str, status: str):
    """Set the note `ref` names (title, alias, path or id) to `status` (saved, read, archived):
    writes `status:` into its frontmatter (the other lines stay as written), re-indexes it, and
    returns its store.notes.NoteRow. Raises InvalidInput for another status, NoteNotFound /
    AmbiguousNote for the reference, Conflict when the frontmatter cannot be parsed (such a
    block is never rewritten, case B04), paths.PathOutside when its file now leads out of the
    vault through a link (nothing read or written)."""
    from cairn import conflicts as C
    from cairn import vault as V
    status = check_status(status)
    from cairn.noteops import note_file
    from cairn.parse.text import note_text_to_rewrite
    note = app.find_note(ref)
    path = note_file(app.settings, note)  # PathOutside when a link leads out of the vault
    text, meta, _body = V.read_for_rewrite(path, note.path, note_text_to_rewrite)
    if str(meta.get("status") or "") == status:
        return note
    new_text = V.add_frontmatter_keys(text, {"status": status})
    if new_text is None:
        from cairn.noteops import rewrite_refusal
        raise Conflict(f"{note.path}: {rewrite_refusal(text, ['status'])}; not rewritten")
    from cairn.noteops import keep_before
    from cairn.parse.text import encode_like
    data = path.read_bytes()
    new_data = encode_like(V.with_newlines_of(new_text, data), data, note.path)  # its own encoding
    if not C.copy_edited(app.conn, path, note.id, note.file_hash):  # still Cairn's copy of its source
        from cairn.store.copies import record_write
        record_write(app.conn, note.id, V.sha256_bytes(new_data))
    from cairn.store import history as H
    keep_before(app.settings, note, data)
    V.atomic_write_bytes(path, new_data)
    H.record(app.settings.home, note.id, note.path, new_data, by=H.actor("cairn"), action="update")
    app.sync([path])
    return app.find_note(note.id)
