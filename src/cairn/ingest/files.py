"""Ingest one source file: read it, parse it, write its vault note (never over a copy the
person edited) and index it. `ingest_file` reads as its steps.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cairn import conflicts as C
from cairn import paths as P
from cairn import vault as V
from cairn.config import Settings
from cairn.model import ParsedDocument
from cairn.parse import original_suffix, parse_file
from cairn.parse.errors import EmptyDocument, ParseError, describe
from cairn.parse.text import decode_bytes
from cairn.store import notes as N
from cairn.store.copies import conflict_hash, record_conflict, record_write
from cairn.report import IngestReport
from cairn.ingest.index import index_note_file
from cairn.ingest.sources import special_file_kind


def _vault_path_for_markdown(settings: Settings, src: Path, root: Path | None) -> str:
    if root is not None:
        relpath = (Path(root.resolve().name or "root") / src.resolve().relative_to(root.resolve())).as_posix()
    else:
        relpath = src.name
    return f"notes/{relpath}"


def _generated_relpath(kind: str, title: str, created: str | None) -> str:
    day = (created or N.now_iso())[:10]
    return f"{kind}/{day}-{V.slugify(title)}.md"


def _index_kept_copy(conn: sqlite3.Connection, settings: Settings, path: Path, source: str,
                     existing: N.NoteRow | None, edited: tuple[bytes, str]) -> None:
    """Index the vault copy the person edited (kept by ingest), as a sync would: the note
    keeps its source and the source hash it was made from. edited: the copy's (bytes,
    sha256) as `conflicts.copy_edited` read them (not read again). A copy that cannot be
    parsed is left to sync to report."""
    if existing is not None:
        C.keep_reference(conn, existing.id, existing.file_hash)
    data, digest = edited
    try:
        index_note_file(conn, settings, path, source=source,
                        source_hash=existing.source_hash if existing else None,
                        data=data, file_hash=digest)
    except ParseError:
        pass


def ingest_file(conn: sqlite3.Connection, settings: Settings, src: Path, root: Path | None,
                report: IngestReport, *, source: str | None = None, name: str | None = None,
                extra_meta: dict[str, Any] | None = None, raise_errors: bool = False,
                skip_tombstoned: bool = False, pool=None) -> None:
    """Ingest one source file into the vault and the index; the outcome goes to `report`.

    source/name: the note's source and the report's name for it when `src` is only a local
    copy (a fetched URL); default the resolved path / the path as given. extra_meta: keys
    set on the parsed document's metadata (e.g. the final URL). raise_errors: re-raise an
    OSError reading `src` and a parser bug instead of reporting them as failed (the job
    worker decides whether to retry); content problems are still reported as skipped.
    skip_tombstoned: leave the source alone (listed in `report.tombstoned`) when a note made
    from exactly these bytes was deleted in Cairn, so an inbox scan never brings it back;
    an explicit ingest (the default) is a new request and ingests it again.
    pool: a cairn.parse.pool.ParsePool that parses images, audio and PDFs in a bounded
    worker process (run_jobs passes one); None parses them in this process.
    A vault copy the person edited since Cairn wrote it (cairn.conflicts) is never
    overwritten: the new version is written beside it as a conflict copy, indexed as a note
    of its own, and a warning in `report.warnings` names both (the same version is not
    written twice). A vault copy that is missing is written again.
    """
    name = name or str(src)
    source = source or str(src.resolve())
    try:
        st = src.stat()
        kind = special_file_kind(st.st_mode)
        if kind:
            # Opening a FIFO blocks and a device never ends (/dev/zero): never read them.
            report.skipped.append((name, f"not a regular file ({kind})"))
            return
        size = st.st_size
        if size > settings.max_file_bytes:
            report.skipped.append((name, f"file too large ({size} bytes > max_file_bytes {settings.max_file_bytes})"))
            return
        data = src.read_bytes()
        if len(data) > settings.max_file_bytes:  # it grew after the size check
            report.skipped.append((name, f"file too large (> max_file_bytes {settings.max_file_bytes})"))
            return
    except OSError as exc:
        if raise_errors:
            raise
        report.failed.append((name, f"cannot read: {exc.strerror or exc}"))
        return
    source_hash = V.sha256_bytes(data)
    if skip_tombstoned and N.is_tombstoned_source(conn, source, source_hash):
        report.tombstoned.append(name)
        return
    vault = settings.vault
    existing = N.get_note_by_source(conn, source)
    if existing and existing.source_hash == source_hash and (vault / existing.path).exists():
        report.unchanged.append(name)
        return
    edited = existing and C.copy_edited(conn, vault / existing.path, existing.id, existing.file_hash)
    if edited:
        pending = C.find_conflict_copy(vault, existing.path, source_hash, data)
        if pending or conflict_hash(conn, existing.id) == source_hash:
            # This version was put beside the edited copy before: not again (also when the
            # person has deleted that conflict copy since: then without a warning).
            _index_kept_copy(conn, settings, vault / existing.path, source, existing, edited)
            report.unchanged.append(name)
            if pending:
                report.warnings.append((name, C.edited_warning(existing.path, pending, already=True)))
            return
    try:
        doc = _parse_source(src, data, settings, pool)
    except EmptyDocument as exc:
        if existing is None:
            report.skipped.append((name, str(exc)))
            return
        # An indexed source that became empty (an editor truncated it) is an edit: its old
        # text must stop being found. Keep the note, with an empty body.
        doc = ParsedDocument(kind="markdown" if existing.type == "markdown" else existing.type,
                             title=existing.title, body="", warnings=[f"source is now empty ({exc})"])
    except ParseError as exc:
        report.skipped.append((name, str(exc)))
        return
    except RecursionError:
        report.skipped.append((name, "its structure is nested too deeply to read"))
        return
    except Exception as exc:  # a parser bug must not abort the batch
        if raise_errors:
            raise
        report.failed.append((name, f"could not be read: {describe(exc)}"))
        return
    if extra_meta:
        doc.meta.update(extra_meta)
    if doc.kind == "markdown":
        note_id = existing.id if existing else V.stable_id("src:" + source)
        text = decode_bytes(data)[0] if data.strip() else ""
        keys = {"cairn_id": note_id, "cairn_source": source, "cairn_source_hash": source_hash}
        new_text = V.add_frontmatter_keys(text, keys)
        if new_text is None:
            new_text = text  # malformed frontmatter: copy verbatim, never rewrite the block
        relpath = existing.path if existing else V.own_or_unique(
            vault, _vault_path_for_markdown(settings, src, root), note_id, new_text)

        def render_conflict(crel: str) -> str:
            ckeys = {"cairn_id": V.stable_id("conflict:" + crel), "cairn_source_hash": source_hash,
                     "cairn_conflict_of": relpath, "cairn_conflict_source": source}
            return V.add_frontmatter_keys(text, ckeys) or text
    else:
        note_id = existing.id if existing else V.stable_id("src:" + source)
        relpath = existing.path if existing else V.own_or_unique(
            vault, _generated_relpath(doc.kind, doc.title or src.stem, doc.created), note_id, None)
        fm: dict[str, Any] = {
            "generator": "cairn", "id": note_id, "title": doc.title or src.stem, "type": doc.kind,
            "source": source, "source_hash": source_hash,
            "created": doc.created or N.now_iso(), "ingested": N.now_iso(),
        }
        if doc.updated:
            fm["updated"] = doc.updated
        if doc.tags:
            fm["tags"] = doc.tags
        if doc.encoding:
            fm["encoding"] = doc.encoding
        if doc.pages:
            fm["pages"] = [[p.page, p.start, p.end] for p in doc.pages]
        for key in ("author", "url", "date", "sitename", "from", "to", "cc", "subject", "camera",
                    "taken", "format", "language"):
            if doc.meta.get(key):
                fm[key] = str(doc.meta[key])
        for key in ("width", "height", "duration", "file_size", "slides", "sheets", "attachments",
                    "ocr_pages", "asr", "ocr"):
            if doc.meta.get(key):
                fm[key] = doc.meta[key]
        if doc.warnings:
            fm["warnings"] = doc.warnings
        ext = original_suffix(doc, src)
        if ext:
            dest = vault / "_files" / f"{source_hash}{ext}"
            if not dest.exists():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
            fm["file"] = f"_files/{source_hash}{ext}"
        # The vault body is the parsed text stripped of outer blank space; page offsets are
        # shifted to match so they stay valid when the note is read back.
        lead = len(doc.body) - len(doc.body.lstrip())
        body = doc.body.strip()
        if ext and doc.kind in ("image", "audio"):
            # Images and recordings are shown/linked from their note by a relative markdown
            # link (rendered by Obsidian and other editors), after the text so that search
            # snippets start with the OCR text / transcript; page offsets are unaffected.
            link = os.path.relpath(dest, (vault / relpath).parent).replace(os.sep, "/")
            label = (doc.title or src.stem).replace("]", ")").replace("[", "(")
            ref = f"![{label}]({link})" if doc.kind == "image" else f"[{label}]({link})"
            body = f"{body}\n\n{ref}" if body else ref
        if doc.pages:
            fm["pages"] = [[p.page, max(0, p.start - lead), min(len(body), max(0, p.end - lead))]
                           for p in doc.pages]
        new_text = V.render_note(fm, body)

        def render_conflict(crel: str) -> str:
            cfm = {k: v for k, v in fm.items() if k != "source"}
            cfm.update(id=V.stable_id("conflict:" + crel), conflict_of=relpath, conflict_source=source)
            return V.render_note(cfm, body)
    outside = P.escape_reason(vault, vault / relpath)
    if outside is not None:  # a vault folder that is a link out: never write through it
        report.failed.append((name, f"its vault note {relpath}: {outside}; not written"))
        return
    # Checked again right before writing: the copy may have been edited while parsing ran.
    indexed_hash = existing.file_hash if existing else None
    target, index_source = relpath, source
    edited = C.copy_edited(conn, vault / relpath, note_id, indexed_hash)
    if edited:
        # The person edited the vault copy: keep it, put the new version beside it.
        target = C.conflict_relpath(vault, relpath, datetime.now(timezone.utc))
        V.atomic_write(vault / target, render_conflict(target))
        index_source = None  # the source's note stays the person's copy
        report.warnings.append((name, C.edited_warning(relpath, target)))
        _index_kept_copy(conn, settings, vault / relpath, source, existing, edited)
        record_conflict(conn, note_id, source_hash)
    else:
        record_write(conn, note_id, V.sha256_bytes(new_text.encode("utf-8")))
        V.atomic_write(vault / relpath, new_text)
    try:
        status, _, warnings = index_note_file(conn, settings, vault / target,
                                              source=index_source, source_hash=source_hash)
    except ParseError as exc:
        report.failed.append((name, str(exc)))
        return
    for w in doc.warnings:
        report.warnings.append((name, w))
    if status == "added":
        report.added.append(name)
    elif status in ("updated", "metadata"):
        report.updated.append(name)
    else:
        report.unchanged.append(name)


def _parse_options(settings: Settings) -> dict[str, Any]:
    i = settings.ingest
    return {"max_bytes": settings.max_file_bytes, "ocr": i.ocr, "asr": i.asr, "max_ocr_pages": i.max_ocr_pages}


def is_heavy(src: Path, head: bytes) -> bool:
    """True for a source a worker process parses (images, audio, PDF: OCR and speech-to-text
    run there; see cairn.parse.pool)."""
    from cairn.parse.detect import detect_kind
    from cairn.parse.pool import HEAVY_KINDS
    try:
        return detect_kind(src, head) in HEAVY_KINDS
    except ParseError:  # unsupported content: parsed (and reported) in this process
        return False


def _parse_source(src: Path, data: bytes, settings: Settings, pool) -> ParsedDocument:
    """parse_file, in the worker pool for heavy kinds when a pool is given."""
    from cairn.parse.detect import HEAD_BYTES
    if pool is not None and is_heavy(src, data[:HEAD_BYTES]):
        return pool.parse(src, **_parse_options(settings))
    return parse_file(src, **_parse_options(settings))
