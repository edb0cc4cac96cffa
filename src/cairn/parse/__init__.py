"""Parsers: source file -> ParsedDocument.

Public API:
    parse_file(path, *, max_bytes=50_000_000, dendron=None, ocr=True, asr=True,
               max_ocr_pages=50) -> ParsedDocument
    parse_markdown_text(text, name, *, dendron=None) -> ParsedDocument
    detect_kind(path, head) -> one of detect.KINDS ("pdf", "docx", "pptx", "xlsx", "epub",
        "rtf", "msg", "image", "audio", "eml", "ipynb", "feed", "html", "markdown", "text")
    original_suffix(doc, path) -> ".png" | ... | None: binary sources whose original file is
        kept beside the generated note (the vault's `_files/`)
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
from .detect import AUDIO_EXTS, HEAD_BYTES, MARKDOWN_SUFFIXES, detect_kind
from .errors import EmptyDocument, ParseError, TooLarge, UndecodableText, UnsupportedFormat, describe
from .markdown import note_stem, parse_markdown
from .pdf import MAX_OCR_PAGES
from .text import decode_bytes

__all__ = [
    "parse_file",
    "original_suffix",
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
    doc = ParsedDocument(kind="text", title=title or note_stem(name), body=text)
    from cairn.parse.whatsapp_lines import looks_like_whatsapp
    if looks_like_whatsapp(text):
        doc.warnings.append("looks like a WhatsApp chat export, read as plain text: `cairn import whatsapp "
                            "FILE` keeps each message's speaker and time")
    return doc


# kind -> suffix of the original file kept in the vault (images/audio: the detected format's)
_KEEP_ORIGINAL = {"pdf": ".pdf", "docx": ".docx", "pptx": ".pptx", "xlsx": ".xlsx", "epub": ".epub",
                  "rtf": ".rtf", "msg": ".msg", "eml": ".eml", "ipynb": ".ipynb"}
_IMAGE_SUFFIX = {"PNG": ".png", "JPEG": ".jpg", "TIFF": ".tif", "WEBP": ".webp"}
_AUDIO_SUFFIX = {"WAV audio": ".wav", "MP3 audio": ".mp3", "Ogg audio": ".ogg", "FLAC audio": ".flac",
                 "M4A audio": ".m4a", "Opus audio": ".opus"}


def original_suffix(doc: ParsedDocument, path: Path) -> str | None:
    """Suffix for keeping the original of `doc` (parsed from `path`) in the vault, or None for
    text-like sources whose note is the whole content (markdown, text, HTML)."""
    if doc.kind == "image":
        return _IMAGE_SUFFIX.get(str(doc.meta.get("format")), Path(path).suffix.lower() or ".img")
    if doc.kind == "audio":
        return _AUDIO_SUFFIX.get(str(doc.meta.get("format")), Path(path).suffix.lower() or ".audio")
    return _KEEP_ORIGINAL.get(doc.kind)


def _audio_format(head: bytes) -> str:
    try:
        import filetype

        guess = filetype.guess(head)
    except Exception:
        guess = None
    ext = guess.extension if guess else ""
    if ext in {"mp4", "m4v", "mov", "3gp"}:
        ext = "m4a"  # detect_kind only calls an MP4 container audio when it holds no video
    return AUDIO_EXTS.get(ext, "audio")


def parse_file(path: Path, *, max_bytes: int = 50_000_000, dendron: bool | None = None,
               ocr: bool = True, asr: bool = True, max_ocr_pages: int = MAX_OCR_PAGES,
               data: bytes | None = None) -> ParsedDocument:
    """Parse the file at `path`, choosing the parser from its content (see detect_kind).

    ocr: read text in images and in PDF pages without a text layer (RapidOCR; else a warning).
    max_ocr_pages: PDF pages without a text layer read by OCR at most (later ones are left
    out, with one warning).
    asr: transcribe audio (faster-whisper; else a note with metadata only and a warning).
    The parser comes from the `register_parsers` hook (built-ins: cairn.builtin_plugins.parsers): the
    one registered for the file's suffix if any, else for its detected kind.
    data: the file's bytes when the caller has read them already (the ingest has: it
    hashed them); default: read here.
    Raises a ParseError subclass for anything wrong with the content; OSError for I/O.
    """
    path = Path(path)
    if data is None:
        size = path.stat().st_size
        if size > max_bytes:
            raise TooLarge(size, max_bytes)
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew since stat()
        raise TooLarge(len(data), max_bytes)
    if not data:
        raise EmptyDocument("empty file")
    from cairn.registries import parsers
    table = parsers()
    kind = path.suffix.lower()  # a plugin may claim a suffix; else the content decides
    if kind not in table:
        kind = detect_kind(path, data[:HEAD_BYTES])
    parser = table.get(kind)
    if parser is None:
        raise UnsupportedFormat(kind, "no parser is registered for it (see `cairn plugins`)")
    try:
        return parser(data, path.name, ocr=ocr, asr=asr, max_ocr_pages=max_ocr_pages, dendron=dendron)
    except ParseError:
        raise
    except (MemoryError, RecursionError) as exc:
        raise ParseError(f"the {kind} file is {describe(exc)}") from exc
    except Exception as exc:  # a bug in a parser library must not stop a batch
        raise ParseError(f"the {kind} file could not be read: {describe(exc)}") from exc
