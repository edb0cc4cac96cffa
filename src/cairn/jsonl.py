"""Append-only JSONL logs (session logs): reading what was appended since an offset."""

from __future__ import annotations

import json
from pathlib import Path


def read_appended(path: Path, offset: int, size: int) -> tuple[list[dict], int]:
    """(the JSON objects of the complete lines of `path` between byte `offset` and `size`,
    the offset just after the last complete line). A torn last line (no newline yet) is left
    for the next read; a line that is not a JSON object is skipped. Raises OSError."""
    with path.open("rb") as f:
        f.seek(offset)
        data = f.read(size - offset)
    end = data.rfind(b"\n") + 1
    out = []
    for line in data[:end].splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict):
            out.append(e)
    return out, offset + end
