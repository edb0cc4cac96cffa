"""What the `cairn` program needs from the settings before anything else is imported: the
home folder, and the embedder its config.toml names. Only the standard library is used
(tomllib), so the program can start loading the embedding model before cairn.config is
imported (its dataclasses: ~15-20 ms of a cold search, which the model's session would
otherwise wait for: interfaces/cli_start.py). cairn.config resolves the home with the same
function; it alone validates the settings and reports their errors.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

CONFIG_FILE = "config.toml"


def default_home() -> Path:
    """`$CAIRN_HOME` or `~/.cairn` (an empty CAIRN_HOME counts as unset)."""
    env = os.environ.get("CAIRN_HOME")
    return Path(env).expanduser() if env else Path("~/.cairn").expanduser()


def home_path(home: Path | str | None) -> Path:
    """The absolute home folder for `home` as given (--home, `~` expanded; None or "": the
    default home). Raises OSError only when resolving the path fails (a link loop)."""
    return (Path(home).expanduser() if home else default_home()).resolve()


def embedder_name(home: Path) -> str | None:
    """The embedder the home's config.toml names at the top level (`embedder = "..."`,
    stripped), "minilm" when there is no config file or no such key, or None when the file
    cannot be read or parsed, or the value is not a non-empty string (the command reports
    that when it loads the settings)."""
    try:
        text = (home / CONFIG_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return "minilm"
    except (OSError, UnicodeDecodeError):
        return None
    try:
        value = tomllib.loads(text).get("embedder", "minilm")
    except tomllib.TOMLDecodeError:
        return None
    return value.strip() if isinstance(value, str) and value.strip() else None
