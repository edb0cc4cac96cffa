"""Stored text made safe to show on a terminal: the one clean-up point of the command line's
human-readable output.

A note, a file name, a memory or a chat turn can hold terminal control sequences (an ESC
sequence that clears the screen, moves the cursor over earlier lines, sets the window title,
writes the clipboard (OSC 52) or hides a link behind other text (OSC 8)). Printed raw, they act
on the person's terminal instead of being read. Everything the command line prints for a
person passes through `printable`: the rich consoles by `SafeConsole` (it cleans the text of
every segment and keeps rich's own control segments: colours, progress bars), the plain
writes by `cli_io.say`. JSON output needs nothing: `json.dumps` writes every C0 control as
an escape (`\\u001b`).

Sequences follow ECMA-48 (5th edition, 1991): CSI `ESC [` params intermediates final; OSC
`ESC ]` ... terminated by BEL or ST (`ESC \\`); DCS/SOS/PM/APC `ESC P|X|^|_` ... ST; a
two-character escape `ESC` + 0x40-0x5F; and their 8-bit C1 forms (0x9B CSI, 0x9D OSC, 0x90
DCS, 0x98 SOS, 0x9E PM, 0x9F APC).
"""

from __future__ import annotations

import re

from cairn.controls import BIDI

#: A whole control sequence, 7-bit or 8-bit (removed: what it would have done is not shown).
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"                            # CSI ... final byte
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC, DCS, SOS, PM, APC .. BEL/ST
    r"|\x1b[@-Z\\-_]"                                               # two-character escape
)
#: Any other control character but tab and line feed (C0, DEL, C1; a lone ESC or CR).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ANY = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: What a stray control character is shown as (U+FFFD REPLACEMENT CHARACTER).
SHOWN_AS = "\ufffd"


def printable(text: str) -> str:
    """`text` with every terminal control sequence and every bidirectional override or
    isolate removed, and every other control character (a lone ESC, CR, BEL, backspace, a C1
    control) shown as U+FFFD; tab and line feed kept, CR LF read as LF. Idempotent; text
    without such characters is returned as it is (one regex search, no copy)."""
    if not _ANY.search(text):
        return text
    text = BIDI.sub("", text)
    if not _CONTROL.search(text):
        return text
    text = _SEQUENCE.sub("", text.replace("\r\n", "\n"))
    return _CONTROL.sub(SHOWN_AS, text)


#: The longest title a list of hits or sources prints (characters); `note show` prints it whole.
LISTED_TITLE_CHARS = 200


def listed_title(title: str) -> str:
    """A note's title as one line of a list (the search table, an answer's sources): runs of
    white space as one space, at most LISTED_TITLE_CHARS characters ("…" marks a cut). A title
    can be anything a file holds (a 2 MB first heading, a paragraph of frontmatter); printed
    whole, one such hit filled the terminal with hundreds of kilobytes."""
    title = " ".join((title or "").split())
    return title if len(title) <= LISTED_TITLE_CHARS else title[:LISTED_TITLE_CHARS - 1].rstrip() + "…"


def SafeConsole(**options):  # noqa: N802 (a class made on first use: rich is imported lazily)
    """A rich Console (`options` as rich.console.Console's) whose printed text goes through
    `printable`: `render_str` cleans a string before it is laid out (a table's cells keep
    their widths), and `render` cleans each text segment left (a rich Text built elsewhere),
    passing rich's own control segments (cursor moves of a progress bar) as they are."""
    from rich.console import Console
    from rich.segment import Segment

    class _Safe(Console):
        def render_str(self, text, **kwargs):
            return super().render_str(printable(text), **kwargs)

        def render(self, renderable, options=None):
            for segment in super().render(renderable, options):
                if segment.control or not segment.text:
                    yield segment
                else:
                    clean = printable(segment.text)
                    yield segment if clean is segment.text else Segment(clean, segment.style)

    return _Safe(**options)
