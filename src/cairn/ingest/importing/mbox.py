"""An mbox file (Thunderbird, Apple Mail, Gmail Takeout's `.mbox`), read as a stream.

Messages are separated by a "From " line at the start of the file or after a blank line
(RFC 4155). Quoting is mboxrd's: a body line ">From ", ">>From "... had one ">" added when
it was written, so one is removed here (for mboxo files, where only "From " was quoted, this
restores the same text). One message is held in memory at a time. A file whose first line
(after blank lines) is not a "From " line is not an mbox: ExportFormatError. Each message
becomes a mail Item (cairn.ingest.importing.mail); a message that cannot be read is a Skip.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import IO, Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip
from cairn.ingest.importing.mail import FAMILY  # noqa: F401  (one id space with the other mail readers)
from cairn.ingest.importing.mail import content_id, message_item

_QUOTED = re.compile(rb"^>+From ")


def messages(fh: IO[bytes], name: str) -> Iterator[bytes]:
    """The bytes of each message of the mbox stream `fh` (its "From " line left out, mboxrd
    quoting undone, the separating blank line dropped)."""
    lines: list[bytes] | None = None
    prev_blank = True
    for line in fh:
        if line.startswith(b"From ") and prev_blank:
            if lines:
                yield _join(lines)
            lines, prev_blank = [], False
            continue
        if lines is None:
            if not line.strip():
                continue
            raise ExportFormatError(f"{name}: not an mbox file (it does not start with a 'From ' line)")
        if _QUOTED.match(line):
            line = line[1:]
        lines.append(line)
        prev_blank = not line.strip()
    if lines is None:
        raise ExportFormatError(f"{name}: not an mbox file (it is empty)")
    if lines:
        yield _join(lines)


def _join(lines: list[bytes]) -> bytes:
    if lines and not lines[-1].strip():
        lines = lines[:-1]
    return b"".join(lines)


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each message of the mbox file at `path` as a mail Item (or a Skip naming it)."""
    if path.is_dir():
        raise ExportFormatError(f"{path}: a folder; give the .mbox file (for a Maildir folder use `cairn import maildir`)")
    with open(path, "rb") as fh:
        for n, data in enumerate(messages(fh, str(path)), 1):
            try:
                yield message_item(data, content_id(data))
            except (ValueError, LookupError, TypeError) as exc:
                yield Skip(f"{path.name}: message {n}", f"unreadable ({exc})")
