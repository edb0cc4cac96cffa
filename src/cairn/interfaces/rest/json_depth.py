"""How deeply a JSON body nests, checked as it streams in, before any parser sees it.

Python's json module and the parsers behind FastAPI and the MCP SDK recurse once per level:
a body of 100,000 `[` is a RecursionError (a 500, or a dropped connection) instead of the
clear 400 every other bad body gets. `JsonDepth(limit).feed(chunk)` says when the nesting
passes `limit`, counting `[` and `{` outside strings (escapes inside strings followed across
chunk boundaries); it checks nesting only, never validity (the parser does that).
"""

from __future__ import annotations

import re

MAX_JSON_DEPTH = 64  # far above any shape of the API (the deepest, MCP tool arguments, nest < 10)
_TOKENS = re.compile(rb'[\[\]{}"\\]')


def is_json(content_type: str) -> bool:
    """True for application/json and any `+json` media type (parameters ignored)."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


class JsonDepth:
    """Incremental nesting counter for one body; `feed(chunk) -> True` once deeper than `limit`."""

    def __init__(self, limit: int = MAX_JSON_DEPTH) -> None:
        self.limit = limit
        self.depth = 0
        self.deepest = 0
        self._in_string = False
        self._escaped = False  # the previous chunk ended with a backslash inside a string

    def feed(self, chunk: bytes) -> bool:
        skip = 0 if self._escaped else -1
        self._escaped = False
        for m in _TOKENS.finditer(chunk):
            i = m.start()
            if i == skip:
                continue
            c = chunk[i]
            if self._in_string:
                if c == 0x5C:  # backslash: the next byte is escaped
                    if i + 1 == len(chunk):
                        self._escaped = True
                    else:
                        skip = i + 1
                elif c == 0x22:
                    self._in_string = False
            elif c == 0x22:
                self._in_string = True
            elif c in (0x5B, 0x7B):
                self.depth += 1
                if self.depth > self.limit:
                    return True
                self.deepest = max(self.deepest, self.depth)
            elif c in (0x5D, 0x7D):
                self.depth -= 1
        return False
