"""Which files a folder walk ingests: hidden names and tool folders are skipped, special
files (FIFOs, devices) never read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

from cairn import paths as P


def special_file_kind(mode: int) -> str | None:
    """"FIFO", "character device", "block device" or "socket" for a `st_mode` that is not a
    regular file or folder (such files are never read: a FIFO blocks, /dev/zero never ends),
    else None."""
    for test, label in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                        (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return label
    return None


def skip_source_dir(name: str) -> bool:
    """Folders never walked for sources: hidden ones (`.git`) and `node_modules`."""
    return name.startswith(".") or name == "node_modules"


def is_source_name(name: str) -> bool:
    """A file name a folder walk ingests: any name but a hidden one (content decides the type)."""
    return not name.startswith(".")


def iter_sources(paths: Iterable[Path],
                 skipped: list[tuple[str, str]] | None = None) -> Iterable[tuple[Path, Path | None]]:
    """(file, root folder or None) for every file under the given paths, sorted per folder;
    folders are walked recursively, skipping `skip_source_dir` folders and names that are not
    `is_source_name`. A path that is not a folder is yielded as it is (root None). Used by
    `cairn ingest` and by the watcher's inbox scan, so both see the same files.
    Confinement (cairn.paths): symlinked folders are never walked (a loop or a link to `/`
    cannot run away); a symlinked file or folder that leads outside the folder given, and a
    symlink loop, or a dangling symlink ("dangling symbolic link to TARGET: nothing to read"),
    is not yielded but added to `skipped` as (path, reason) when given. A folder
    that cannot be listed (no permission) is added to `skipped` as (folder, "cannot list
    folder: Permission denied"): its files are not silently missing. A file whose name is not
    valid UTF-8 is added to `skipped` the same way, named as it prints (paths.name_problem).
    """
    def unlisted(exc: OSError) -> None:
        if skipped is not None:
            skipped.append((str(exc.filename), f"cannot list folder: {exc.strerror or exc}"))

    for p in paths:
        if p.is_dir():
            root_real = P.real(p)
            for root, dirs, files in os.walk(p, onerror=unlisted):
                dirs[:] = sorted(d for d in dirs if not skip_source_dir(d))
                for d in dirs:
                    if skipped is not None and os.path.islink(os.path.join(root, d)):
                        reason = P.outside_reason(root_real, os.path.join(root, d), "the folder given")
                        if reason is not None:
                            skipped.append((os.path.join(root, d), f"{reason}, skipped"))
                for name in sorted(files):
                    if is_source_name(name):
                        f = Path(root) / name
                        reason = (P.escape_reason(root_real, f, "the folder given")
                                  if f.is_symlink() else None)
                        if reason != "symlink loop" and f.is_symlink() and not f.exists():
                            # nothing to read, ever: a queued job could only become a dead letter
                            reason = f"dangling symbolic link to {os.readlink(f)}: nothing to read"
                        if reason is None and P.name_problem(f):  # it could not be queued or indexed
                            reason, f = P.name_problem(f), Path(P.shown(f))
                        if reason is not None:
                            if skipped is not None:
                                skipped.append((str(f), f"{reason}, skipped"))
                            continue
                        yield f, p
        else:
            yield p, None
