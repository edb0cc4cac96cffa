"""Frontmatter blocks of a markdown note: find the YAML (or TOML) block(s) at the top,
parse them without ever raising, and salvage `key: value` lines from a malformed one. The
rules are in cairn.parse.markdown's docstring ("Frontmatter")."""

from __future__ import annotations

import re
from typing import Any

from .errors import describe


_YAML_OPEN = re.compile(r"---[ \t]*\n")


_YAML_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)


_TOML_OPEN = re.compile(r"\+\+\+[ \t]*\n")


_TOML_CLOSE = re.compile(r"^\+\+\+[ \t]*$", re.M)


_MAX_FRONTMATTER = 256 * 1024


_SALVAGE_LINE = re.compile(r"^([A-Za-z_][\w.-]*)[ \t]*:[ \t]*(.*)$")
_ANCHOR = re.compile(r"^&[^\s\[\]{},]+\s*")  # a YAML anchor (`&name`) before a value


# frontmatter


class _Block:
    __slots__ = ("start", "end", "content", "lang", "line", "data", "error", "error_line")

    def __init__(self, start: int, end: int, content: str, lang: str, line: int) -> None:
        self.start = start  # offset of the opening delimiter
        self.end = end  # offset just after the closing delimiter line
        self.content = content
        self.lang = lang
        self.line = line  # 1-based line number of the opening delimiter in the text
        self.data: dict[str, Any] | None = None
        self.error: str | None = None
        self.error_line: int | None = None


def _find_block(text: str, pos: int, line: int) -> _Block | None:
    for opener, closer, lang in ((_YAML_OPEN, _YAML_CLOSE, "yaml"), (_TOML_OPEN, _TOML_CLOSE, "toml")):
        m = opener.match(text, pos)
        if not m:
            continue
        c = closer.search(text, m.end())
        if not c:
            return None
        end = c.end() + 1 if text.startswith("\n", c.end()) else c.end()
        return _Block(pos, end, text[m.end() : c.start()], lang, line)
    return None


def _yaml_error(exc: Exception, first_content_line: int, content: str) -> tuple[str, int | None]:
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    mark = getattr(exc, "problem_mark", None)
    ctx_mark = getattr(exc, "context_mark", None)
    if problem and "end of stream" in problem and ctx_mark is not None:
        mark = ctx_mark  # an unclosed quote: point at where it was opened
    line = first_content_line + mark.line if mark is not None else None
    bad_line = ""
    if mark is not None:
        lines = content.split("\n", mark.line + 1)
        bad_line = lines[mark.line] if mark.line < len(lines) else ""
    indent = bad_line[: len(bad_line) - len(bad_line.lstrip(" \t"))]
    if "\t" in problem or "'\\t'" in problem or ("cannot start any token" in problem and "\t" in indent):
        problem = "tab character where YAML expects spaces (YAML forbids tab indentation)"
    elif context and "quoted scalar" in context and "end of stream" in problem:
        problem = "unclosed quote (the quoted value never ends)"
    elif context:
        problem = f"{context}: {problem}"
    return problem, line


def _parse_block(block: _Block) -> None:
    content_line = block.line + 1
    if len(block.content) > _MAX_FRONTMATTER:
        block.error = f"block too large ({len(block.content):,} characters)"
        block.error_line = block.line
        return
    if block.lang == "toml":
        import tomllib

        try:
            data: Any = tomllib.loads(block.content)
        except tomllib.TOMLDecodeError as exc:
            block.error = f"TOML parse error (line numbers count from the line after '+++'): {exc}"
            return
    else:
        import yaml

        from cairn.safe_yaml import AliasBomb, load
        try:
            data = load(block.content)  # a block the ingest has just written is not read again
        except AliasBomb as exc:
            block.error = f"it holds {exc}"
            return
        except yaml.YAMLError as exc:
            problem, line = _yaml_error(exc, content_line, block.content)
            block.error = f"YAML parse error at line {line}: {problem}" if line else f"YAML parse error: {problem}"
            block.error_line = line
            return
        except (RecursionError, ValueError, TypeError) as exc:
            block.error = f"YAML parse error: {describe(exc)}"
            return
    if data is None:
        data = {}
    if not isinstance(data, dict):
        block.error = f"not a key/value mapping (found a {type(data).__name__})"
        block.error_line = content_line
        return
    block.data = data


def _looks_like_metadata(content: str) -> bool:
    """Whether a block YAML refused still reads as `key: value` metadata rather than prose:
    at least half of its unindented lines (list items and comments aside) are `key:` lines."""
    top = keys = 0
    for raw in content.split("\n"):
        if not raw.strip() or raw[0] in " \t-#":
            continue
        top += 1
        if _SALVAGE_LINE.match(raw):
            keys += 1
    return keys > 0 and keys * 2 >= top


def _salvage(content: str) -> dict[str, Any]:
    """Plain top-level `key: value` lines of a block YAML refused (best effort, never raises)."""
    out: dict[str, Any] = {}
    for raw in content.split("\n"):
        m = _SALVAGE_LINE.match(raw)
        if not m:
            continue
        key, value = m.group(1), _ANCHOR.sub("", m.group(2).strip())
        if not value or key in out or value.startswith("*"):  # `*name`: a YAML alias, no text of its own
            continue
        if value.startswith("[") and value.endswith("]"):
            items = [v.strip().strip("\"'") for v in value[1:-1].split(",")]
            out[key] = [v for v in items if v and not v.startswith("*")]
            continue
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif value[0] in "\"'":
            value = value[1:]  # the unclosed quote itself
        elif value.endswith(("\"", "'")) and value.count(value[-1]) == 1:
            value = value[:-1]
        out[key] = value
    return out
