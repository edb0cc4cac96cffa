"""Where uploaded files are kept: `<home>/uploads/<uuid>/<safe name>` — the originals a note
was made from, as `cairn ingest FILE` keeps the path it was given. A name can never leave its
folder: only its last path component is kept (both / and \\ count), control characters,
leading dots and characters Windows forbids are dropped, it is cut to 150 characters, and
the final path is checked to lie inside the folder."""

from __future__ import annotations

import re
import unicodedata
import uuid
from pathlib import Path

from cairn.errors import InvalidInput

_BAD = re.compile(r'[\x00-\x1f\x7f<>:"|?*]')


def safe_name(name: str | None) -> str:
    """A file name from a client's `name` that stays inside any folder (see the module
    docstring). Raises InvalidInput when nothing usable is left."""
    raw = unicodedata.normalize("NFC", name or "")
    base = re.split(r"[\\/]", raw)[-1]
    base = _BAD.sub("", base).strip().lstrip(".").strip()
    if len(base) > 150:
        stem, dot, ext = base.rpartition(".")
        base = (stem[:150 - len(ext) - 1] + "." + ext) if dot and len(ext) <= 10 else base[:150]
    if not base or base in (".", ".."):
        raise InvalidInput(f"upload file name {name!r} has no usable name (give the file a name)")
    return base


def upload_folder(home: Path) -> Path:
    """A new folder `<home>/uploads/<uuid>` for one request's files."""
    folder = Path(home) / "uploads" / uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=False)
    return folder


def target(folder: Path, name: str | None, taken: set[str]) -> Path:
    """The path for upload `name` in `folder`: safe, unique in this request (name-2.ext...),
    and inside `folder` (InvalidInput otherwise)."""
    base = safe_name(name)
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
