"""Importers of other apps' exports (`cairn import SOURCE PATH`): one small reader module per
format, each `read(path, owner=None) -> Iterator[Item | Skip]` streaming the export, and one
runner that writes the items as notes, incrementally and idempotently by stable source id.

    items     Item / Message / Skip, ExportFormatError, shared helpers (zip, streamed JSON)
    run       run_import: items -> vault notes + index (added/updated/unchanged/skipped, dry run)
    chatgpt   ChatGPT conversations.json (message tree: the branch the person saw)
    claude    Claude conversations.json (chat_messages)
    mail      one MIME message -> a mail Item (shared by mbox, maildir)
    mbox      mbox files, streamed (mboxrd quoting)
    maildir   Maildir folders (cur/, new/, Maildir++)
    imap      a mail server, read only (EXAMINE, BODY.PEEK), live
    ics       iCalendar files: one note per event series, occurrences expanded
    bookmarks Netscape bookmark HTML (streamed)
    kindle    Kindle My Clippings.txt, one note per book
    readwise  Readwise CSV, one note per book
    enex      Evernote .enex, streamed (ENML, resources by MD5, note links as wikilinks)
    keep      Google Keep Takeout JSON notes
    notion    Notion Markdown & CSV export (page links as wikilinks, databases)
    applenotes Apple Notes exported as HTML or markdown (notes-exporter, exporter apps)

The readers are registered as importers through the `register_importers` hook
(cairn.builtin_plugins.importers), as a third-party plugin registers its own.
"""
