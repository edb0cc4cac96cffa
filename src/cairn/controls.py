"""Control characters in text the person gives (a memory, a scope, a core block, a reminder):
refused at the layer that stores it, so that every door refuses alike."""

from __future__ import annotations

from cairn.errors import InvalidInput


def check_no_controls(text: str, what: str, *, lines: bool = False) -> str:
    """`text` as given; raises InvalidInput naming `what` and each control character's code
    point (U+0000-U+001F, U+007F-U+009F) found in it. Tab, line feed and carriage return are
    allowed when `lines` (text kept on several lines: a core block), and always for text whose
    white space the caller collapses before this check (a memory, a reminder's line). A NUL
    cannot be passed to a program's arguments (a desktop notification) and marks a markdown
    file as binary; an ESC starts a terminal control sequence."""
    allowed = "\t\n\r" if lines else ""
    bad = sorted({f"U+{ord(c):04X}" for c in text if (ord(c) < 32 or 127 <= ord(c) < 160) and c not in allowed})
    if bad:
        raise InvalidInput(f"{what} holds control characters ({', '.join(bad)}); remove them")
    return text
