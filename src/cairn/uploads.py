"""Where files that arrive through a door are kept, under names that cannot leave their
folder: `<home>/uploads/<uuid>/<safe name>` for REST and web uploads (the originals a note was
made from, as `cairn ingest FILE` keeps the path it was given), the bot's inbox for Telegram.

One rule for every door (REST, web page, Telegram): only a name's last path component is
kept (both / and \\ count), it is NFC-normalised, control characters and characters Windows
forbids are dropped, as are leading dots, it is cut to 150 characters and to
cairn.paths.fit_name's bytes (keeping a short extension; a Windows device name gets "_"), and
the final path is checked to lie inside the folder.

After the ingest run, `settle` tells the person about the files by the names they uploaded
(never the server's `<home>/uploads/<uuid>/` path) and removes the copies the run skipped
(binary data, NUL bytes...) and the ones reported unchanged (bytes an earlier upload, or an
earlier file of the same upload, already made a note of): nothing points to them. Copies that
made notes and failed ones (a dead letter may be retried) stay.
"""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
import uuid
from pathlib import Path

from cairn.errors import InvalidInput
from cairn.paths import fit_name

MAX_NAME_CHARS = 150
_BAD = re.compile(r'[\x00-\x1f\x7f<>:"|?*]')


def safe_name(name: str | None, fallback: str | None = None) -> str:
    """A file name from a client's `name` that stays inside any folder (see the module
    docstring). When nothing usable is left: `fallback` if given, else InvalidInput."""
    raw = unicodedata.normalize("NFC", name or "")
    base = re.split(r"[\\/]", raw)[-1]
    base = _BAD.sub("", base).strip().lstrip(".").strip()
    if len(base) > MAX_NAME_CHARS:
        stem, dot, ext = base.rpartition(".")
        base = (stem[:MAX_NAME_CHARS - len(ext) - 1] + "." + ext) if dot and len(ext) <= 10 else base[:MAX_NAME_CHARS]
    base = fit_name(base) if base not in (".", "..") else base  # bytes and device names (cairn.paths)
    if not base or base in (".", ".."):
        if fallback is not None:
            return fallback
        raise InvalidInput(f"upload file name {name!r} has no usable name (give the file a name)")
    return base


def upload_folder(home: Path) -> Path:
    """A new folder `<home>/uploads/<uuid>` for one upload's files (never reused, so an
    upload is never mistaken for a new version of an earlier one with the same name)."""
    folder = Path(home) / "uploads" / uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=False)
    return folder


def target(folder: Path, name: str | None, taken: set[str], fallback: str | None = None) -> Path:
    """The path for upload `name` in `folder`: safe (`safe_name`), unique among the names in
    `taken` (name-2.ext, name-3.ext...; compared without case, and added to `taken`), and
    inside `folder` (InvalidInput otherwise)."""
    base = safe_name(name, fallback)
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    candidate, n = base, 1
    while candidate.lower() in taken:
        n += 1
        candidate = f"{stem}-{n}.{ext}" if ext else f"{stem}-{n}"
    taken.add(candidate.lower())
    path = (folder / candidate).resolve()
    if path.parent != folder.resolve():
        raise InvalidInput(f"upload file name {name!r} would leave the upload folder")
    return path


def settle(report, home: Path, folder: Path, saved: list[Path]):
    """After ingesting the upload `saved` (paths `target` gave in `folder`, which
    `upload_folder(home)` made): names in `report` (an IngestReport: its skipped, failed,
    warnings and tombstoned entries, the ones its JSON shows) that are a saved path become the
    saved file's name, in place; each saved file the run skipped or reported unchanged (a new
    upload folder's copy is unchanged only when another copy made the note) is deleted, then `folder` if
    it is left empty. Nothing is removed unless `folder` lies directly in `<home>/uploads/`
    and the path is one of `saved` lying directly in `folder`. Returns `report`."""
    folder = Path(folder).resolve()
    ours = folder.parent == (Path(home) / "uploads").resolve()
    mine: dict[str, Path] = {}
    for path in map(Path, saved):
        if path.parent.resolve() == folder:
            mine[str(path)] = mine[str(path.resolve())] = path
    kept = {mine[n] for n in (*report.added, *report.updated) if n in mine}  # never one a note points to
    skipped = {mine[n] for n, _ in report.skipped if n in mine}
    skipped |= {mine[n] for n in report.unchanged if n in mine} - kept
    for key in ("skipped", "failed", "warnings"):
        getattr(report, key)[:] = [(mine[n].name if n in mine else n, r) for n, r in getattr(report, key)]
    report.tombstoned[:] = [mine[n].name if n in mine else n for n in report.tombstoned]
    if not ours:
        return report
    for path in skipped:
        path.unlink(missing_ok=True)
    try:
        os.rmdir(folder)  # only when empty: an ingested original keeps its folder
    except OSError:
        pass
    return report


def discard(home: Path, folder: Path) -> bool:
    """Remove an upload's whole `folder` with every file saved in it so far (an upload that
    is refused part-way, e.g. a file over the size limit: nothing in it was ingested, so
    nothing points to any of it). Only when `folder` lies directly in `<home>/uploads/`;
    returns whether it was removed."""
    folder = Path(folder).resolve()
    if folder.parent != (Path(home) / "uploads").resolve() or not folder.is_dir():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return not folder.exists()
