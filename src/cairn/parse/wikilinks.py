"""Code spans and fences (masked so nothing inside them counts), [[wikilinks]], inline
#tags and Foam link definitions of a markdown body. The rules are in cairn.parse.markdown's
docstring ("Tags", "Wikilinks", "Foam link reference definitions")."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from ..model import Link


_FENCE = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})([^\n]*)$", re.M)


_BACKTICKS = re.compile(r"`+")


_PARA_BREAK = re.compile(r"\n[ \t]*\n")


_WIKILINK = re.compile(r"\[\[([^\[\]\n\x00]{0,1000})\]\]")


_TAG = re.compile(r"#([\w/-]+)")


_HEX_COLOUR = re.compile(r"[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8}")


_DENDRON_VAULT = re.compile(r"^dendron://[^/]*/")


_LINKDEF = re.compile(
    r"^\[([^\]\n]+)\]:[ \t]*(\S+)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$"
)


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
