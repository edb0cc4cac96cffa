"""A Notion export in "Markdown & CSV" format (Settings -> Export all workspace content, or
a page's "Export"): a .zip (large exports hold further .zip parts) or its unzipped folder.

Every page is a markdown file named "<Title> <32-hex id>.md", its subpages in a folder of the
same name; a database is "<Name> <id>.csv" (the current view) and "<Name> <id>_all.csv" (all
rows), each row also a page in the folder "<Name> <id>/". Each page becomes a note: title
from its first "# " heading (else the file name without the id), source_id = the page id
(else its path). A link to another page of the export ("Other%20Page%20<id>.md", URL-quoted
and relative) becomes the wikilink [[Other Page]]; an image or file of the export that a page
embeds is kept beside the note. A database becomes one note holding its rows as a table, each
row's title a wikilink to the row's page (the `_all` CSV when there is one). An export
without any page or database is refused with ExportFormatError.
"""

from __future__ import annotations

import csv
import io
import posixpath
import re
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import unquote

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, walk_export

_ID = re.compile(r"\s+([0-9a-f]{32})(?:_all)?$")
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def _split(stem: str) -> tuple[str, str | None]:
    """("Title", id or None) of a file stem "Title 0123...cdef"."""
    m = _ID.search(stem)
    return (stem[: m.start()].strip(), m.group(1)) if m else (stem.strip(), None)


def page_item(name: str, text: str, files: dict[str, Callable[[], bytes]]) -> Item:
    """The Item of the page file `name` (its path in the export) with markdown `text`."""
    stem = posixpath.splitext(posixpath.basename(name))[0]
    file_title, pid = _split(stem)
    folder = posixpath.dirname(name)
    attached: list[tuple[str, bytes]] = []

    def link(m: re.Match) -> str:
        bang, label, target = m.groups()
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            return m.group(0)  # a web link
        rel = posixpath.normpath(posixpath.join(folder, unquote(target)))
        if rel.lower().endswith(".md"):
            return f"[[{_split(posixpath.splitext(posixpath.basename(rel))[0])[0]}]]"
        if rel in files:
            attached.append((posixpath.basename(rel), files[rel]()))
            return f"[attachment: {posixpath.basename(rel)}]"
        return m.group(0)

    body = _LINK.sub(link, text)
    heading = re.match(r"\A\s*#\s+(.+)", body)
    title = heading.group(1).strip() if heading else file_title
    return Item(source_id=pid or name, title=title or "(untitled page)", body=body.strip(),
                meta={"notion_id": pid}, files=attached)


def database_item(name: str, data: bytes) -> Item:
    """The Item of a database CSV: its rows as a markdown table, first column as wikilinks."""
    stem = posixpath.splitext(posixpath.basename(name))[0]
    title, did = _split(stem)
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    if not rows:
        raise ValueError("an empty database")
    cell = lambda v: v.replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["| " + " | ".join(cell(h) for h in rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    for r in rows[1:]:
        r = r + [""] * (len(rows[0]) - len(r))
        first = f"[[{r[0]}]]" if r and r[0].strip() else ""
        lines.append("| " + " | ".join([first] + [cell(v) for v in r[1:len(rows[0])]]) + " |")
    return Item(source_id=f"db:{did or name}", title=title or "(untitled database)", type="note",
                body="\n".join(lines), tags=["notion-database"], meta={"notion_id": did})


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each page and database of the Notion export at `path` (or a Skip naming its file)."""
    entries = list(walk_export(path))
    files = {name: get for name, get in entries if not name.lower().endswith((".md", ".csv"))}
    csvs = {name for name, _ in entries if name.lower().endswith(".csv")}
    found = False
    for name, get in entries:
        low = name.lower()
        if low.endswith(".md"):
            found = True
            try:
                yield page_item(name, get().decode("utf-8-sig"), files)
            except UnicodeDecodeError as exc:
                yield Skip(f"{path.name}: {name}", f"not UTF-8 text ({exc.reason})")
        elif low.endswith(".csv"):
            stem = name[:-4]
            if not stem.endswith("_all") and f"{stem}_all.csv" in csvs:
                continue  # the _all CSV holds every row of this database
            found = True
            try:
                yield database_item(name, get())
            except (UnicodeDecodeError, csv.Error, ValueError) as exc:
                yield Skip(f"{path.name}: {name}", f"not a readable database CSV ({exc})")
    if not found:
        raise ExportFormatError(f"{path}: not a Notion export (no page .md or database .csv in it)")
