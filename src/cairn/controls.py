"""Control characters in text the person gives (a memory, a scope, a core block, a reminder):
refused at the layer that stores it, so that every door refuses alike."""

from __future__ import annotations

import re

from cairn.errors import InvalidInput

#: Unicode's explicit bidirectional embeddings, overrides and isolates (U+202A-U+202E,
#: U+2066-U+2069; Unicode Standard Annex #9): a file name `rtl<U+202E>txt.md` shows as
#: "rtldm.txt" ("Trojan Source", CVE-2021-42574). The marks U+200E/U+200F, which reorder
#: nothing around them, are not among them.
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def without_bidi(text: str) -> str:
    """`text` without bidirectional embeddings, overrides and isolates (`BIDI`), so that it
    shows in the order it is stored: the terminal's and the web page's text, and every file
    name Cairn makes (cairn.paths.fit_name)."""
    return BIDI.sub("", text)


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
