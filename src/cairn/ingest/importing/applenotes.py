"""Apple Notes, exported as HTML or markdown files (Apple Notes itself has no export of a whole
library; the exporters people use write one file per note, a folder per account and folder):

- notes-exporter (storizzi/notes-exporter, `exportnotes.zsh`): a root holding `data/` (one
  JSON file per account-folder, `{note id: {filename, created, modified, fullNoteId, ...}}`,
  dates as AppleScript writes them: "Monday, January 1, 2024 at 9:00:00 AM") and one folder
  per format, `raw/` (HTML, images inline as base64), `html/` (images under `attachments/`),
  `text/`, `md/`, each with a subfolder per `<account>-<folder>` holding `<title>-<id>.<ext>`.
  The richest format present is read (md, then html, raw, text); a note's id, created and
  modified times come from data/.
- any other exporter's folder (Apple Notes Exporter app, AppleScript exporters): `.html` /
  `.md` / `.txt` files in a folder per account and folder; a markdown file's YAML front
  matter (title, created/date, modified/updated, tags, id) is used when there is one. The
  same note exported in several formats side by side (`Note.md` + `Note.html`) is one note.

Given as the folder or a .zip of it. Each note: title (front matter, else the first heading
or line, else the file name), text (HTML through cairn.parse.html; a checklist item
`<li class="done">` becomes "- [x]"), the folder path as `folder` and as a tag
("icloud-notes/recipes"), times. A link to another note (`applenotes:note/<UUID>` or
`applenotes://showNote?identifier=...`, the note-link form of Notes; or a relative link to
another exported note file) becomes the wikilink [[its text]]. An image inline as base64
(`data:` URI) or a file of the export a note links or embeds is kept beside the note, and its
text read by the parsers of `cairn ingest` when one reads it ("## Attachment: NAME").
source_id: fullNoteId or "<account-folder>/<note id>" from data/, else front matter `id`,
else the note's path in the export without suffix. A folder with no note file, or an
unreadable data/ file, raises ExportFormatError naming it; a note that is not UTF-8 is skipped.
"""

from __future__ import annotations

import base64
import binascii
import json
import posixpath
import re
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import unquote

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, iso, walk_export

FORMATS = ("md", "html", "raw", "text")  # notes-exporter's format folders, richest first
SUFFIX_RANK = {".md": 0, ".markdown": 0, ".html": 1, ".htm": 1, ".txt": 2}
_APPLE_LINK = re.compile(r"^applenotes:(?://showNote\?|note/)", re.IGNORECASE)
_A = re.compile(r"<a\b[^>]*\bhref\s*=\s*\"([^\"]*)\"[^>]*>(.*?)</a>", re.IGNORECASE | re.DOTALL)
_IMG = re.compile(r"<img\b[^>]*\bsrc\s*=\s*\"([^\"]*)\"[^>]*>", re.IGNORECASE)
_MD_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
_DONE = re.compile(r"<li\b[^>]*class=\"[^\"]*\bdone\b[^\"]*\"[^>]*>", re.IGNORECASE)
_CHECKLIST = re.compile(r"<ul\b[^>]*class=\"[^\"]*com-apple-note-checklist[^\"]*\"[^>]*>(.*?)</ul>",
                        re.IGNORECASE | re.DOTALL)
_DATA_URI = re.compile(r"^data:([\w.+-]+/[\w.+-]+);base64,(.*)$", re.DOTALL)
_EXT = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/heic": ".heic",
        "image/tiff": ".tiff", "application/pdf": ".pdf"}


def apple_date(text) -> str | None:
    """An AppleScript date string ("Monday, January 1, 2024 at 9:00:00 AM", "Wednesday, 24 July
    2024 at 22:51:54", with a narrow no-break space before AM/PM on newer macOS) or an ISO
    date -> ISO 8601 UTC (the export gives no zone: the time is taken as written), else None."""
    if not isinstance(text, str) or not text.strip():
        return iso(text) if isinstance(text, (int, float, datetime)) else None
    s = re.sub(r"[\u00a0\u202f]", " ", text).strip()
    s = re.sub(r"^[A-Za-z]+,\s*", "", s).replace(" at ", " ")
    for fmt in ("%B %d, %Y %I:%M:%S %p", "%d %B %Y %H:%M:%S", "%B %d, %Y %H:%M:%S", "%d %B %Y %I:%M:%S %p"):
        try:
            return iso(datetime.strptime(s, fmt))
        except ValueError:
            continue
    return iso(text.strip())


def _tag(folder: str) -> str:
    from cairn.vault import slugify
    return "/".join(slugify(part) for part in folder.split("/") if part)


class _Export:
    """The files of one export: which are notes, the data/ records, the other files."""

    def __init__(self, path: Path):
        self.path = path
        self.files: dict[str, Callable[[], bytes]] = dict(walk_export(path))
        names = list(self.files)
        # a .zip of a notes-exporter folder may hold it under one top folder: look through it
        tops = {n.split("/", 1)[0] for n in names}
        self.prefix = ""
        if len(tops) == 1 and any(n.startswith(f"{next(iter(tops))}/data/") for n in names):
            self.prefix = next(iter(tops)) + "/"
        rel = {n[len(self.prefix):]: n for n in names}
        self.records: dict[tuple[str, str], tuple[str, dict]] = {}  # (subdir, filename) -> (id, record)
        for r, full in rel.items():
            if re.fullmatch(r"data/[^/]+\.json", r):
                self._load_records(full, posixpath.splitext(posixpath.basename(r))[0])
        fmt = next((f for f in FORMATS if any(r.startswith(f + "/") for r in rel)), None) if self.records else None
        self.root = self.prefix + (fmt + "/" if fmt else "")
        notes = {}
        for r, full in rel.items():
            if not full.startswith(self.root) or r.startswith("data/"):
                continue
            ext = posixpath.splitext(full)[1].lower()
            if ext not in SUFFIX_RANK or "/attachments/" in f"/{full}":
                continue
            key = posixpath.splitext(full)[0]
            if key not in notes or SUFFIX_RANK[ext] < SUFFIX_RANK[posixpath.splitext(notes[key])[1].lower()]:
                notes[key] = full
        if not notes:
            raise ExportFormatError(f"{path}: not an Apple Notes export (no .html, .md or .txt note in it)")
        self.notes = [notes[k] for k in sorted(notes)]

    def _load_records(self, name: str, subdir: str) -> None:
        try:
            data = json.loads(self.files[name]().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ExportFormatError(f"{self.path}: {name}: not readable notes-exporter data ({exc}); "
                                    "truncated?") from None
        if not isinstance(data, dict):
            raise ExportFormatError(f"{self.path}: {name}: not notes-exporter data (not a JSON object)")
        for note_id, rec in data.items():
            if isinstance(rec, dict) and isinstance(rec.get("filename"), str):
                self.records[(subdir, rec["filename"])] = (str(note_id), rec)

    def note_item(self, name: str) -> Item | None:
        """The Item of note file `name`; None for a note notes-exporter marked deleted."""
        rel = name[len(self.root):]
        folder = posixpath.dirname(rel)
        stem, ext = posixpath.splitext(posixpath.basename(rel))
        text = self.files[name]().decode("utf-8-sig")
        note_id, rec = self.records.get((folder, stem), (None, {}))
        if rec.get("deletedDate"):
            return None
        fm: dict = {}
        if ext.lower() in (".md", ".markdown") and text.startswith("---"):
            from cairn.vault import split_frontmatter
            fm, text = split_frontmatter(text, lenient=True)
        attached: list[tuple[str, bytes]] = []
        if ext.lower() in (".html", ".htm"):
            body = self._html(text, posixpath.dirname(name), attached)
        else:
            body = _MD_LINK.sub(lambda m: self._md_link(m, posixpath.dirname(name), attached), text).strip()
        first = next((ln.strip().lstrip("#").strip() for ln in body.splitlines() if ln.strip()), "")
        title = str(fm.get("title") or "").strip() or first[:200] or stem
        if note_id is not None:
            source_id = str(rec.get("fullNoteId") or f"{folder}/{note_id}")
        else:
            source_id = str(fm.get("id") or posixpath.splitext(rel)[0])
        tags = [_tag(folder)] if folder else []
        extra = fm.get("tags")
        tags += [str(t) for t in (extra if isinstance(extra, list) else [extra] if extra else [])]
        from cairn.ingest.importing.mail import _attachment_text
        parts = [body]
        for fname, data in attached:
            extracted = _attachment_text(fname, data)
            if extracted and not extracted.startswith("(not read"):
                parts.append(f"## Attachment: {fname}\n\n{extracted}")
        created = apple_date(rec.get("created")) or apple_date(fm.get("created") or fm.get("date"))
        updated = apple_date(rec.get("modified")) or apple_date(fm.get("modified") or fm.get("updated"))
        return Item(source_id=source_id, title=title, body="\n\n".join(p for p in parts if p),
                    created=created, updated=updated, tags=tags, files=attached,
                    meta={"folder": folder or None, "app": "Apple Notes"})

    def _file(self, base: str, target: str) -> str | None:
        """The export's name of the file `target` links to from folder `base`, if it is one."""
        rel = posixpath.normpath(posixpath.join(base, unquote(target.split("#", 1)[0])))
        return rel if rel in self.files and not rel.startswith("../") else None

    def _link(self, href: str, label: str, base: str, attached: list, image: bool) -> str | None:
        """The text for a link/image to `href` labelled `label`, or None to keep it as it is."""
        label = label.strip()
        if _APPLE_LINK.match(href):
            return f"[[{label}]]" if label else ""
        m = _DATA_URI.match(href)
        if m:
            try:
                data = base64.b64decode(m.group(2), validate=False)
            except (binascii.Error, ValueError):
                return "[attachment: unreadable inline image]"
            fname = f"image-{len(attached) + 1}{_EXT.get(m.group(1).lower(), '')}"
            attached.append((fname, data))
            return f"[attachment: {fname}]"
        if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.IGNORECASE):
            return None  # a web link
        target = self._file(base, href)
        if target is None:
            return None
        if not image and posixpath.splitext(target)[1].lower() in SUFFIX_RANK:
            return f"[[{label or posixpath.splitext(posixpath.basename(target))[0]}]]"
        fname = posixpath.basename(target)
        attached.append((fname, self.files[target]()))
        return f"[attachment: {fname}]"

    def _md_link(self, m: re.Match, base: str, attached: list) -> str:
        bang, label, href = m.groups()
        out = self._link(href, label, base, attached, image=bool(bang))
        return m.group(0) if out is None else out

    def _html(self, html: str, base: str, attached: list) -> str:
        from cairn.parse.html import html_to_text

        def anchor(m: re.Match) -> str:
            label = re.sub(r"<[^>]+>", "", m.group(2))
            out = self._link(m.group(1), label, base, attached, image=False)
            return f"[{label.strip()}]({m.group(1)})" if out is None else out

        def image(m: re.Match) -> str:
            out = self._link(m.group(1), "", base, attached, image=True)
            return "" if out is None else f" {out} "

        html = _IMG.sub(image, _A.sub(anchor, html))
        html = _CHECKLIST.sub(lambda m: "<div>" + re.sub(r"<li\b[^>]*>", "<div>- [ ] ",
                                                         _DONE.sub("<div>- [x] ", m.group(1)))
                              .replace("</li>", "</div>") + "</div>", html)
        return html_to_text(html).strip()


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each note of the Apple Notes export at `path` (a folder or .zip) as an Item, or a Skip
    naming its file. Raises ExportFormatError (see the module docstring)."""
    export = _Export(path)
    for name in export.notes:
        try:
            item = export.note_item(name)
        except UnicodeDecodeError as exc:
            yield Skip(f"{path.name}: {name}", f"not UTF-8 text ({exc.reason})")
            continue
        except (ValueError, TypeError) as exc:
            yield Skip(f"{path.name}: {name}", f"not a readable note ({exc})")
            continue
        if item is not None:
            yield item
