"""Kindle highlights and notes: the `My Clippings.txt` file in the `documents` folder of a
Kindle connected by USB.

The file is a list of clippings, each ended by a line of ten "=" signs:

    Book Title (Author Name)
    - Your Highlight on page 12 | Location 170-172 | Added on Monday, March 3, 2025 9:41:07 AM
    (blank line)
    the highlighted text
    ==========

The kind is Highlight, Note or Bookmark (bookmarks carry no text and are left out). One note
per book (source_id = the book line), its highlights and notes in file order, each with its
location and date; a highlight made again at the same location (the Kindle appends the new
one when a highlight is changed) replaces the earlier one. So a later export with more
highlights updates the book's note and leaves the other books unchanged. The file is
streamed; a file with no clipping separator is not a clippings file: ExportFormatError.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, inside, iso

SEPARATOR = "=========="
_META = re.compile(r"^-\s*(?:Your\s+)?(?P<kind>\w+)\b(?P<rest>.*)$", re.IGNORECASE)
_LOC = re.compile(r"(?:Location|Loc\.)\s+(?P<loc>[\d-]+)", re.IGNORECASE)
_PAGE = re.compile(r"page\s+(?P<page>[\w-]+)", re.IGNORECASE)
_ADDED = re.compile(r"Added on\s+(?P<date>.+)$", re.IGNORECASE)


def _date(text: str) -> str | None:
    for fmt in ("%A, %B %d, %Y %I:%M:%S %p", "%A, %d %B %Y %H:%M:%S", "%A, %B %d, %Y, %I:%M %p"):
        try:
            return iso(datetime.strptime(text.strip(), fmt))
        except ValueError:
            continue
    return None


def clippings(path: Path) -> Iterator[tuple[int, list[str]]]:
    """(number, lines) of each clipping of the file, streamed."""
    lines: list[str] = []
    n = 0
    saw_separator = False
    with open(path, encoding="utf-8-sig", errors="strict") as fh:
        try:
            for line in fh:
                line = line.rstrip("\r\n").lstrip("\ufeff")
                if line.strip() == SEPARATOR:
                    saw_separator = True
                    n += 1
                    yield n, lines
                    lines = []
                else:
                    lines.append(line)
        except UnicodeDecodeError as exc:
            raise ExportFormatError(f"{path}: not UTF-8 text ({exc.reason}); is this My Clippings.txt?") from None
    if not saw_separator:
        raise ExportFormatError(f"{path}: not a Kindle clippings file (no '==========' separator)")
    if any(x.strip() for x in lines):
        raise ExportFormatError(f"{path}: clipping {n + 1}: the file ends inside a clipping (truncated?)")


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """One Item per book of the clippings file at `path`; a clipping that cannot be read
    is a Skip naming its number."""
    if path.is_dir():
        hits = sorted(p for p in path.rglob("My Clippings.txt") if inside(path, p))
        if not hits:
            raise ExportFormatError(f"{path}: no My Clippings.txt in this folder")
        path = hits[0]
    books: dict[str, dict] = {}
    skips: list[Skip] = []
    for n, lines in clippings(path):
        lines = [x for x in lines]
        while lines and not lines[0].strip():
            lines.pop(0)
        if len(lines) < 2 or not (m := _META.match(lines[1].strip())):
            skips.append(Skip(f"{path.name}: clipping {n}", "not a clipping (no '- Your Highlight ...' line)"))
            continue
        kind = m.group("kind").lower()
        if kind == "bookmark":
            continue
        text = "\n".join(lines[2:]).strip()
        if not text:
            continue
        rest = m.group("rest")
        loc = (_LOC.search(rest) or _PAGE.search(rest))
        where = loc.group(0) if loc else ""
        added = _ADDED.search(rest)
        book = books.setdefault(lines[0].strip(), {"clips": {}, "first": None, "last": None})
        when = _date(added.group("date")) if added else None
        book["clips"][(kind, where or f"#{n}")] = (kind, where, when, text)
        if when:
            book["first"] = min(book["first"] or when, when)
            book["last"] = max(book["last"] or when, when)
    yield from skips
    for title, book in books.items():
        m = re.match(r"^(?P<t>.*?)\s*\((?P<a>[^()]*)\)\s*$", title)
        name, author = (m.group("t"), m.group("a")) if m else (title, None)
        parts = []
        for kind, where, when, text in book["clips"].values():
            head = f"*{kind}{', ' + where if where else ''}{', ' + when if when else ''}*"
            quoted = "\n".join("> " + x if kind == "highlight" else x for x in text.splitlines())
            parts.append(f"{head}\n\n{quoted}")
        yield Item(source_id=title, title=name or title, type="highlights", body="\n\n".join(parts),
                   created=book["first"], updated=book["last"], tags=["kindle"],
                   meta={"author": author, "book": name})
