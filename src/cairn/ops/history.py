"""Note history and undo, the operations of `cairn.service.Cairn`: note_history, note_diff,
note_restore, undo. A mixin: `self` is the Cairn.

Versions are kept by store.history (under `<home>/history/`, never in the vault's note
folders) whenever Cairn writes a note (noteops) or sees a changed file (ingest.index). The
undo reverts the assistant's newest change that is not undone yet: an edit or a restore gets
the bytes it replaced back, a created note goes to the trash, a deleted note comes back.
"""

from __future__ import annotations

from cairn import results as R
from cairn.errors import NotFound
from cairn.store import history as H

ASSISTANT = "assistant"  # the `by` of the changes the assistant's tools make (assistant.loop)


class HistoryOps:
    """Note versions: list, diff, restore; undo of the assistant's last change."""

    def _history_note(self, ref: str, *, write: bool = False) -> tuple[str, dict]:
        """(note id, {id, path, title}) of the note `ref` names; a deleted note is found by
        its id while it has versions. Raises links.NoteNotFound."""
        from cairn.links import NoteNotFound
        try:
            note = self._visible_note(ref, write=write)
        except NoteNotFound:
            found = H.versions(self.settings.home, ref) if self.settings.owner is None else []
            if not found:
                raise
            return ref, {"id": ref, "path": found[-1]["path"], "title": None}
        return note.id, {"id": note.id, "path": note.path, "title": note.title}

    def note_history(self, ref: str) -> R.NoteHistory:
        """The kept versions of the note `ref` names, newest first (results.NoteHistory).
        Raises links.NoteNotFound / AmbiguousNote."""
        note_id, info = self._history_note(ref)
        keys = ("version", "at", "by", "action", "path", "hash", "size")
        found = [{k: e.get(k) for k in keys} for e in reversed(H.versions(self.settings.home, note_id))]
        return R.NoteHistory(note=info, versions=found)

    def note_diff(self, ref: str, version: int) -> R.NoteDiff:
        """A unified diff from `version` of the note to its current file. Raises
        history.VersionNotFound (NotFound) for a version not kept or that records a delete."""
        import difflib
        note_id, info = self._history_note(ref)
        entry = H.get(self.settings.home, note_id, int(version))
        old = _version_text(H.read_bytes(self.settings.home, entry))
        path = self.settings.vault / info["path"]
        new = _version_text(path.read_bytes()) if path.is_file() else ""
        diff = "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                            fromfile=f"{info['path']}@{entry['version']}",
                                            tofile=f"{info['path']}@current"))
        return R.NoteDiff(note=info, version=entry["version"], against="current", diff=diff)

    def note_restore(self, ref: str, version: int) -> R.NoteRestored:
        """Write the exact bytes of `version` back to the note (the state replaced is kept
        as a version; the restore is a new one). Raises VersionNotFound, NoteConflict when a
        deleted note's path is taken, Forbidden for a note shared with the person."""
        from cairn.noteops import write_version
        note_id, _info = self._history_note(ref, write=True)
        with self._history_lock():
            row = write_version(self.conn, self.settings, self.embedder, note_id, int(version))
        self.events.publish("note.changed", {"id": row.id, "path": row.path, "title": row.title})
        newest = H.latest(self.settings.home, row.id) or {}
        return R.NoteRestored(note={"id": row.id, "path": row.path, "title": row.title}, version=int(version),
                              recorded=newest.get("version"), action="restore", undid={})

    def undo(self, by: str = ASSISTANT) -> R.NoteRestored:
        """Revert the newest change made by `by` (default the assistant) that is not undone
        yet: an edit or restore gets back the exact bytes it replaced, a note it created goes
        to the vault's trash, a note it deleted comes back. Raises NotFound when there is
        nothing to undo."""
        from cairn.noteops import write_version
        home = self.settings.home
        with self._history_lock():
            target = _last_change(H.log_entries(home), by, self._visible_note_ids())
            if target is None:
                raise NotFound(f"there is no change by the {by} to undo")
            note_id, v = target["note_id"], target["version"]
            before = [e for e in H.versions(home, note_id) if e["version"] < v]
            undid = {k: target.get(k) for k in ("note_id", "version", "action", "by", "at", "path")}
            if not before or before[-1].get("hash") is None:  # it created the note: remove it
                from cairn.noteops import delete_note
                info = delete_note(self.conn, self.settings, self.embedder, note_id, undoes=v)
                newest = H.latest(home, note_id) or {}
                self.events.publish("note.deleted", {"id": note_id, "path": info["path"]})
                return R.NoteRestored(note={"id": note_id, "path": info["path"], "title": info["title"]},
                                      version=None, recorded=newest.get("version"), action="undo", undid=undid)
            row = write_version(self.conn, self.settings, self.embedder, note_id, before[-1]["version"],
                                action="undo", undoes=v)
        self.events.publish("note.changed", {"id": row.id, "path": row.path, "title": row.title})
        newest = H.latest(home, row.id) or {}
        return R.NoteRestored(note={"id": row.id, "path": row.path, "title": row.title},
                              version=before[-1]["version"], recorded=newest.get("version"),
                              action="undo", undid=undid)

    def history_prune(self, keep_versions: int = 50, keep_days: float = 90.0) -> R.HistoryPruned:
        """Forget old note versions (store.history.prune): of each note keep the newest
        `keep_versions` and every version from the last `keep_days` days; stored copies no
        kept version uses are deleted. Raises InvalidInput for keep_versions < 1 or
        keep_days < 0 or not finite (nan would keep no recent version)."""
        import math

        from cairn.errors import InvalidInput
        if keep_versions < 1 or not (math.isfinite(keep_days) and keep_days >= 0):
            raise InvalidInput(f"keep at least 1 version and a finite 0 or more days (got --keep {keep_versions}, "
                               f"--days {keep_days}): the newest version of a note is always kept")
        with self._history_lock():
            done = H.prune(self.settings.home, int(keep_versions), float(keep_days))
        return R.HistoryPruned(**done, keep_versions=int(keep_versions), keep_days=float(keep_days))

    def _history_lock(self):
        """The index's process-shared lock for restores and undos (store.locks), so two
        undos at once never revert the same change twice."""
        import contextlib
        if self.on_postgres:
            return contextlib.nullcontext()
        from cairn.store.locks import exclusive
        return exclusive(self.conn, "history")


def _last_change(entries: list[dict], by: str, visible: set[str] | None) -> dict | None:
    """The newest entry made by `by` that no later entry undoes (an entry undone once is
    skipped, so repeated undos walk back through the changes), among notes in `visible`
    (None: all)."""
    undone = {(e["note_id"], e["undoes"]) for e in entries if e.get("undoes") is not None}
    for e in reversed(entries):
        if e.get("by") != by or e.get("action") in ("seen", "index", "undo"):
            continue
        if visible is not None and e["note_id"] not in visible:
            continue
        if (e["note_id"], e["version"]) not in undone:
            return e
    return None


def _version_text(data: bytes) -> str:
    """A note version's bytes as text for a diff: UTF-8 with its line ends as they are, else
    decoded as the index reads the file (cairn.parse.text.note_text: a UTF-16 or cp1252 note
    shows its characters, not U+FFFD and NULs)."""
    from cairn.noteops import note_text
    try:
        return data.decode("utf-8") if b"\x00" not in data else note_text(data)
    except UnicodeDecodeError:
        return note_text(data)
