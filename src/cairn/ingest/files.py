"""Ingest one source file: read it, parse it, write its vault note (never over a copy the
person edited) and index it. `ingest_file` reads as its steps.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cairn import conflicts as C
from cairn import paths as P
from cairn import vault as V
from cairn.config import Settings
from cairn.model import ParsedDocument
from cairn.parse import parse_file
from cairn.parse.errors import EmptyDocument, ParseError, describe
from cairn.store import notes as N
from cairn.store.copies import conflict_hash, record_conflict, record_write
from cairn.report import IngestReport
from cairn.ingest.index import index_note_file
from cairn.ingest.render import VaultNote, render_generated, render_markdown
from cairn.ingest.sources import special_file_kind


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


class _Done(Exception):
    """A step has put the file's outcome in the report: nothing more to do for it."""


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
    real_src = P.resolved(src)  # never raises: a loop swapped in is skipped by _read
    source = source or str(real_src)
    try:
        data = _read(src, name, settings, report, raise_errors)
        source_hash = V.sha256_bytes(data)
        existing = _known_version(conn, settings, name, source, data, source_hash, report, skip_tombstoned)
        # The text lane (cairn.parse.pool) may have parsed these very bytes in a worker.
        ahead = pool.take_text(src, source_hash) if pool is not None else None
        doc = ahead[0] if ahead else _parse(src, data, settings, pool, existing, name, report, raise_errors)
        if extra_meta:
            doc.meta.update(extra_meta)
        block = _enrichment(settings, doc, existing, gist=ahead[1] if ahead else None)
        note = (render_markdown(settings, src, root, data, source, source_hash, existing, block, real_src, doc.title)
                if doc.kind == "markdown" else render_generated(settings, src, doc, source, source_hash, existing, block))
        target, index_source, written = _write_vault(conn, settings, note, existing, source, source_hash, name, report)
        _index(conn, settings, settings.vault / target, index_source, source_hash, doc, name, report, written)
    except _Done:
        return


def _enrichment(settings: Settings, doc: ParsedDocument, existing: N.NoteRow | None, *,
                gist: str | None = None) -> dict | None:
    """The `enrichment` block to write with the note ([ingest] enrich, cairn.enrich): None
    when the source has a block of its own, or the note has no text. A new version of a
    source keeps the block its vault copy has unless that block is the one written at ingest
    (a model's enrichment or the person's is never dropped by a re-ingest); with enrichment
    off, only such a kept block is written. gist: `lexical_gist(doc.body)` when the text
    lane computed it already."""
    if "enrichment" in doc.meta:
        return None
    from cairn.enrich import INGEST_METHOD, ingest_block
    kept = _vault_enrichment(settings, existing)
    if kept is not None and kept.get("by") != INGEST_METHOD:
        return kept
    return None if settings.ingest.enrich == "off" else ingest_block(doc.body, gist=gist)


def _vault_enrichment(settings: Settings, existing: N.NoteRow | None) -> dict | None:
    """The enrichment block of an indexed note's vault copy (None: no note, no copy, no
    block or an unreadable one)."""
    if existing is None:
        return None
    try:
        meta, _ = V.split_frontmatter((settings.vault / existing.path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    block = meta.get("enrichment")
    return block if isinstance(block, dict) else None


def _read(src: Path, name: str, settings: Settings, report: IngestReport, raise_errors: bool) -> bytes:
    """The source's bytes. Special files (FIFOs, devices), symlink loops (one swapped in
    after a folder walk: "symlink loop, skipped", as the walk says) and files over
    max_file_bytes are skipped, unreadable ones failed (OSError re-raised with raise_errors)."""
    try:
        st = src.stat()
        kind = special_file_kind(st.st_mode)
        if kind:
            # Opening a FIFO blocks and a device never ends (/dev/zero): never read them.
            report.skipped.append((name, f"not a regular file ({kind})"))
            raise _Done
        if st.st_size > settings.max_file_bytes:
            report.skipped.append((name, f"file too large ({st.st_size} bytes > max_file_bytes "
                                         f"{settings.max_file_bytes})"))
            raise _Done
        data = src.read_bytes()
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # reading it again cannot help: not a job to retry
            report.skipped.append((name, "symlink loop, skipped"))
            raise _Done from None
        if raise_errors:
            raise
        report.failed.append((name, f"cannot read: {exc.strerror or exc}"))
        raise _Done from None
    if len(data) > settings.max_file_bytes:  # it grew after the size check
        report.skipped.append((name, f"file too large (> max_file_bytes {settings.max_file_bytes})"))
        raise _Done
    return data


def _known_version(conn: sqlite3.Connection, settings: Settings, name: str, source: str, data: bytes,
                   source_hash: str,
                   report: IngestReport, skip_tombstoned: bool) -> N.NoteRow | None:
    """The note already made from this source (None if new). Stops when these bytes were
    deleted in Cairn (skip_tombstoned), are already indexed with their vault copy present, or
    were already put beside a copy the person edited."""
    if skip_tombstoned and N.is_tombstoned_source(conn, source, source_hash):
        report.tombstoned.append(name)
        raise _Done
    vault = settings.vault
    existing = N.get_note_by_source(conn, source)
    if existing and existing.source_hash == source_hash and (vault / existing.path).exists():
        report.unchanged.append(name)
        raise _Done
    if existing is None:
        _same_upload(conn, settings, source, source_hash, name, report)
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
            raise _Done
    return existing


def _same_upload(conn: sqlite3.Connection, settings: Settings, source: str, source_hash: str, name: str,
                 report: IngestReport) -> None:
    """Stop (reported unchanged) when `source` is an upload (`<home>/uploads/<id>/...`: each
    upload gets a folder of its own) and a note was made from the same bytes by an earlier
    upload whose vault copy is still there: uploading a file twice makes one note."""
    uploads = str(P.resolved(settings.home / "uploads")) + os.sep
    if not source.startswith(uploads):
        return
    twin = N.get_note_by_source_hash(conn, source_hash, uploads)
    if twin is not None and (settings.vault / twin.path).exists():
        report.unchanged.append(name)
        report.warnings.append((name, f"the same file was uploaded before: it is note {twin.path!r}"))
        raise _Done


def _parse(src: Path, data: bytes, settings: Settings, pool, existing: N.NoteRow | None, name: str,
           report: IngestReport, raise_errors: bool) -> ParsedDocument:
    """The parsed document. Content a parser refuses is skipped; a parser bug is failed (or
    re-raised with raise_errors). An indexed source that became empty is an edit: the note
    stays, with an empty body, so its old text stops being found."""
    try:
        return _parse_source(src, data, settings, pool)
    except EmptyDocument as exc:
        if existing is None:
            report.skipped.append((name, str(exc)))
            raise _Done from None
        return ParsedDocument(kind="markdown" if existing.type == "markdown" else existing.type,
                              title=existing.title, body="", warnings=[f"source is now empty ({exc})"])
    except ParseError as exc:
        report.skipped.append((name, str(exc)))
    except RecursionError:
        report.skipped.append((name, "its structure is nested too deeply to read"))
    except Exception as exc:  # a parser bug must not abort the batch
        if raise_errors:
            raise
        report.failed.append((name, f"could not be read: {describe(exc)}"))
    raise _Done


def _write_vault(conn: sqlite3.Connection, settings: Settings, note: VaultNote, existing: N.NoteRow | None,
                 source: str, source_hash: str, name: str, report: IngestReport) -> tuple[str, str | None, bytes]:
    """Write the note into the vault: (path written, source to index it under, the bytes
    written, which the index reads instead of the file it just wrote). A path that
    leads out of the vault is failed. A copy the person edited is kept and the new version
    goes beside it as a conflict copy (indexed with no source; a warning names both)."""
    vault = settings.vault
    outside = P.escape_reason(vault, vault / note.relpath)
    if outside is not None:  # a vault folder that is a link out: never write through it
        report.failed.append((name, f"its vault note {note.relpath}: {outside}; not written"))
        raise _Done
    # Checked again right before writing: the copy may have been edited while parsing ran.
    edited = C.copy_edited(conn, vault / note.relpath, note.note_id, existing.file_hash if existing else None)
    if not edited:
        data = note.text.encode("utf-8")
        record_write(conn, note.note_id, V.sha256_bytes(data))
        return note.relpath, source, _written(vault / note.relpath, data, V.atomic_write(vault / note.relpath, note.text))
    target = C.conflict_relpath(vault, note.relpath, datetime.now(timezone.utc))
    text = note.conflict(target)
    written = V.atomic_write(vault / target, text)
    report.warnings.append((name, C.edited_warning(note.relpath, target)))
    _index_kept_copy(conn, settings, vault / note.relpath, source, existing, edited)
    record_conflict(conn, note.note_id, source_hash)
    return target, None, _written(vault / target, text.encode("utf-8"), written)


def _written(path: Path, data: bytes, st: os.stat_result) -> bytes | None:
    """`data` when `path` is still the file this process wrote (same inode, mtime and
    size as `st`), so the index can use the bytes in hand; None (read the file) when
    something replaced or changed it since."""
    try:
        now = path.stat()
    except OSError:
        return None
    same = (now.st_ino, now.st_mtime_ns, now.st_size) == (st.st_ino, st.st_mtime_ns, st.st_size)
    return data if same and st.st_size == len(data) else None


# A note cut into more passages than [chunk] embed_max_chunks is found by meaning only through its
# first ones: the ingest says so for that note (`cairn status` only counted keyword_only_chunks of
# all notes). Switch off: PARTLY_EMBEDDED.
PARTLY_EMBEDDED = True


def _index(conn: sqlite3.Connection, settings: Settings, path: Path, source: str | None, source_hash: str,
           doc: ParsedDocument, name: str, report: IngestReport, data: bytes | None = None) -> None:
    """Index the written note (`data`: its bytes, if the caller has them) and report it as
    added, updated or unchanged, with the parser's warnings and, for a note of more passages
    than [chunk] embed_max_chunks, how many are searched by keyword only (PARTLY_EMBEDDED)."""
    try:
        status, note_id, _ = index_note_file(conn, settings, path, source=source, source_hash=source_hash,
                                             data=data)
    except ParseError as exc:
        report.failed.append((name, str(exc)))
        return
    report.warnings.extend((name, w) for w in doc.warnings)
    most = settings.chunk.embed_max_chunks
    if PARTLY_EMBEDDED and status in ("added", "updated") and (total := N.chunk_total(conn, note_id)) > most:
        report.warnings.append((name, f"{total:,} passages: the first {most:,} are searched by meaning, the other "
                                      f"{total - most:,} by keyword only ([chunk] embed_max_chunks)"))
    if status in ("added", "updated", "metadata"):
        report.note_ids.append(note_id)
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
    return parse_file(src, data=data, **_parse_options(settings))
