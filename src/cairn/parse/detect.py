"""Decide what a file is from its content (magic bytes), not from its name.

`detect_kind` returns one of "pdf", "docx", "html", "markdown", "text", or raises
`UnsupportedFormat` naming what the file really is. The suffix is only used to tell markdown
from plain text once the content is known to be text: `.md`, `.markdown` and `.mdx` are
markdown; every other text file (`.txt`, `.org`, no suffix...) is "text". So a PDF named
`notes.txt` is parsed as a PDF, and a PNG named `notes.md` is refused as a PNG image.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from .errors import UnsupportedFormat
from .text import bom_encoding, few_nuls, utf16_nul_pattern

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdx"}
HEAD_BYTES = 8192  # how much of the file the caller should pass as `head`

_NOT_YET = "not supported yet"

# filetype extension -> (human name, reason)
_BINARY_NAMES: dict[str, tuple[str, str]] = {
    "png": ("PNG image", "image OCR is not supported yet"),
    "apng": ("PNG image", "image OCR is not supported yet"),
    "jpg": ("JPEG image", "image OCR is not supported yet"),
    "jpx": ("JPEG 2000 image", "image OCR is not supported yet"),
    "gif": ("GIF image", "image OCR is not supported yet"),
    "webp": ("WebP image", "image OCR is not supported yet"),
    "tif": ("TIFF image", "image OCR is not supported yet"),
    "bmp": ("BMP image", "image OCR is not supported yet"),
    "heic": ("HEIC image", "image OCR is not supported yet"),
    "avif": ("AVIF image", "image OCR is not supported yet"),
    "ico": ("icon image", "images are not indexed"),
    "psd": ("Photoshop image", "images are not indexed"),
    "xcf": ("GIMP image", "images are not indexed"),
    "cr2": ("camera raw image", "images are not indexed"),
    "jxr": ("JPEG XR image", "images are not indexed"),
    "dwg": ("DWG drawing", _NOT_YET),
    "dcm": ("DICOM image", _NOT_YET),
    "mp3": ("MP3 audio", "audio transcription is not supported yet"),
    "m4a": ("M4A audio", "audio transcription is not supported yet"),
    "aac": ("AAC audio", "audio transcription is not supported yet"),
    "ogg": ("Ogg audio", "audio transcription is not supported yet"),
    "flac": ("FLAC audio", "audio transcription is not supported yet"),
    "wav": ("WAV audio", "audio transcription is not supported yet"),
    "amr": ("AMR audio", "audio transcription is not supported yet"),
    "aiff": ("AIFF audio", "audio transcription is not supported yet"),
    "midi": ("MIDI file", "music files are not indexed"),
    "mp4": ("MP4 audio/video file", "audio transcription and video are not supported yet"),
    "m4v": ("M4V video", "video is not supported"),
    "3gp": ("3GP video", "video is not supported"),
    "mkv": ("Matroska video", "video is not supported"),
    "webm": ("WebM video", "video is not supported"),
    "mov": ("QuickTime video", "video is not supported"),
    "avi": ("AVI video", "video is not supported"),
    "wmv": ("WMV video", "video is not supported"),
    "mpg": ("MPEG video", "video is not supported"),
    "flv": ("Flash video", "video is not supported"),
    "swf": ("Flash file", "not supported"),
    "woff": ("web font", "fonts are not indexed"),
    "woff2": ("web font", "fonts are not indexed"),
    "ttf": ("font file", "fonts are not indexed"),
    "otf": ("font file", "fonts are not indexed"),
    "eot": ("font file", "fonts are not indexed"),
    "doc": ("legacy Word document (.doc)", "not supported yet; save it as .docx or PDF"),
    "xls": ("legacy Excel spreadsheet (.xls)", _NOT_YET),
    "ppt": ("legacy PowerPoint presentation (.ppt)", _NOT_YET),
    "rtf": ("RTF document", "not supported yet; save it as .docx, PDF or plain text"),
    "ps": ("PostScript document", "not supported yet; convert it to PDF"),
    "br": ("Brotli-compressed data", "archives are not indexed"),
    "rpm": ("RPM package", "archives are not indexed"),
    "tar": ("tar archive", "archives are not indexed"),
    "rar": ("RAR archive", "archives are not indexed"),
    "gz": ("gzip-compressed data", "archives are not indexed"),
    "bz2": ("bzip2-compressed data", "archives are not indexed"),
    "7z": ("7-Zip archive", "archives are not indexed"),
    "xz": ("xz-compressed data", "archives are not indexed"),
    "Z": ("compressed data", "archives are not indexed"),
    "lzo": ("lzop-compressed data", "archives are not indexed"),
    "lz": ("lzip-compressed data", "archives are not indexed"),
    "lz4": ("LZ4-compressed data", "archives are not indexed"),
    "zst": ("Zstandard-compressed data", "archives are not indexed"),
    "cab": ("CAB archive", "archives are not indexed"),
    "deb": ("Debian package", "archives are not indexed"),
    "ar": ("ar archive", "archives are not indexed"),
    "exe": ("Windows executable", "programs are not indexed"),
    "elf": ("ELF executable", "programs are not indexed"),
    "wasm": ("WebAssembly module", "programs are not indexed"),
    "nes": ("NES ROM", "programs are not indexed"),
    "crx": ("Chrome extension", "programs are not indexed"),
    "sqlite": ("SQLite database", "databases are not indexed"),
}

_EXTRA_MAGIC: list[tuple[bytes, str, str]] = [
    (b"SQLite format 3\x00", "SQLite database", "databases are not indexed"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Office document (OLE2: .doc/.xls/.ppt/.msg)", _NOT_YET),
    (b"\xfe\xed\xfa\xce", "Mach-O executable", "programs are not indexed"),
    (b"\xfe\xed\xfa\xcf", "Mach-O executable", "programs are not indexed"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable", "programs are not indexed"),
    (b"\xce\xfa\xed\xfe", "Mach-O executable", "programs are not indexed"),
    (b"\xca\xfe\xba\xbe", "Java class or Mach-O universal binary", "programs are not indexed"),
    (b"%!PS-Adobe", "PostScript document", "not supported yet; convert it to PDF"),
    (b"{\\rtf", "RTF document", "not supported yet; save it as .docx, PDF or plain text"),
]

_HTML_START = re.compile(
    r"\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])",
    re.IGNORECASE | re.DOTALL,
)


_CONTROL_BYTES = bytes([*range(0, 9), *range(14, 27), *range(28, 32), 127])


def _looks_like_text(head: bytes) -> bool:
    """True when `head` is plausibly text (UTF-16/32 NUL pattern, or few NULs and control bytes)."""
    if not head:
        return True
    if bom_encoding(head):
        return True
    if b"\x00" in head and utf16_nul_pattern(head) is not None:
        return True
    if b"\x00" in head and not few_nuls(head):
        return False
    bad = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return bad / len(head) < 0.05


def _is_clean_text(head: bytes) -> bool:
    """No NUL or other control bytes at all (tab, newlines, form feed and ESC aside)."""
    if not head or bom_encoding(head):
        return True
    return head.translate(None, _CONTROL_BYTES) == head


def _head_text(head: bytes) -> str:
    """Best-effort decoding of the first bytes, for sniffing only."""
    bom = bom_encoding(head)
    if bom:
        enc, n = bom
        return head[n:].decode("utf-8" if enc == "utf-8-sig" else enc, errors="ignore")
    if b"\x00" in head:
        enc = utf16_nul_pattern(head)
        if enc:
            return head.decode(enc, errors="ignore")
    return head.decode("utf-8", errors="ignore")


def _zip_kind(path: Path, head: bytes) -> str:
    """docx for a Word package; UnsupportedFormat for any other ZIP-based file."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            mimetype = b""
            if "mimetype" in names:
                try:
                    mimetype = zf.read("mimetype")[:100]
                except Exception:
                    mimetype = b""
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError, NotImplementedError):
        # Not a readable zip from disk (e.g. truncated); judge by the first local header only.
        if b"word/" in head:
            return "docx"
        raise UnsupportedFormat("ZIP archive", "corrupt or unreadable archive") from None
    if "word/document.xml" in names:
        return "docx"
    if any(n.startswith("xl/") for n in names):
        raise UnsupportedFormat("Excel spreadsheet (.xlsx)", _NOT_YET)
    if any(n.startswith("ppt/") for n in names):
        raise UnsupportedFormat("PowerPoint presentation (.pptx)", _NOT_YET)
    if mimetype.startswith(b"application/epub"):
        raise UnsupportedFormat("EPUB e-book", _NOT_YET)
    if mimetype.startswith(b"application/vnd.oasis.opendocument"):
        raise UnsupportedFormat("OpenDocument file", _NOT_YET)
    raise UnsupportedFormat("ZIP archive", "archives are not indexed")


def detect_kind(path: Path, head: bytes) -> str:
    """Kind of the file at `path` whose first bytes are `head` (pass at least HEAD_BYTES).

    Returns "pdf", "docx", "html", "markdown" or "text"; raises UnsupportedFormat otherwise.
    `path` is used for ZIP containers (to look inside) and for the markdown/text suffix rule.
    """
    path = Path(path)
    # Byte-order marks mean text, whatever else follows.
    if not bom_encoding(head):
        # PDF: the header may be preceded by some junk bytes (readers allow 1 KB), but a text
        # note that merely mentions "%PDF-" early on is still text.
        if head.startswith(b"%PDF") or (b"%PDF-" in head[:1024] and not _is_clean_text(head)):
            return "pdf"
        if head.startswith(b"PK\x03\x04"):
            return _zip_kind(path, head)
        if head.startswith((b"PK\x05\x06", b"PK\x07\x08")):
            raise UnsupportedFormat("ZIP archive", "archives are not indexed")
        for magic, name, reason in _EXTRA_MAGIC:
            if head.startswith(magic):
                raise UnsupportedFormat(name, reason)
        guess = None
        try:
            import filetype

            guess = filetype.guess(head)
        except Exception:
            guess = None
        # A magic-byte match is trusted unless the bytes are clean text: several signatures
        # ("BM", "ID3", "OggS", "FORM"...) are printable ASCII that a note could start with,
        # while real binary files have NULs or control bytes in their first kilobytes.
        if guess is not None and not _is_clean_text(head):
            ext = guess.extension
            if ext in {"mp4", "m4v", "mov", "3gp"} and head[8:11] in (b"M4A", b"M4B", b"M4P"):
                ext = "m4a"  # MP4 container holding audio only
            if ext == "pdf":
                return "pdf"
            if ext in {"zip", "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub"}:
                return _zip_kind(path, head)
            name, reason = _BINARY_NAMES.get(ext, (f"{guess.mime} file", "binary format, not text"))
            raise UnsupportedFormat(name, reason)
    if not _looks_like_text(head):
        if b"\x00" in head:
            raise UnsupportedFormat("binary data", "contains NUL bytes, not text")
        raise UnsupportedFormat("binary data", "mostly control characters, not text")
    if _HTML_START.match(_head_text(head)[:4096]):
        return "html"
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        return "markdown"
    return "text"
