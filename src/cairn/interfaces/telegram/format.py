"""Markdown answers -> Telegram messages: HTML, each within the Bot API's 4096 limit (case B33).

Telegram rejects a message over 4096 characters (counted in UTF-16 code units after entity
parsing) and one whose formatting cannot be parsed. Cairn renders the small markdown subset
its answers use (**bold**, __bold__, *italic*, `code`, ``` fences, [text](url)) as Telegram
HTML, escaping everything else, and splits at paragraph, then line, then word boundaries.
Formatting is applied per run of text, so a bold span or code block that crosses a split is
closed at the end of one message and reopened at the start of the next. Each message's raw
HTML length (which is at least its parsed length) is kept within the limit.
"""

from __future__ import annotations

import html
import re
from itertools import groupby

LIMIT = 4096
_INLINE = re.compile(r"(\*\*(?P<b1>.+?)\*\*|__(?P<b2>.+?)__|`(?P<c>[^`\n]+)`|\[(?P<lt>[^\]\n]+)\]\((?P<lu>https?://[^)\s]+)\)"
                     r"|(?<![\w*])\*(?=\S)(?P<i>[^*\n]+?)(?<=\S)\*(?![\w*]))")

Piece = tuple[str, tuple[str, ...]]  # (plain text, tags such as ("b",), ("pre",), ("a", url))


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units (how Telegram counts)."""
    return len(text.encode("utf-16-le")) // 2


def _inline(line: str, base: tuple[str, ...] = ()) -> list[Piece]:
    out: list[Piece] = []
    pos = 0
    for m in _INLINE.finditer(line):
        if m.start() > pos:
            out.append((line[pos:m.start()], base))
        if m.group("b1") or m.group("b2"):
            out += _inline(m.group("b1") or m.group("b2"), base + ("b",))
        elif m.group("c"):
            out.append((m.group("c"), base + ("code",)))
        elif m.group("lt"):
            out.append((m.group("lt"), base + ("a", m.group("lu"))))
        else:
            out += _inline(m.group("i"), base + ("i",))
        pos = m.end()
    if pos < len(line):
        out.append((line[pos:], base))
    return out


def parse(markdown: str) -> list[list[Piece]]:
    """The answer as lines of pieces (a code fence's lines carry the tag "pre")."""
    lines: list[list[Piece]] = []
    in_code = False
    # a bold span may cross lines in the source: join such lines' markers per line
    open_bold = False
    for raw in markdown.replace("\r\n", "\n").split("\n"):
        if raw.strip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            lines.append([(raw, ("pre",))] if raw else [("", ("pre",))])
            continue
        text = raw
        if open_bold:
            text = "**" + text
        if text.count("**") % 2 == 1 and text[text.rfind("**") + 2:][:1].strip():
            # the last "**" opens a span (text follows it): closed here, reopened on the next
            # line; a stray "**" ("5** stars", a lone "**") stays as written
            text, open_bold = text + "**", True
        else:
            open_bold = False
        lines.append(_inline(text))
    return lines


def _render(lines: list[list[Piece]]) -> str:
    parts: list[str] = []
    for i, line in enumerate(lines):
        pre = all(t == ("pre",) for _, t in line) and line
        if pre and parts and parts[-1].endswith("</pre>") and i > 0:
            parts[-1] = parts[-1][:-len("</pre>")] + "\n" + html.escape(line[0][0], quote=False) + "</pre>"
            continue
        if line and line[0][1] == ("_cont",):
            line = line[1:]  # the rest of a line cut by _split_line: no line break
        elif i > 0:
            parts.append("\n")
        for tags, group in groupby(line, key=lambda p: p[1]):
            text = html.escape("".join(t for t, _ in group), quote=False)
            parts.append(_wrap(text, tags))
    return "".join(parts)


def _wrap(text: str, tags: tuple[str, ...]) -> str:
    i = 0
    opens, closes = [], []
    while i < len(tags):
        tag = tags[i]
        if tag == "a":
            opens.append(f'<a href="{html.escape(tags[i + 1])}">')
            closes.append("</a>")
            i += 2
            continue
        opens.append(f"<{tag}>")
        closes.append(f"</{tag}>")
        i += 1
    return "".join(opens) + text + "".join(reversed(closes))


def _words(line: list[Piece], limit: int) -> list[Piece]:
    """A line's pieces cut at spaces (a word longer than a quarter message is cut too)."""
    words: list[Piece] = []
    for text, tags in line:
        for w in re.findall(r"\S+\s*|\s+", text) or [""]:
            while len(w) > limit // 4:
                words.append((w[:limit // 4], tags))
                w = w[limit // 4:]
            words.append((w, tags))
    return words


def split_message(markdown: str, limit: int = LIMIT) -> list[str]:
    """The answer as Telegram HTML messages, each at most `limit` UTF-16 units: a message
    ends at a blank line when one is in its second half, else at a line end; a line longer
    than a message is cut at spaces and continued. Never empty."""
    def fits(chunk: list[list[Piece]]) -> bool:
        return utf16_len(_render(chunk)) <= limit

    chunks: list[list[list[Piece]]] = [[]]
    for line in parse(markdown):
        cur = chunks[-1]
        if fits(cur + [line]):
            cur.append(line)
            continue
        if fits([line]):
            blank = max((i for i, ln in enumerate(cur) if not "".join(t for t, _ in ln).strip()), default=-1)
            if blank > len(cur) // 2:
                chunks[-1], rest = cur[:blank], cur[blank + 1:]
                chunks.append(rest if fits(rest + [line]) else [])
                if not chunks[-1]:
                    chunks[-1:] = [rest, []] if rest else [[]]
                chunks[-1].append(line)
            else:
                chunks.append([line])
            continue
        # a line longer than one message: fill this message, continue in the next
        part: list[Piece] = []
        first = True
        for w in _words(line, limit):
            trial = (part + [w]) if part else ([("", ("_cont",)), w] if not first else [w])
            if fits(chunks[-1] + [trial]):
                part = trial
                continue
            if part:
                chunks[-1].append(part)
                first = False
            chunks.append([])
            part = [w]
        if part:
            chunks[-1].append(part)
    out = [_render(c).strip("\n") for c in chunks]
    return [m for m in out if m.strip()] or ["…"]


def plain_text(html_text: str) -> str:
    """A rendered message without its tags (the plain-text retry when formatting is refused)."""
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))
