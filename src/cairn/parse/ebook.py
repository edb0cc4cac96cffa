"""EPUB e-books via EbookLib: the chapters of the spine, in reading order, as text.

Each spine document (XHTML) is cleaned like an HTML page (hidden elements and navigation
dropped, cairn.parse.html.clean_tree) and turned into text with headings as '#' lines
(cairn.parse.html.plain_text); chapters are separated by a blank line. Title, author
(dc:creator), language and date (dc:date) come from the package metadata; the title falls
back to the file stem. An unreadable package raises ParseError.
"""

from __future__ import annotations

import io
import warnings as _warnings
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from .errors import EmptyDocument, ParseError, describe
from .markdown import to_iso


def _dc(book: Any, key: str) -> str:
    try:
        values = book.get_metadata("DC", key)
    except Exception:
        return ""
    for value, _attrs in values or []:
        if value and str(value).strip():
            return str(value).strip()
    return ""


def parse_epub(data: bytes, name: str) -> ParsedDocument:
    """Parse EPUB bytes of the file called `name`. Raises ParseError / EmptyDocument."""
    try:
        from ebooklib import ITEM_DOCUMENT, epub
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"EPUB support is not installed ({exc})") from None
    from .html import html_to_text

    try:
        with _warnings.catch_warnings():
            _warnings.simplefilter("ignore")
            book = epub.read_epub(io.BytesIO(data), options={"ignore_ncx": True})
    except Exception as exc:
        raise ParseError(f"corrupt or unreadable EPUB e-book: {describe(exc)}") from None
    parts: list[str] = []
    warnings: list[str] = []
    seen: set[str] = set()
    order = [book.get_item_with_id(idref) for idref, _linear in book.spine]
    order += [it for it in book.get_items_of_type(ITEM_DOCUMENT) if it not in order]
    for item in order:
        if item is None or item.get_type() != ITEM_DOCUMENT or item.get_name() in seen:
            continue
        seen.add(item.get_name())
        if isinstance(item, epub.EpubNav):
            continue  # the table of contents repeats the chapter titles
        try:
            text = html_to_text(item.get_content())
        except Exception as exc:
            warnings.append(f"{item.get_name()}: could not be read ({describe(exc)})")
            continue
        if text.strip():
            parts.append(text.strip())
    if not parts:
        raise EmptyDocument("EPUB has no readable text")
    meta: dict[str, Any] = {}
    for key, out in (("creator", "author"), ("language", "language"), ("publisher", "publisher")):
        value = _dc(book, key)
        if value:
            meta[out] = value
    try:
        created = to_iso(_dc(book, "date")) or None
    except (ValueError, OverflowError):
        created = None
    return ParsedDocument(kind="epub", title=_dc(book, "title") or PurePath(name).stem,
                          body="\n\n".join(parts), meta=meta, created=created, warnings=warnings)
