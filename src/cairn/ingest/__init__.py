"""The ingest pipeline: source file -> vault note -> index rows -> embeddings.

Two phases keep ingest fast and crash-safe:
1. `ingest_paths` / `import_*` parse each source, write its vault note and index the note's
   text (notes, chunks, keyword rows) — one transaction per note;
2. `embed_missing` embeds every chunk that has no vector yet, in length-sorted batches.
A crash between the phases leaves chunks without vectors, which the next run embeds.

`index_note_file` is the one primitive that brings the index in line with one vault file;
ingest, import, reindex (and later the watcher) all go through it. A note whose body text
is unchanged keeps its chunks and vectors (metadata-only edits are not re-embedded).

The package, along its stages:

    embedding  Phase 2 of ingest: embed every chunk that has no vector yet, in length-sorted batches,
    index      Index one vault file: `index_note_file` brings the index (note, chunks, keyword rows) in
    sources    Which files a folder walk ingests: hidden names and tool folders are skipped, special
    files      Ingest one source file: read it, parse it, write its vault note (never over a copy the
    urls       Ingest a web page: fetch it (cairn.fetch: size, time and address limits) into a local
    run        The queue-driven pipeline: `ingest_paths` enqueues files and URLs as jobs, `run_jobs`
    importers  JSONL importers: notes (`cairn import notes`) and chat transcripts (`cairn import chat`).
    importing  Other apps' exports (`cairn import SOURCE PATH`): one streamed reader per format, one
               incremental runner (cairn.ingest.importing).
    reindex    Rebuild the whole index from the vault alone (`cairn reindex`).

Every name is also importable from `cairn.ingest` itself, as before the split.
"""

from __future__ import annotations

from cairn.report import IngestReport, Progress  # noqa: F401
from cairn.ingest.embedding import (  # noqa: F401
    EMBED_BATCH, embed_text, model_key, embed_missing, _embed_missing)
from cairn.ingest.index import (  # noqa: F401
    _sha1, _body_hash, _chunks_for, _pages_from_meta, index_note_file)
from cairn.ingest.sources import (  # noqa: F401
    special_file_kind, skip_source_dir, is_source_name, iter_sources)
from cairn.ingest.files import (  # noqa: F401
    _index_kept_copy, ingest_file, _parse_options, is_heavy, _parse_source)
from cairn.ingest.urls import (  # noqa: F401
    _URL_RE, is_url, _url_name, ingest_url)
from cairn.ingest.run import (  # noqa: F401
    _job_name, _merge, _outcome, job_handlers, enqueue_sources, _HEAVY_SUFFIXES, _heavy_file, _needs_parse, process_started, _IMPORTED, _queued_split, run_jobs, ingest_paths)
from cairn.ingest.importers import (  # noqa: F401
    ImportFormatError, _read_jsonl, _wrong_type, _string_field, _no_nul, _iso_time, _empty_file, _write_and_index, NOTE_FIELDS, _Record, _note_record, _check_record_owner, import_notes_jsonl, _check_renders, _reason, _roll_back, _merge_with_archive, CHAT_FIELDS, _NAME_FIELDS, _chat_message, _chat_time, _session_relpath, _archived_names, _check_session_names, import_chat_jsonl)
from cairn.ingest.reindex import (  # noqa: F401
    reindex)
