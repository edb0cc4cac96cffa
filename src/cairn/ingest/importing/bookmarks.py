"""Browser bookmarks in the Netscape bookmark file format (`<!DOCTYPE NETSCAPE-Bookmark-file-1>`),
which Chrome, Firefox, Safari, Edge and most bookmark services export as `bookmarks.html`.

The file is a nest of `<DL>` lists: `<DT><H3>Folder</H3>` opens a folder whose entries are
the next `<DL>`; `<DT><A HREF=... ADD_DATE=... TAGS=...>Title</A>` is a bookmark and an
optional `<DD>` after it its description. Read with the standard library's streaming HTML
parser. Each bookmark (http, https or ftp link) is one note: title, link, folder path,
description; tags from TAGS; created from ADD_DATE (epoch seconds). source_id = the URL, so
the same page bookmarked twice is reported as a duplicate and imported once. A file without
the Netscape doctype or any bookmark is not a bookmark export: ExportFormatError.
"""

from __future__ import annotations

import codecs
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, iso


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.folders: list[str] = []
        self.pending_folder: str | None = None
        self.depth_names: list[str | None] = []
        self.out: list[dict] = []
        self.cur: dict | None = None
        self.field: str | None = None
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        if "NETSCAPE-BOOKMARK-FILE" in decl.upper():
            self.doctype = True

    def handle_starttag(self, tag, attrs):
        a = {k.lower(): v for k, v in attrs}
        if tag == "h3":
            self.pending_folder, self.field = "", "folder"
        elif tag == "dl":
            self.depth_names.append(self.pending_folder)
            if self.pending_folder is not None:
                self.folders.append(self.pending_folder.strip() or "(folder)")
            self.pending_folder = None
        elif tag == "a":
            self.cur = {"url": a.get("href") or "", "title": "", "add_date": a.get("add_date"),
                        "tags": a.get("tags") or "", "desc": "", "folder": " / ".join(self.folders)}
            self.field = "title"
        elif tag == "dd" and self.out:
            self.field = "desc"

    def handle_endtag(self, tag):
        if tag == "dl" and self.depth_names:
            if self.depth_names.pop() is not None and self.folders:
                self.folders.pop()
        elif tag == "a" and self.cur is not None:
            self.out.append(self.cur)
            self.cur, self.field = None, None
        elif tag == "h3":
            self.field = None

    def handle_data(self, data):
        if self.field == "folder" and self.pending_folder is not None:
            self.pending_folder += data
        elif self.field == "title" and self.cur is not None:
            self.cur["title"] += data
        elif self.field == "desc" and self.out:
            self.out[-1]["desc"] += data


def _item(b: dict) -> Item:
    url = b["url"].strip()
    title = " ".join(b["title"].split()) or url
    lines = [f"[{title}]({url})"]
    if b["folder"]:
        lines.append(f"Folder: {b['folder']}")
    desc = b["desc"].strip()
    if desc:
        lines.append(desc)
    tags = [t.strip() for t in b["tags"].split(",") if t.strip()]
    return Item(source_id=url, title=title, type="bookmark", body="\n\n".join(lines),
                created=iso(b["add_date"]), tags=tags, meta={"url": url, "folder": b["folder"] or None})


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each bookmark of the Netscape bookmark file at `path` (or a Skip for a link that is
    not http, https or ftp). Streams the file in blocks; a block's bookmarks are yielded as
    soon as they are complete."""
    if path.is_dir():
        raise ExportFormatError(f"{path}: a folder; give the exported bookmarks .html file")
    p = _Parser()
    seen_any = False
    with open(path, "rb") as fh:
        head = fh.read(4096)
        text_head = head.decode("utf-8", errors="replace")
        if "NETSCAPE-BOOKMARK-FILE" not in text_head.upper():
            raise ExportFormatError(f"{path}: not a bookmark export (no <!DOCTYPE NETSCAPE-Bookmark-file-1>)")
        data, dec = head, codecs.getincrementaldecoder("utf-8")()
        while data:
            try:
                p.feed(dec.decode(data))
            except UnicodeDecodeError:  # an old export in the Windows code page
                dec = codecs.getincrementaldecoder("cp1252")(errors="replace")
                p.feed(dec.decode(data))
            done, p.out = p.out[:-1], p.out[-1:]  # the last one may still get its <DD>
            for b in done:
                seen_any = True
                yield _bookmark(path, b)
            data = fh.read(1 << 16)
        p.close()
        for b in p.out:
            seen_any = True
            yield _bookmark(path, b)
    if not seen_any:
        raise ExportFormatError(f"{path}: a bookmark file without any bookmark")


def _bookmark(path: Path, b: dict) -> Item | Skip:
    url = b["url"].strip()
    if not url.lower().startswith(("http://", "https://", "ftp://")):
        return Skip(f"{path.name}: {b['title'].strip() or url or '(no link)'}", f"not a web link ({url[:40] or 'empty'})")
    return _item(b)
