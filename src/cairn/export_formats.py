"""The export formats of other apps that `cairn import SOURCE PATH` reads, by name: plain
data at the bottom layer, so that the command line can list them (`cairn import --list`,
one command per format) without importing the plugin machinery (cold start:
tests/test_cold_start.py). The importers themselves are registered in
cairn.builtin_plugins.importers."""

from __future__ import annotations

# name -> (reader module under cairn.ingest.importing, the source format `import --list` shows)
EXPORTS: dict[str, tuple[str, str]] = {
    "chatgpt": ("chatgpt", "ChatGPT data export: conversations.json (the file, its folder or the .zip)"),
    "claude": ("claude", "Claude data export: conversations.json with chat_messages (the file, its folder or the .zip)"),
    "mbox": ("mbox", "mbox mail file (mboxrd/mboxo; Thunderbird, Apple Mail, Gmail Takeout)"),
    "maildir": ("maildir", "Maildir folder (cur/ and new/, Maildir++ subfolders)"),
    "ics": ("ics", "iCalendar .ics file or folder (RFC 5545: RRULE, EXDATE, TZID, attendees)"),
    "bookmarks": ("bookmarks", "Netscape bookmark HTML (every browser's bookmarks.html export)"),
    "kindle": ("kindle", "Kindle My Clippings.txt (highlights and notes, one note per book)"),
    "readwise": ("readwise", "Readwise CSV export (highlights, one note per book)"),
    "enex": ("enex", "Evernote .enex export (ENML, base64 resources with MD5 hashes)"),
    "keep": ("keep", "Google Keep from Google Takeout (the .zip or its Keep/ folder of JSON notes)"),
    "notion": ("notion", "Notion export, Markdown & CSV (the .zip or its folder)"),
    "whatsapp": ("whatsapp", "WhatsApp chat export: the .txt (iPhone or Android), its .zip or folder; one chat note, a speaker per message"),
    "applenotes": ("applenotes", "Apple Notes exported as HTML or markdown (a folder per account/folder, or its .zip)"),
}
