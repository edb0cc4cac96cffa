"""RTF documents via striprtf: the text, with the title from the `{\\info{\\title ...}}` group.

RTF is 7-bit text with escapes; the bytes are decoded as cp1252 (the default ANSI code page)
and striprtf resolves `\\'hh` and `\\uN` escapes. Title falls back to the file stem. A file with
no text raises EmptyDocument.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from ..model import ParsedDocument
from .errors import EmptyDocument, ParseError, describe
from ._shared import clean_lines

_TITLE = re.compile(r"\{\\title\s+([^{}]*)\}")
_AUTHOR = re.compile(r"\{\\author\s+([^{}]*)\}")


def parse_rtf(data: bytes, name: str) -> ParsedDocument:
    """Parse RTF bytes of the file called `name`. Raises ParseError / EmptyDocument."""
    try:
        from striprtf.striprtf import rtf_to_text
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"RTF support is not installed ({exc})") from None
    raw = data.decode("cp1252", errors="replace")
    try:
        text = rtf_to_text(raw, errors="replace")
    except Exception as exc:
        raise ParseError(f"corrupt RTF document: {describe(exc)}") from None
    text = re.sub(r"\n{3,}", "\n\n", clean_lines(text)).strip()
    if not text:
        raise EmptyDocument("RTF document has no text")
    meta = {}
    m = _AUTHOR.search(raw)
    if m and m.group(1).strip():
        meta["author"] = rtf_to_text(m.group(1)).strip() or m.group(1).strip()
    m = _TITLE.search(raw)
    title = (rtf_to_text(m.group(1)).strip() if m else "") or PurePath(name).stem
    return ParsedDocument(kind="rtf", title=title, body=text, meta=meta)
