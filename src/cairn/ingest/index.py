"""Index one vault file: `index_note_file` brings the index (note, chunks, keyword rows) in
line with it; a note whose body text is unchanged keeps its chunks and vectors.
"""

from __future__ import annotations

import hashlib
import sqlite3
import stat
from pathlib import Path

from cairn import vault as V
from cairn.chunk import chunk_body, chunk_chat
from cairn.config import Settings
from cairn.model import Chunk, PageSpan, ParsedDocument
from cairn.parse import parse_markdown_text
from cairn.parse.text import decode_bytes
from cairn.store import history as H
from cairn.store import notes as N


def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


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
                    file_hash: str | None = None,
                    stat_before: tuple[int, int] | None = None) -> tuple[str, str, list[str]]:
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
    stat_before: the file's (mtime_ns, size) taken before `data` was read; when the file's
    stat differs now (an edit landed after the caller's read) the bytes are read again, so
    the (mtime, size) stored never vouches for older bytes. Without it, data is trusted when
    its size matches.
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
    if (data is None or stat.st_size != len(data)
            or (stat_before is not None and stat_before != (stat.st_mtime_ns, stat.st_size))):
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
    if not (generated and status == "added"):  # a generated note's source is kept apart
        _keep_version(settings, note_id, relpath, data)
    return status, note_id, row.warnings


def _keep_version(settings: Settings, note_id: str, relpath: str, data: bytes) -> None:
    """Keep the file's bytes as a version of the note (store.history) unless its newest
    version holds them already: an edit made outside Cairn becomes a version by "outside"
    when sync or the watcher sees it; Cairn's own writes are attributed to their door."""
    who = H.actor()
    H.record(settings.home, note_id, relpath, data, by=who or "outside",
             action="seen" if who is None else "index", only_if_new=True, durable=False)
