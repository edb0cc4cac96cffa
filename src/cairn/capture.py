"""Captures from the browser: highlights, bookmarks and quick notes, each stored as a note.

A capture becomes a note in `<vault>/captures/` tagged `capture` and its kind, so it can be
filtered (`search --tag highlight`) and ranked by kind of material. The page address must
be http(s); the text is data, never instructions. Used by the `capture` tool (assistant,
MCP), `POST /capture` and the bookmarklet of `cairn serve`.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from urllib.parse import urlsplit

from cairn.errors import InvalidInput, TooLarge

KINDS = ("highlight", "bookmark", "note")
MAX_TEXT = 100_000  # characters
_URL_BREAK = re.compile(r"[\s\x00-\x1f\x7f\u0085\u2028\u2029]")


def capture_note(kind: str, url: str, text: str = "", title: str = "", comment: str = "",
                 now: datetime | None = None) -> tuple[str, str, list[str]]:
    """(title, markdown body, tags) of a capture. Raises InvalidInput for an unknown kind, a
    page address that is not http(s), or a highlight without text; TooLarge over MAX_TEXT."""
    if kind not in KINDS:
        raise InvalidInput(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    url = (url or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInput(f"the page address must be an http(s) URL, got {url[:200]!r}")
    bad = _URL_BREAK.search(url)
    if bad:  # written into the note as a markdown link: a line break would add headings and links to it
        raise InvalidInput(f"the page address holds {'a space' if bad.group() == ' ' else f'U+{ord(bad.group()):04X}'} "
                           f"at character {bad.start() + 1}; a URL has no spaces, line breaks or control "
                           "characters (percent-encode them: %20)")
    text, title, comment = (text or "").strip(), (title or "").strip(), (comment or "").strip()
    if kind == "highlight" and not text:
        raise InvalidInput("a highlight needs the selected text")
    if kind == "note" and not (text or comment):
        raise InvalidInput("a note needs some text")
    if len(text) + len(comment) > MAX_TEXT:
        raise TooLarge(f"the capture is {len(text) + len(comment)} characters; at most {MAX_TEXT}")
    now = now or datetime.now(timezone.utc)
    page = " ".join((title or parts.netloc).split())  # one line: a title's line breaks would add headings
    stamp = hashlib.sha256(f"{kind}\0{url}\0{text}\0{comment}".encode()).hexdigest()[:6]
    note_title = f"{kind.title()} — {page}"[:90].rstrip() + f" ({now:%Y-%m-%d} {stamp})"
    link = "[" + re.sub(r"([\\\[\]])", r"\\\1", page) + f"]({url})"  # brackets escaped: the title stays link text
    if kind == "highlight":
        quoted = "\n".join("> " + line if line else ">" for line in text.splitlines())
        body = f"{quoted}\n\n" + (f"{comment}\n\n" if comment else "") + f"From {link}\n"
    elif kind == "bookmark":
        body = f"{link}\n\n" + (f"{text}\n\n" if text else "") + (f"{comment}\n" if comment else "")
    else:
        body = "\n\n".join(x for x in (text, comment) if x) + f"\n\nOn {link}\n"
    return note_title, body, ["capture", kind]
