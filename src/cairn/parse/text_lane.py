"""The text lane of the parse pool (cairn.parse.pool): a worker reads, hashes, parses and
summarises the text notes of a large ingest a window ahead of it (phase 1 on two cores).

Two halves:
- `text_batch` runs in the worker, on one request of TEXT_BATCH notes;
- `TextLane` is the parent's bookkeeping of the notes ahead: their order, how far the lane
  has been handed out and the ingest has taken, and the results waiting. It is not
  thread-safe: ParsePool calls it with its lock held.

The ingest uses a result only when the worker parsed exactly the bytes the ingest hashed
(each result keeps the hash; ParsePool.take_text compares it), and never waits for
a note not yet back: it parses that one itself, and the lane goes on after it.
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path
from typing import Any, Callable

from ..model import ParsedDocument

TEXT_REQUEST = "\x00text"  # a request of the text lane (instead of a file's path)
TEXT_BATCH = 8  # notes per request: the driver wakes once per batch, not per note
TEXT_WINDOW = 256  # notes the lane reads ahead of the last one taken at most (bounds the memory held)
TEXT_NICE = 5  # the lane's worker yields the CPU to the ingest (and to the person's programs)

Item = tuple[str, "str | None", "str | None"]  # (path, root folder or None, known sha256 or None)
# (path, sha256, doc, summary, (frontmatter block text, its value) or None)
Result = tuple[str, "str | None", "ParsedDocument | None", "str | None", "tuple[str, Any] | None"]


def read_regular(path: str, max_bytes: int) -> bytes | None:
    """The bytes of the regular file at `path` (at most max_bytes + 1 of them), or None when
    it is no regular file (opened without blocking, so a FIFO swapped in is never waited on)
    or is larger than max_bytes (never read: the ingest skips it by its size, as
    ingest.files._read does). Raises OSError as open/read do."""
    import stat
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(max_bytes + 1)
    finally:
        os.close(fd)


def _function(name: str) -> Callable[[str], str]:
    """The function a "module:function" name names (the caller's layer chooses it: this
    package never imports the layers above it)."""
    module, _, attr = name.partition(":")
    return getattr(import_module(module), attr)


def source_block(data: bytes) -> tuple[str, Any] | None:
    """(YAML text, value) of the frontmatter block of a markdown source, read as the ingest
    reads it when it adds its keys (cairn.vault.add_frontmatter_keys on the decoded bytes),
    so the ingest can be handed the value (cairn.safe_yaml.remember); None when there is no
    block, an empty one, or one YAML refuses."""
    from cairn import safe_yaml
    from cairn.parse.text import decode_bytes
    from cairn.vault import frontmatter_block
    try:
        block = frontmatter_block(decode_bytes(data)[0])
        return (block, safe_yaml.load(block)) if block and block.strip() else None
    except Exception:  # noqa: BLE001 - the ingest reads it itself and reports what is wrong
        return None


def text_batch(items: list[Item], options: dict[str, Any], summarise: str | None) -> list[Result]:
    """The lane's work in a worker: for each (path, root, known sha256) read the file, hash
    it and, unless the hash is the known one (the ingest will find the note unchanged), parse
    it with `parse_file(**options)` and, when `summarise` names a function ("module:function",
    text -> text), apply it to the document's body. Returns (path, sha256 hex, document,
    summary, `source_block` of a markdown note) per item; a file outside its `root` (a symlink
    swapped in), no regular file, or one that fails in any way gives (path, None, None, None,
    None): the ingest then reads it itself and reports what is wrong."""
    import hashlib

    from cairn.parse import parse_file
    from cairn.paths import outside_reason
    summary_of = _function(summarise) if summarise else None
    out: list[Result] = []
    for path, root, known in items:
        try:
            if root is not None and outside_reason(root, path) is not None:
                raise ValueError("outside its folder")
            data = read_regular(path, int(options.get("max_bytes", 50_000_000)))
            if data is None:
                raise ValueError("not a regular file")
            digest = hashlib.sha256(data).hexdigest()
            if digest == known:
                out.append((path, digest, None, None, None))
                continue
            doc = parse_file(Path(path), data=data, **options)
            block = source_block(data) if doc.kind == "markdown" else None
            out.append((path, digest, doc, summary_of(doc.body) if summary_of else None, block))
        except Exception:  # noqa: BLE001 - the ingest parses this file itself and reports it
            out.append((path, None, None, None, None))
    return out


class TextLane:
    """The parent's bookkeeping of the notes the lane reads ahead (see the module docstring).
    Positions are the order the notes were added in, which is the ingest's order."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget every note and result (the lane is off until `add`)."""
        self.items: list[Item] = []
        self.pos: dict[str, int] = {}
        self.sent = 0  # notes handed to the worker
        self.taken = -1  # the furthest note the ingest has passed
        self.args: dict[str, Any] = {}  # options, summarise, window (empty: the lane is off)
        self.results: dict[str, tuple[str | None, ParsedDocument | None, str | None, tuple[str, Any] | None]] = {}
        self.batches = 0

    def add(self, items: list[tuple[Path | str, Path | str | None, str | None]], options: dict[str, Any],
            summarise: str | None, window: int) -> None:
        """Queue notes (path, root, known sha256) after those queued; the window is at least
        one batch."""
        for path, root, known in items:
            path = str(path)
            if path not in self.pos:
                self.pos[path] = len(self.items)
                self.items.append((path, None if root is None else str(root), known))
        self.args = {"options": dict(options), "summarise": summarise, "window": max(TEXT_BATCH, int(window))}

    def room(self) -> bool:
        """Whether notes are left and the window has room for a whole batch after the last
        note taken."""
        start = max(self.sent, self.taken + 1)
        return (bool(self.args) and start < len(self.items)
                and start + TEXT_BATCH - 1 - self.taken <= self.args["window"])

    def next_request(self) -> dict[str, Any]:
        """The next batch's request arguments (items, options, summarise), marked as handed
        out; call only when `room()`."""
        start = max(self.sent, self.taken + 1)
        items = self.items[start:start + TEXT_BATCH]
        self.sent = start + len(items)
        self.batches += 1
        return {"items": items, "options": self.args["options"], "summarise": self.args["summarise"]}

    def store(self, results: list[Result]) -> None:
        """Keep the worker's results of the notes the ingest has not passed yet."""
        for path, digest, doc, summary, block in results:
            if self.pos.get(path, -1) > self.taken:
                self.results[path] = (digest, doc, summary, block)

    def failed(self, items: list[Item]) -> None:
        """A request that came back with no results (the worker died, timed out, or could
        not be sent it): its notes are the ingest's to parse."""
        self.store([(path, None, None, None, None) for path, _root, _known in items])

    def mark_taken(self, path: str, wait: bool) -> int | None:
        """The ingest is at `path`: its position (None when not queued), after which the
        lane goes on; with `wait`, the note itself stays wanted."""
        pos = self.pos.get(path)
        if pos is not None:
            self.taken = max(self.taken, pos - 1 if wait else pos)
        return pos
