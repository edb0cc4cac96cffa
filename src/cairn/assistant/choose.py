"""The person's choice of the assistant's model, written to `<home>/config.toml` as
`[assistant] model = "SPEC"` (the only way a found local server becomes the model: see
discover.py). The file keeps every other line as written; it is read back with the settings'
own loader right after, and the old text is put back when that fails, so a choice never
leaves an unreadable config behind.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

_SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*(?:#.*)?$")


def with_model(text: str, spec: str) -> str:
    """`text` (a config.toml) with `[assistant] model` set to `spec` (the line replaced, or
    added under the section header, or the section added at the end)."""
    return with_keys(text, "assistant", {"model": spec})


def with_keys(text: str, section: str, values: dict) -> str:
    """`text` (a config.toml) with each key of `values` set in `[section]` (strings and lists
    of strings, written as JSON, which TOML reads alike): a key's line replaced, else added
    under the section header, or the section added at the end. Other lines are kept; a value
    written over several lines (an array, a multi-line string) is replaced whole: its lines
    run to the first one after which the key's text reads as TOML (tomllib)."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if (m := _SECTION.match(ln)) and m.group(1).strip() == section), None)
    if start is None:
        sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        body = "".join(f"{k} = {json.dumps(v, ensure_ascii=False)}\n" for k, v in values.items())
        return f"{text}{sep}[{section}]\n{body}"
    for key, value in values.items():
        line = f"{key} = {json.dumps(value, ensure_ascii=False)}"
        end = next((i for i in range(start + 1, len(lines)) if _SECTION.match(lines[i])), len(lines))
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for i in range(start + 1, end):
            if pattern.match(lines[i]):
                last = next((j for j in range(i + 1, end + 1) if _reads(lines[i:j])), i + 1)
                lines[i:last] = [line]
                break
        else:
            lines.insert(start + 1, line)
    return "\n".join(lines) + "\n"


def _reads(lines: list[str]) -> bool:
    """True when `lines` are one whole TOML key = value (tomllib)."""
    import tomllib
    try:
        tomllib.loads("\n".join(lines))
    except tomllib.TOMLDecodeError:
        return False
    return True


def replace_config(path: Path, text: str, tmp_name: str) -> None:
    """Replace the file `path` with `text` through `tmp_name` beside it (os.replace); the new
    file keeps the old one's permission bits (config.toml may hold tokens: 0600 stays 0600).
    Raises OSError."""
    tmp = path.with_name(tmp_name)
    tmp.write_text(text, encoding="utf-8")
    try:
        if path.is_file():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def choose_model(home: Path, spec: str) -> Path:
    """Write `[assistant] model = spec` to `home`/config.toml and return its path. Raises
    InvalidInput for a malformed spec (assistant.models.get_model's rules), a config that
    cannot be read or written, or when the result would not load (the old file is put back)."""
    from cairn.assistant.models import get_model
    from cairn.config import ConfigError, load_settings
    from cairn.errors import InvalidInput
    from cairn.llm.errors import LLMError
    spec = (spec or "").strip()
    try:
        get_model(spec)  # the form only: nothing is contacted or loaded for an openai: spec
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    except LLMError:
        pass  # a packaged model not installed yet: the choice is still the person's
    path = Path(home) / "config.toml"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
        replace_config(path, with_model(old, spec), "config.toml.choosing")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot write {path}: {exc}") from None
    try:
        load_settings(home)
    except ConfigError as exc:
        path.write_text(old, encoding="utf-8")
        raise InvalidInput(f"the model was not saved: {exc}") from None
    return path
