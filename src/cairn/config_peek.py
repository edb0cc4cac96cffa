"""What the `cairn` program needs from the settings before anything else is imported: the
home folder, the two config files and how they layer, and the embedder they name.

Layers (PRAANA P27), lowest first: the global config — `$CAIRN_GLOBAL_CONFIG` when set (empty:
none), else `$XDG_CONFIG_HOME/cairn/config.toml`, else `~/.config/cairn/config.toml` — then
the home's `config.toml` (the project's), which overrides it key by key (a table is merged
key by key too, so a home can change one `[assistant]` key and keep the global others). Only the standard library is used
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


def global_config_path() -> Path | None:
    """The global config file's path (module docstring; it need not exist), None when
    CAIRN_GLOBAL_CONFIG is set empty."""
    env = os.environ.get("CAIRN_GLOBAL_CONFIG")
    if env is not None:
        return Path(env).expanduser() if env.strip() else None
    base = os.environ.get("XDG_CONFIG_HOME") or "~/.config"
    return Path(base).expanduser() / "cairn" / CONFIG_FILE


def merge(low: dict, high: dict, prefix: str = "", origins: dict | None = None, *, low_name: str = "",
          high_name: str = "") -> tuple[dict, dict]:
    """(`low` overridden by `high` key by key, tables merged recursively; {"dotted.key":
    the name of the layer its value came from}) for leaf keys."""
    origins = {} if origins is None else origins
    out = {}
    for key in list(low) + [k for k in high if k not in low]:
        here = f"{prefix}{key}"
        if isinstance(low.get(key), dict) and isinstance(high.get(key), dict):
            out[key], _ = merge(low[key], high[key], here + ".", origins, low_name=low_name, high_name=high_name)
        elif key in high:
            out[key] = high[key]
            _mark(high[key], here, high_name, origins)
        else:
            out[key] = low[key]
            _mark(low[key], here, low_name, origins)
    return out, origins


def _mark(value, key: str, name: str, origins: dict) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _mark(v, f"{key}.{k}", name, origins)
    else:
        origins[key] = name


def _peek(path: Path | None) -> dict | None:
    """The TOML table of `path` ({} when absent), None when unreadable or not TOML."""
    if path is None:
        return {}
    try:
        if path.exists() and not path.is_file():  # a FIFO would block: load_settings names it
            return None
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {} if not path.is_symlink() else None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def embedder_name(home: Path) -> str | None:
    """The embedder the config names at the top level (`embedder = "..."`, stripped; the
    home's config.toml over the global one), "minilm" when neither names one, or None when a
    file cannot be read or parsed, or the value is not a non-empty string (the command reports
    that when it loads the settings)."""
    own, shared = _peek(home / CONFIG_FILE), _peek(global_config_path())
    if own is None or shared is None:
        return None
    value = own.get("embedder", shared.get("embedder", "minilm"))
    return value.strip() if isinstance(value, str) and value.strip() else None
