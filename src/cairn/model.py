"""Plain data passed between Cairn's layers.

Every stage of the pipeline (parse -> chunk -> embed -> index -> search -> answer) takes and
returns these dataclasses; none of them knows about the CLI, HTTP or storage details.
Character offsets (`start`, `end`) are Python string indices into the *note body* (the
markdown text after the frontmatter), end-exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Allowed values shared by several layers and the adapters' option parsers; defined here,
# at the bottom layer, so that an adapter can list them without importing the layers.
PARSED_KINDS = ("pdf", "docx", "pptx", "xlsx", "epub", "rtf", "msg", "image", "audio", "eml", "ipynb",
                "feed", "html", "markdown", "text")  # what a parser can produce (parse.detect)
# what `cairn import` writes besides records and chats (ingest/importing: calendar events,
# bookmarks, Kindle/Readwise highlights, mail, Notion databases)
IMPORTED_TYPES = ("event", "bookmark", "highlights", "email", "note")
NOTE_TYPES = (*PARSED_KINDS, "record", "chat", *IMPORTED_TYPES)  # every note type: parsed, records, chats, imports
SEARCH_MODES = ("hybrid", "keyword", "semantic")
FUSIONS = ("rrf", "weighted")
NOTE_UPDATE_MODES = ("overwrite", "append")
MEMORY_KINDS: tuple[str, ...] = ("fact", "preference", "person", "project", "expertise", "decision",
                                 "constraint", "promise", "expectation", "event", "observation",
                                 "pattern", "mistake")
# A note's content status (EchOS): saved (kept to read later; the default of a note without
# one), read, archived. Kept in the note's frontmatter as `status`.
NOTE_STATUSES: tuple[str, ...] = ("saved", "read", "archived")

# The way a note came in (EchOS E13), kept in its frontmatter as `input_source`: typed or
# pasted text, a voice note (or a recording), a web address, a file, an image, an import of
# another app's export. A note written before the key existed is given one by
# `input_source_of`.
INPUT_SOURCES: tuple[str, ...] = ("text", "voice", "url", "file", "image", "import")


def input_source_of(meta: dict, note_type: str | None = None) -> str:
    """The way the note with frontmatter `meta` (and type `note_type`) came in: its
    `input_source` when that is one of INPUT_SOURCES, else told from what it carries:
    `import_source` -> "import"; a `source`/`cairn_source` that is a web address -> "url";
    type image -> "image", audio -> "voice"; any other `source`/`cairn_source` (an ingested
    file) -> "file"; nothing -> "text" (written in Cairn or by hand in the vault)."""
    value = str(meta.get("input_source") or "").strip().lower()
    if value in INPUT_SOURCES:
        return value
    if meta.get("import_source"):
        return "import"
    source = str(meta.get("source") or meta.get("cairn_source") or "")
    if source.lower().startswith(("http://", "https://")):
        return "url"
    if note_type in ("image", "audio"):
        return "image" if note_type == "image" else "voice"
    return "file" if source else "text"


@dataclass
class PageSpan:
    """One page of a paginated source: body[start:end] came from page `page` (1-based)."""

    page: int
    start: int
    end: int


@dataclass
class Link:
    """A `[[wikilink]]` (or embed `![[...]]`) found in a note.

    target: the note name as written (without alias/anchor), e.g. "dendron.topic.foo".
    alias: display text if given, else None. anchor: heading/block after '#', else None.
    embed: True for `![[...]]`. start: character offset in the body, -1 for links found in
    frontmatter properties.
    """

    target: str
    alias: str | None = None
    anchor: str | None = None
    embed: bool = False
    start: int = -1


@dataclass
class ParsedDocument:
    """What a parser extracted from one source file.

    kind: detected content type ("markdown", "text", "html", "pdf", "docx").
    body: the text to index, as markdown/plain text (never contains NUL characters).
    pages: page spans into `body` (PDF only; empty otherwise).
    meta: the source's own metadata (frontmatter keys, PDF info, HTML author/date...).
    warnings: human-readable problems that did not stop parsing
        (e.g. "page 2: no extractable text", "frontmatter: parse error at line 3").
    encoding: detected text encoding for text-like sources ("utf-8", "cp1252", ...), else None.
    frontmatter_ok: False when the file had a frontmatter block that could not be parsed.
    """

    kind: str
    title: str
    body: str
    pages: list[PageSpan] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    created: str | None = None  # ISO 8601
    updated: str | None = None  # ISO 8601
    warnings: list[str] = field(default_factory=list)
    encoding: str | None = None
    frontmatter_ok: bool = True


@dataclass
class Chunk:
    """A retrievable unit of a note: body[start:end], with the heading path it sits under.

    source_id: external id of the unit (chat message id, imported record id) or None.
    page: 1-based page number for paginated sources, else None.
    """

    ord: int
    text: str
    start: int
    end: int
    heading: str = ""
    page: int | None = None
    source_id: str | None = None
    speaker: str | None = None
    event_time: str | None = None


@dataclass
class Hit:
    """One search result. `signals` holds each channel's score normalised to [0, 1]
    (keys: "keyword", "semantic", "recency"); `score` is the fused score in [0, 1].
    `speaker`: who wrote the chunk (a chat message's speaker), None for notes."""

    id: str  # chunk id as a string ("c123")
    note_id: str
    source_id: str | None
    title: str
    path: str  # vault-relative path of the note
    source: str | None  # original file path or URL
    snippet: str
    text: str
    start: int
    end: int
    page: int | None
    score: float
    signals: dict[str, float]
    type: str = "note"
    event_time: str | None = None
    speaker: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of the public fields (`text` is omitted: `snippet` stands in)."""
        return {
            "id": self.id,
            "note_id": self.note_id,
            "source_id": self.source_id,
            "title": self.title,
            "path": self.path,
            "source": self.source,
            "type": self.type,
            "snippet": self.snippet,
            "start": self.start,
            "end": self.end,
            "page": self.page,
            "event_time": self.event_time,
            "speaker": self.speaker,
            "score": round(self.score, 6),
            "signals": {k: round(v, 6) for k, v in self.signals.items()},
        }
