"""Wikilink resolution, outgoing links, backlinks and unresolved links.

The `links` table keeps each `[[wikilink]]` exactly as written (target text, display text,
anchor); resolution happens when links are read, against the notes indexed *now*. So a link
to a note that does not exist yet ("forward reference") is kept and listed by its literal
target, and resolves as soon as a note with that name appears (deferred resolution), with
no rewrite of the linking note.

Resolution rule (strict: exact matches only, compared case-insensitively after Unicode NFC
normalisation and `str.casefold`; a trailing `.md`/`.markdown`/`.mdx` on the target is
ignored). The first level that matches wins:

1. path: the target equals a note's path without its suffix, taken relative to the linking
   note's ingested folder root (`notes/<folder>/`, the person's own vault root when the
   folder was ingested with `cairn ingest FOLDER`), else to the vault, else to the linking
   note's own folder;
2. file name: the target (without `/`) equals a note's file name stem (this also covers
   Dendron hierarchy names such as `project.atlas.risks`);
3. title: the target equals a note's title;
4. alias: the target equals one of a note's `aliases`;
5. source file: the target equals the file name of the file a note was ingested from
   (`[[manual.pdf]]`, `![[router.png]]`: an attachment of an Obsidian folder is a note of its
   own), or ends that file's path when it names folders (`[[files/manual.pdf]]`); a URL
   source is never matched.

Several notes at the same level: the one under the linking note's ingested folder root wins,
then the shortest path, then the alphabetically first. `[[#Heading]]` (no target) is a link
to a heading of the same note. There is no fuzzy matching: `[[Project Atlas (archived)]]`
stays unresolved even though "Project Atlas" exists.
"""

from __future__ import annotations

import posixpath
import sqlite3
import unicodedata
from dataclasses import dataclass
from typing import Any

from cairn.store import notes as N
from cairn.errors import InvalidInput, NotFound
from cairn.store import links as L

_SUFFIXES = (".md", ".markdown", ".mdx")


class NoteNotFound(NotFound):
    """No note matches the reference given (message names it)."""


class AmbiguousNote(InvalidInput):
    """Several notes match a reference (message lists their paths)."""


def key(text: str) -> str:
    """The comparison key of a name: NFC-normalised, case-folded, outer space stripped."""
    return unicodedata.normalize("NFC", text).strip().casefold()


def _strip_suffix(path: str) -> str:
    low = path.lower()
    for suf in _SUFFIXES:
        if low.endswith(suf):
            return path[: -len(suf)]
    return path


def _ingest_root(path: str) -> str | None:
    """`notes/<folder>` for a note copied by `cairn ingest FOLDER`, else None."""
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 and parts[0] == "notes" else None


@dataclass
class NoteRef:
    """The fields of a note that links resolve against."""

    id: str
    path: str
    title: str
    aliases: list[str]
    source: str | None = None  # the file it was ingested from (a path), or a URL, or None


class Resolver:
    """Resolves link targets against a fixed set of notes (see the module docstring)."""

    def __init__(self, notes: list[NoteRef]):
        self.notes = {n.id: n for n in notes}
        self.by_path: dict[str, list[str]] = {}
        self.by_stem: dict[str, list[str]] = {}
        self.by_title: dict[str, list[str]] = {}
        self.by_alias: dict[str, list[str]] = {}
        self.by_source: dict[str, list[str]] = {}  # key(file name of the source) -> ids
        for n in notes:
            if n.source and "://" not in n.source:
                self.by_source.setdefault(key(posixpath.basename(n.source.replace("\\", "/"))), []).append(n.id)
            self.by_path.setdefault(key(_strip_suffix(n.path)), []).append(n.id)
            self.by_stem.setdefault(key(_strip_suffix(posixpath.basename(n.path))), []).append(n.id)
            self.by_title.setdefault(key(n.title), []).append(n.id)
            for a in n.aliases:
                if isinstance(a, str) and a.strip():
                    self.by_alias.setdefault(key(a), []).append(n.id)

    @classmethod
    def from_db(cls, conn: sqlite3.Connection) -> "Resolver":
        """A resolver over every indexed note."""
        import json
        rows = L.note_names(conn)
        return cls([NoteRef(r[0], r[1], r[2], json.loads(r[3] or "[]"), r[4]) for r in rows])

    def _pick(self, ids: list[str], from_path: str) -> str:
        if len(ids) == 1:
            return ids[0]
        root = _ingest_root(from_path)

        def rank(i: str) -> tuple:
            p = self.notes[i].path
            return (0 if root and p.startswith(root + "/") else 1, len(p), p)

        return min(ids, key=rank)

    def resolve(self, target: str, from_path: str = "") -> str | None:
        """The id of the note `target` names, seen from the note at `from_path`, or None."""
        t = _strip_suffix(target.strip().lstrip("/"))
        if t.startswith("./"):
            t = t[2:]
        if not t:
            return None
        root = _ingest_root(from_path)
        candidates = [f"{root}/{t}", t] if root else [t]
        folder = posixpath.dirname(from_path)
        if folder:
            candidates.append(posixpath.normpath(f"{folder}/{t}"))
        for c in candidates:
            ids = self.by_path.get(key(c))
            if ids:
                return self._pick(ids, from_path)
        k = key(t)
        levels = ([self.by_stem] if "/" not in t else []) + [self.by_title, self.by_alias]
        for table in levels:
            ids = table.get(k)
            if ids:
                return self._pick(ids, from_path)
        return self._by_source(target.strip().lstrip("/"), from_path)

    def _by_source(self, target: str, from_path: str) -> str | None:
        """Level 5: the note ingested from a file named `target` (folders written in the
        target must end the source's path)."""
        t = target[2:] if target.startswith("./") else target
        ids = self.by_source.get(key(posixpath.basename(t)))
        if ids and "/" in t:
            tail = "/" + key(t)
            ids = [i for i in ids if key(str(self.notes[i].source).replace("\\", "/")).endswith(tail)]
        return self._pick(ids, from_path) if ids else None


@dataclass
class LinkView:
    """One link with its resolution. `target` is the literal text written in the note
    (never empty: a same-note heading link shows as `#Heading`); `resolved_*` are None for
    an unresolved link; `kind` is "resolved", "unresolved" or "heading" (same note)."""

    source_id: str
    source_path: str
    source_title: str
    target: str
    alias: str | None
    anchor: str | None
    embed: bool
    kind: str
    resolved_id: str | None = None
    resolved_path: str | None = None
    resolved_title: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _view(row: sqlite3.Row, resolver: Resolver) -> LinkView:
    target, anchor = row["target"], row["anchor"]
    src = resolver.notes.get(row["note_id"])
    src_path, src_title = (src.path, src.title) if src else ("", "")
    if not target:
        rid, kind, shown = row["note_id"], "heading", f"#{anchor}"
    else:
        rid = resolver.resolve(target, src_path)
        kind, shown = ("resolved" if rid else "unresolved"), target
    dest = resolver.notes.get(rid) if rid else None
    return LinkView(row["note_id"], src_path, src_title, shown, row["alias"], anchor,
                    bool(row["embed"]), kind, rid, dest.path if dest else None,
                    dest.title if dest else None)


def outgoing(conn: sqlite3.Connection, note_id: str, resolver: Resolver | None = None) -> list[LinkView]:
    """The links written in note `note_id`, in text order (frontmatter links last)."""
    resolver = resolver or Resolver.from_db(conn)
    rows = L.links_of(conn, note_id)
    return [_view(r, resolver) for r in rows]


def backlinks(conn: sqlite3.Connection, note_id: str, resolver: Resolver | None = None) -> list[LinkView]:
    """Links in *other* notes that resolve to `note_id` (one entry per link)."""
    resolver = resolver or Resolver.from_db(conn)
    out = []
    for r in L.links_elsewhere(conn, note_id):
        v = _view(r, resolver)
        if v.resolved_id == note_id:
            out.append(v)
    return out


def unresolved(conn: sqlite3.Connection) -> list[LinkView]:
    """Every link whose target matches no note, by source path then position."""
    resolver = Resolver.from_db(conn)
    views = [_view(r, resolver) for r in L.all_links(conn)]
    out = [v for v in views if v.kind == "unresolved"]
    out.sort(key=lambda v: (v.source_path, v.target))
    return out


def find_note(conn: sqlite3.Connection, ref: str, only: set[str] | None = None) -> N.NoteRow:
    """The note a person means by `ref`: its id, its vault path (with or without suffix),
    or a name resolved like a wikilink (file name, title, alias). only: the ids of the notes
    to consider (one person's, cairn.people; None: all) — a note outside it is not found
    and never named in an error. Raises NoteNotFound, or AmbiguousNote when several notes
    share that title/alias/file name."""
    ref = ref.strip()
    if not ref:
        raise NoteNotFound("no note named: the reference is empty")
    note = N.get_note(conn, ref) or N.get_note_by_path(conn, ref.lstrip("/"))
    if note and (only is None or note.id in only):
        return note
    resolver = Resolver.from_db(conn)
    t = _strip_suffix(ref.lstrip("/"))
    k = key(t)
    for table in (resolver.by_path, resolver.by_stem, resolver.by_title, resolver.by_alias):
        ids = sorted(set(table.get(k, [])) if only is None else set(table.get(k, [])) & only)
        if len(ids) > 1:
            paths = ", ".join(sorted(resolver.notes[i].path for i in ids))
            raise AmbiguousNote(f"{ref!r} names {len(ids)} notes ({paths}); give the path or id")
        if ids:
            found = N.get_note(conn, ids[0])
            assert found is not None
            return found
    raise NoteNotFound(f"no note with id, path, title or alias {ref!r}")
