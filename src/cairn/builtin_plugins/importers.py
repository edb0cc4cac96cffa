"""The built-in importers, registered through the `register_importers` hook like any
plugin's: "notes" (JSONL records, `cairn import notes`), "chat" (JSONL chat transcripts,
`cairn import chat`) and one per export format of another app (`EXPORTS`: chatgpt, claude,
mbox, maildir, ics, bookmarks, kindle, readwise, enex, keep, notion, applenotes, whatsapp; `cairn import SOURCE
PATH [--dry-run]`), each a reader module of cairn.ingest.importing.

An importer is `import(app, path, progress=None, **options) -> IngestReport`: `app` is the
`cairn.service.Cairn` it imports into (a plugin importer usually calls `app.note_create` or
`app.ingest_text` per item, or cairn.ingest.importing.run_import with its own reader),
`path` the file, `progress(phase, done, total)` optional. The export importers take
`dry_run` and `after_index` options. An importer's `source_format` attribute (optional)
says what it reads; `cairn import --list` shows it. `Cairn.import_file(name, path)` runs
any registered importer by name.
"""

from __future__ import annotations

from cairn.hookspecs import hookimpl

from cairn.export_formats import EXPORTS  # noqa: E402  (name -> reader module, source format)


def import_notes(app, path, progress=None, **options):
    """JSONL records {id, text, title?, tags?, created?}: ingest.import_notes_jsonl."""
    from cairn.ingest import import_notes_jsonl
    return import_notes_jsonl(app.conn, app.settings, path, app.embedder, progress)


import_notes.source_format = "JSONL records {id, text, title?, tags?, created?}"


def import_chat(app, path, progress=None, *, after_index=None, **options):
    """JSONL chat messages {conversation, session, id, speaker, time, text}:
    ingest.import_chat_jsonl (after_index: called with the imported sessions' note ids)."""
    from cairn.ingest import import_chat_jsonl
    return import_chat_jsonl(app.conn, app.settings, path, app.embedder, progress, after_index=after_index)


import_chat.source_format = "JSONL chat messages {conversation, session, id, speaker, time, text}"


def export_importer(name: str, module: str, source_format: str):
    """The importer function of export reader `cairn.ingest.importing.<module>` (its
    `read(path, owner=...)`), run through cairn.ingest.importing.run_import."""

    def run(app, path, progress=None, *, dry_run: bool = False, after_index=None, **options):
        import importlib
        from cairn.ingest.importing.run import run_import
        reader = importlib.import_module(f"cairn.ingest.importing.{module}")
        return run_import(app.conn, app.settings, None if dry_run else app.embedder, name, path,
                          reader.read(path, owner=app.settings.owner), progress, dry_run=dry_run,
                          after_index=after_index, family=getattr(reader, "FAMILY", None))

    run.__name__ = f"import_{name}"
    run.__doc__ = f"Import {source_format} (cairn.ingest.importing.{module})."
    run.source_format = source_format
    return run


def import_imap(app, path=None, progress=None, *, dry_run: bool = False, after_index=None,
                folders=None, **options):
    """The mail server of the [imap] table, read only (cairn.ingest.importing.imap); `path`
    is not used (a live source). Incremental: only messages newer than the last run's are
    fetched (imap.State, `<home>/imap-state.json`)."""
    from pathlib import Path
    from cairn.ingest.importing import imap
    from cairn.ingest.importing.run import run_import
    cfg = app.settings.imap
    label = Path(f"imap-{cfg.host or 'unconfigured'}")
    state = imap.State(app.settings.home)
    report = run_import(app.conn, app.settings, None if dry_run else app.embedder, "imap", label,
                        imap.read(cfg, folders, state), progress, dry_run=dry_run, after_index=after_index,
                        family=imap.FAMILY, live=True)
    if not dry_run:
        state.save()  # only after an import that went through: a failed one is repeated whole
    return report


import_imap.source_format = "IMAP mail server, read only (settings: the [imap] table of config.toml)"


@hookimpl
def register_importers(register):
    register("notes", import_notes)
    register("chat", import_chat)
    for name, (module, fmt) in EXPORTS.items():
        register(name, export_importer(name, module, fmt))
    register("imap", import_imap)
