"""Readwise's CSV export (readwise.io/export -> "Export to CSV").

Columns (header row): Highlight, Book Title, Book Author, Amazon Book ID, Note, Color,
Tags, Location Type, Location, Highlighted at, Document tags. One note per book (source_id =
"title — author"), its highlights in file order, each with its note, tags, location and time;
a later export with new highlights updates that book's note only. A file whose header lacks
"Highlight" and "Book Title" is not a Readwise export: ExportFormatError naming the missing
columns; a row without highlight text is a Skip.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, iso

REQUIRED = ("Highlight", "Book Title")


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """One Item per book of the Readwise CSV at `path` (or a Skip per unreadable row)."""
    if path.is_dir():
        raise ExportFormatError(f"{path}: a folder; give the Readwise .csv file")
    books: dict[str, dict] = {}
    skips = []
    with open(path, encoding="utf-8-sig", newline="") as fh:
        try:
            rows = csv.DictReader(fh)
            missing = [c for c in REQUIRED if c not in (rows.fieldnames or [])]
            if missing:
                raise ExportFormatError(f"{path}: not a Readwise CSV export (no column {', '.join(missing)})")
            for n, row in enumerate(rows, 2):
                text = (row.get("Highlight") or "").strip()
                if not text:
                    skips.append(Skip(f"{path.name}: line {n}", "no highlight text"))
                    continue
                title = (row.get("Book Title") or "").strip() or "(untitled)"
                author = (row.get("Book Author") or "").strip()
                key = f"{title} — {author}" if author else title
                book = books.setdefault(key, {"title": title, "author": author, "parts": [], "tags": set(),
                                              "times": [], "category": set()})
                when = iso(row.get("Highlighted at"))
                loc = " ".join(x for x in ((row.get("Location Type") or "").strip(), (row.get("Location") or "").strip()) if x)
                head = "*" + ", ".join(x for x in ("highlight", loc, when) if x) + "*"
                part = head + "\n\n" + "\n".join("> " + x for x in text.splitlines())
                if (row.get("Note") or "").strip():
                    part += f"\n\nNote: {row['Note'].strip()}"
                book["parts"].append(part)
                book["tags"].update(t.strip() for t in (row.get("Tags") or "").replace(";", ",").split(",") if t.strip())
                book["tags"].update(t.strip() for t in (row.get("Document tags") or "").split(",") if t.strip())
                if when:
                    book["times"].append(when)
        except UnicodeDecodeError as exc:
            raise ExportFormatError(f"{path}: not UTF-8 text ({exc.reason}); is this the Readwise CSV?") from None
        except csv.Error as exc:
            raise ExportFormatError(f"{path}: not a readable CSV file ({exc})") from None
    yield from skips
    for key, b in books.items():
        yield Item(source_id=key, title=b["title"], type="highlights", body="\n\n".join(b["parts"]),
                   created=min(b["times"]) if b["times"] else None, updated=max(b["times"]) if b["times"] else None,
                   tags=["readwise", *sorted(b["tags"])], meta={"author": b["author"] or None, "book": b["title"]})
