"""Rebuild the whole index from the vault alone (`cairn reindex`).
"""

from __future__ import annotations

import sqlite3

from cairn import vault as V
from cairn.config import Settings
from cairn.parse.errors import ParseError
from cairn.store import notes as N
from cairn.report import IngestReport, Progress
from cairn.ingest.embedding import embed_missing
from cairn.ingest.index import index_note_file


def reindex(conn: sqlite3.Connection, settings: Settings, embedder,
            progress: Progress | None = None) -> IngestReport:
    """Rebuild the whole index from the vault alone. Vectors of unchanged chunk text are
    reused (kept aside by text hash), everything else is re-embedded. The memory tables are
    restored from <vault>/_memory before embedding, so the entity graph built in the
    embedding step links notes to the restored entities."""
    report = IngestReport()
    with N.transaction(conn):
        N.clear_index(conn)
        N.bump_vector_generation(conn)
    files = list(V.iter_note_files(settings.vault))
    trashed = N.tombstoned_hashes(conn)
    for i, path in enumerate(files):
        name = V.rel(settings.vault, path)
        try:
            data = digest = before = None
            if trashed:  # hash once here; index_note_file reuses the bytes
                st = path.stat()  # before the read: an edit after it is read again there
                before = (st.st_mtime_ns, st.st_size)
                data = path.read_bytes()
                digest = V.sha256_bytes(data)
            if digest in trashed:
                report.skipped.append((name, "deleted in Cairn (tombstone); not re-indexed"))
            else:
                status, _, warnings = index_note_file(conn, settings, path, data=data, file_hash=digest,
                                                     stat_before=before)
                report.added.append(name)
                report.warnings.extend((name, w) for w in warnings)
        except (ParseError, OSError) as exc:
            report.failed.append((name, str(exc)))
        if progress:
            progress("index", i + 1, len(files))
    from cairn.memory.rebuild import rebuild_memories  # memory store, mirrored in <vault>/_memory
    report.failed.extend(rebuild_memories(conn, settings.vault, embedder)["failed"])
    # After the memory entities: the entity graph (run by embed_missing) links to them.
    report.embedded, report.reused_vectors = embed_missing(conn, embedder, progress, settings.chunk.embed_max_chunks,
                                                         fact_keys=settings.memory.fact_keys,
                                                         neighbour_keys=settings.memory.neighbour_keys)
    return report
