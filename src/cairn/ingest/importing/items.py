"""What an export reader yields: `Item`s (one future note each, with its stable source id),
`Skip`s (one bad item, reported and passed over), and the errors that stop an import.

A reader is `read(path, progress=None) -> Iterator[Item | Skip]`; it streams (one
conversation, message or event at a time), so a 10k-message mbox is never held whole.
It raises `ExportFormatError` (naming the file, and the item when there is one) for a file
that is truncated, of another format or in a wrong encoding: the import then stops, non-zero
exit, and whatever this run wrote is put back (cairn.ingest.importing.run).

Shared helpers for readers: `open_export` (a file, a folder, or a member of a .zip),
`iter_json_array` (stream the elements of a top-level JSON array with bounded memory),
`iso` (a datetime or epoch seconds -> ISO 8601 UTC), `chat_message` and `chat_item` (a
conversation of an AI assistant's export as one chat Item: ChatGPT, Claude).
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from cairn.errors import InvalidInput


class ExportFormatError(InvalidInput):
    """An export file is truncated, of another format or unreadable: the message names the
    file (and the item). Nothing already imported is lost (the run puts back what it wrote)."""


@dataclass
class Message:
    """One turn of a conversation: a stable id (no "]" or line break), who spoke, when
    (ISO 8601), what they said."""

    id: str
    speaker: str
    time: str
    text: str


@dataclass
class Item:
    """One note to be: `source_id` stable across exports of the same source (the key that
    makes a second import add nothing); `title`; `body` markdown (for a conversation, the
    messages are rendered from `messages` instead); `type` the note type ("chat" makes a
    chat note whose messages are indexed one by one and from which memories are extracted);
    `created`/`updated` ISO 8601; `meta` more frontmatter (people, attendees, url, ...);
    `files` (name, bytes) kept beside the note under `_files/` and linked from it."""

    source_id: str
    title: str
    body: str = ""
    type: str = "note"
    created: str | None = None
    updated: str | None = None
    tags: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    messages: list[Message] | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)


def chat_message(messages: list[Message], raw_id: Any, speaker: str, when: str | None, text: str,
                 fallback_time: str) -> None:
    """Append one turn to `messages`: its id made safe for a chat heading (no "]" or line
    break), its time `when` or else the previous turn's (else `fallback_time`)."""
    mid = str(raw_id).replace("]", ")").replace("\n", " ")
    messages.append(Message(mid, speaker, when or (messages[-1].time if messages else fallback_time), text))


def chat_item(conversation_id: Any, title: Any, app: str, created: str | None, updated: str | None,
              messages: list[Message]) -> Item:
    """The chat Item of one conversation of `app` ("ChatGPT", "Claude"): source_id the
    conversation's id, title (else "<app> conversation"), times, and the conversation and
    session keys a chat note carries."""
    name = str(title or "").strip() or f"{app} conversation"
    return Item(source_id=str(conversation_id), title=name, type="chat", messages=messages,
                created=created, updated=updated,
                meta={"conversation": name, "session": str(conversation_id), "app": app})


@dataclass
class Skip:
    """One item that could not be read: `name` says which (file and item), `reason` why."""

    name: str
    reason: str


def iso(value: Any) -> str | None:
    """A datetime (naive = UTC), epoch seconds (int/float, or their digits) or an ISO string
    -> "YYYY-MM-DDTHH:MM:SSZ" (UTC), microseconds dropped; None for None, "" or nonsense."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, (int, float)) or (isinstance(value, str) and value.replace(".", "", 1).isdigit()):
            dt = datetime.fromtimestamp(float(value), timezone.utc)
        elif isinstance(value, datetime):
            dt = value
        else:
            dt = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except (ValueError, OverflowError, OSError):
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def open_zip(path: Path) -> zipfile.ZipFile:
    """The zip archive at `path`. Raises ExportFormatError naming the file when it is not a
    zip or is truncated (its central directory is at its end)."""
    try:
        return zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise ExportFormatError(f"{path}: not a readable zip archive ({exc}); is the download "
                                "complete?") from None


def inside(folder: Path, p: Path) -> bool:
    """True when `p` (found under `folder`) is a regular file that is no symbolic link and
    resolves inside `folder`: a folder import never reads a file from elsewhere."""
    return p.is_file() and not p.is_symlink() and p.resolve().is_relative_to(folder.resolve())


def open_export(path: Path, member: str) -> IO[bytes]:
    """The bytes of `member` (a file name such as "conversations.json") of an export given
    as that file itself, a folder holding it (symbolic links are not followed out of it), or a
    .zip holding it (at any depth). Raises
    ExportFormatError naming the file when there is no such member."""
    if path.is_dir():
        hits = sorted((p for p in path.rglob(member) if inside(path, p)), key=lambda p: len(p.parts))
        if not hits:
            raise ExportFormatError(f"{path}: no {member} in this folder")
        return open(hits[0], "rb")
    if zipfile.is_zipfile(path) or path.suffix.lower() == ".zip":
        zf = open_zip(path)
        names = sorted((n for n in zf.namelist() if n.rsplit("/", 1)[-1] == member), key=len)
        if not names:
            raise ExportFormatError(f"{path}: no {member} in this zip archive")
        return zf.open(names[0])
    return open(path, "rb")


def iter_json_array(fh: IO[bytes], name: str, chunk: int = 1 << 16) -> Iterator[Any]:
    """Each element of the top-level JSON array in `fh`, decoded one at a time (memory: the
    largest element plus one read `chunk`). Raises ExportFormatError naming `name` (and the
    element's number) for a file that is not a JSON array, holds invalid JSON or is cut off
    before its closing "]", or nests too deeply for the decoder; a UTF-8 decoding error too."""
    dec = json.JSONDecoder()
    reader = io.TextIOWrapper(fh, encoding="utf-8-sig", errors="strict")
    buf, pos, n, eof = "", 0, 0, False

    def more() -> bool:
        nonlocal buf, pos, eof
        if eof:
            return False
        try:
            data = reader.read(chunk)
        except UnicodeDecodeError as exc:
            raise ExportFormatError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start} of a block); "
                                    "is this the right file?") from None
        buf, pos = buf[pos:] + data, 0
        eof = not data
        return bool(data)

    def skip_ws() -> bool:
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in " \t\r\n":
                pos += 1
            if pos < len(buf) or not more():
                return pos < len(buf)

    if not skip_ws() or buf[pos] != "[":
        raise ExportFormatError(f"{name}: not a JSON array (this is not the expected export file)")
    pos += 1
    first = True
    while True:
        if not skip_ws():
            raise ExportFormatError(f"{name}: the file ends after item {n} without closing its list "
                                    "(truncated?)")
        if buf[pos] == "]":
            return
        if not first:
            if buf[pos] != ",":
                raise ExportFormatError(f"{name}: item {n + 1}: invalid JSON (expected ',' or ']')")
            pos += 1
            if not skip_ws():
                raise ExportFormatError(f"{name}: the file ends after item {n} (truncated?)")
        while True:
            try:
                value, end = dec.raw_decode(buf, pos)
                if end == len(buf) and not eof and buf[pos] not in "[{\"":
                    raise ValueError("a number may go on")  # a bare number cut at the block end
                break
            except RecursionError:
                raise ExportFormatError(f"{name}: item {n + 1}: JSON nested too deeply") from None
            except ValueError as exc:
                if not more():
                    raise ExportFormatError(f"{name}: item {n + 1}: invalid or truncated JSON "
                                            f"({getattr(exc, 'msg', exc)})") from None
        pos, first, n = end, False, n + 1
        yield value


def walk_export(path: Path) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(relative name, read()) of every file of an export given as a folder or a .zip (a
    .zip inside the .zip, as Notion splits large exports, is walked too), in name order.
    Symbolic links are not followed. Raises ExportFormatError for a broken zip (outer or
    inner, naming it); a member
    cut off raises it when read."""
    if path.is_dir():
        for p in sorted(path.rglob("*")):
            if p.is_file() and not p.is_symlink():
                yield str(p.relative_to(path)), p.read_bytes
        return
    zf = open_zip(path)
    for info in sorted(zf.infolist(), key=lambda i: i.filename):
        if info.is_dir():
            continue
        if info.filename.lower().endswith(".zip"):
            try:
                inner = zipfile.ZipFile(io.BytesIO(_member(zf, info, path)))
            except zipfile.BadZipFile as exc:
                raise ExportFormatError(f"{path}: {info.filename}: not a readable zip archive ({exc})") from None
            for sub in sorted(inner.infolist(), key=lambda i: i.filename):
                if not sub.is_dir():
                    yield f"{info.filename}/{sub.filename}", (lambda z=inner, s=sub: _member(z, s, path))
            continue
        yield info.filename, (lambda i=info: _member(zf, i, path))


MAX_MEMBER_BYTES = 1 << 30
"""The most bytes one member of an export's zip may unpack to (its size as the archive states it, which
zipfile holds the read to): a zip bomb (a few KB that unpack to gigabytes) is refused by name, not read into memory."""


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> bytes:
    """The bytes of member `info` of the export's zip at `path`. Raises ExportFormatError naming
    the member when it is cut off or would unpack to more than MAX_MEMBER_BYTES."""
    if info.file_size > MAX_MEMBER_BYTES:
        raise ExportFormatError(f"{path}: {info.filename} unpacks to {info.file_size:,} bytes, more than the "
                                f"{MAX_MEMBER_BYTES:,} an export's file may hold (a zip bomb?)")
    try:
        return zf.read(info)
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError) as exc:
        raise ExportFormatError(f"{path}: {info.filename}: cannot be read from the archive ({exc}); "
                                "is the download complete?") from None
