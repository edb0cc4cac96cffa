"""A streamed JSON reply read as it arrives (used for enrichment as it is produced, EchOS E18):
each item handed on the moment it is complete.

The model answers `{"category": ..., "tags": [...], "gist": ..., "key_points": [...]}`
(cairn.enrich.SCHEMA), streamed a few characters at a time. `ItemStream.feed(piece)` returns
the items completed by that piece, in the order they were written, as (field, value) with
field one of "category", "tag", "gist", "key_point" — a tag or key point as soon as its own
string is closed, before the list ends. A value is taken only when `json.JSONDecoder.raw_decode`
reads it whole, so a half-written string is never handed on; a key is found only outside
strings (a key point quoting `"tags":` is text, not a key).

    items = ItemStream()
    for piece in stream:
        for field, value in items.feed(piece):
            ...
"""

from __future__ import annotations

import json

SCALARS = {"category": "category", "gist": "gist"}
LISTS = {"tags": "tag", "key_points": "key_point"}
_DECODER = json.JSONDecoder()


class ItemStream:
    """Reads one streamed JSON object of the enrichment schema (see module docstring)."""

    def __init__(self) -> None:
        self.text = ""
        self._pos = 0              # where scanning for the next top-level key resumes
        self._list: str | None = None  # the list field being read
        self._pending: tuple[str, int] | None = None  # a key read, its value not yet whole

    def feed(self, piece: str) -> list[tuple[str, object]]:
        """Add `piece` of the reply; the items it completed, in order."""
        self.text += piece
        out: list[tuple[str, object]] = []
        while True:
            if self._list is not None:
                if not self._read_list(out):
                    return out
                continue
            if self._pending is None:
                key, value_at = self._next_key()
                if key is None:
                    return out
                self._pending = (key, value_at)
            key, value_at = self._pending
            while value_at < len(self.text) and self.text[value_at] in " \t\r\n":
                value_at += 1
            self._pending = (key, value_at)
            if value_at >= len(self.text):
                return out
            if key in LISTS and self.text[value_at] == "[":
                self._list, self._pos, self._pending = key, value_at + 1, None
                continue
            try:
                value, end = _DECODER.raw_decode(self.text, value_at)
            except ValueError:
                return out  # not complete yet: read again with the next piece
            self._pending, self._pos = None, end
            if key in SCALARS and isinstance(value, str) and value.strip():
                out.append((SCALARS[key], value.strip()))

    def _next_key(self) -> tuple[str | None, int]:
        """The next top-level key from `_pos` and where its value starts; (None, _) when no
        whole key (with its colon) is there yet."""
        t, i = self.text, self._pos
        while i < len(t) and t[i] in " \t\r\n,{":
            i += 1
        if i >= len(t) or t[i] != '"':
            return None, i
        try:
            key, end = _DECODER.raw_decode(t, i)
        except ValueError:
            return None, i
        j = end
        while j < len(t) and t[j] in " \t\r\n":
            j += 1
        if j >= len(t) or t[j] != ":":
            return None, i
        j += 1
        while j < len(t) and t[j] in " \t\r\n":
            j += 1
        self._pos = j
        return (key if isinstance(key, str) else None), j

    def _read_list(self, out: list) -> bool:
        """Read list items from `_pos`; False when more text is needed."""
        t, i = self.text, self._pos
        while i < len(t) and t[i] in " \t\r\n,":
            i += 1
        if i >= len(t):
            self._pos = i
            return False
        if t[i] == "]":
            self._pos = i + 1
            self._list = None
            return True
        try:
            value, end = _DECODER.raw_decode(t, i)
        except ValueError:
            self._pos = i
            return False
        self._pos = end
        if isinstance(value, str) and value.strip():
            out.append((LISTS[self._list], value.strip()))
        return True
