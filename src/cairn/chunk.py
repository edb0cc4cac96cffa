"""Heading-aware chunking of a note body into retrievable units.

A body is cut into sections at markdown headings (outside code fences) and page boundaries;
each section is packed paragraph by paragraph into chunks of at most `max_tokens`
approximate tokens. Oversized paragraphs are split at line ends, then sentence ends, then
hard character windows, so even a 6 MB single line gives bounded chunks. Offsets are exact:
`body[chunk.start:chunk.end]` is the chunk text (stripped of surrounding blank space).

Token counts are estimates (`approx_tokens`): one per word or punctuation run and one per
CJK character. all-MiniLM-L6-v2's WordPiece count runs ~1.4-1.5x higher, so a full 320-token
chunk exceeds the model's 256-piece window and its tail is seen by BM25 only. Smaller chunks
(200) scored lower on SciFact (hybrid nDCG@10 0.730 vs 0.740, bench/README.md), so 320 stays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cairn.model import Chunk, PageSpan

_TOKEN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W_]+|[^\w\s]+")
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE_RE = re.compile(r"^[ \t]{0,3}(```|~~~)")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?。！？])[\"')\]]*\s+")
CHARS_PER_TOKEN = 4  # for hard windows over text without separators
MAX_CHARS_PER_TOKEN = 6  # a chunk never exceeds max_tokens * 6 characters (e.g. base64 runs)


def approx_tokens(text: str) -> int:
    """Approximate token count of `text` (see module docstring)."""
    return len(_TOKEN_RE.findall(text))


@dataclass
class _Section:
    start: int
    end: int
    heading: str
    page: int | None


def _sections(body: str, pages: list[PageSpan]) -> list[_Section]:
    """Cut `body` at headings (not inside fences) and page boundaries."""
    cuts: list[tuple[int, str | None]] = [(0, None)]
    in_fence = False
    pos = 0
    for line in body.splitlines(keepends=True):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            m = _HEADING_RE.match(line.rstrip("\n"))
            if m:
                cuts.append((pos, m.group(2).strip()))
        pos += len(line)
    for span in pages:
        cuts.append((span.start, None))
    cuts.sort(key=lambda c: c[0])
    sections: list[_Section] = []
    heading_stack: dict[int, str] = {}
    current_heading = ""
    for i, (start, heading) in enumerate(cuts):
        end = cuts[i + 1][0] if i + 1 < len(cuts) else len(body)
        if heading is not None:
            level = len(body[start:].split(" ", 1)[0])
            heading_stack = {k: v for k, v in heading_stack.items() if k < level}
            heading_stack[level] = heading
            current_heading = " > ".join(heading_stack[k] for k in sorted(heading_stack))
        if end > start:
            sections.append(_Section(start, end, current_heading, _page_at(pages, start)))
    return sections


def _page_at(pages: list[PageSpan], offset: int) -> int | None:
    for span in pages:
        if span.start <= offset < max(span.end, span.start + 1):
            return span.page
    return pages[-1].page if pages and offset >= pages[-1].start else None


def _split_units(body: str, start: int, end: int, max_tokens: int) -> list[tuple[int, int]]:
    """Split body[start:end] into spans each <= max_tokens, preferring paragraph, line and
    sentence boundaries, in that order."""
    out: list[tuple[int, int]] = []

    def rec(s: int, e: int, level: int) -> None:
        text = body[s:e]
        if not text.strip():
            return
        # Fast path: short enough by characters or tokens.
        if len(text) <= max_tokens * 2 or (len(text) <= max_tokens * MAX_CHARS_PER_TOKEN
                                            and approx_tokens(text) <= max_tokens):
            out.append((s, e))
            return
        if level == 0:
            parts = [m.end() for m in re.finditer(r"\n[ \t]*\n", text)]
        elif level == 1:
            parts = [m.end() for m in re.finditer(r"\n", text)]
        elif level == 2:
            parts = [m.end() for m in _SENTENCE_END_RE.finditer(text)]
        else:
            window = max_tokens * CHARS_PER_TOKEN
            for ws in range(s, e, window):
                out.append((ws, min(e, ws + window)))
            return
        if not parts:
            rec(s, e, level + 1)
            return
        bounds = [0] + parts + [len(text)]
        for a, b in zip(bounds, bounds[1:]):
            if b > a:
                rec(s + a, s + b, level + 1)

    rec(start, end, 0)
    return out


def chunk_body(body: str, pages: list[PageSpan] | None = None, *, max_tokens: int = 320,
               min_tokens: int = 60) -> list[Chunk]:
    """Chunk a note body.

    Returns chunks in order with exact character offsets, the heading path ("A > B") they
    sit under and their page (for paginated sources). Consecutive small pieces of one
    section are packed up to `max_tokens`; a section shorter than `min_tokens` is merged
    into the next section of the same page when both fit in `max_tokens`.
    """
    pages = pages or []
    chunks: list[Chunk] = []
    pending: list[tuple[int, int, str, int | None, int]] = []  # start, end, heading, page, tokens

    def flush() -> None:
        if not pending:
            return
        s, e = pending[0][0], pending[-1][1]
        s, e = _strip_span(body, s, e)
        if e > s:
            chunks.append(Chunk(ord=len(chunks), text=body[s:e], start=s, end=e,
                                heading=pending[0][2], page=pending[0][3]))
        pending.clear()

    for sec in _sections(body, pages):
        units = _split_units(body, sec.start, sec.end, max_tokens)
        if pending and (pending[-1][3] != sec.page or sum(p[4] for p in pending) >= min_tokens):
            flush()
        for s, e in units:
            tokens = approx_tokens(body[s:e]) if e - s < max_tokens * 8 else max_tokens
            too_long = pending and e - pending[0][0] > max_tokens * MAX_CHARS_PER_TOKEN
            if pending and (sum(p[4] for p in pending) + tokens > max_tokens or too_long):
                flush()
            pending.append((s, e, sec.heading, sec.page, tokens))
    flush()
    return chunks


def _strip_span(body: str, s: int, e: int) -> tuple[int, int]:
    while s < e and body[s].isspace():
        s += 1
    while e > s and body[e - 1].isspace():
        e -= 1
    return s, e


_MESSAGE_RE = re.compile(r"^## \[(?P<id>[^\]\n]+)\] (?P<speaker>[^\n]*?) · (?P<time>[^\s]+)[ \t]*$",
                         re.MULTILINE)


def format_chat_message(msg_id: str, speaker: str, time: str, text: str) -> str:
    """Render one chat message as a markdown section that `chunk_chat` reads back.
    Lines of `text` that would look like a message heading are escaped with a backslash."""
    safe = re.sub(r"^## \[", r"\\## [", text.strip(), flags=re.MULTILINE)
    return f"## [{msg_id}] {speaker} · {time}\n\n{safe}\n\n"


def chunk_chat(body: str) -> list[Chunk]:
    """One chunk per chat message written by `format_chat_message`: the chunk spans the
    message text; source_id, speaker and event_time come from the message heading."""
    chunks: list[Chunk] = []
    matches = list(_MESSAGE_RE.finditer(body))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(body)
        s, e = _strip_span(body, m.end(), end)
        if e <= s:
            continue
        chunks.append(Chunk(ord=len(chunks), text=body[s:e], start=s, end=e,
                            heading=m.group("speaker"), source_id=m.group("id"),
                            speaker=m.group("speaker"), event_time=m.group("time")))
    return chunks
