"""Notes and the vault, the operations of `cairn.service.Cairn` on notes: sync, watch,
find_note, links, unresolved_links, note_create, notes_list, ingest_text, recent_notes,
note_show, note_update, note_delete, export; and the home's reminder scheduler. A mixin:
`self` is the Cairn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from cairn import results as R
from cairn.errors import InvalidInput
from cairn.store import notes as N

if TYPE_CHECKING:
    from cairn.enrich import Enrichment
    import threading

    from cairn.exports import ExportResult
    from cairn.sync import SyncReport

_MAX_SQL_INT = 2**63 - 1  # SQLite's largest INTEGER; a larger Python int cannot be bound
T = TypeVar("T")


def gone_paths(vault: Path, paths: Iterable[str | None]) -> set[str]:
    """The vault-relative `paths` whose note file no longer exists under `vault` (deleted or
    moved on disk since the index last saw it): one stat per distinct path; None and ""
    are never gone."""
    gone = set()
    for path in {p for p in paths if p}:
        try:
            if not (vault / path).is_file():
                gone.add(path)
        except (OSError, ValueError):  # a path the file system refuses (too long, NUL): not there
            gone.add(path)
    return gone


class NotesOps:
    """Notes: create, read, update, delete, list, links; keeping the index in step."""

    follow_vault: Callable[[], object] | None = None
    """How a read brings the index in line with the vault when it meets a note whose file is
    gone (`_follow_gone`) or finds no note by a reference (`find_note`: one written or moved on
    disk since the last sync): None runs `self.sync()`; the REST server's readers hand the sync
    to its writer thread (interfaces/rest/runtime.py), so its writes stay serialised."""

    def _follow_gone(self, paths: Iterable[str | None]) -> bool:
        """After a read listed notes at the vault-relative `paths`: when one's file is gone
        (deleted, or moved in an editor, since the index saw it) reconcile the vault, so a
        moved note is found under its new path and a deleted one leaves; True when it did
        (the caller asks again). False when every file is there, when the vault holds no
        note file at all (an unmounted drive: sync keeps the index, and so does a read), or
        when another process holds the index (the read stands, as it was)."""
        vault = self.settings.vault
        if not gone_paths(vault, paths):
            return False
        from cairn import vault as V  # only when a file is gone: a cold read stays without yaml
        if V.first_note_file(vault) is None:
            return False
        return self._follow_vault()

    def _follow_vault(self) -> bool:
        """Reconcile the vault (follow_vault, else self.sync()); False when another process
        holds the index or the server is stopping (the read stands as it was)."""
        import sqlite3
        from cairn.errors import Unavailable
        try:
            (self.follow_vault or self.sync)()
        except Unavailable:  # the server's writer found the index busy, or the server is stopping
            return False
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            return False
        return True

    def _followed(self, read: Callable[[], T], paths_of: Callable[[T], Iterable[str | None]]) -> T:
        """`read()`, asked once more after `_follow_gone(paths_of(result))` reconciled the vault."""
        result = read()
        return read() if self._follow_gone(paths_of(result)) else result

    def catch_up_notes(self) -> int:
        """Bring the entity graph and the vectors in line with the notes (ingest.embed_missing,
        under its lock): what note writes left for later (noteops.graph_later). Returns how
        many chunks were embedded; nothing to do costs a query, no model is loaded."""
        from cairn.ingest.embedding import embed_missing
        s = self.settings
        return embed_missing(self.conn, _LazyEmbedder(self), None, s.chunk.embed_max_chunks,
                             fact_keys=s.memory.fact_keys, neighbour_keys=s.memory.neighbour_keys)[0]

    def sync(self, paths: Iterable[str | Path] | None = None) -> "SyncReport":
        """Reconcile the vault with the index (see sync.reconcile); paths: only these."""
        from cairn.sync import reconcile
        return reconcile(self.conn, self.settings, _LazyEmbedder(self), paths)

    def watch(self, stop: "threading.Event", on_event=None, raise_interrupt: bool = False) -> None:
        """Watch the vault and the `[sync] inbox` folders until `stop` is set (see
        watch.watch; runs on its own index connection, so it may run in a thread)."""
        from cairn.ingest import ingest_paths
        from cairn.watch import watch

        def ingest(conn, files):
            return ingest_paths(conn, self.settings, files, self.embedder, skip_tombstoned=True, embed=False)

        watch(self.settings, _LazyEmbedder(self), stop, ingest=ingest, on_event=on_event,
              raise_interrupt=raise_interrupt)

    def find_note(self, ref: str) -> N.NoteRow:
        """The note `ref` names (id, vault path, file name, title or alias), if the service's
        person may see it (cairn.people). Raises links.NoteNotFound / links.AmbiguousNote
        (both ValueError)."""
        return self._visible_note(ref)

    def _own_ref(self, ref: str, *, write: bool = False) -> str:
        """`ref` checked by _visible_note: for a named person the found note's id (so the
        operation below, which resolves it again over every note, cannot land on another
        person's note of the same name); the reference itself for the home's own person."""
        note = self._visible_note(ref, write=write)
        return ref if self.settings.owner is None else note.id

    def _visible_note(self, ref: str, *, write: bool = False) -> N.NoteRow:
        """find_note for the service's person: a note another person owns is not found
        (NoteNotFound: its existence is not revealed); a shared note they do not own may be
        read, not changed (Forbidden when `write`)."""
        from cairn.links import NoteNotFound, find_note
        from cairn.people import OWNER_KEY, note_visible, same_person
        try:
            note = find_note(self.conn, ref, self._visible_note_ids())
        except NoteNotFound:  # a note written or moved on disk since the last sync: follow the vault, once
            if not self._follow_vault():
                raise
            note = find_note(self.conn, ref, self._visible_note_ids())
        person = self.settings.owner
        if not note_visible(note.meta, person):
            raise NoteNotFound(f"no note with id, path, title or alias {ref!r}")
        if write and person is not None and not same_person(str(note.meta.get(OWNER_KEY) or ""), person):
            from cairn.errors import Forbidden
            raise Forbidden(f"the note {note.path} is shared with you, not yours: only its owner may change it")
        return note

    def links(self, ref: str) -> R.NoteLinks:
        """{"note": {id, path, title}, "outgoing": [LinkView], "backlinks": [LinkView]}."""
        from cairn.links import Resolver, backlinks, outgoing
        def read() -> R.NoteLinks:
            note = self._visible_note(ref)
            resolver = Resolver.from_db(self.conn)
            seen = self._visible_note_ids()
            out = outgoing(self.conn, note.id, resolver)
            back = backlinks(self.conn, note.id, resolver)
            if seen is not None:  # another person's notes are neither targets nor sources here
                out = [_as_unresolved(v, seen) for v in out]
                back = [v for v in back if v.source_id in seen]
            return R.NoteLinks(note={"id": note.id, "path": note.path, "title": note.title},
                               outgoing=out, backlinks=back)
        # a note moved or deleted on disk (this one, a target, a source) is followed first
        return self._followed(read, lambda r: [r["note"]["path"], *(v.resolved_path for v in r["outgoing"]),
                                               *(v.source_path for v in r["backlinks"])])

    def _visible_note_ids(self) -> set[str] | None:
        """Ids of the notes the service's person may see (cairn.people), None for the home's
        own person (every note)."""
        if self.settings.owner is None:
            return None
        _, rows = self.store.notes.list_notes(limit=10 ** 9, person=self.settings.owner)
        return {r.id for r in rows}

    def unresolved_links(self) -> R.LinkList:
        """Every link whose target matches no note (links.LinkView, by source path); for a
        named person (cairn.people) the links of the notes they see whose target matches no
        note they see."""
        from cairn.links import Resolver, _view, unresolved
        from cairn.store import links as L
        seen = self._visible_note_ids()
        if seen is None:
            return R.LinkList(self._followed(lambda: unresolved(self.conn), lambda vs: [v.source_path for v in vs]))
        resolver = Resolver.from_db(self.conn)
        views = [_as_unresolved(_view(r, resolver), seen) for r in L.all_links(self.conn)]
        return R.LinkList(sorted((v for v in views if v.source_id in seen and v.kind == "unresolved"),
                                 key=lambda v: (v.source_path, v.target)))

    def note_create(self, title: str, body: str, folder: str = "", tags: list[str] | None = None, *,
                    input_source: str | None = None) -> N.NoteRow:
        """Write and index a new note (see noteops.create_note). input_source: how it came in
        (cairn.model.INPUT_SOURCES; None: the door's, cairn.tools.current_input_source, "text"
        unless a door said otherwise). Raises InvalidInput for another value."""
        from cairn.errors import InvalidInput
        from cairn.model import INPUT_SOURCES
        from cairn.noteops import create_note
        from cairn.tools import current_input_source
        source = input_source or current_input_source.get()
        if source not in INPUT_SOURCES:
            raise InvalidInput(f"input source {source!r} is not one of {', '.join(INPUT_SOURCES)}")
        with self._note_write_lock():  # two writers of one title: the second finds the first's note
            note = create_note(self.conn, self.settings, self.embedder, title, body, folder, tags,
                               only=self._visible_note_ids(), input_source=source)
        self.events.publish("note.created", {"id": note.id, "path": note.path, "title": note.title})
        return note

    def notes_list(self, *, type: str | None = None, tag: str | None = None, limit: int = 50,
                   offset: int = 0) -> R.NotePage:
        """One page of notes: {"total", "limit", "offset", "notes": [NoteRow.summary()]}.
        Raises InvalidInput for a negative offset or a limit outside 1..1000. An offset past
        the last note gives an empty page, however large (one past SQLite's 64-bit integers
        is asked as the largest it holds: no note lies that far either)."""
        from cairn.errors import InvalidInput
        if not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be between 1 and 1000, got {limit}")
        if offset < 0:
            raise InvalidInput(f"offset must be 0 or more, got {offset}")
        def read():
            return self.store.notes.list_notes(type=type, tag=tag, limit=limit, offset=min(offset, _MAX_SQL_INT),
                                               person=self.settings.owner)
        # a note moved or deleted on disk is followed first (one stat per listed note)
        total, rows = self._followed(read, lambda page: [r.path for r in page[1]])
        return R.NotePage(total=total, limit=limit, offset=offset, notes=[r.summary() for r in rows])

    def ingest_text(self, text: str, title: str | None = None, *, folder: str = "inbox",
                    tags: list[str] | None = None, input_source: str | None = None) -> N.NoteRow:
        """Store raw text or markdown as a new note (title: given, else the first line, cut to
        80 characters; input_source as for note_create). Raises InvalidInput for empty text,
        NoteConflict for a taken title."""
        from cairn.errors import InvalidInput
        if not text or not text.strip():
            raise InvalidInput("the text is empty")
        if not title or not title.strip():
            first = next(line for line in text.strip().splitlines() if line.strip())
            # a title made from the text leaves out its control characters (a NUL, an escape):
            # the text itself is checked (and refused, naming them) by note_create
            first = "".join(ch if ch.isprintable() else " " for ch in first)
            title = first.lstrip("# ").strip()[:80] or "note"
        return self.note_create(title.strip(), text, folder, tags, input_source=input_source)

    def recent_notes(self, since: str, limit: int = 10) -> R.NoteSummaries:
        """Notes indexed since `since` (UTC ISO), newest first: [{"id", "path", "title"}]."""
        rows = self.store.notes.recent_notes(since, limit if self.settings.owner is None else 1000)
        if self.settings.owner is not None:
            from cairn.people import note_visible
            rows = [r for r in rows if (n := self.store.notes.get_note(r["id"])) and
                    note_visible(n.meta, self.settings.owner)][:limit]
        return R.NoteSummaries(rows)

    def scheduler(self, *, interactive: bool = False, notifiers: list | None = None):
        """The reminder scheduler of this home (cairn.schedule.scheduler.Scheduler) with the
        built-in jobs (digest, export-cleanup, sync), acting for the service's person (else
        the request's, when a server door calls it: cairn.people). The caller closes it."""
        from cairn.schedule.jobs import BUILTIN_JOBS
        from cairn.schedule.scheduler import Scheduler
        from cairn.tools import current_person
        owner = self.settings.owner if self.settings.owner is not None else current_person.get()
        sched = Scheduler(self.settings, notifiers, interactive=interactive, jobs=BUILTIN_JOBS, owner=owner)
        sched.open_app = lambda: type(self)(settings=self.settings)  # the jobs' own service
        return sched

    def note_show(self, ref: str) -> R.NoteText:
        """{id, path, title, type, tags, aliases, input_source, body} of the note `ref` names."""
        from cairn.noteops import read_note
        ref = self._own_ref(ref)
        return R.NoteText(read_note(self.conn, self.settings, self.embedder, ref))

    def note_update(self, ref: str, body: str, mode: str = "overwrite", *,
                    expected_hash: str | None = None) -> N.NoteRow:
        """Overwrite or append to a note's body (see noteops.update_note). expected_hash: the
        file's sha256 when the editor read it (`note_show`'s "file_hash"); a file changed since
        raises noteops.EditConflict and writes nothing."""
        from cairn.noteops import update_note
        ref = self._own_ref(ref, write=True)
        with self._note_write_lock():
            note = update_note(self.conn, self.settings, self.embedder, ref, body, mode,
                               expected_hash=expected_hash)
        self.events.publish("note.changed", {"id": note.id, "path": note.path, "title": note.title})
        return note

    def _note_write_lock(self):
        """The index's process-shared lock (store.locks) held while a note's file is read,
        changed and written back, so two writers at once never lose one's change."""
        import contextlib
        if self.on_postgres:
            return contextlib.nullcontext()
        from cairn.store.locks import exclusive
        return exclusive(self.conn, "notes")

    def note_rename(self, ref: str, title: str) -> N.NoteRow:
        """Retitle a note (see noteops.rename_note)."""
        from cairn.noteops import rename_note
        ref = self._own_ref(ref, write=True)
        with self._note_write_lock():
            note = rename_note(self.conn, self.settings, self.embedder, ref, title, only=self._visible_note_ids())
        self.events.publish("note.changed", {"id": note.id, "path": note.path, "title": note.title})
        return note

    def capture(self, kind: str, url: str, text: str = "", title: str = "", comment: str = "") -> N.NoteRow:
        """Store a highlight, bookmark or quick note from a web page as a note in
        `captures/` (see cairn.capture for the rules and errors)."""
        from cairn.capture import capture_note
        note_title, body, tags = capture_note(kind, url, text, title, comment)
        return self.note_create(note_title, body, "captures", tags, input_source="url")

    def enrich(self, ref: str, llm: str | None = None) -> "Enrichment":
        """Add a grounded gist (and, with a model, category, tags, key points) to the note's
        frontmatter under `enrichment`; see cairn.enrich. Returns an Enrichment."""
        from cairn.enrich import enrich
        ref = self._own_ref(ref, write=True)
        return enrich(self, ref, llm)

    def note_mark(self, ref: str, status: str) -> N.NoteRow:
        """Set a note's content status: saved, read or archived (see cairn.notestatus; its
        errors). Publishes note.changed."""
        from cairn.notestatus import check_status, mark_note
        status = check_status(status)
        ref = self._own_ref(ref, write=True)
        with self._note_write_lock():
            note = mark_note(self, ref, status)
        self.events.publish("note.changed", {"id": note.id, "path": note.path, "title": note.title})
        return note

    def note_delete(self, ref: str) -> R.NoteDeleted:
        """Move a note to the vault's .trash and drop it from the index, with a tombstone."""
        from cairn.noteops import delete_note
        ref = self._own_ref(ref, write=True)
        info = R.NoteDeleted(delete_note(self.conn, self.settings, self.embedder, ref))
        self.events.publish("note.deleted", {"id": info.get("id"), "path": info.get("path")})
        return info

    def export(self, *, ids: list[str] | None = None, tag: str | None = None, type: str | None = None,
               since: str | None = None, until: str | None = None, query: str | None = None,
               format: str | None = None, name: str | None = None, k: int = 20) -> "ExportResult":
        """Export the selected notes to a new file under `<home>/exports/` (it expires):
        one note as markdown; several as text, json or zip. Select by note references `ids`,
        a search `query` (top `k` hits), or all notes; narrowed by `tag`, `type` and the
        inclusive days `since` / `until` (YYYY-MM-DD). The file is also kept as an artifact
        (`artifact`: its id; ops/artifacts.py). See exports.export_notes for errors; an empty
        `tag` (given, but blank) is InvalidInput, not "every note"."""
        from pathlib import Path as _P
        from cairn.validate import check_given
        check_given(tag, "the tag")
        from cairn.exports import export_notes
        res = export_notes(self, ids=ids, tag=tag, type=type, since=since, until=until, query=query,
                           format=format, name=name, k=k)
        args = {k: v for k, v in dict(ids=ids, tag=tag, type=type, since=since, until=until, query=query,
                                      format=res.format, name=res.name).items() if v}
        media = {"markdown": "text/markdown; charset=utf-8", "md": "text/markdown; charset=utf-8",
                 "json": "application/json", "text": "text/plain; charset=utf-8", "txt": "text/plain; charset=utf-8",
                 "zip": "application/zip"}.get(res.format, "application/octet-stream")
        res.artifact = self.artifact_put(_P(res.path).read_bytes(), kind="export", tool="export", arguments=args,
                                         media=media,
                                         sources=[{"note": n["id"]} for n in res.notes])["id"]  # an artifact
        return res

    def export_path(self, name: str) -> Path:
        """The file of export `name` (an ExportResult's name) if it is still there and has not
        expired. InvalidInput for an unsafe name, NotFound otherwise (exports.resolve_export)."""
        from cairn.exports import resolve_export
        return resolve_export(self.settings.home, name, person=self.settings.owner)

    def cleanup_exports(self, max_age: float | None = None) -> R.RemovedExports:
        """Delete export files older than `max_age` seconds (default 24 h); returns their
        names. `cairn serve` runs it hourly (exports.cleanup_exports)."""
        from cairn.exports import DEFAULT_MAX_AGE, cleanup_exports
        return R.RemovedExports(cleanup_exports(self.settings.home, DEFAULT_MAX_AGE if max_age is None else max_age))


def _as_unresolved(view, seen: set[str]):
    """`view` (links.LinkView), shown as unresolved when it resolves to a note outside `seen`
    (another person's: its existence is not revealed)."""
    import dataclasses
    if view.kind == "resolved" and view.resolved_id not in seen:
        return dataclasses.replace(view, kind="unresolved", resolved_id=None, resolved_path=None,
                                   resolved_title=None)
    return view


class _LazyEmbedder:
    """Stands in for `Cairn.embedder` and loads the model only when first used (a sync
    that finds nothing to embed never loads it)."""

    def __init__(self, app):  # the Cairn whose embedder this stands in for
        self._app = app

    def __getattr__(self, name: str):
        return getattr(self._app.embedder, name)
