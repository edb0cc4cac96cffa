"""A Maildir folder (mutt, Dovecot, offlineimap, isync): every file under a `cur/` or `new/`
folder is one message (`tmp/` holds half-delivered ones and is left out); Maildir++
subfolders (".Sent/cur", ...) are walked too, in name order.

A message's id is its Message-ID; without one, the file's unique name before the ":2,"
flags (flags change when a message is read or replied to; the name before them does not).
Each message becomes a mail Item (cairn.ingest.importing.mail). A folder without any cur/
or new/ folder is not a Maildir: ExportFormatError. Symbolic links are not followed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip
from cairn.ingest.importing.mail import FAMILY  # noqa: F401  (one id space with the other mail readers)
from cairn.ingest.importing.mail import message_item


def message_files(root: Path) -> Iterator[Path]:
    """The message files of the Maildir at `root`, folder by folder in name order."""
    found = False
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        if os.path.basename(folder) in ("cur", "new"):
            found = True
            for name in sorted(files):
                p = Path(folder) / name
                if not name.startswith(".") and p.is_file() and not p.is_symlink():
                    yield p
        dirs[:] = [d for d in dirs if d != "tmp"]
    if not found:
        raise ExportFormatError(f"{root}: not a Maildir (no cur/ or new/ folder in it)")


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each message of the Maildir at `path` as a mail Item (or a Skip naming the file)."""
    if not path.is_dir():
        raise ExportFormatError(f"{path}: not a folder; a Maildir is a folder with cur/ and new/ "
                                "(for an .mbox file use `cairn import mbox`)")
    for f in message_files(path):
        rel = f.relative_to(path)
        try:
            data = f.read_bytes()
            yield message_item(data, "maildir:" + f.name.split(":2,")[0])
        except OSError as exc:
            yield Skip(str(rel), f"unreadable ({exc.strerror or exc})")
        except (ValueError, LookupError, TypeError) as exc:
            yield Skip(str(rel), f"unreadable ({exc})")
