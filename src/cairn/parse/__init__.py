"""Parsers: source file -> ParsedDocument.

Public API:
    parse_file(path, *, max_bytes=50_000_000, dendron=None) -> ParsedDocument
    parse_markdown_text(text, name, *, dendron=None) -> ParsedDocument
    detect_kind(path, head) -> "pdf" | "docx" | "html" | "markdown" | "text"
    decode_bytes(data) -> (text, encoding)
    errors: ParseError > UnsupportedFormat, UndecodableText, EmptyDocument, TooLarge

Everything that is wrong with a file's *content* is raised as a ParseError subclass (a bug in
a third-party parser is wrapped too), so a batch can catch ParseError per file and go on.
Messages name the problem; callers prefix the file name. OSError (missing file, permission)
is not wrapped.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..model import ParsedDocument
from .detect import HEAD_BYTES, MARKDOWN_SUFFIXES, detect_kind
from .errors import EmptyDocument, ParseError, TooLarge, UndecodableText, UnsupportedFormat
from .markdown import note_stem, parse_markdown
from .text import decode_bytes

__all__ = [
    "parse_file",
    "parse_markdown_text",
    "parse_text",
    "detect_kind",
    "decode_bytes",
    "ParseError",
    "UnsupportedFormat",
    "UndecodableText",
    "EmptyDocument",
    "TooLarge",
    "MARKDOWN_SUFFIXES",
]

_ORG_TITLE = re.compile(r"^#\+title:[ \t]*(.+)$", re.IGNORECASE | re.MULTILINE)


def parse_markdown_text(text: str, name: str, *, dendron: bool | None = None) -> ParsedDocument:
    """Parse in-memory markdown `text` for the note called `name` (file name or stem).

    `dendron`: True/False forces the wikilink label order; None detects Dendron notes from
    their frontmatter (see cairn.parse.markdown). Raises EmptyDocument for blank text.
    """
    if not text.strip():
        raise EmptyDocument("empty file" if not text else "empty file (only whitespace)")
    return parse_markdown(text, name, dendron=dendron)


def parse_text(text: str, name: str) -> ParsedDocument:
    """Plain text (also .org): body is the text; title from `#+TITLE:` (org) or the file stem."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise EmptyDocument("empty file" if not text else "empty file (only whitespace)")
    title = ""
    m = _ORG_TITLE.search(text, 0, 4096) if name.lower().endswith(".org") else None
    if m:
        title = m.group(1).strip()
    return ParsedDocument(kind="text", title=title or note_stem(name), body=text)


def parse_file(path: Path, *, max_bytes: int = 50_000_000, dendron: bool | None = None) -> ParsedDocument:
    """Parse the file at `path`, choosing the parser from its content (see detect_kind)."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise TooLarge(size, max_bytes)
    with path.open("rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew since stat()
        raise TooLarge(len(data), max_bytes)
    if not data:
        raise EmptyDocument("empty file")
    kind = detect_kind(path, data[:HEAD_BYTES])
    try:
        if kind == "pdf":
            from .pdf import parse_pdf

            return parse_pdf(data, path.name)
        if kind == "docx":
            from .docx import parse_docx

            return parse_docx(data, path.name)
        if kind == "html":
            from .html import parse_html

            return parse_html(data, path.name)
        if data.isspace():  # whitespace-only in any 8-bit encoding (UTF-16 handled below)
            raise EmptyDocument("empty file (only whitespace)")
        text, encoding = decode_bytes(data)
        del data  # keep peak memory near two copies of the file
        if kind == "markdown":
            doc = parse_markdown_text(text, path.name, dendron=dendron)
        else:
            doc = parse_text(text, path.name)
        doc.encoding = encoding
        return doc
    except ParseError:
        raise
    except (MemoryError, RecursionError) as exc:
        raise ParseError(f"{kind} parser ran out of resources: {type(exc).__name__}") from exc
    except Exception as exc:  # a bug in a parser library must not stop a batch
        raise ParseError(f"{kind} parser failed: {type(exc).__name__}: {exc}") from exc
