"""Markdown notes: frontmatter, title, tags, aliases, dates and [[wikilinks]].

Rules (decisions documented here, tested in tests/test_parse.py):

Frontmatter
    A YAML block between a first line `---` and the next line `---` (or `...`); a TOML block
    between `+++` lines is read too. A leading BOM is ignored. Parsing never raises.
    * Malformed YAML (unclosed quote, tab indentation...): `frontmatter_ok=False`, a warning
      "frontmatter: YAML parse error at line N: ..." (N counts lines of the whole file), the
      block is STRIPPED from the body like a good block (offsets stay comparable, the `---`
      lines are not indexed as a setext heading), and plain top-level `key: value` lines are
      recovered leniently into `meta` (so title/tags/description still work). The file itself
      is never touched by the parser.
    * Two consecutive blocks (only blank lines between them, the second one parsing as a
      mapping): the FIRST block is the frontmatter and wins on every key both define; keys
      only the second block has (typically the real title/description/tags, when a tool
      prepended a block) are taken from it; the second block is stripped from the body and a
      warning names its line. A second block that is not a valid mapping stays in the body.
Title
    frontmatter `title`, else the first `# heading` outside code, else the file stem.
Tags
    frontmatter `tags`/`tag` (list, or a string split on commas/spaces; a leading '#' is
    dropped) plus inline `#tags` in the body: '#' at the start of a line or after whitespace,
    then letters/digits/`_`/`-`/`/` with at least one non-digit; not in code, not `# headings`,
    not URL fragments or `[[#anchors]]`, not hex colours with a digit (`#43B02A`). Deduplicated case-insensitively, first spelling kept.
Dates
    `created` (else `date`, `created_at`) and `updated` (else `modified`, `updated_at`,
    `last_modified`): ISO strings, YAML dates/datetimes, or epoch integers (values above 1e11
    are milliseconds, as Dendron writes them) -> "YYYY-MM-DDTHH:MM:SSZ" in UTC. Naive
    datetimes are taken as UTC. Unreadable values give a warning and None.
Wikilinks
    `[[t]]`, `[[t|alias]]`, `[[t#heading]]`, `[[t#^block]]` (anchor "^block"), `![[embed]]`,
    `[[#heading]]` (same-note anchor: target ""), `[[t\\|alias]]` (escaped pipe in tables).
    Dendron puts the label first: `[[label|target]]`. The order is Dendron's when the
    `dendron` argument is True, or when it is None and the frontmatter has an `id` plus an
    integer `created`/`updated` (the epoch-ms stamps Dendron writes); otherwise Obsidian/Foam
    order `[[target|alias]]`. Dendron's cross-vault prefix `dendron://vault/` is removed from
    the target. Links inside fenced code blocks and inline code spans are ignored. Links in
    frontmatter string values (`related: "[[Other]]"`, quoted as YAML needs) are returned with
    start=-1; an unquoted `[[x]]` in YAML is a nested list, not a link.
Foam link reference definitions
    A trailing run of `[label]: path 'Title'` lines whose labels repeat the note's own
    wikilinks (what Foam generates) is dropped from the body, with `[//begin]`/`[//end]` marks.
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
from collections import defaultdict
from pathlib import PurePath
from typing import Any

from ..model import Link, ParsedDocument
from .errors import EmptyDocument, describe
from .text import normalize_newlines

NOTE_SUFFIXES = {".md", ".markdown", ".mdx", ".txt", ".org", ".text"}

_YAML_OPEN = re.compile(r"---[ \t]*\n")
_YAML_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)
_TOML_OPEN = re.compile(r"\+\+\+[ \t]*\n")
_TOML_CLOSE = re.compile(r"^\+\+\+[ \t]*$", re.M)
_MAX_FRONTMATTER = 256 * 1024

_FENCE = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})([^\n]*)$", re.M)
_BACKTICKS = re.compile(r"`+")
_PARA_BREAK = re.compile(r"\n[ \t]*\n")
_WIKILINK = re.compile(r"\[\[([^\[\]\n\x00]{0,1000})\]\]")
_TAG = re.compile(r"#([\w/-]+)")
_HEX_COLOUR = re.compile(r"[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8}")
_H1 = re.compile(r"^[ ]{0,3}#[ \t]+([^\n]*)$", re.M)
_DENDRON_VAULT = re.compile(r"^dendron://[^/]*/")
_LINKDEF = re.compile(
    r"^\[([^\]\n]+)\]:[ \t]*(\S+)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$"
)
_SALVAGE_LINE = re.compile(r"^([A-Za-z_][\w.-]*)[ \t]*:[ \t]*(.*)$")

_CREATED_KEYS = ("created", "date", "created_at")
_UPDATED_KEYS = ("updated", "modified", "updated_at", "last_modified")


# --------------------------------------------------------------------------------------------
# small helpers


def note_stem(name: str) -> str:
    """File name without a known note suffix ("a.b.md" -> "a.b", "dendron.topic" unchanged)."""
    base = PurePath(name).name
    suffix = PurePath(base).suffix
    if suffix.lower() in NOTE_SUFFIXES:
        return base[: -len(suffix)] or base
    return base


def to_iso(value: Any) -> str | None:
    """A date-ish value -> "YYYY-MM-DDTHH:MM:SSZ" (UTC). None for None/""; ValueError if unreadable."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a date: {value!r}")
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, (int, float)):
        moment = _from_epoch(value)
    elif isinstance(value, str):
        s = value.strip()
        if re.fullmatch(r"-?\d{9,14}(?:\.\d+)?", s):
            moment = _from_epoch(float(s))
        else:
            if s.endswith(("Z", "z")):
                s = s[:-1] + "+00:00"
            try:
                moment = dt.datetime.fromisoformat(s)
            except ValueError:
                raise ValueError(f"not an ISO date: {value!r}") from None
    else:
        raise ValueError(f"not a date: {value!r}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    moment = moment.astimezone(dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _from_epoch(value: float) -> dt.datetime:
    seconds = value / 1000.0 if abs(value) >= 1e11 else float(value)
    try:
        return dt.datetime.fromtimestamp(seconds, tz=dt.timezone.utc)
    except (OverflowError, OSError, ValueError):
        raise ValueError(f"epoch value out of range: {value!r}") from None


def _jsonable(value: Any, budget: list[int], depth: int = 0) -> Any:
    """Frontmatter values -> JSON-compatible data (dates to ISO strings), bounded in size."""
    budget[0] -= 1
    if budget[0] < 0 or depth > 20:
        return None
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else str(value)
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v, budget, depth + 1) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def _split_words(value: Any, *, commas_only: bool = False) -> list[str]:
    """A list, or a string split on commas (or on whitespace when it has no comma)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        out: list[str] = []
        for item in value:
            if isinstance(item, (list, tuple, set)):
                out.extend(_split_words(item, commas_only=True))
            elif item is not None:
                out.append(str(item))
        return out
    s = str(value)
    return s.split(",") if (commas_only or "," in s) else s.split()


def _string_values(value: Any, budget: list[int], depth: int = 0) -> list[str]:
    """All string values (not keys) nested in frontmatter data, bounded in number and depth."""
    budget[0] -= 1
    if budget[0] < 0 or depth > 20:
        return []
    if isinstance(value, str):
        return [value] if "[[" in value else []
    out: list[str] = []
    if isinstance(value, dict):
        for v in value.values():
            out.extend(_string_values(v, budget, depth + 1))
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            out.extend(_string_values(v, budget, depth + 1))
    return out


def _dedupe(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for it in items:
        key = it.casefold()
        if it and key not in seen:
            seen.add(key)
            out.append(it)
    return out


def _clean_tag(tag: str) -> str:
    tag = tag.strip().lstrip("#").strip().rstrip("/")
    return tag


# --------------------------------------------------------------------------------------------
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

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            data = yaml.load(block.content, Loader=loader)  # noqa: S506 - safe loader
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
        key, value = m.group(1), m.group(2).strip()
        if not value or key in out:
            continue
        if value.startswith("[") and value.endswith("]"):
            out[key] = [v.strip().strip("\"'") for v in value[1:-1].split(",") if v.strip().strip("\"'")]
            continue
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif value[0] in "\"'":
            value = value[1:]  # the unclosed quote itself
        elif value.endswith(("\"", "'")) and value.count(value[-1]) == 1:
            value = value[:-1]
        out[key] = value
    return out


# --------------------------------------------------------------------------------------------
# code spans and fences
#
# Code is excluded by *masking*: a copy of the body where every character inside a fenced block
# or an inline code span is replaced by NUL (which never occurs in a body). Links, tags and
# headings are then searched in the masked copy with plain regexes, so offsets stay those of
# the body and the cost stays linear in the size of the note.

_MASK = "\x00"


def _mask(text: str, ranges: list[tuple[int, int]]) -> str:
    if not ranges:
        return text
    parts = []
    prev = 0
    for s, e in ranges:
        if s < prev:
            s = prev
        if e <= s:
            continue
        parts.append(text[prev:s])
        parts.append(_MASK * (e - s))
        prev = e
    parts.append(text[prev:])
    return "".join(parts)


def code_ranges(body: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]], str]:
    """(fenced code blocks, inline code spans, body with the fences masked).

    The ranges are sorted, non-overlapping (start, end) pairs."""
    fences: list[tuple[int, int]] = []
    open_: tuple[str, int, int] | None = None  # (char, length, start)
    if "```" in body or "~~~" in body:
        for m in _FENCE.finditer(body):
            fence, rest = m.group(1), m.group(2)
            if open_ is None:
                if fence[0] == "`" and "`" in rest:
                    continue  # ```like this``` is inline code, not a fence
                open_ = (fence[0], len(fence), m.start())
            elif fence[0] == open_[0] and len(fence) >= open_[1] and not rest.strip():
                fences.append((open_[2], m.end()))
                open_ = None
        if open_ is not None:
            fences.append((open_[2], len(body)))  # an unclosed fence runs to the end

    spans: list[tuple[int, int]] = []
    outside = _mask(body, fences)
    if "`" in outside:
        runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(outside)]
        # boundaries a code span cannot cross: blank lines and fenced blocks
        bounds = sorted([m.start() for m in _PARA_BREAK.finditer(body)] + [f for f, _ in fences])
        by_len: dict[int, list[int]] = defaultdict(list)
        for idx, (s, e) in enumerate(runs):
            by_len[e - s].append(idx)
        i = 0
        n = len(runs)
        while i < n:
            s, e = runs[i]
            same = by_len[e - s]
            k = bisect.bisect_right(same, i)
            if k < len(same):
                j = same[k]
                js, je = runs[j]
                b = bisect.bisect_left(bounds, e)
                if b >= len(bounds) or bounds[b] >= js:
                    spans.append((s, je))
                    i = j + 1
                    continue
            i += 1
    return fences, spans, outside


def mask_code(body: str) -> tuple[str, str, list[tuple[int, int]]]:
    """(body with fenced code masked, body with all code masked, inline code spans).

    Masked characters are replaced by NUL, so lengths and offsets are unchanged.
    """
    _fences, spans, no_fences = code_ranges(body)
    return no_fences, _mask(no_fences, spans), spans


# --------------------------------------------------------------------------------------------
# links and tags


def parse_wikilink(inner: str, *, embed: bool = False, start: int = -1, dendron: bool = False) -> Link | None:
    """The text between `[[` and `]]` -> Link, or None when it names nothing."""
    inner = inner.replace("\\|", "|")
    alias: str | None = None
    if "|" in inner:
        left, right = inner.split("|", 1)
        if dendron:
            alias, ref = left, right
        else:
            ref, alias = left, right
        alias = alias.strip() or None
    else:
        ref = inner
    anchor: str | None = None
    if "#" in ref:
        ref, anchor = ref.split("#", 1)
        anchor = anchor.strip() or None
    target = ref.strip()
    if dendron or target.startswith("dendron://"):
        target = _DENDRON_VAULT.sub("", target)
    if not target and anchor is None:
        return None
    return Link(target=target, alias=alias, anchor=anchor, embed=embed, start=start)


def find_wikilinks(
    text: str, *, dendron: bool = False, offsets: bool = True, skip: list[tuple[int, int]] | None = None
) -> list[Link]:
    """Wikilinks in `text` (pass a fence-masked body to skip code blocks); links whose `[[`
    falls in one of the sorted `skip` ranges (inline code) are left out. start=-1 unless `offsets`."""
    links: list[Link] = []
    if "[[" not in text:
        return links
    skip_starts = [a for a, _ in skip] if skip else []
    for m in _WIKILINK.finditer(text):
        s = m.start()
        if skip_starts:
            i = bisect.bisect_right(skip_starts, s) - 1
            if i >= 0 and s < skip[i][1]:  # type: ignore[index]
                continue
        embed = s > 0 and text[s - 1] == "!"
        if embed:
            s -= 1
        link = parse_wikilink(m.group(1), embed=embed, start=s if offsets else -1, dendron=dendron)
        if link is not None:
            links.append(link)
    return links


def find_inline_tags(masked: str) -> list[str]:
    """Inline #tags of a code-masked body (see the module docstring for the rule)."""
    tags = []
    if "#" not in masked:
        return tags
    for m in _TAG.finditer(masked):
        s = m.start()
        if s > 0 and not masked[s - 1].isspace():
            continue  # URL fragment, [[#anchor]], C#, masked code...
        tag = m.group(1).rstrip("/-")
        if not tag or not any(not ch.isdigit() for ch in tag.replace("/", "").replace("-", "").replace("_", "")):
            continue
        if _HEX_COLOUR.fullmatch(tag) and any(ch.isdigit() for ch in tag):
            continue  # "#43B02A": a colour, not a tag
        tags.append(tag)
    return tags


def _strip_foam_linkdefs(body: str, links: list[Link]) -> str:
    """Drop the trailing `[label]: path 'Title'` lines Foam generates for the note's wikilinks."""
    known: set[str] = set()
    for link in links:
        known.add(link.target.casefold())
        if link.anchor:
            known.add(f"{link.target}#{link.anchor}".casefold())
        if link.alias:
            known.add(f"{link.target}|{link.alias}".casefold())
    end = len(body.rstrip())
    cut = None
    matched = 0
    pos = end
    while pos > 0:
        line_start = body.rfind("\n", 0, pos) + 1
        line = body[line_start:pos]
        stripped = line.strip()
        if stripped:
            m = _LINKDEF.match(stripped)
            if not m:
                break
            label = m.group(1)
            if label.startswith("//"):
                pass  # [//begin] / [//end] markers
            elif label.casefold() in known:
                matched += 1
            else:
                break
            cut = line_start
        pos = line_start - 1
    if matched and cut is not None:
        return body[:cut].rstrip() + "\n"
    return body


# --------------------------------------------------------------------------------------------
# main entry


def _is_dendron(fm: dict[str, Any]) -> bool:
    if "id" not in fm:
        return False
    return any(isinstance(fm.get(k), int) and not isinstance(fm.get(k), bool) for k in ("created", "updated"))


def parse_markdown(text: str, name: str, *, dendron: bool | None = None) -> ParsedDocument:
    """Parse markdown `text` of the note called `name` (a file name or stem)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    text = normalize_newlines(text).replace("\x00", "")
    warnings: list[str] = []
    frontmatter_ok = True
    fm: dict[str, Any] = {}
    fm_raw: list[str] = []
    body_start = 0

    first = _find_block(text, 0, 1)
    if first is not None:
        _parse_block(first)
        salvaged = {}
        if first.data is None and first.lang == "yaml":
            if _looks_like_metadata(first.content):
                salvaged = _salvage(first.content)
            else:
                # "---\nSome text\n---": horizontal rules around prose, not a metadata block
                first = None
    if first is not None:
        fm_raw.append(first.content)
        body_start = first.end
        if first.data is not None:
            fm = dict(first.data)
        else:
            frontmatter_ok = False
            note = "; block left out of the body"
            if salvaged:
                note += f", plain 'key: value' lines recovered ({', '.join(salvaged)})"
            warnings.append(f"frontmatter: {first.error}{note}")
            fm = salvaged
        # a second block right after the first one?
        gap = re.match(r"(?:[ \t]*\n)*", text[first.end : first.end + 10_000])
        second_pos = first.end + (gap.end() if gap else 0)
        line_no = text.count("\n", 0, second_pos) + 1
        second = _find_block(text, second_pos, line_no)
        if second is not None:
            _parse_block(second)
            if second.data:
                added = [k for k in second.data if k not in fm]
                for k in added:
                    fm[k] = second.data[k]
                fm_raw.append(second.content)
                body_start = second.end
                msg = f"frontmatter: a second frontmatter block at line {second.line} follows the first; the first block wins"
                msg += f", keys only in the second were used ({', '.join(map(str, added))})" if added else ", the second was ignored"
                warnings.append(msg)
            elif second.data is None and second.lang == "yaml" and _looks_like_metadata(second.content):
                warnings.append(
                    f"frontmatter: a second frontmatter block at line {second.line} could not be parsed "
                    f"({second.error}); kept as body text"
                )

    while text.startswith("\n", body_start):
        body_start += 1
    body = text[body_start:]
    dendron_mode = _is_dendron(fm) if dendron is None else dendron

    no_fences, masked, spans = mask_code(body)
    links = find_wikilinks(no_fences, dendron=dendron_mode, skip=spans)
    if links and "]:" in body:
        stripped = _strip_foam_linkdefs(body, links)
        if len(stripped) != len(body):
            body = stripped
            no_fences, masked, spans = mask_code(body)
    fm_links: list[Link] = []
    for value in _string_values(fm, [10_000]):
        fm_links.extend(find_wikilinks(value, dendron=dendron_mode, offsets=False))

    # title
    title = ""
    t = fm.get("title")
    if isinstance(t, (str, int, float)) and not isinstance(t, bool) and str(t).strip():
        title = str(t).strip()
    if not title:
        for m in _H1.finditer(masked):
            heading = re.sub(r"[ \t]+#+[ \t]*$", "", m.group(1)).strip()
            if heading and heading.strip("#").strip():
                title = heading
                break
    if not title:
        title = note_stem(name)

    # tags
    tags: list[str] = []
    for key in ("tags", "tag"):
        if key in fm:
            tags.extend(_clean_tag(t) for t in _split_words(fm[key]))
    if links:
        masked = _mask(masked, [(m.start(), m.end()) for m in _WIKILINK.finditer(no_fences)])
    tags.extend(find_inline_tags(masked))
    tags = _dedupe([t for t in tags if t])

    aliases: list[str] = []
    for key in ("aliases", "alias"):
        if key in fm:
            aliases.extend(a.strip() for a in _split_words(fm[key], commas_only=True))
    aliases = _dedupe([a for a in aliases if a])

    created = _date_from(fm, _CREATED_KEYS, warnings)
    updated = _date_from(fm, _UPDATED_KEYS, warnings)

    meta = _jsonable(fm, [10_000]) if fm else {}
    if not body.strip() and not meta and not any(raw.strip() for raw in fm_raw):
        raise EmptyDocument("empty note (no text and no frontmatter keys)")

    return ParsedDocument(
        kind="markdown",
        title=title,
        body=body,
        meta=meta,
        tags=tags,
        aliases=aliases,
        links=links + fm_links,
        created=created,
        updated=updated,
        warnings=warnings,
        frontmatter_ok=frontmatter_ok,
    )


def _date_from(fm: dict[str, Any], keys: tuple[str, ...], warnings: list[str]) -> str | None:
    for key in keys:
        if key in fm and fm[key] not in (None, ""):
            try:
                return to_iso(fm[key])
            except ValueError as exc:
                warnings.append(f"frontmatter: could not read date '{key}': {exc}")
                return None
    return None
