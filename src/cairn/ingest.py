"""The ingest pipeline: source file -> vault note -> index rows -> embeddings.

Two phases keep ingest fast and crash-safe:
1. `ingest_paths` / `import_*` parse each source, write its vault note and index the note's
   text (notes, chunks, keyword rows) — one transaction per note;
2. `embed_missing` embeds every chunk that has no vector yet, in length-sorted batches.
A crash between the phases leaves chunks without vectors, which the next run embeds.

`index_note_file` is the one primitive that brings the index in line with one vault file;
ingest, import, reindex (and later the watcher) all go through it. A note whose body text
is unchanged keeps its chunks and vectors (metadata-only edits are not re-embedded).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import stat
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from cairn import conflicts as C
from cairn import paths as P
from cairn import vault as V
from cairn.chunk import chunk_body, chunk_chat, format_chat_message
from cairn.config import Settings
from cairn.instants import instant
from cairn.model import Chunk, PageSpan, ParsedDocument
from cairn.parse import original_suffix, parse_file, parse_markdown_text
from cairn.parse.errors import EmptyDocument, ParseError, describe
from cairn.parse.text import decode_bytes
from cairn.store import notes as N
from cairn.store.copies import conflict_hash, record_conflict, record_write
from cairn.store.locks import exclusive
from cairn.store.vectors import cached_vectors, clear_vector_cache, put_vectors
from cairn.errors import InvalidInput

EMBED_BATCH = 64  # chunks per embedder call (the embedder sub-batches internally)

from cairn.report import IngestReport, Progress, json_type_name  # noqa: F401 (re-exported)


# --------------------------------------------------------------------------- helpers

def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def embed_text(title: str, chunk: Chunk, facts: list[str] | None = None) -> str:
    """The text given to the embedder for a chunk: title and heading give it context; a
    chat message is "speaker: text" followed by the facts extracted from it, one a line
    (fact-augmented key, see memory/keys.py)."""
    if chunk.speaker:
        return N.keyword_body(chunk.text, chunk.speaker, facts)
    head = title if not chunk.heading or chunk.heading == title else f"{title} — {chunk.heading}"
    return f"{head}\n{chunk.text}"


# --------------------------------------------------------------------------- indexing

def _chunks_for(doc: ParsedDocument, note_type: str, settings: Settings) -> list[Chunk]:
    if note_type == "chat":
        return chunk_chat(doc.body)
    chunks = chunk_body(doc.body, doc.pages, max_tokens=settings.chunk.max_tokens,
                        min_tokens=settings.chunk.min_tokens)
    if not chunks and doc.title and (doc.tags or doc.meta.get("title")):
        # A note with metadata but no body (frontmatter only) is still findable by its
        # title and tags: one chunk whose text is the title (an empty span of the body).
        chunks = [Chunk(ord=0, text=doc.title, start=0, end=0)]
    record_id = doc.meta.get("source_id") if note_type == "record" else None
    if record_id is not None:
        for c in chunks:
            c.source_id = str(record_id)
    return chunks


def _pages_from_meta(meta: dict) -> list[PageSpan]:
    pages = meta.get("pages") or []
    out = []
    for item in pages:
        if isinstance(item, (list, tuple)) and len(item) == 3:
            out.append(PageSpan(int(item[0]), int(item[1]), int(item[2])))
    return out


def index_note_file(conn: sqlite3.Connection, settings: Settings, path: Path, *,
                    source: str | None = None, source_hash: str | None = None,
                    note_id: str | None = None, data: bytes | None = None,
                    file_hash: str | None = None) -> tuple[str, str, list[str]]:
    """Bring the index in line with one vault file.

    source/source_hash: where the note came from, when the caller knows it and the file
    cannot say so itself (a copy whose malformed frontmatter Cairn must not touch).
    note_id: the id to keep when the file carries none of its own (a note moved or renamed
    outside Cairn keeps its id; see sync.reconcile); default: the id already indexed at
    this path, else `stable_id(relpath)`.
    data/file_hash: the file's bytes and their sha256 (hex) when the caller has just read
    them (sync.reconcile and reindex hash a file to look for moves and tombstones), so each
    file is read and hashed once per pass; default: the file is read here. file_hash is
    only used together with data.
    Indexing a note clears any tombstone of its id (the note is live again).

    Returns (status, note_id, warnings) with status "added", "updated" (body changed,
    re-chunked; vectors recomputed later by `embed_missing`), "metadata" (frontmatter-only
    change: no re-embedding) or "unchanged". Raises ParseError for unreadable files.
    """
    vault = settings.vault
    relpath = V.rel(vault, path)
    # stat before reading: an edit landing in between leaves the stored (mtime, size)
    # older than the bytes, so the next sync re-reads the file instead of trusting it.
    stat = path.stat()
    if data is None or stat.st_size != len(data):
        data = path.read_bytes()
        file_hash = None
    file_hash = file_hash or V.sha256_bytes(data)
    existing = N.get_note_by_path(conn, relpath)
    if existing and existing.file_hash == file_hash and (source is None or existing.source == source):
        if (existing.mtime_ns, existing.size) != (stat.st_mtime_ns, stat.st_size):
            with N.transaction(conn):
                N.update_stat(conn, existing.id, stat.st_mtime_ns, stat.st_size)
        return "unchanged", existing.id, []
    if not data.strip():
        doc = ParsedDocument(kind="markdown", title=path.stem, body="")
        doc.warnings.append("empty file")
    else:
        text, _enc = decode_bytes(data)
        doc = parse_markdown_text(text, path.name)
    fm = doc.meta
    generated = fm.get("generator") == "cairn"
    # A file without an id of its own keeps the id it had at this path (an editor rewrote it
    # without its frontmatter), or the id of the note it was moved from (the caller's hint).
    id_hint = note_id or (existing.id if existing else None)
    if generated:
        note_id = str(fm.get("id") or id_hint or V.stable_id(relpath))
        note_type = str(fm.get("type") or "note")
        source = fm.get("source") or source
        source_hash = fm.get("source_hash") or source_hash
        doc.body = doc.body.strip()  # render_note wrote it stripped; offsets refer to this
        doc.pages = _pages_from_meta(fm)
    else:
        note_id = str(fm.get("cairn_id") or id_hint or V.stable_id(relpath))
        note_type = "markdown"
        source = fm.get("cairn_source") or source
        source_hash = fm.get("cairn_source_hash") or source_hash
    if doc.meta.get("encoding"):
        doc.encoding = doc.meta["encoding"]
    body_hash = _body_hash(doc.title + "\x00" + doc.body)
    old = existing or N.get_note(conn, note_id)
    row = N.NoteRow(
        id=note_id, path=relpath, title=doc.title or path.stem, type=note_type,
        source=str(source) if source else None, source_hash=source_hash, file_hash=file_hash,
        body_hash=body_hash, mtime_ns=stat.st_mtime_ns, size=stat.st_size,
        created=doc.created or (str(fm["created"]) if fm.get("created") else None),
        updated=doc.updated, event_time=str(fm["event_time"]) if fm.get("event_time") else None,
        tags=doc.tags, aliases=doc.aliases,
        meta={k: v for k, v in fm.items() if k not in ("pages",)},
        warnings=list(doc.warnings) + list(fm.get("warnings") or []), encoding=doc.encoding,
    )
    with N.transaction(conn):
        if existing and existing.id != note_id:
            N.delete_note(conn, existing.id)  # the file now carries another note's id
            old = N.get_note(conn, note_id)
        if old and old.path != relpath and (vault / old.path).exists():
            # Two files claim one id: keep the first, index this one under its own path id.
            row.id = note_id = V.stable_id(relpath)
            old = N.get_note(conn, note_id)
        N.upsert_note(conn, row)
        N.clear_tombstone(conn, note_id)
        N.replace_links(conn, note_id, doc.links)
        facts = N.fact_texts(conn, note_id) if note_type == "chat" and settings.memory.fact_keys else None
        if old and old.body_hash == body_hash:
            N.update_fts_metadata(conn, note_id, row.title, row.tags, facts)
            status = "metadata"
        else:
            N.delete_chunks(conn, note_id)
            N.insert_chunks(conn, note_id, row.title, row.tags, _chunks_for(doc, note_type, settings), facts)
            status = "updated" if old else "added"
    return status, note_id, row.warnings


def model_key(embedder) -> str:
    """The id stored with each vector: model name plus precision ("all-MiniLM-L6-v2/int8")
    when the embedder reports one, else its model name."""
    return str(getattr(embedder, "model_id", None) or embedder.model_name)


def embed_missing(conn: sqlite3.Connection, embedder, progress: Progress | None = None,
                  max_chunks_per_note: int = 400, *, fact_keys: bool = True) -> tuple[int, int]:
    """Embed every eligible chunk that has no vector (the first `max_chunks_per_note`
    chunks of each note; later chunks of huge notes stay keyword-only and are counted by
    `cairn status`). fact_keys: embed chat messages with their stored facts (`embed_text`).
    One process at a time (store.locks "embed"): processes sharing a home never embed the
    same chunk twice. Returns (embedded, reused_from_cache)."""
    with exclusive(conn, "embed"):
        return _embed_missing(conn, embedder, progress, max_chunks_per_note, fact_keys=fact_keys)


def _embed_missing(conn: sqlite3.Connection, embedder, progress: Progress | None,
                   max_chunks_per_note: int, *, fact_keys: bool) -> tuple[int, int]:
    model = model_key(embedder)
    stale = conn.execute("SELECT count(*) FROM vectors WHERE model != ?", (model,)).fetchone()[0]
    if stale:
        # Vectors of another model or precision are close but not comparable: replace them.
        with N.transaction(conn):
            conn.execute("DELETE FROM vectors WHERE model != ?", (model,))
            N.bump_vector_generation(conn)
    rows = conn.execute(
        f"""SELECT c.id, c.text, c.heading, c.speaker, n.title, fk.facts FROM chunks c
            JOIN notes n ON n.id = c.note_id
            LEFT JOIN fact_keys fk ON fk.note_id = c.note_id AND fk.source_id = c.source_id
            WHERE c.ord < {int(max_chunks_per_note)}
              AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)"""
    ).fetchall()
    if not rows:
        clear_vector_cache(conn)
        return 0, 0
    items = []
    for r in rows:
        ch = Chunk(ord=0, text=r["text"], start=0, end=0, heading=r["heading"], speaker=r["speaker"])
        t = embed_text(r["title"], ch, json.loads(r["facts"]) if fact_keys and r["facts"] else None)
        items.append((r["id"], t, _sha1(t)))
    cache = cached_vectors(conn, [h for _, _, h in items], model)
    reused = [(cid, h) for cid, _, h in items if h in cache]
    if reused:
        with N.transaction(conn):
            put_vectors(conn, [c for c, _ in reused], [h for _, h in reused],
                        np.stack([cache[h] for _, h in reused]), model)
    todo = [it for it in items if it[2] not in cache]
    todo.sort(key=lambda it: len(it[1]))
    done = 0
    for i in range(0, len(todo), EMBED_BATCH):
        batch = todo[i:i + EMBED_BATCH]
        vecs = embedder.embed([t for _, t, _ in batch])
        with N.transaction(conn):
            put_vectors(conn, [c for c, _, _ in batch], [h for _, _, h in batch], vecs, model)
        done += len(batch)
        if progress:
            progress("embed", done, len(todo))
    clear_vector_cache(conn)
    return done, len(reused)


# --------------------------------------------------------------------------- sources -> vault

def special_file_kind(mode: int) -> str | None:
    """"FIFO", "character device", "block device" or "socket" for a `st_mode` that is not a
    regular file or folder (such files are never read: a FIFO blocks, /dev/zero never ends),
    else None."""
    for test, label in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                        (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return label
    return None


def skip_source_dir(name: str) -> bool:
    """Folders never walked for sources: hidden ones (`.git`) and `node_modules`."""
    return name.startswith(".") or name == "node_modules"


def is_source_name(name: str) -> bool:
    """A file name a folder walk ingests: any name but a hidden one (content decides the type)."""
    return not name.startswith(".")


def iter_sources(paths: Iterable[Path],
                 skipped: list[tuple[str, str]] | None = None) -> Iterable[tuple[Path, Path | None]]:
    """(file, root folder or None) for every file under the given paths, sorted per folder;
    folders are walked recursively, skipping `skip_source_dir` folders and names that are not
    `is_source_name`. A path that is not a folder is yielded as it is (root None). Used by
    `cairn ingest` and by the watcher's inbox scan, so both see the same files.
    Confinement (cairn.paths): symlinked folders are never walked (a loop or a link to `/`
    cannot run away); a symlinked file or folder that leads outside the folder given, and a
    symlink loop, is not yielded but added to `skipped` as (path, reason) when given."""
    for p in paths:
        if p.is_dir():
            root_real = P.real(p)
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not skip_source_dir(d))
                for d in dirs:
                    if skipped is not None and os.path.islink(os.path.join(root, d)):
                        reason = P.outside_reason(root_real, os.path.join(root, d), "the folder given")
                        if reason is not None:
                            skipped.append((os.path.join(root, d), f"{reason}, skipped"))
                for name in sorted(files):
                    if is_source_name(name):
                        f = Path(root) / name
                        reason = (P.escape_reason(root_real, f, "the folder given")
                                  if f.is_symlink() else None)
                        if reason is not None and reason != "symlink loop" and not f.exists():
                            reason = None  # dangling: nothing to read; the job reports it
                        if reason is not None:
                            if skipped is not None:
                                skipped.append((str(f), f"{reason}, skipped"))
                            continue
                        yield f, p
        else:
            yield p, None


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


# --- jobs, url ingest

_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")


def is_url(text: str) -> bool:
    """True when a command-line source is a URL (`scheme://...` or `data:`), not a path.
    Any scheme counts, so `file://` and `gopher://` reach the fetcher and are refused there
    by name instead of being looked up as odd file names."""
    return bool(_URL_RE.match(text)) or text[:5].lower() == "data:"



def _job_name(job) -> str:
    """How a job's source is named in reports: the path or URL as the person gave it."""
    return str(job.payload.get("name") or job.payload.get("path") or job.payload.get("url") or job.source)


def _merge(report: IngestReport, part: IngestReport) -> None:
    for key in ("added", "updated", "unchanged", "skipped", "failed", "warnings", "tombstoned"):
        getattr(report, key).extend(getattr(part, key))


def _outcome(part: IngestReport) -> str:
    """A finished job's outcome from its one-source report. A failed entry left by
    ingest_file (a vault note it wrote but could not index) is permanent: raise."""
    if part.failed:
        from cairn.jobs import PermanentJobError
        raise PermanentJobError(part.failed[0][1])
    if part.skipped:
        return f"skipped: {part.skipped[0][1]}"
    if part.tombstoned:
        return "skipped: deleted in Cairn before"
    for key in ("added", "updated", "unchanged"):
        if getattr(part, key):
            return key
    return "unchanged"


def _url_name(url: str, content_type: str) -> str:
    """A local file name for a fetched URL: host and last path segment, slugged, with a
    suffix that keeps markdown/plain text apart (content sniffing decides everything else)."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    stem = Path(parts.path.rstrip("/")).stem if parts.path.strip("/") else ""
    base = V.slugify(f"{parts.hostname or 'page'}-{stem}" if stem else (parts.hostname or "page"), 80)
    ctype = content_type.split(";")[0].strip().lower()
    if ctype in ("text/markdown", "text/x-markdown") or parts.path.lower().endswith((".md", ".markdown")):
        return base + ".md"
    return base + ".txt"


def ingest_url(conn: sqlite3.Connection, settings: Settings, url: str, report: IngestReport, *,
               resolver=None, connector=None) -> None:
    """Fetch `url` (cairn.fetch: SSRF guard, size/time caps, `[fetch]` settings) and ingest
    the response like a file: its type is sniffed from the bytes; the note's source is the
    URL, `url` in its frontmatter the final URL after redirects. A refused or too large URL
    (or an HTTP 4xx) is reported as skipped (permanent, about the content); network errors
    and HTTP 5xx/429 are raised (FetchFailed with transient=True) for the job queue to retry;
    a host that does not exist or a TLS certificate that fails verification is raised as
    FetchUnreachable (permanent: the job is a dead letter at once, reported as failed)."""
    import tempfile
    from cairn.fetch import FetchError, FetchUnreachable, URLRefused, fetch_url

    f = settings.fetch
    try:
        res = fetch_url(url, allow_private=f.allow_private, max_bytes=min(f.max_url_bytes, settings.max_file_bytes),
                        timeout_s=f.timeout_s, max_redirects=f.max_redirects,
                        resolver=resolver, connector=connector)
    except FetchError as exc:
        if exc.transient or isinstance(exc, (FetchUnreachable, URLRefused)):
            raise  # a refusal is a failure (exit 1), not a skip: a script must tell it from success
        report.skipped.append((url, str(exc)))
        return
    tmp_root = settings.home / "tmp"
    tmp_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        local = Path(tmp) / _url_name(res.final_url, res.content_type)
        local.write_bytes(res.data)
        ingest_file(conn, settings, local, None, report, source=url, name=url,
                    extra_meta={"url": res.final_url}, raise_errors=True)


def job_handlers(conn: sqlite3.Connection, settings: Settings, report: IngestReport, *,
                 resolver=None, connector=None, pool=None) -> dict[str, Callable]:
    """Handlers for the job kinds "file" (payload {path, name, root, skip_tombstoned?}) and
    "url" (payload {url}): each ingests its source, adds its outcome to `report` and returns
    the outcome string."""

    def run_file(job) -> str:
        part = IngestReport()
        root = job.payload.get("root")
        src = Path(job.payload["path"])
        name = _job_name(job)
        outside = P.outside_reason(root, src, "the folder given") if root and src.exists() else None
        if not src.exists() and not src.is_symlink():
            part.skipped.append((name, "no such file (moved or deleted before it was ingested)"))
        elif outside is not None:  # a link swapped in after the folder was walked
            part.skipped.append((name, f"{outside}, skipped"))
        else:
            try:
                ingest_file(conn, settings, src, Path(root) if root else None, part, name=name,
                            raise_errors=True, skip_tombstoned=bool(job.payload.get("skip_tombstoned")),
                            pool=pool)
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
                from cairn.jobs import PermanentJobError
                raise PermanentJobError(f"cannot read: {exc.strerror or exc}") from exc
        _merge(report, part)
        return _outcome(part)

    def run_url(job) -> str:
        part = IngestReport()
        ingest_url(conn, settings, job.payload["url"], part, resolver=resolver, connector=connector)
        _merge(report, part)
        return _outcome(part)

    return {"file": run_file, "url": run_url}


def enqueue_sources(conn: sqlite3.Connection, settings: Settings, sources: list[Path | str],
                    report: IngestReport, *, skip_tombstoned: bool = False) -> list[int]:
    """One job per file under `sources` (folders walked) and per URL; a source with a
    pending job is not queued twice. Missing paths and paths inside the vault are reported
    as failed. skip_tombstoned: file jobs skip sources deleted in Cairn (see `ingest_file`).
    Returns the job ids, in order."""
    from cairn.store import jobs as J

    jobs: list[tuple[str, str, dict]] = []
    vault = settings.vault.resolve()
    for item in sources:
        if isinstance(item, str) and is_url(item):
            jobs.append(("url", item, {"url": item}))
            continue
        p = Path(item)
        if not p.exists():
            report.failed.append((str(p), "no such file or directory"))
            continue
        if p.resolve() == vault or vault in p.resolve().parents:
            report.failed.append((str(p), "is inside the Cairn vault, which is indexed already "
                                  "(use `cairn reindex` to rebuild from it)"))
            continue
        if p.is_symlink() and not p.is_dir():  # named on purpose: the person's choice
            report.warnings.append((str(p), f"is a symbolic link to {P.real(p)}; read as given"))
        for f, root in iter_sources([p], report.skipped):
            try:
                kind = special_file_kind(f.stat().st_mode)
            except OSError:
                kind = None  # dangling link or unreadable: the job reports it by name
            if kind:
                report.skipped.append((str(f), f"not a regular file ({kind})"))
                continue
            resolved = f.resolve()
            if vault not in resolved.parents:
                # Absolute paths (symlinks kept), so `cairn jobs run` works from any folder.
                payload = {"path": os.path.abspath(f), "name": str(f),
                           "root": os.path.abspath(root) if root is not None else None}
                if skip_tombstoned:
                    payload["skip_tombstoned"] = True
                if _heavy_file(f):
                    payload["heavy"] = True  # parsed in phase 2, after every text source
                jobs.append(("file", str(resolved), payload))
    jobs.sort(key=lambda j: bool(j[2].get("heavy")))  # text sources first (stable order)
    ids: list[int] = []
    seen: set[int] = set()
    with N.transaction(conn):  # one transaction for the whole batch (fast for big folders)
        for kind, source, payload in jobs:
            jid, _ = J.enqueue(conn, kind, source, payload, max_attempts=settings.jobs.max_attempts)
            if jid not in seen:
                seen.add(jid)
                ids.append(jid)
    return ids


_HEAVY_SUFFIXES = frozenset({".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".gif", ".bmp",
                             ".wav", ".mp3", ".m4a", ".ogg", ".oga", ".flac", ".opus", ".aac", ".mp4"})


def _heavy_file(path: Path) -> bool:
    """Whether a source is queued for phase 2, by its name alone (the file is read once, by
    its job; `_parse_source` sends it to a worker by its content all the same)."""
    return path.suffix.lower() in _HEAVY_SUFFIXES


def _needs_parse(conn: sqlite3.Connection, settings: Settings, path: Path) -> bool:
    """False when `ingest_file` would find this source unchanged (same bytes as the note made
    from it, whose vault copy exists), so no worker time is spent parsing it ahead."""
    try:
        existing = N.get_note_by_source(conn, str(path.resolve()))
        if existing is None or not (settings.vault / existing.path).exists():
            return True
        return existing.source_hash != V.sha256_bytes(path.read_bytes())
    except OSError:
        return False  # the job reports it


def _since_start() -> float:
    """Seconds since this process started (Linux /proc), so phase times include start-up;
    elsewhere seconds since this module was imported."""
    try:
        start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _IMPORTED


_IMPORTED = time.monotonic()


def _queued_split(conn: sqlite3.Connection, ids: list[int] | None) -> tuple[list[int], list[int]]:
    """(text-source job ids, heavy-source job ids) among the queued jobs (or among `ids`)."""
    rows = conn.execute("SELECT id, payload FROM jobs WHERE state = 'queued' ORDER BY id").fetchall()
    wanted = set(ids) if ids is not None else None
    light, heavy = [], []
    for jid, payload in rows:
        if wanted is not None and jid not in wanted:
            continue
        (heavy if '"heavy": true' in payload else light).append(jid)
    return light, heavy


def run_jobs(conn: sqlite3.Connection, settings: Settings, embedder, report: IngestReport, *,
             ids: list[int] | None = None, progress: Progress | None = None,
             resolver=None, connector=None, embed: bool = True) -> IngestReport:
    """Run the queue in two phases and embed. Phase 1: every text source (parse, vault
    copy, keyword index: one job each) — from then on they are keyword-searchable, listed
    and linked. Phase 2: images, audio and PDFs, parsed in a bounded worker process
    (cairn.parse.pool) that starts on them while this process embeds the text sources'
    chunks; then their chunks are embedded too. embed=False leaves the vectors to a
    background embedder (watch) or a later `cairn jobs run`: `status` counts them as
    `missing_vectors`. A process that dies between the phases loses nothing: the text is
    committed per job, unfinished jobs stay queued and missing vectors are found by the next
    run. Dead letters are added to `report.failed` with the job id. `report.timings` holds
    the seconds since the process started at which each phase ended. Returns `report`."""
    import resource

    from cairn.jobs import requeue_orphans, run_queue
    from cairn.parse.pool import ParsePool

    ing = settings.ingest
    pool = ParsePool(ing.parse_workers, ing.parse_memory_mib, ing.parse_timeout_s) if ing.parse_workers > 0 else None
    handlers = job_handlers(conn, settings, report, resolver=resolver, connector=connector, pool=pool)
    retries = 0
    try:
        with exclusive(conn, "ingest"):  # one queue runner per home: no source ingested twice at once
            requeue_orphans(conn, settings.jobs)
            light, heavy = _queued_split(conn, ids)
            result = run_queue(conn, handlers, settings.jobs, ids=light, progress=progress)
            dead, retries = list(result.dead), result.retries
            report.timings["keyword_searchable_s"] = round(_since_start(), 3)
            if pool is not None and heavy:
                rows = conn.execute(f"SELECT payload FROM jobs WHERE id IN ({','.join('?' * len(heavy))})",
                                    heavy).fetchall()
                paths = [Path(json.loads(r[0])["path"]) for r in rows]
                pool.prefetch([(p, _parse_options(settings)) for p in paths if _needs_parse(conn, settings, p)])
            if embed:
                report.embedded, report.reused_vectors = embed_missing(
                    conn, embedder, progress, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys)
            if heavy or ids is None:
                parse_progress = (lambda _p, d, t: progress("parse", d, t)) if progress else None
                result = run_queue(conn, handlers, settings.jobs, ids=heavy if ids is not None else None,
                                   progress=parse_progress)
                dead += result.dead
                retries += result.retries
            report.timings["parsed_s"] = round(_since_start(), 3)
            if embed:
                more, reused = embed_missing(conn, embedder, progress, settings.chunk.embed_max_chunks,
                                             fact_keys=settings.memory.fact_keys)
                report.embedded += more
                report.reused_vectors += reused
                report.timings["embedded_s"] = round(_since_start(), 3)
    finally:
        if pool is not None:
            report.peak_rss_mib["parse_workers"] = round(pool.peak_rss_mib, 1)
            pool.close()
    report.peak_rss_mib["ingest"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    for job, error in dead:
        report.failed.append((_job_name(job), f"{error} [dead letter: job {job.id}; `cairn jobs retry {job.id}`]"))
    report.retried = retries
    return report


def ingest_paths(conn: sqlite3.Connection, settings: Settings, paths: list[Path | str], embedder,
                 progress: Progress | None = None, *, resolver=None, connector=None,
                 skip_tombstoned: bool = False, embed: bool = True) -> IngestReport:
    """Ingest files, folders (recursively) and URLs (str `https://...`): one queued job per
    source (cairn.jobs: retries with back-off, dead letters, resumes after a crash), then
    the queue is run and missing vectors embedded. Missing paths are reported as failed.
    skip_tombstoned: files whose bytes were deleted in Cairn are listed in
    `report.tombstoned`, not ingested (the watcher's inbox). resolver/connector: test hooks
    passed to cairn.fetch for URL jobs. embed: see run_jobs."""
    report = IngestReport()
    with exclusive(conn, "ingest"):  # parallel ingests of one folder: each file added once
        enqueue_sources(conn, settings, list(paths), report, skip_tombstoned=skip_tombstoned)
        return run_jobs(conn, settings, embedder, report, progress=progress,
                        resolver=resolver, connector=connector, embed=embed)


# --------------------------------------------------------------------------- JSONL imports

class ImportFormatError(InvalidInput):
    """A JSONL import file is malformed (message names the file, line and field)."""


def _read_jsonl(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSONL import file. Checks only
    that each line is a JSON object holding every `required` key (its value's type and
    blankness are for `_string_field`). Raises ImportFormatError naming the file and line:
    no such file, not valid JSON, not an object, "missing field(s) a, b"."""
    if not path.exists():
        raise ImportFormatError(f"{path}: no such file")
    out: list[tuple[int, dict]] = []
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ImportFormatError(f"{path}: line {lineno}: not valid JSON ({exc})") from exc
            if not isinstance(obj, dict):
                raise ImportFormatError(f"{path}: line {lineno}: expected a JSON object")
            missing = [k for k in required if k not in obj]
            if missing:
                raise ImportFormatError(f"{path}: line {lineno}: missing field(s) {', '.join(missing)}")
            out.append((lineno, obj))
    return out


def _wrong_type(path: Path, lineno: int, name: str, want: str, value: Any) -> ImportFormatError:
    shown = "" if value is None else " " + json.dumps(value, ensure_ascii=False)[:60]
    return ImportFormatError(f"{path}: line {lineno}: field {name} must be {want}, "
                             f"got {json_type_name(value)}{shown}")


def _string_field(path: Path, lineno: int, obj: dict, name: str, *, integer: bool = False,
                  optional: bool = False) -> str | None:
    """Field `name` of one JSONL import line as a string: the value must be a JSON string,
    or with integer=True also an integer (returned as its digits, so 5 and "5" are one id;
    a boolean is not an integer), and not blank. optional=True: a field left out, null or
    blank (only whitespace) gives None instead. Shared by `import notes` and `import chat`.
    Raises ImportFormatError "FILE: line N: field NAME must be a string, got an array [...]"
    or "FILE: line N: field NAME is blank"."""
    value = obj.get(name)
    if optional and (value is None or (isinstance(value, str) and not value.strip())):
        return None
    if integer and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise _wrong_type(path, lineno, name, "a string or an integer" if integer else "a string", value)
    if not value.strip():
        raise ImportFormatError(f"{path}: line {lineno}: field {name} is blank")
    _no_nul(path, lineno, name, value)
    return value


def _no_nul(path: Path, lineno: int, name: str, value: str) -> None:
    """Raise ImportFormatError when `value` holds a NUL character (JSON "\\u0000"): a
    note holding one is read back as binary data, so it could be written but never indexed."""
    if "\x00" in value:
        raise ImportFormatError(f"{path}: line {lineno}: field {name} holds a NUL character "
                                "(\\u0000), which a note cannot store; remove it")


def _iso_time(path: Path, lineno: int, name: str, value: str) -> None:
    """Raise ImportFormatError unless `value` is an ISO 8601 date or date-time as Python's
    `datetime.fromisoformat` reads it ("2024-10-09", "2024-10-09T08:30:00Z"). Stricter
    than the index's rule for a note's dates (parse.markdown.to_iso, which also takes
    epoch seconds and surrounding spaces) and memory.temporal.parse_time (surrounding
    spaces): whatever passes here is accepted by both."""
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ImportFormatError(f"{path}: line {lineno}: {name} {value!r} is not ISO 8601 "
                                "(write 2024-10-09 or 2024-10-09T08:30:00Z)") from None


def _empty_file(path: Path, report: IngestReport, what: str) -> IngestReport:
    """The report of an import whose file holds no line at all (an empty file, /dev/null,
    only blank lines): the file is listed as skipped, which leaves the exit code 0."""
    report.skipped.append((str(path), f"the file holds no {what} (it is empty or has only blank lines); "
                                      "nothing was imported"))
    return report


def _write_and_index(conn: sqlite3.Connection, settings: Settings, relpath: str, fm: dict,
                     body: str, report: IngestReport, label: str,
                     undo: list[tuple[Path, bytes | None]] | None = None) -> None:
    """Write a generated vault note (only if its text changed) and index it. undo: gets
    (path, bytes before or None) before the file is written, for `_roll_back`. Raises
    PathOutside (nothing written) when the note's folder leads outside the vault."""
    text = V.render_note(fm, body)
    target = settings.vault / relpath
    P.confine(settings.vault, target)
    if not (target.exists() and target.read_text(encoding="utf-8") == text):
        if undo is not None:
            undo.append((target, target.read_bytes() if target.exists() else None))
        V.atomic_write(target, text)
    status, _, _ = index_note_file(conn, settings, target)
    {"added": report.added, "updated": report.updated, "metadata": report.updated,
     "unchanged": report.unchanged}[status].append(label)


NOTE_FIELDS = ("id", "text")  # required; title, tags and created are optional


@dataclass
class _Record:
    """One checked line of a notes import (see `_note_record`)."""

    lineno: int
    id: str
    text: str
    title: str | None
    tags: list[str]
    created: str | None


def _note_record(path: Path, lineno: int, obj: dict) -> _Record:
    """One line of a notes import, checked: id a string or integer (written as digits),
    text a string, neither blank; title a string, created an ISO 8601 date or date-time
    string (`_iso_time`), tags a list of strings or one string of tags separated by commas
    or spaces; an optional field left out, null or blank counts as not given. Other keys
    are ignored. Raises ImportFormatError naming the file, line and field."""
    rid = _string_field(path, lineno, obj, "id", integer=True)
    text = _string_field(path, lineno, obj, "text")
    title = _string_field(path, lineno, obj, "title", optional=True)
    created = _string_field(path, lineno, obj, "created", optional=True)
    if created is not None:
        _iso_time(path, lineno, "created", created)
    raw_tags = obj.get("tags")
    if raw_tags is None:
        tags: list[str] = []
    elif isinstance(raw_tags, str):
        _no_nul(path, lineno, "tags", raw_tags)
        tags = [t for t in raw_tags.replace(",", " ").split() if t]
    elif isinstance(raw_tags, list):
        tags = []
        for n, tag in enumerate(raw_tags):
            if not isinstance(tag, str):
                raise _wrong_type(path, lineno, f"tags[{n}]", "a string", tag)
            if not tag.strip():
                raise ImportFormatError(f"{path}: line {lineno}: field tags[{n}] is blank")
            _no_nul(path, lineno, f"tags[{n}]", tag)
            tags.append(tag)
    else:
        raise _wrong_type(path, lineno, "tags", "a list of strings or a string", raw_tags)
    return _Record(lineno, rid, text, title, tags, created)


def _check_record_owner(path: Path, vault: Path, rec: _Record, relpath: str, note_id: str) -> None:
    """Refuse to overwrite a record note that another import file wrote: file names that
    clean to the same folder ("a b.jsonl" and "a-b.jsonl" both give records/a-b/) would
    otherwise replace each other's records of the same id. The note at `relpath` belongs
    to this file when its frontmatter id is `note_id` (or it has none, or is unreadable).
    Raises ImportFormatError naming the line, the path and the other file."""
    target = vault / relpath
    if not target.is_file():
        return
    try:
        fm, _ = V.split_frontmatter(target.read_text(encoding="utf-8", errors="replace"), lenient=True)
    except OSError:
        return
    if fm.get("id") and str(fm["id"]) != note_id:
        other = str(fm.get("source") or "another file").rsplit("#", 1)[0]
        raise ImportFormatError(f"{path}: line {rec.lineno}: record {rec.id!r} would be stored at {relpath}, "
                                f"the note of record {str(fm.get('source_id', rec.id))!r} imported from "
                                f"{other}; rename one of the files")


def import_notes_jsonl(conn: sqlite3.Connection, settings: Settings, path: Path, embedder,
                       progress: Progress | None = None) -> IngestReport:
    """Import records `{id, text, title?, tags?, created?}`, one note each. The whole file is
    checked before anything is written (`_note_record`: types, blanks, ISO dates; ids
    unique in the file): ImportFormatError names the file, line and field, nothing is
    written. A file with no records is reported as skipped (`_empty_file`)."""
    records: list[_Record] = []
    first_line: dict[str, int] = {}
    for lineno, obj in _read_jsonl(path, NOTE_FIELDS):
        rec = _note_record(path, lineno, obj)
        if rec.id in first_line:
            raise ImportFormatError(f"{path}: line {lineno}: duplicate record id {rec.id!r} "
                                    f"(first on line {first_line[rec.id]})")
        first_line[rec.id] = lineno
        records.append(rec)
    report = IngestReport()
    if not records:
        return _empty_file(path, report, "records")
    folder = f"records/{V.slugify(path.stem)}"
    planned = [(rec, f"{folder}/{V.slugify(rec.id, 80)}-{_sha1(rec.id)[:6]}.md",
                V.stable_id(f"rec:{path.name}:{rec.id}")) for rec in records]
    notes = []
    for rec, relpath, note_id in planned:
        _check_record_owner(path, settings.vault, rec, relpath, note_id)
        rid = rec.id
        fm: dict[str, Any] = {"generator": "cairn", "id": note_id,
                              "title": rec.title or rid, "type": "record", "source_id": rid,
                              "source": f"{path.resolve()}#{rid}"}
        if rec.created:
            fm["created"] = rec.created
        if rec.tags:
            fm["tags"] = rec.tags
        _check_renders(path, rec.lineno, relpath, fm, rec.text)
        notes.append((rec, relpath, fm))
    undo: list[tuple[Path, bytes | None]] = []
    try:
        for i, (rec, relpath, fm) in enumerate(notes):
            _write_and_index(conn, settings, relpath, fm, rec.text, report,
                             f"{path.name}:{rec.lineno}", undo)
            if progress:
                progress("import", i + 1, len(records))
    except BaseException as exc:
        _roll_back(conn, settings, undo)
        if isinstance(exc, (OSError, ValueError)):
            raise ImportFormatError(f"{path}: the import stopped ({_reason(exc)}); "
                                    "nothing was imported (the vault and index are as before)") from exc
        raise
    report.embedded, report.reused_vectors = embed_missing(conn, embedder, progress, settings.chunk.embed_max_chunks,
                                                         fact_keys=settings.memory.fact_keys)
    return report


def _check_renders(path: Path, lineno: int, relpath: str, fm: dict, body: str) -> None:
    """Raise ImportFormatError (naming the line) unless the note `fm` + `body` would read back
    as the index reads it (`decode_bytes`, `parse_markdown_text`): checked for every record
    before anything is written, so a record that could be written but not indexed stops the
    import while nothing has changed."""
    text = V.render_note(fm, body)
    try:
        decode_bytes(text.encode("utf-8"))
        parse_markdown_text(text, relpath.rsplit("/", 1)[-1])
    except (ParseError, ValueError, RecursionError) as exc:
        raise ImportFormatError(f"{path}: line {lineno}: the note for this record could not be "
                                f"read back ({_reason(exc)}); nothing was imported") from None


def _reason(exc: BaseException) -> str:
    """An exception's message for a person: its text, never its class name alone."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc) or "unreadable"


def _roll_back(conn: sqlite3.Connection, settings: Settings, undo: list[tuple[Path, bytes | None]]) -> None:
    """Put every file in `undo` (path, bytes before or None = did not exist) back as it was,
    newest first, and bring its index rows back in line (re-index, or drop the note)."""
    for target, before in reversed(undo):
        relpath = V.rel(settings.vault, target)
        try:
            if before is None:
                target.unlink(missing_ok=True)
                row = N.get_note_by_path(conn, relpath)
                if row is not None:
                    with N.transaction(conn):
                        N.delete_note(conn, row.id)
            else:
                V.atomic_write(target, before.decode("utf-8"))
                index_note_file(conn, settings, target)
        except (OSError, ValueError, sqlite3.Error):
            continue  # best effort: the next sync reconciles what is left


def _merge_with_archive(path: Path, msgs: list[dict]) -> list[dict]:
    """Messages already archived for this session plus the new ones (same id: new wins), so
    importing part of a session again never drops earlier messages."""
    if not path.exists():
        return msgs
    doc = parse_markdown_text(path.read_text(encoding="utf-8"), path.name)
    merged = {c.source_id: {"id": c.source_id, "speaker": c.speaker, "time": c.event_time,
                            "text": c.text.replace("\\## [", "## [")}
              for c in chunk_chat(doc.body.strip())}
    merged.update({str(m["id"]): m for m in msgs})
    return list(merged.values())


CHAT_FIELDS = ("conversation", "session", "id", "speaker", "time", "text")
_NAME_FIELDS = ("conversation", "session", "id")  # a string, or an integer (written as digits)


def _chat_message(path: Path, lineno: int, obj: dict) -> dict[str, str]:
    """The six fields of one chat line as strings. conversation, session and id must be a
    JSON string or integer; speaker, time and text a string; no field may be blank and an
    id may not hold "]" or a line break (it is written into the message heading). Line
    breaks in the speaker become a space, and "\\r\\n" or a lone "\\r" in the text "\\n".
    Raises ImportFormatError naming the line and the field."""
    out = {name: _string_field(path, lineno, obj, name, integer=name in _NAME_FIELDS)
           for name in CHAT_FIELDS}
    if "]" in out["id"] or "\n" in out["id"] or "\r" in out["id"]:
        raise ImportFormatError(f"{path}: line {lineno}: field id {out['id']!r} may not contain ']' or a line break")
    # The archive note is read back with universal newlines (a lone "\r" ends a line): a
    # speaker stays on its heading line, and a text's lines are the ones written and escaped.
    out["speaker"] = re.sub(r"[\r\n]+", " ", out["speaker"])
    out["text"] = re.sub(r"\r\n?", "\n", out["text"])
    return out


def _chat_time(path: Path, lineno: int, time: str) -> str:
    """`time` (already read by datetime.fromisoformat) without whitespace, as the message
    heading needs (chunk.format_chat_message: a time with a space is not read back, so the
    message would be neither indexed nor kept by a later import): a space between date and
    time becomes "T" ("2024-06-01 09:15" -> "2024-06-01T09:15"), one before the offset is
    dropped. ImportFormatError when that changes the moment it names."""
    if not re.search(r"\s", time):
        return time
    fixed = re.sub(r"\s", "", re.sub(r"^(\S+?)\s+(?=\d)", r"\1T", time, count=1))
    try:
        same = (datetime.fromisoformat(fixed.replace("Z", "+00:00"))
                == datetime.fromisoformat(time.replace("Z", "+00:00")))
    except (ValueError, TypeError):  # TypeError: naive against aware
        same = False
    if not same:
        raise ImportFormatError(f"{path}: line {lineno}: time {time!r}: write it without spaces "
                                "(2024-06-01T09:15:00Z)")
    return fixed


def _session_relpath(conv: str, sess: str) -> str:
    """The vault path of a chat session's note: chats/<slug of conversation>/<slug of session>.md."""
    return f"chats/{V.slugify(conv)}/{V.slugify(sess)}.md"


def _archived_names(vault: Path, folder: str) -> dict[str, tuple[str, str]]:
    """{relpath: (conversation, session)} of the session notes already in chats/<folder>/,
    as their frontmatter names them (notes without both names are left out)."""
    out: dict[str, tuple[str, str]] = {}
    base = vault / "chats" / folder
    if not base.is_dir():
        return out
    for note in sorted(base.glob("*.md")):
        try:
            fm, _ = V.split_frontmatter(note.read_text(encoding="utf-8", errors="replace"), lenient=True)
        except OSError:
            continue
        if fm.get("conversation") is not None and fm.get("session") is not None:
            out[f"chats/{folder}/{note.name}"] = (str(fm["conversation"]), str(fm["session"]))
    return out


def _check_session_names(path: Path, vault: Path, first_line: dict[tuple[str, str], int]) -> None:
    """Refuse conversation and session names that differ but clean (`V.slugify`) to the same
    vault place, so two of them never merge into one note: two conversations of the import
    sharing a folder (`x/../..` and `x` both give chats/x/), two sessions of one conversation
    sharing a file, or a name whose folder or file already holds a session note written for
    another conversation or session name. first_line: {(conversation, session): first line}.
    Raises ImportFormatError naming the line, both names and the path."""
    folders: dict[str, tuple[str, str]] = {}  # folder -> (conversation, where it was seen)
    files: dict[str, tuple[str, str]] = {}  # relpath -> (session, where it was seen)
    for (conv, sess), lineno in first_line.items():
        folder = V.slugify(conv)
        relpath = _session_relpath(conv, sess)
        if folder not in folders:
            folders[folder] = (conv, f"line {lineno}")
            for other_path, (other_conv, other_sess) in _archived_names(vault, folder).items():
                if other_conv != conv:
                    folders[folder] = (other_conv, f"{other_path} in the vault")
                    break
                files.setdefault(other_path, (other_sess, f"{other_path} in the vault"))
        other_conv, where = folders[folder]
        if other_conv != conv:
            raise ImportFormatError(
                f"{path}: line {lineno}: conversation {conv!r} would be stored in chats/{folder}/, "
                f"the folder of conversation {other_conv!r} ({where}); give one of them another name")
        other_sess, where = files.setdefault(relpath, (sess, f"line {lineno}"))
        if other_sess != sess:
            raise ImportFormatError(
                f"{path}: line {lineno}: session {sess!r} of conversation {conv!r} would be stored at "
                f"{relpath}, the note of session {other_sess!r} ({where}); give one of them another name")


def import_chat_jsonl(conn: sqlite3.Connection, settings: Settings, path: Path, embedder,
                      progress: Progress | None = None,
                      after_index: Callable[[list[str]], None] | None = None) -> IngestReport:
    """Import chat messages `{conversation, session, id, speaker, time, text}` into the
    verbatim archive: one vault note per (conversation, session), one indexed unit per
    message, event time = the message's own `time` (ISO 8601, validated). A session already
    in the archive is merged by message id (`_merge_with_archive`: same id = new wins, the
    others are kept). The whole file is checked first (`_chat_message`: types, blanks; ids
    unique per session; `_check_session_names`: names that differ never share a note):
    ImportFormatError names the line and field, nothing is written. A file with no
    messages is reported as skipped (`_empty_file`) and `after_index` is not called.
    after_index: called with the imported sessions' note ids once they are indexed and
    before embedding (fact extraction hooks in here, so messages are embedded once); the
    messages are embedded even when the hook raises (the exception then propagates)."""
    rows = _read_jsonl(path, CHAT_FIELDS)
    sessions: dict[tuple[str, str], list[dict]] = {}
    first_line: dict[tuple[str, str, str], int] = {}
    session_line: dict[tuple[str, str], int] = {}
    for lineno, raw in rows:
        msg = _chat_message(path, lineno, raw)
        _iso_time(path, lineno, "time", msg["time"])
        msg["time"] = _chat_time(path, lineno, msg["time"])
        key = (msg["conversation"], msg["session"], msg["id"])
        if key in first_line:
            raise ImportFormatError(f"{path}: line {lineno}: duplicate message id {msg['id']!r} in session "
                                    f"{msg['conversation']}/{msg['session']} (first on line {first_line[key]})")
        first_line[key] = lineno
        if (msg["conversation"], msg["session"]) not in sessions:
            session_line[(msg["conversation"], msg["session"])] = lineno
        sessions.setdefault((msg["conversation"], msg["session"]), []).append(msg)
    report = IngestReport()
    if not sessions:
        return _empty_file(path, report, "messages")
    _check_session_names(path, settings.vault, session_line)
    note_ids: list[str] = []
    planned = []
    for (conv, sess), msgs in sessions.items():
        relpath = _session_relpath(conv, sess)
        msgs = _merge_with_archive(settings.vault / relpath, msgs)
        msgs.sort(key=lambda m: instant(str(m["time"])) or "")  # in time order, whatever the offsets
        fm = {"generator": "cairn", "id": V.stable_id(f"chat:{conv}:{sess}"),
              "title": f"{conv} — {sess}", "type": "chat", "conversation": conv,
              "session": sess, "source": str(path.resolve()),
              "created": str(msgs[0]["time"]), "event_time": str(msgs[0]["time"]),
              "speakers": sorted({str(m["speaker"]) for m in msgs})}
        body = "".join(format_chat_message(str(m["id"]), str(m["speaker"]).replace("\n", " "),
                                           str(m["time"]), str(m["text"])) for m in msgs)
        _check_renders(path, session_line[(conv, sess)], relpath, fm, body)
        planned.append((conv, sess, relpath, fm, body))
    undo: list[tuple[Path, bytes | None]] = []
    for i, (conv, sess, relpath, fm, body) in enumerate(planned):
        try:
            _write_and_index(conn, settings, relpath, fm, body, report, f"{conv}/{sess}", undo)
        except BaseException as exc:  # all or nothing: put back what this import wrote
            _roll_back(conn, settings, undo)
            if isinstance(exc, (OSError, ValueError)):
                raise ImportFormatError(f"{path}: the import stopped ({_reason(exc)}); "
                                        "nothing was imported (the vault and index are as before)") from exc
            raise
        note_ids.append(fm["id"])
        if progress:
            progress("import", i + 1, len(sessions))
    try:
        if after_index is not None:
            after_index(note_ids)
    finally:  # a failing hook never leaves the written messages without vectors
        report.embedded, report.reused_vectors = embed_missing(
            conn, embedder, progress, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys)
    return report


# --------------------------------------------------------------------------- reindex

def reindex(conn: sqlite3.Connection, settings: Settings, embedder,
            progress: Progress | None = None) -> IngestReport:
    """Rebuild the whole index from the vault alone. Vectors of unchanged chunk text are
    reused (kept aside by text hash), everything else is re-embedded."""
    report = IngestReport()
    with N.transaction(conn):
        conn.execute("""INSERT OR REPLACE INTO vector_cache(text_hash, model, vec)
                        SELECT text_hash, model, vec FROM vectors""")
        conn.execute("DELETE FROM chunks_fts")
        conn.execute("DELETE FROM vectors")
        conn.execute("DELETE FROM links")
        conn.execute("DELETE FROM chunks")
        conn.execute("DELETE FROM notes")
        N.bump_vector_generation(conn)
    files = list(V.iter_note_files(settings.vault))
    trashed = N.tombstoned_hashes(conn)
    for i, path in enumerate(files):
        name = V.rel(settings.vault, path)
        try:
            data = digest = None
            if trashed:  # hash once here; index_note_file reuses the bytes
                data = path.read_bytes()
                digest = V.sha256_bytes(data)
            if digest in trashed:
                report.skipped.append((name, "deleted in Cairn (tombstone); not re-indexed"))
            else:
                status, _, warnings = index_note_file(conn, settings, path, data=data, file_hash=digest)
                report.added.append(name)
                report.warnings.extend((name, w) for w in warnings)
        except (ParseError, OSError) as exc:
            report.failed.append((name, str(exc)))
        if progress:
            progress("index", i + 1, len(files))
    report.embedded, report.reused_vectors = embed_missing(conn, embedder, progress, settings.chunk.embed_max_chunks,
                                                         fact_keys=settings.memory.fact_keys)
    from cairn.memory.rebuild import rebuild_memories  # memory store, mirrored in <vault>/_memory
    report.failed.extend(rebuild_memories(conn, settings.vault, embedder)["failed"])
    return report
