"""Decide what a file is from its content (magic bytes), not from its name.

`detect_kind` returns one of KINDS ("pdf", "docx", "pptx", "xlsx", "epub", "rtf", "msg", "image",
"audio", "eml", "ipynb", "feed", "html", "markdown", "text"), or raises `UnsupportedFormat` naming what
the file really is. ZIP containers are opened to tell DOCX/PPTX/XLSX/EPUB apart (any other ZIP
is refused as an archive); OLE2 files are MSG when they hold Outlook property streams. Text is
sniffed for HTML, a Jupyter notebook (JSON whose first key is "cells", or with "nbformat" in
the first 8 KB), an RSS/Atom feed (<rss>, <feed>, <rdf:RDF> root) and, unless the name ends in
a markdown suffix, an RFC 822 e-mail (header lines with From: and Date:/Message-ID:/...). The
suffix is only used to tell markdown from plain text once the content is known to be text:
`.md`, `.markdown` and `.mdx` are markdown; every other text file (`.txt`, `.org`, no
suffix...) is "text". So a PDF named `notes.txt` is parsed as a PDF, and a GIF named `notes.md`
is refused as a GIF image.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from ..model import PARSED_KINDS
from .errors import UnsupportedFormat, describe
from .text import bom_encoding, few_nuls, utf16_nul_pattern

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdx"}
HEAD_BYTES = 8192  # how much of the file the caller should pass as `head`

_NOT_YET = "not supported yet"
_IMG_NO = "only PNG, JPEG, TIFF and WebP images are read"
_AUDIO_NO = "only WAV, MP3, OGG, FLAC and M4A audio is transcribed"

KINDS = PARSED_KINDS
IMAGE_EXTS = {"png": "PNG image", "apng": "PNG image", "jpg": "JPEG image", "webp": "WebP image",
              "tif": "TIFF image"}
AUDIO_EXTS = {"wav": "WAV audio", "mp3": "MP3 audio", "ogg": "Ogg audio", "flac": "FLAC audio",
              "m4a": "M4A audio", "opus": "Opus audio"}

# filetype extension -> (human name, reason)
_BINARY_NAMES: dict[str, tuple[str, str]] = {
    "jpx": ("JPEG 2000 image", _IMG_NO),
    "gif": ("GIF image", _IMG_NO),
    "bmp": ("BMP image", _IMG_NO),
    "heic": ("HEIC image", _IMG_NO),
    "avif": ("AVIF image", _IMG_NO),
    "ico": ("icon image", "images are not indexed"),
    "psd": ("Photoshop image", "images are not indexed"),
    "xcf": ("GIMP image", "images are not indexed"),
    "cr2": ("camera raw image", "images are not indexed"),
    "jxr": ("JPEG XR image", "images are not indexed"),
    "dwg": ("DWG drawing", _NOT_YET),
    "dcm": ("DICOM image", _NOT_YET),
    "aac": ("AAC audio", _AUDIO_NO),
    "amr": ("AMR audio", _AUDIO_NO),
    "aiff": ("AIFF audio", _AUDIO_NO),
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
    (b"\xfe\xed\xfa\xce", "Mach-O executable", "programs are not indexed"),
    (b"\xfe\xed\xfa\xcf", "Mach-O executable", "programs are not indexed"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable", "programs are not indexed"),
    (b"\xce\xfa\xed\xfe", "Mach-O executable", "programs are not indexed"),
    (b"\xca\xfe\xba\xbe", "Java class or Mach-O universal binary", "programs are not indexed"),
    (b"%!PS-Adobe", "PostScript document", "not supported yet; convert it to PDF"),
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
    """docx/pptx/xlsx/epub for those packages; UnsupportedFormat for any other ZIP-based file."""
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
        for marker, kind in ((b"word/", "docx"), (b"ppt/", "pptx"), (b"xl/", "xlsx"),
                             (b"application/epub", "epub")):
            if marker in head:
                return kind
        raise UnsupportedFormat("ZIP archive", "corrupt or unreadable archive") from None
    if "word/document.xml" in names:
        return "docx"
    if "xl/workbook.xml" in names:
        return "xlsx"
    if "ppt/presentation.xml" in names:
        return "pptx"
    if mimetype.startswith(b"application/epub") or "META-INF/container.xml" in names and any(
            n.endswith(".opf") for n in names):
        return "epub"
    if any(n.startswith(("xl/", "ppt/", "word/")) for n in names):
        raise UnsupportedFormat("Office Open XML package", "its main document part is missing (corrupt file?)")
    if mimetype.startswith(b"application/vnd.oasis.opendocument"):
        raise UnsupportedFormat("OpenDocument file", _NOT_YET)
    raise UnsupportedFormat("ZIP archive", "archives are not indexed")


def _mp4_is_audio(path: Path) -> bool:
    """True when an MP4/QuickTime container holds audio streams and no video (M4A in a generic
    "mp42"/"isom" box), probed with PyAV (installed with faster-whisper)."""
    try:
        import av

        with av.open(str(path), mode="r", metadata_errors="ignore") as container:
            kinds = [s.type for s in container.streams]
    except Exception:
        return False
    return "audio" in kinds and "video" not in kinds


def _ole_kind(path: Path) -> str:
    """msg for an Outlook message (OLE2 with "__substg1.0_" property streams); else refused."""
    try:
        import olefile

        with olefile.OleFileIO(str(path)) as ole:
            streams = ["/".join(e) for e in ole.listdir(streams=True, storages=False)]
    except Exception as exc:
        raise UnsupportedFormat("OLE2 compound file (.doc/.xls/.ppt/.msg)",
                                f"corrupt or unreadable ({describe(exc)})") from None
    if any(s.startswith("__substg1.0_") for s in streams):
        return "msg"
    if not streams:
        raise UnsupportedFormat("OLE2 compound file (.doc/.xls/.ppt/.msg)", "corrupt or empty (no streams)")
    raise UnsupportedFormat("legacy Office document (OLE2: .doc/.xls/.ppt)", _NOT_YET)


_EMAIL_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9-]{0,40}):[ \t]*\S", re.MULTILINE)
_EMAIL_KEYS = {"date", "message-id", "mime-version", "received", "return-path", "to", "subject"}


def looks_like_email(text: str) -> bool:
    """RFC 822 message: first line a header, From: plus two of Date/To/Subject/Message-ID/...
    in the header block (before the first blank line)."""
    block = text.lstrip("\r\n")[:8192].replace("\r\n", "\n").split("\n\n", 1)[0]
    first = block.split("\n", 1)[0]
    if not (_EMAIL_HEADER.match(first) or first.startswith("From ")):
        return False
    keys = {m.group(1).lower() for m in _EMAIL_HEADER.finditer(block)}
    return "from" in keys and len(keys & _EMAIL_KEYS) >= 2


_NOTEBOOK_START = re.compile(r'\s*\{\s*"(?:cells|nbformat|worksheets)"\s*:')


def looks_like_notebook(text: str) -> bool:
    """JSON that starts like a Jupyter notebook (first key "cells"), or names "nbformat" early."""
    t = text.lstrip("\ufeff")
    return bool(_NOTEBOOK_START.match(t)) or (t.lstrip().startswith("{") and '"nbformat"' in t[:8192])


def detect_kind(path: Path, head: bytes) -> str:
    """Kind of the file at `path` whose first bytes are `head` (pass at least HEAD_BYTES).

    Returns one of KINDS; raises UnsupportedFormat otherwise.
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
        if head.startswith(b"{\\rtf"):
            return "rtf"
        if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
            return _ole_kind(path)
        for magic, name, reason in _EXTRA_MAGIC:
            if head.startswith(magic):
                raise UnsupportedFormat(name, reason)
        # A magic-byte match is trusted unless the bytes are clean text: several signatures
        # ("BM", "ID3", "OggS", "FORM"...) are printable ASCII that a note could start with,
        # while real binary files have NULs or control bytes in their first kilobytes. So
        # clean text skips the signature scan altogether (most of a text file's detection).
        guess = None
        if not _is_clean_text(head):
            try:
                import filetype

                guess = filetype.guess(head)
            except Exception:
                guess = None
        if guess is not None:
            ext = guess.extension
            if ext in {"mp4", "m4v", "mov", "3gp"} and (head[8:11] in (b"M4A", b"M4B", b"M4P")
                                                        or _mp4_is_audio(path)):
                ext = "m4a"  # MP4 container holding audio only
            if ext == "pdf":
                return "pdf"
            if ext in {"zip", "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub"}:
                return _zip_kind(path, head)
            if ext in IMAGE_EXTS:
                return "image"
            if ext in AUDIO_EXTS:
                return "audio"
            name, reason = _BINARY_NAMES.get(ext, (f"{guess.mime} file", "binary format, not text"))
            raise UnsupportedFormat(name, reason)
    if not _looks_like_text(head):
        if b"\x00" in head:
            raise UnsupportedFormat("binary data", "contains NUL bytes, not text")
        raise UnsupportedFormat("binary data", "mostly control characters, not text")
    text = _head_text(head)
    if _HTML_START.match(text[:4096]):
        return "html"
    if looks_like_notebook(text):
        return "ipynb"
    from .feed import looks_like_feed

    if looks_like_feed(text):
        return "feed"
    if path.suffix.lower() not in MARKDOWN_SUFFIXES and looks_like_email(text):
        return "eml"
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        return "markdown"
    return "text"
