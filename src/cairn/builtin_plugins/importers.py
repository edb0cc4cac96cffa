"""The built-in importers, registered through the `register_importers` hook like any
plugin's: "notes" (JSONL records, `cairn import notes`) and "chat" (JSONL chat transcripts,
`cairn import chat`).

An importer is `import(app, path, progress=None, **options) -> IngestReport`: `app` is the
`cairn.service.Cairn` it imports into (a plugin importer usually calls `app.note_create` or
`app.ingest_text` per item), `path` the file, `progress(phase, done, total)` optional.
`Cairn.import_file(name, path)` runs any registered importer by name.
"""

from __future__ import annotations

from cairn.hookspecs import hookimpl


def import_notes(app, path, progress=None, **options):
    """JSONL records {id, text, title?, tags?, created?}: ingest.import_notes_jsonl."""
    from cairn.ingest import import_notes_jsonl
    return import_notes_jsonl(app.conn, app.settings, path, app.embedder, progress)


def import_chat(app, path, progress=None, *, after_index=None, **options):
    """JSONL chat messages {conversation, session, id, speaker, time, text}:
    ingest.import_chat_jsonl (after_index: called with the imported sessions' note ids)."""
    from cairn.ingest import import_chat_jsonl
    return import_chat_jsonl(app.conn, app.settings, path, app.embedder, progress, after_index=after_index)


@hookimpl
def register_importers(register):
    register("notes", import_notes)
    register("chat", import_chat)
