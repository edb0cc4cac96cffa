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

import datetime as dt
import re
from pathlib import PurePath
from typing import Any

from ..model import Link, ParsedDocument
from .errors import EmptyDocument
from .text import normalize_newlines
from .frontmatter import _find_block, _looks_like_metadata, _parse_block, _salvage
from .wikilinks import _WIKILINK, _mask, _strip_foam_linkdefs, find_inline_tags, find_wikilinks, mask_code
from .wikilinks import code_ranges, parse_wikilink  # noqa: F401  (their home before the split)
from cairn.instants import to_iso  # noqa: F401  (part of this module's API before instants.py held it)


NOTE_SUFFIXES = {".md", ".markdown", ".mdx", ".txt", ".org", ".text"}


_H1 = re.compile(r"^[ ]{0,3}#[ \t]+([^\n]*)$", re.M)


_CREATED_KEYS = ("created", "date", "created_at")


_UPDATED_KEYS = ("updated", "modified", "updated_at", "last_modified")


# small helpers


def note_stem(name: str) -> str:
    """File name without a known note suffix ("a.b.md" -> "a.b", "dendron.topic" unchanged)."""
    base = PurePath(name).name
    suffix = PurePath(base).suffix
    if suffix.lower() in NOTE_SUFFIXES:
        return base[: -len(suffix)] or base
    return base


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
    """A list, or a string split on commas (or on whitespace when it has no comma); a mapping
    (`tags: {k: v}`, or one as a list item) gives nothing."""
    if value is None or isinstance(value, dict):
        return []
    if isinstance(value, (list, tuple, set)):
        out: list[str] = []
        for item in value:
            if isinstance(item, (list, tuple, set)):
                out.extend(_split_words(item, commas_only=True))
            elif item is not None and not isinstance(item, dict):
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


def clean_tag(tag: str) -> str:
    """A frontmatter tag as the index keeps it: spaces around it, leading "#" and a trailing
    "/" removed ("" when nothing is left: no tag)."""
    tag = tag.strip().lstrip("#").strip().rstrip("/")
    return tag


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
    # Cairn's own `enrichment` block quotes the body (its gist); a link there is the body's again.
    person_fm = {k: v for k, v in fm.items() if k != "enrichment"} if isinstance(fm, dict) else fm
    for value in _string_values(person_fm, [10_000]):
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
            tags.extend(clean_tag(t) for t in _split_words(fm[key]))
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
