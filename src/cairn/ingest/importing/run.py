"""Run one export reader into the vault: incremental, idempotent, all-or-nothing on a bad file.

Each `Item` becomes one generated note `imports/<source>/<slug of title>-<8 hex>.md` whose
frontmatter keeps its stable source id (`source_id`), the importer (`import_source`) and
`import_hash` (sha1 of the item's content as the export gives it). The note's id is
`stable_id("import:<source or its family>:<source_id>")`, so the next import finds it wherever it was moved:
- not there yet -> written ("added");
- there with the same import_hash -> left alone ("unchanged"; edits made in Cairn are kept);
- there with another import_hash -> rewritten from the export ("updated").
`dry_run=True` computes the same report and writes nothing. A `Skip` from the reader, an
item whose note could not be rendered (or that the index would refuse as binary data) and a duplicate source id in one export are reported
in `skipped` and passed over. An `ExportFormatError` (or an I/O error) part way through puts
back every file this run wrote and re-indexes it (nothing already imported is lost), then
propagates. Every note is indexed as it is written (keyword-searchable at once); embedding
runs once at the end (`embed_missing`, which also brings the entity graph in line:
frontmatter `people`/`attendees` and chat speakers become people).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Callable, Iterable

from cairn import paths as P
from cairn import vault as V
from cairn.chunk import format_chat_message
from cairn.config import Settings
from cairn.people import owner_keys
from cairn.report import ImportReport, Progress
from cairn.store import notes as N
from cairn.ingest.embedding import embed_missing
from cairn.ingest.importers import _reason, _roll_back
from cairn.ingest.index import index_note_file
from cairn.ingest.importing.items import ExportFormatError, Item, Skip
from cairn.parse.errors import ParseError
from cairn.parse.text import decode_bytes

FOLDER = "imports"
SYNC_EVERY = 500  # notes written between two flushes to disk (os.sync)


def _write(path: Path, text: str) -> None:
    """Write a note via a temporary file and rename, without an fsync per file (16 ms each
    on this machine: 10k mails would spend minutes in it); `run_import` flushes every
    SYNC_EVERY notes and at the end. A crash in between can leave a recent note empty or
    missing; the next import of the same export sees it has no import_hash and writes it
    again, so nothing is lost for good."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.cairn-tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    os.replace(tmp, path)


def import_hash(item: Item) -> str:
    """sha1 (hex) of everything of `item` that goes into its note (files by their sha256)."""
    data = {"t": item.title, "b": item.body, "y": item.type, "c": item.created, "u": item.updated,
            "g": item.tags, "m": item.meta,
            "msg": [vars(m) for m in item.messages] if item.messages is not None else None,
            "f": [(n, hashlib.sha256(b).hexdigest()) for n, b in item.files]}
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)
                        .encode("utf-8")).hexdigest()


def _store_files(vault: Path, item: Item, dry_run: bool) -> list[str]:
    """Keep each attachment once under `_files/<sha256><ext>` (by content); returns the
    vault paths. Names are never used as paths (only their suffix, checked)."""
    out = []
    for name, data in item.files:
        ext = os.path.splitext(name)[1].lower()
        ext = ext if ext[1:].isalnum() and len(ext) <= 10 else ""
        rel = f"_files/{hashlib.sha256(data).hexdigest()}{ext}"
        target = vault / rel
        P.confine(vault, target)
        if not dry_run and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.cairn-tmp")
            tmp.write_bytes(data)
            os.replace(tmp, target)
        out.append(rel)
    return out


def render_item(source: str, item: Item, export: Path, note_id: str, digest: str,
                files: list[str], owner: str | None) -> tuple[dict, str]:
    """(frontmatter, body) of the note of `item`. A chat item's body is its messages, each
    a `format_chat_message` section (speaker and time in its heading)."""
    fm: dict = {"generator": "cairn", "id": note_id, "title": item.title or item.source_id,
                "type": item.type, "source": f"{source}:{export.name}", "source_id": item.source_id,
                "import_source": source, "import_hash": digest, "input_source": "import"}
    fm.update(owner_keys(owner))
    if item.created:
        fm["created"] = item.created
        fm.setdefault("event_time", item.created)
    if item.updated:
        fm["updated"] = item.updated
    if item.tags:
        fm["tags"] = list(dict.fromkeys(item.tags))
    for key, value in item.meta.items():
        if value not in (None, "", [], {}):
            fm.setdefault(key, value)
    body = item.body
    if item.messages is not None:
        fm["conversation"] = fm.get("conversation") or item.title or item.source_id
        fm["session"] = fm.get("session") or item.source_id
        fm["speakers"] = sorted({m.speaker for m in item.messages})
        body = "".join(format_chat_message(m.id, m.speaker, m.time, m.text) for m in item.messages)
    if files:
        fm["files"] = files
        body = body.rstrip() + "\n\n## Attachments\n\n" + "".join(
            f"- [{name}](../../{rel})\n" for (name, _), rel in zip(item.files, files))
    return fm, body


def _relpath(conn: sqlite3.Connection, vault: Path, source: str, item: Item, note_id: str) -> tuple[str, bool]:
    """(vault path of the item's note, whether it exists): where the index has the note
    (the person may have moved it), else a new path from the title and the source id."""
    row = N.get_note(conn, note_id)
    if row is not None and (vault / row.path).is_file():
        return row.path, True
    tail = hashlib.sha1(item.source_id.encode("utf-8")).hexdigest()[:8]
    rel = f"{FOLDER}/{P.not_device(V.slugify(source))}/{V.slugify(item.title or 'item', 60)}-{tail}.md"
    return rel, (vault / rel).is_file()


def _stored_hash(path: Path) -> str | None:
    try:
        fm, _ = V.split_frontmatter(path.read_text(encoding="utf-8", errors="replace"), lenient=True)
    except OSError:
        return None
    value = fm.get("import_hash")
    return str(value) if value else None


def run_import(conn: sqlite3.Connection, settings: Settings, embedder, source: str, path: Path,
               items: Iterable[Item | Skip], progress: Progress | None = None, *, dry_run: bool = False,
               after_index: Callable[[list[str]], None] | None = None, family: str | None = None,
               live: bool = False) -> ImportReport:
    """Write (or with dry_run only compare) every item of `items` read from the export at
    `path` as notes of importer `source`; see the module docstring for the rules. after_index:
    called with the ids of chat notes added or updated, before embedding (memory extraction).
    family: the id space of the source ids (default `source`): mbox and maildir share "mail",
    so one message found in both is one note. live: `path` only names a live source (IMAP),
    it is not a file.
    Raises ExportFormatError (after putting back what this run wrote)."""
    if not live and not path.exists():
        raise ExportFormatError(f"{path}: no such file or folder")
    report = ImportReport(source=source, dry_run=dry_run)
    vault = settings.vault
    undo: list[tuple[Path, bytes | None]] = []
    seen: dict[str, str] = {}
    chats: list[str] = []
    started = time.monotonic()
    try:
        for n, item in enumerate(items, 1):
            if progress and n % 10 == 0:
                progress(f"import {source}", n, None)  # the total is not known while streaming
            if isinstance(item, Skip):
                report.skipped.append((item.name, item.reason))
                continue
            label = f"{path.name}: {item.title or item.source_id}"[:200]
            if item.source_id in seen:
                report.skipped.append((label, f"duplicate source id {item.source_id!r} (first: {seen[item.source_id]})"))
                continue
            seen[item.source_id] = label
            note_id = V.stable_id(f"import:{family or source}:{item.source_id}")
            digest = import_hash(item)
            relpath, exists = _relpath(conn, vault, source, item, note_id)
            target = vault / relpath
            if exists and _stored_hash(target) == digest:
                report.unchanged.append(label)
                continue
            (report.updated if exists else report.added).append(label)
            if dry_run:
                continue
            try:
                files = _store_files(vault, item, dry_run)
                fm, body = render_item(source, item, path, note_id, digest, files, settings.owner)
                text = V.render_note(fm, body)
                decode_bytes(text.encode("utf-8"))  # what the index will refuse (NUL bytes), refused here by name
            except (ValueError, TypeError, ParseError) as exc:
                (report.updated if exists else report.added).pop()
                report.skipped.append((label, f"could not be written as a note ({_reason(exc)})"))
                continue
            P.confine(vault, target)
            undo.append((target, target.read_bytes() if exists else None))
            _write(target, text)
            if len(undo) % SYNC_EVERY == 0:
                os.sync()
            index_note_file(conn, settings, target)
            report.note_ids.append(note_id)
            if item.type == "chat":
                chats.append(note_id)
    except BaseException as exc:
        _roll_back(conn, settings, undo, embedder)
        if isinstance(exc, ExportFormatError):
            raise ExportFormatError(exc.message + _kept(undo)) from None
        if isinstance(exc, (OSError, UnicodeError)):
            raise ExportFormatError(f"{path}: the import stopped ({_reason(exc)})" + _kept(undo)) from exc
        raise
    if undo:
        os.sync()
    report.timings["keyword_searchable_s"] = round(time.monotonic() - started, 3)
    if dry_run:
        return report
    try:
        if after_index is not None and chats:
            after_index(chats)
    finally:
        report.embedded, report.reused_vectors = embed_missing(
            conn, embedder, progress, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys,
            neighbour_keys=settings.memory.neighbour_keys)
        report.timings["embedded_s"] = round(time.monotonic() - started, 3)
    return report


def _kept(undo: list) -> str:
    return ("; nothing was imported (the vault and index are as before)" if undo
            else "; nothing was imported")
