"""Errors raised by the parsers.

Every problem that stops a file from being parsed is a `ParseError` subclass, so a caller that
walks a folder can catch `ParseError`, report `f"{path.name}: {exc}"` and go on with the next
file. Messages name the problem only; the caller adds the file name. (I/O errors such as a
file that vanished are left as `OSError`: they are not about the content.)
"""

from __future__ import annotations
from cairn.errors import InvalidInput, TooLarge as _TooLarge


class ParseError(InvalidInput):
    """The file could not be parsed; `str(exc)` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnsupportedFormat(ParseError):
    """A format Cairn does not read (yet): other image/audio kinds, video, archives,
    executables, binary data.

    `name` is the detected format ("GIF image"), `reason` what is missing
    ("only PNG, JPEG, TIFF and WebP images are read"); the message is
    "GIF image: only PNG, JPEG, TIFF and WebP images are read".
    """

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


class UndecodableText(ParseError):
    """Bytes that look like text but cannot be decoded to clean text."""


class UnencodableText(ParseError):
    """Text a note file's own encoding cannot hold (cairn.parse.text.encode_like): the rewrite
    of a cp1252 note given characters cp1252 has not."""


class EmptyDocument(ParseError):
    """Nothing to index: a 0-byte / whitespace-only file, a PDF with no text on any page
    (text layer or OCR), an office file, notebook or e-mail without text."""


class TooLarge(ParseError, _TooLarge):
    """The file is larger than the configured limit (HTTP 413)."""

    http_status = _TooLarge.http_status
    category = _TooLarge.category

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"file too large: {size:,} bytes (limit {limit:,} bytes)")
        self.size = size
        self.limit = limit


_INTERNAL = (AttributeError, TypeError, IndexError, KeyError, AssertionError, NameError,
             LookupError, ZeroDivisionError)


def describe(exc: BaseException) -> str:
    """Why a file could not be read, for a person: never an exception class name. An
    OSError gives its system message ("Permission denied"); RecursionError "nested too
    deeply to read"; MemoryError "too large to hold in memory"; a library's internal error
    (AttributeError, KeyError, ... raised on malformed content) "unexpected structure
    inside the file (it looks damaged)"; anything else its own message."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    if isinstance(exc, RecursionError):
        return "nested too deeply to read"
    if isinstance(exc, MemoryError):
        return "too large to hold in memory"
    if isinstance(exc, _INTERNAL):
        return "unexpected structure inside the file (it looks damaged)"
    text = str(exc).strip()
    return text or "unreadable content (it looks damaged)"
