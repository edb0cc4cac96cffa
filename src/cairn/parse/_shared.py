"""Small helpers shared by the binary-format parsers (docx, office, mail, pdf, rtf, image)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .text import normalize_newlines


def utc_iso(value: Any) -> str | None:
    """A datetime -> "YYYY-MM-DDTHH:MM:SSZ" in UTC (a naive one is taken as UTC); anything
    else -> None."""
    if not isinstance(value, dt.datetime):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def clean_text(value: Any) -> str:
    """str(value) with newlines normalised to "\\n", NUL characters removed, and stripped."""
    return normalize_newlines(str(value)).replace("\x00", "").strip()


def clean_lines(text: str) -> str:
    """Extracted text with newlines normalised to "\\n", NUL characters removed and the
    trailing white space of every line dropped (leading/trailing blank lines are kept: the
    caller strips as its offsets need)."""
    text = normalize_newlines(text).replace("\x00", "")
    return "\n".join(line.rstrip() for line in text.split("\n"))
