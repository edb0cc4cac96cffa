"""Where files that arrive through a door are kept, under names that cannot leave their
folder: `<home>/uploads/<uuid>/<safe name>` for REST and web uploads (the originals a note was
made from, as `cairn ingest FILE` keeps the path it was given), the bot's inbox for Telegram.

One rule for every door (REST, web page, Telegram): only a name's last path component is
kept (both / and \\ count), it is NFC-normalised, control characters and characters Windows
forbids are dropped, as are leading dots, it is cut to 150 characters and to
cairn.paths.fit_name's bytes (keeping a short extension; a Windows device name gets "_"), and
the final path is checked to lie inside the folder.
"""

from __future__ import annotations

import re
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
