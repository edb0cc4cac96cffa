"""Messages for callers elsewhere carry no absolute paths of this machine.

An error a server sends (REST, MCP over HTTP) used to name files as the operating system
does: `/home/ana/.cairn/uploads/3f.../x.pdf: no such file`. That tells a caller elsewhere the
account name and the layout of the disk. `without_paths(text, settings)` writes the known
folders as short names — the vault as `<vault>`, the home folder as `<home>`, the user's
home directory as `~` — longest first, so a path inside the vault reads `<vault>/notes/x.md`.
Both the folders as configured and their resolved forms (behind symlinks) are replaced.
"""

from __future__ import annotations

import os
from pathlib import Path


def _roots(settings) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for folder, name in ((getattr(settings, "vault", None), "<vault>"), (getattr(settings, "home", None), "<home>"),
                         (Path.home(), "~")):
        if folder is None:
            continue
        for form in {str(Path(folder)), os.path.realpath(folder)}:
            if form not in ("", "/", "."):
                pairs.append((form.rstrip("/"), name))
    return sorted(pairs, key=lambda p: -len(p[0]))


def without_paths(text: str, settings) -> str:
    """`text` with the vault, the home folder and the user's home directory (as configured
    and resolved) written `<vault>`, `<home>` and `~`. `settings`: a cairn.config.Settings
    (or anything with `home` and `vault`); None leaves only `~` replaced."""
    if not text:
        return text
    for form, name in _roots(settings):
        text = text.replace(form, name)
    return text
