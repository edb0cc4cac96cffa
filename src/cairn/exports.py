"""Export notes to files under `<home>/exports/` (they expire).

Formats (FORMATS):
- "markdown": one note, its file as it is in the vault (frontmatter included);
- "text": the notes as plain text, markdown stripped, each under its title;
- "json": {"exported_at", "count", "notes": [metadata + "content" (the body)]};
- "zip": one markdown file per note, names made from the titles and de-duplicated.

Selection (`select_notes`): note references (id, title, alias or vault path), a search query,
or every note; then narrowed by tag, type and a date range (inclusive YYYY-MM-DD days,
matched against the note's `created` date, else its `updated` date).

Safety: the export file's name is made here (letters, digits, ".", "_", "-"; a name the
caller gives must already be one), written under `exports/` with O_EXCL through a temporary
file in the same folder; `resolve_export` serves only such names, only regular files (no
symlinks) directly inside the folder, only until they expire. Note contents are read from
vault paths held in the index and checked to stay inside the vault.

A note the index lists whose file is missing from the vault fails the export (NotFound
naming it; nothing is written): see `_vault_texts`.

Expiry: `cleanup_exports(home, max_age)` (seconds, default DEFAULT_MAX_AGE = 24 h) deletes
older files; `cairn serve` calls it hourly. Errors: InvalidInput (bad name, format, date,
selection), NotFound (unknown note reference, no matching note, missing/expired export),
Conflict (`copy_export` would overwrite a file).
"""

from __future__ import annotations

import json
import os
import re
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from cairn.errors import Conflict, InvalidInput, NotFound, TooLarge
from cairn.paths import NAME_BYTES, fit_name

FORMATS: tuple[str, ...] = ("markdown", "text", "json", "zip")
EXTENSIONS = {"markdown": "md", "text": "txt", "json": "json", "zip": "zip"}
DEFAULT_MAX_AGE = 24 * 3600.0  # seconds an export file is kept
MAX_NOTES = 10_000  # notes in one export
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass
class ExportResult:
    """One export file: `name` (file name under exports/), `path` (absolute), `format`,
    `notes` ([{"id", "path", "title"} (+ "file": its name in a zip)] in export order),
    `bytes` (file size), `created` / `expires` (ISO 8601 UTC)."""

    name: str
    path: str
    format: str
    notes: list[dict] = field(default_factory=list)
    bytes: int = 0
    created: str = ""
    expires: str = ""
    artifact: str = ""  # the artifact id of the file (the artifact store), when kept there

    def to_json(self) -> dict:
        """{"name", "path", "format", "count", "notes", "bytes", "created", "expires"} and
        "artifact" when the file was kept as an artifact."""
        return {"name": self.name, "path": self.path, "format": self.format, "count": len(self.notes),
                "notes": self.notes, "bytes": self.bytes, "created": self.created, "expires": self.expires,
                **({"artifact": self.artifact} if self.artifact else {})}


def exports_dir(home: str | Path, person: str | None = None) -> Path:
    """`<home>/exports` (created when missing); for a named person (cairn.people) their own
    `<home>/exports/@NAME`, so one person never reads another's export by its name."""
    from cairn.people import person_folder_name
    root = Path(home) / "exports"
    folder = root / person_folder_name(root, person) if person else root
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ------------------------------------------------------------------ selection
def _day(value: str | None, what: str) -> str | None:
    if value is None or value == "":
        return None
    value = value.strip()
    if not _DATE_RE.match(value):
        raise InvalidInput(f"{what} must be a date YYYY-MM-DD, got {value!r}")
    try:
        datetime.strptime(value, "%Y-%m-%d")
    except ValueError:
        raise InvalidInput(f"{what} is not a real date: {value!r}") from None
    return value


def select_notes(app, *, ids: list[str] | None = None, tag: str | None = None, type: str | None = None,
                 since: str | None = None, until: str | None = None, query: str | None = None,
                 k: int = 20) -> list:
    """The notes to export (cairn.store.notes.NoteRow, no duplicates, in the order given:
    references' order, search rank, else vault path). `ids`: references `app.find_note`
    resolves (NotFound names the first unknown one); `query`: the notes of the top `k`
    search hits; neither: every note. Raises NotFound when nothing matches."""
    from cairn.store import notes as N
    start, end = _day(since, "since"), _day(until, "until")
    if start and end and start > end:
        raise InvalidInput(f"since ({start}) is after until ({end})")
    if not 1 <= k <= 1000:
        raise InvalidInput(f"k must be between 1 and 1000, got {k}")
    if ids:
        from cairn.links import NoteNotFound
        try:
            rows = [app.find_note(str(ref)) for ref in ids]
        except NoteNotFound as exc:
            raise NotFound(str(exc)) from None
    elif query is not None:
        if not query.strip():
            raise InvalidInput("the search query is empty")
        rows = [N.get_note(app.conn, h.note_id) for h in app.search(query, k=k).hits]
        rows = [r for r in rows if r is not None]
    else:
        total, rows = N.list_notes(app.conn, limit=MAX_NOTES + 1,
                                   person=getattr(app.settings, "owner", None))  # theirs and shared
    seen, out = set(), []
    for row in rows:
        if row.id in seen:
            continue
        seen.add(row.id)
        if tag and tag not in row.tags:
            continue
        if type and row.type != type:
            continue
        if start or end:
            day = (row.created or row.updated or "")[:10]
            if not _DATE_RE.match(day) or (start and day < start) or (end and day > end):
                continue
        out.append(row)
    if not out:
        raise NotFound("no note matches this selection; nothing was exported")
    if len(out) > MAX_NOTES:
        raise TooLarge(f"{len(out)} notes match; an export holds at most {MAX_NOTES}: narrow the selection")
    return out


# ------------------------------------------------------------------ content
def _vault_text(vault: Path, rel: str) -> str:
    """The note file's text; refuses a path that leaves the vault (a tampered index).
    Raises OSError as reading the file does (`_vault_texts` names the note)."""
    root = vault.resolve()
    path = (vault / rel).resolve()
    if root != path and root not in path.parents:
        raise InvalidInput(f"note path {rel!r} leaves the vault; not exported")
    from cairn.parse.text import note_text
    return note_text(path.read_bytes())  # a UTF-16 or cp1252 note exports as its characters


def _vault_texts(vault: Path, rows: list) -> list[str]:
    """The text of each note of `rows` (NoteRow) from its vault file, all read before anything
    is written. A note the index lists whose file is gone from the vault (deleted or moved
    by hand since the last sync) fails the whole export with NotFound naming every such
    note and the way out (`cairn sync`): an export that silently lacks a note the person
    selected would pass for complete. Any other read error (permission denied, a folder in
    its place) raises Unavailable naming the note and the reason. Nothing is written then."""
    texts: list[str] = []
    missing: list[str] = []
    for row in rows:
        try:
            texts.append(_vault_text(vault, row.path))
        except (FileNotFoundError, NotADirectoryError):
            missing.append(f"{row.title or row.id!r} ({row.path})")
        except OSError as exc:
            from cairn.errors import Unavailable
            reason = (exc.strerror or str(exc)).lower()
            raise Unavailable(f"cannot read the note {row.title or row.id!r} ({row.path}) from the vault: "
                              f"{reason}; nothing was exported") from None
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        what = "a note is" if len(missing) == 1 else f"{len(missing)} notes are"
        raise NotFound(f"{what} in the index but missing from the vault: {shown}; nothing was exported "
                       "(`cairn sync` brings the index in line with the vault)")
    return texts


def strip_markdown(text: str) -> str:
    """Plain text of markdown `text` (markdown-it-py's CommonMark tokens): headings, lists,
    emphasis, links and images reduced to their words (image: its alt text), code blocks
    kept as text, block elements separated by a blank line, HTML dropped."""
    from markdown_it import MarkdownIt
    tokens = MarkdownIt("commonmark").parse(text)
    blocks: list[str] = []
    lists: list[str] = []  # open list types, innermost last
    marker = "- "  # the current list item's marker: "- ", or "3. " in an ordered list
    joined = False  # the last block was a list item: the next item follows on the next line
    for tok in tokens:
        if tok.type == "list_item_open":
            marker = f"{tok.info}{tok.markup} " if tok.info else "- "
        elif tok.type in ("bullet_list_open", "ordered_list_open"):
            lists.append(tok.type)
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            joined = False
        elif tok.type == "inline":
            parts = []
            for child in tok.children or []:
                if child.type in ("text", "code_inline"):
                    parts.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append("\n")
                elif child.type == "image":
                    parts.append(child.content or "")
            line = "".join(parts).strip()
            if not line:
                continue
            if lists:
                line = "  " * (len(lists) - 1) + marker + line
                marker = ""  # a second paragraph of the same item: no marker
                if joined and blocks:
                    blocks[-1] += "\n" + line
                    continue
                joined = True
            blocks.append(line)
        elif tok.type in ("fence", "code_block"):
            blocks.append(tok.content.rstrip("\n"))
            joined = False
    return "\n\n".join(blocks)


def _render(fmt: str, app, rows: list) -> tuple[bytes | None, list[dict], dict[str, str]]:
    """(bytes of a one-file format or None for zip, note entries, {zip name: text})."""
    from cairn import vault as V
    vault = app.settings.vault
    entries = [{"id": r.id, "path": r.path, "title": r.title} for r in rows]
    texts = _vault_texts(vault, rows)
    if fmt == "markdown":
        return texts[0].encode("utf-8"), entries, {}
    bodies = [V.split_frontmatter(t, lenient=True)[1].strip("\n") for t in texts]
    if fmt == "text":
        parts = []
        for row, body in zip(rows, bodies):
            title = row.title or row.path
            parts.append(f"{title}\n{'=' * min(len(title), 80)}\n\n{strip_markdown(body)}".rstrip() + "\n")
        return "\n\n".join(parts).encode("utf-8"), entries, {}
    if fmt == "json":
        notes = [{"id": r.id, "path": r.path, "title": r.title, "type": r.type, "tags": r.tags,
                  "aliases": r.aliases, "created": r.created, "updated": r.updated,
                  "event_time": r.event_time, "source": r.source, "content": body}
                 for r, body in zip(rows, bodies)]
        doc = {"exported_at": _iso(time.time()), "count": len(notes), "notes": notes}
        return (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8"), entries, {}
    files: dict[str, str] = {}
    taken: set[str] = set()
    for entry, text in zip(entries, texts):
        name = unique_name(safe_stem(entry["title"] or Path(entry["path"]).stem, entry["id"]), ".md", taken)
        entry["file"] = name
        files[name] = text
    return None, entries, files


def safe_stem(title: str, fallback: str) -> str:
    """A file-name stem from `title`: letters (any script), digits, spaces, ".", "_", "-";
    every other character (separators, "..", control characters) becomes "-"; at most 100
    characters; `fallback` when nothing is left."""
    text = unicodedata.normalize("NFC", title or "")
    stem = "".join(ch if (ch.isalnum() or ch in " ._-") else "-" for ch in text)
    stem = re.sub(r"\.{2,}", "-", stem)
    stem = re.sub(r"-{2,}", "-", stem).strip(" .-_")[:100].strip(" .-_")
    if stem:
        return fit_name(stem, NAME_BYTES - 10)  # bytes and device names (cairn.paths); room for "-NN.json"
    return safe_stem(fallback, "note") if fallback != "note" else "note"


def file_stem(title: str, fallback: str) -> str:
    """An ASCII stem that passes check_name: `title` without accents, every character other
    than letters, digits, ".", "_", "-" as "-"; `fallback` (then "export") when empty."""
    ascii_ = unicodedata.normalize("NFKD", title or "").encode("ascii", "ignore").decode()
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_)
    stem = re.sub(r"\.{2,}", "-", stem)
    stem = re.sub(r"-{2,}", "-", stem).strip("._-")[:100].strip("._-")
    if stem:
        return stem
    return file_stem(fallback, "export") if fallback != "export" else "export"


def unique_name(stem: str, ext: str, taken: set[str]) -> str:
    """`stem + ext`, or `stem-2 + ext`, `stem-3 + ext`... : the first not in `taken`
    (compared case-insensitively, for case-insensitive file systems); adds it to `taken`."""
    n, name = 1, stem + ext
    while name.lower() in taken:
        n += 1
        name = f"{stem}-{n}{ext}"
    taken.add(name.lower())
    return name


# ------------------------------------------------------------------ writing
def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def check_name(name: str) -> str:
    """`name` when it is a safe export file name (NAME_RE: letters, digits, ".", "_", "-",
    starting with a letter or digit, no ".."), else InvalidInput."""
    if not isinstance(name, str) or not NAME_RE.match(name) or ".." in name:
        raise InvalidInput(f"export name {name!r} may hold only letters, digits, '.', '_' and '-' "
                           "(starting with a letter or digit, no '..', at most 151 characters)")
    return name


def _create_exclusive(folder: Path, stem: str, ext: str) -> tuple[Path, int]:
    for n in range(1, 1000):
        name = f"{stem}{'' if n == 1 else f'-{n}'}.{ext}"
        path = folder / name
        try:
            return path, os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            continue
    raise Conflict(f"too many exports named {stem!r}; give another name")


def export_notes(app, *, ids: list[str] | None = None, tag: str | None = None, type: str | None = None,
                 since: str | None = None, until: str | None = None, query: str | None = None,
                 format: str | None = None, name: str | None = None, k: int = 20,
                 max_age: float = DEFAULT_MAX_AGE) -> ExportResult:
    """Select notes (see select_notes) and write them in `format` (FORMATS; default markdown
    for one note, zip for several) to a new file under `<home>/exports/`. `name`: the file
    name's stem (checked by check_name; an extension of the format is dropped), default
    "cairn-export-<UTC time>" (for one note, its title's stem). Never overwrites: a taken name
    gets "-2", "-3"... Returns the ExportResult (expires `max_age` seconds after now)."""
    if format is not None and format not in FORMATS:
        raise InvalidInput(f"format {format!r} is not one of {', '.join(FORMATS)}")
    if name is not None:
        check_name(name)
    rows = select_notes(app, ids=ids, tag=tag, type=type, since=since, until=until, query=query, k=k)
    fmt = format or ("markdown" if len(rows) == 1 else "zip")
    if fmt == "markdown" and len(rows) != 1:
        raise InvalidInput(f"markdown exports one note and {len(rows)} match; choose text, json or zip")
    data, entries, files = _render(fmt, app, rows)
    ext = EXTENSIONS[fmt]
    now = time.time()
    if name:
        stem = name[: -len(ext) - 1] if name.lower().endswith("." + ext) else name
    elif len(rows) == 1:
        stem = file_stem(rows[0].title, rows[0].id)
    else:
        stem = "cairn-export-" + datetime.fromtimestamp(now, timezone.utc).strftime("%Y%m%d-%H%M%S")
    folder = exports_dir(app.settings.home, getattr(app.settings, "owner", None))
    import tempfile  # here, not at import: the export tool and command are registered by every
    import zipfile   # command line that loads the built-in plugins
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            if data is not None:
                fh.write(data)
            else:
                with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
                    for fname, text in files.items():
                        zf.writestr(fname, text)
        path, lock = _create_exclusive(folder, stem, ext)
        os.close(lock)
        os.replace(tmp, path)  # the name was reserved above: nothing else is overwritten
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return ExportResult(name=path.name, path=str(path.resolve()), format=fmt, notes=entries,
                        bytes=path.stat().st_size, created=_iso(now), expires=_iso(now + max_age))


# ------------------------------------------------------------------ reading, expiry, copying
def resolve_export(home: str | Path, name: str, max_age: float = DEFAULT_MAX_AGE,
                   person: str | None = None) -> Path:
    """The path of export file `name` (a bare name from an ExportResult) under
    `<home>/exports/` (`exports/@NAME/` for a named `person`, cairn.people). InvalidInput for a name that is not a safe file name (traversal,
    separators); NotFound when there is no such regular file or it has expired."""
    check_name(name)
    folder = exports_dir(home, person)
    path = folder / name
    if path.is_symlink() or not path.is_file() or path.resolve().parent != folder.resolve():
        raise NotFound(f"no export named {name!r} (exports expire after {max_age / 3600:g} h)")
    if time.time() - path.stat().st_mtime > max_age:
        raise NotFound(f"the export {name!r} has expired (exports are kept {max_age / 3600:g} h)")
    return path


def cleanup_exports(home: str | Path, max_age: float = DEFAULT_MAX_AGE, now: float | None = None) -> list[str]:
    """Delete files in `<home>/exports/` (and each person's `exports/@NAME/`, cairn.people)
    last modified more than `max_age` seconds before
    `now` (default: the current time), left-over temporary files included; symlinks are
    removed, never followed; folders are left alone. Returns the deleted names (sorted)."""
    if max_age < 0:
        raise InvalidInput(f"max_age must be 0 or more seconds, got {max_age}")
    folder = Path(home) / "exports"
    if not folder.is_dir():
        return []
    cutoff = (time.time() if now is None else now) - max_age
    removed = []
    folders = [(folder, "")] + [(p, f"{p.name}/") for p in sorted(folder.glob("@*"))
                                if p.is_dir() and not p.is_symlink()]  # each person's own
    for where, prefix in folders:
        with os.scandir(where) as it:
            for entry in it:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        continue
                    if entry.stat(follow_symlinks=False).st_mtime <= cutoff:
                        os.unlink(entry.path)
                        removed.append(prefix + entry.name)
                except FileNotFoundError:
                    continue
    return sorted(removed)


def copy_export(path: str | Path, out: str | Path, vault: str | Path | None = None) -> Path:
    """Copy an export file to `out` (a folder: keeps the file's name; else the new file's
    path, its folder must exist). A path ending in a slash names a folder, which must exist.
    Never overwrites: Conflict when the target exists. NotFound for a missing folder;
    InvalidInput for an empty `out` and for a target inside `vault` (symlinks followed): the
    next sync would index the copy as a second note of every note it holds."""
    if not str(out).strip():
        raise InvalidInput("--out is empty: give a folder or a new file's path")
    as_folder = str(out).endswith(("/", os.sep))
    src, out = Path(path), Path(out).expanduser()
    if as_folder and not out.is_dir():
        raise NotFound(f"{out}: no such folder")
    target = out / src.name if out.is_dir() else out
    if not target.parent.is_dir():
        raise NotFound(f"{target.parent}: no such folder")
    if vault is not None:
        from cairn.paths import resolved
        root, there = resolved(Path(vault)), resolved(target.parent)
        if there == root or root in there.parents:
            raise InvalidInput(f"{target} is inside the vault: the next sync would index the copy as a second "
                               "note; choose a folder outside the vault")
    import shutil
    try:
        with open(src, "rb") as fin, open(target, "xb") as fout:
            shutil.copyfileobj(fin, fout)
    except FileExistsError:
        raise Conflict(f"{target} already exists; choose another --out") from None
    return target.resolve()
