"""Evernote's export file, `.enex` (File -> Export notes -> ENEX), streamed with iterparse.

    <en-export><note><title/><created>20250301T101010Z</created><updated/><tag/>...
      <note-attributes><author/><source-url/></note-attributes>
      <content><![CDATA[<en-note>ENML...</en-note>]]></content>
      <resource><data encoding="base64">...</data><mime/><resource-attributes>
        <file-name/></resource-attributes></resource></note></en-export>

The ENML content (XHTML) becomes text (cairn.parse.html); a link to another note
(`evernote:///view/...` or `https://www.evernote.com/shard/.../nl/...`) becomes a wikilink
[[its text]]; an `<en-media hash="...">` (the MD5 of a resource's decoded bytes) becomes
"[attachment: NAME]" at its place. Each resource is decoded (base64; a resource whose MD5
matches no hash is still kept), kept beside the note and, when a parser reads it, its text
follows under "## Attachment: NAME". ENEX carries no note id: source_id = "<created>|<title>"
(a note whose title changes is a new note). One note element at a time is in memory. A file
that is not ENEX (its root is not en-export) or cut off raises ExportFormatError naming the
file and the note.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, inside
from cairn.ingest.importing.mail import _attachment_text
from cairn.parse.html import html_to_text

_NOTE_LINK = re.compile(r"<a\b[^>]*href=\"(?:evernote:///view/|https?://(?:www\.)?evernote\.com/shard/)[^\"]*\"[^>]*>(.*?)</a>",
                        re.IGNORECASE | re.DOTALL)
_MEDIA = re.compile(r"<en-media\b([^>]*)/?>(?:\s*</en-media>)?", re.IGNORECASE)
_HASH = re.compile(r"\bhash=\"([0-9a-fA-F]{32})\"")


def _time(text: str | None) -> str | None:
    if not text:
        return None
    try:
        return datetime.strptime(text.strip(), "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return None


def _resources(note: ET.Element) -> list[tuple[str, str, bytes]]:
    """(md5 hex, file name, bytes) of each resource of the note."""
    out = []
    for n, res in enumerate(note.findall("resource"), 1):
        raw = res.findtext("data") or ""
        try:
            data = base64.b64decode(raw, validate=False)
        except (binascii.Error, ValueError):
            raise ValueError(f"resource {n} is not valid base64") from None
        mime = (res.findtext("mime") or "application/octet-stream").strip()
        name = (res.findtext("resource-attributes/file-name") or "").strip()
        if not name:
            ext = {"image/png": ".png", "image/jpeg": ".jpg", "application/pdf": ".pdf", "text/plain": ".txt"}.get(mime, "")
            name = f"resource{n}{ext}"
        out.append((hashlib.md5(data).hexdigest(), name, data))
    return out


def note_item(note: ET.Element) -> Item:
    """The Item of one <note> element. Raises ValueError (the note is skipped) for a note
    with neither title nor content."""
    title = (note.findtext("title") or "").strip()
    enml = note.findtext("content") or ""
    created, updated = _time(note.findtext("created")), _time(note.findtext("updated"))
    resources = _resources(note)
    names = {h: name for h, name, _ in resources}

    def media(m: re.Match) -> str:
        h = _HASH.search(m.group(1))
        name = names.get(h.group(1).lower()) if h else None
        return f" [attachment: {name or 'missing resource'}] "

    html = _MEDIA.sub(media, _NOTE_LINK.sub(lambda m: "[[" + re.sub(r"<[^>]+>", "", m.group(1)).strip() + "]]", enml))
    html = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>", "", html)
    text = html_to_text(html.replace("<en-note", "<div").replace("</en-note>", "</div>")).strip()
    if not title and not text and not resources:
        raise ValueError("the note has neither title nor content")
    body = [text]
    for _, name, data in resources:
        extracted = _attachment_text(name, data)
        if extracted:
            body.append(f"## Attachment: {name}\n\n{extracted}")
    attrs = note.find("note-attributes")
    meta = {}
    if attrs is not None:
        meta = {"author": (attrs.findtext("author") or "").strip() or None,
                "url": (attrs.findtext("source-url") or "").strip() or None}
    return Item(source_id=f"{note.findtext('created') or ''}|{title}", title=title or "(untitled)",
                body="\n\n".join(b for b in body if b), created=created, updated=updated,
                tags=[t.text.strip() for t in note.findall("tag") if t.text and t.text.strip()],
                meta=meta, files=[(name, data) for _, name, data in resources])


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.rglob("*.enex") if inside(path, p))
        if not files:
            raise ExportFormatError(f"{path}: no .enex file in this folder")
        return files
    return [path]


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each note of the .enex file(s) at `path` as an Item (or a Skip naming it)."""
    for f in _files(path):
        n = 0
        try:
            events = ET.iterparse(f, events=("start", "end"))
            _, root = next(events)
            if root.tag != "en-export":
                raise ExportFormatError(f"{f}: not an Evernote export (the root element is <{root.tag}>, not <en-export>)")
            for event, el in events:
                if event != "end" or el.tag != "note":
                    continue
                n += 1
                try:
                    yield note_item(el)
                except ValueError as exc:
                    yield Skip(f"{f.name}: note {n} ({el.findtext('title') or '?'})", str(exc))
                root.clear()  # bounded memory: drop the notes already read
        except ET.ParseError as exc:
            raise ExportFormatError(f"{f}: note {n + 1}: not well-formed ENEX ({exc}); truncated or another format?") from None
