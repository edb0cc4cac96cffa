"""Path confinement: the one rule every file operation follows.

A path Cairn reads, writes, moves or deletes on its own must stay inside the folder it was
given (the vault, or the folder named to `cairn ingest`) once every symbolic link on the way
is followed. A link that leads out, a link loop and a dangling link are skipped with a
reason written for a person; they are never walked, read, moved or deleted. A symlink
*file* the person names explicitly on the command line is their choice: it is read, and the
report says it was a link.

    reason = escape_reason(vault, vault / "notes/x.md")   # None when it stays inside
    path = confine(vault, vault / "notes/x.md")            # the resolved path, or PathOutside

Both take the root as configured (it may itself sit behind a symlink: the root is resolved
first, so a vault at ~/vault -> /data/vault is fine).

A file name Cairn makes from a title or a client's name fits every file system (`fit_name`):
at most NAME_BYTES bytes of UTF-8 (ext4, APFS and NTFS take 255; a Japanese or emoji title
is cut at a character, not refused with "file name too long"), and no Windows device name
(CON, aux, COM1.txt) that a copy synced to Windows could not hold.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from cairn.controls import without_bidi
from cairn.errors import Forbidden


class PathOutside(Forbidden, ValueError):
    """A path leads outside the folder it must stay in (message names the path, the target
    and the folder). HTTP 403, exit 1."""

    category = "outside_folder"


def real(path: Path | str) -> str:
    """`path` with every symbolic link followed and `..` removed (os.path.realpath: never
    raises; a loop or a missing part is left as far as it could be followed)."""
    return os.path.realpath(os.fspath(path))


def resolved(path: Path | str) -> Path:
    """`path` made absolute with every symbolic link followed (`real`), as `Path.resolve()`
    gives it, except that it never raises: on Python 3.11 `resolve()` raises RuntimeError
    ("Symlink loop from ...") for a symlink loop (OSError ELOOP from 3.13), which would stop a
    whole batch before its per-file checks could name the loop (`escape_reason`,
    `is_loop`). A loop is left as far as it could be followed."""
    return Path(real(path))


def is_loop(path: Path | str) -> bool:
    """True when following `path` runs into a symbolic link loop (stat fails with ELOOP),
    at its end or in a folder on the way."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def is_inside(root_real: str, path_real: str) -> bool:
    """True when the resolved `path_real` is `root_real` or lies under it (both from `real`)."""
    return path_real == root_real or path_real.startswith(root_real.rstrip(os.sep) + os.sep)


def outside_reason(root: Path | str, path: Path | str, where: str = "the vault") -> str | None:
    """"symlink leads outside <where> (-> <target>)" when `path`, every symlink followed,
    is not inside `root`; else None (loops are not looked for: see `escape_reason`)."""
    target = real(path)
    if is_inside(real(root), target):
        return None
    return f"symlink leads outside {where} (-> {target})"


def escape_reason(root: Path | str, path: Path | str, where: str = "the vault") -> str | None:
    """None when `path` stays inside `root` after following every symlink; else why not:
    "symlink loop", "symlink leads outside <where> (-> /etc/passwd)". `where` names the
    root in the reason ("the vault", "the folder given"). A path that does not exist (yet)
    but whose existing parts stay inside is fine (None): a note about to be written."""
    reason = outside_reason(root, path, where)
    if reason is not None:
        return reason
    return "symlink loop" if is_loop(path) else None


def confine(root: Path | str, path: Path | str, where: str = "the vault") -> Path:
    """The resolved `path` when it stays inside `root` (see `escape_reason`). Raises
    PathOutside naming the path and where it leads; nothing has been touched then."""
    reason = escape_reason(root, path, where)
    if reason is not None:
        raise PathOutside(f"{path}: {reason}; Cairn only reads, writes and moves files inside "
                          f"{where} ({root})")
    return Path(real(path))


NAME_BYTES = 200  # UTF-8 bytes of a made file name: under the 255 every file system takes, room for "-NN" and a temp suffix
_DEVICE_NAMES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def fit_name(name: str, max_bytes: int = NAME_BYTES) -> str:
    """`name` (a file name, its extension of at most 10 characters kept) cut to at most
    `max_bytes` bytes of UTF-8 at a character boundary, trailing spaces and dots dropped; a
    Windows device name before the first dot gets "_" ("CON" -> "CON_", "COM1.txt" ->
    "COM1_.txt"). Bidirectional controls (U+202A-U+202E, U+2066-U+2069: a name that shows
    reordered, "evil<U+202E>dm.exe" as "evilexe.md") are dropped (cairn.controls.without_bidi).
    Characters not allowed in names are the caller's to replace first."""
    name = without_bidi(name)
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem or len(ext) > 10 or not ext.strip():
        stem, dot, ext = name, "", ""
    room = max(max_bytes - len((dot + ext).encode("utf-8")), 1)
    stem = stem.encode("utf-8")[:room].decode("utf-8", "ignore").rstrip(" .")
    return not_device(stem + dot + ext)


def not_device(name: str) -> str:
    """`name` with "_" after a Windows device name before its first dot ("CON" -> "CON_",
    "nul.md" -> "nul_.md", "COM1.txt" -> "COM1_.txt": Windows opens the device for such a
    name, whatever its extension); any other name as it is."""
    first, sep, rest = name.partition(".")
    return f"{first}_{sep}{rest}" if first.strip().casefold() in _DEVICE_NAMES else name


_NOT_PORTABLE = re.compile(r'[\\:*?"<>|]')  # characters Windows forbids in a name (/ and NUL: no system takes them)


def portable_name(name: str) -> str:
    """`name` (one file or folder name) as a vault note path component every system can hold
    (a vault is synced to Windows and macOS): each character Windows forbids (\\ : * ? " < > |)
    becomes "-", one for one, then `fit_name` (trailing dots and spaces dropped, a device name
    such as CON, nul or COM1 gets "_", at most NAME_BYTES bytes). Stable: the same name always
    maps to the same result; a portable name is returned as it is. A name left empty or
    starting with a dot (a folder `.notes` given to ingest; "  .md" cut to ".md") gets "_" in
    front: sync, reindex and the watcher skip hidden names, so such a note would be lost to them."""
    out = fit_name(_NOT_PORTABLE.sub("-", name))
    return out if out and not out.startswith(".") else "_" + out


_UNDECODED = re.compile("[\udc80-\udcff]")  # the bytes of a name that is not UTF-8, as Python holds them


def name_problem(path: Path | str) -> str | None:
    """Why `path` cannot be stored (its name is kept as UTF-8 text in the index and the job
    queue): a name that is not valid UTF-8 (Python holds its bytes as lone surrogates,
    U+DC80..U+DCFF) gives "its name is not valid UTF-8 (byte 0xFF ...)"; None when it is."""
    bad = _UNDECODED.findall(str(path))
    if not bad:
        return None
    shown_bytes = " ".join(f"0x{ord(ch) - 0xDC00:02X}" for ch in bad[:4]) + (" ..." if len(bad) > 4 else "")
    return f"its name is not valid UTF-8 (byte {shown_bytes}); rename it to read it"


def shown(path: Path | str) -> str:
    """`path` as text that prints and encodes as UTF-8: the bytes of a name that is not
    valid UTF-8 shown as U+FFFD (for reports; never to open the file)."""
    text = str(path)
    if not _UNDECODED.search(text):
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
