"""Jupyter notebooks (.ipynb, nbformat 4; 3 is read where the keys match) as markdown.

Markdown cells as they are; code cells as fenced blocks in the kernel's language; the text of
outputs (stream text, `text/plain` or `text/markdown` results, errors as "ename: evalue")
as "Output:" fenced text blocks. Images and other binary outputs (base64) are never copied:
each is replaced by "[image/png output]". Title: metadata.title, else the first markdown '#'
heading, else the file stem. JSON that is not a notebook raises ParseError (callers fall back
to plain text).
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from .errors import EmptyDocument, ParseError

_H1 = re.compile(r"^#\s+(.+)$", re.MULTILINE)
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MAX_OUTPUT_CHARS = 2000  # per output: long logs are cut


class NotANotebook(ParseError):
    """Valid or invalid JSON that is not a Jupyter notebook."""


def _src(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value or "")


def _outputs(outputs: Any) -> list[str]:
    out: list[str] = []
    for o in outputs if isinstance(outputs, list) else []:
        if not isinstance(o, dict):
            continue
        kind = o.get("output_type")
        text = ""
        if kind == "stream":
            text = _src(o.get("text"))
        elif kind in ("execute_result", "display_data", "pyout"):
            data = o.get("data") or {}
            if "text/markdown" in data:
                text = _src(data["text/markdown"])
            elif "text/plain" in data:
                text = _src(data["text/plain"])
            for mime in data:
                if mime.startswith(("image/", "application/pdf", "video/", "audio/")):
                    out.append(f"[{mime} output]")
            if not data and "text" in o:
                text = _src(o.get("text"))
        elif kind in ("error", "pyerr"):
            text = f"{o.get('ename', 'Error')}: {o.get('evalue', '')}"
        text = _ANSI.sub("", text).strip()
        if text:
            if len(text) > MAX_OUTPUT_CHARS:
                text = text[:MAX_OUTPUT_CHARS] + "\n[output cut]"
            out.append(f"Output:\n```text\n{text}\n```")
    return out


def parse_notebook(text: str, name: str) -> ParsedDocument:
    """Parse notebook JSON text of the file called `name`.

    Raises NotANotebook (a ParseError) for JSON without notebook cells, EmptyDocument when no
    cell has text.
    """
    try:
        nb = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise NotANotebook(f"notebook is not valid JSON: {exc}") from None
    if not isinstance(nb, dict):
        raise NotANotebook("JSON is not a notebook (no cells)")
    cells = nb.get("cells")
    if cells is None and isinstance(nb.get("worksheets"), list):  # nbformat 3
        cells = [c for ws in nb["worksheets"] if isinstance(ws, dict) for c in ws.get("cells") or []]
    if not isinstance(cells, list) or "nbformat" not in nb:
        raise NotANotebook("JSON is not a notebook (no nbformat/cells)")
    metadata = nb.get("metadata") if isinstance(nb.get("metadata"), dict) else {}
    lang = ((metadata.get("kernelspec") or {}).get("language")
            or (metadata.get("language_info") or {}).get("name") or "python")
    parts: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        kind = cell.get("cell_type")
        src = _src(cell.get("source", cell.get("input"))).strip()
        if kind in ("markdown", "heading", "raw"):
            if src:
                parts.append(src)
        elif kind == "code":
            if src:
                parts.append(f"```{lang}\n{src}\n```")
            parts.extend(_outputs(cell.get("outputs")))
    if not parts:
        raise EmptyDocument(f"notebook has no text in {len(cells)} cells")
    body = "\n\n".join(parts).replace("\x00", "")
    title = str(metadata.get("title") or "").strip()
    if not title:
        for p in parts:
            if not p.startswith("```"):
                m = _H1.search(p)
                if m:
                    title = m.group(1).strip()
                    break
    meta: dict[str, Any] = {"language": lang, "cells": len(cells)}
    authors = metadata.get("authors")
    if isinstance(authors, list) and authors:
        names = [a.get("name") if isinstance(a, dict) else str(a) for a in authors]
        meta["author"] = ", ".join(n for n in names if n)
    return ParsedDocument(kind="ipynb", title=title or PurePath(name).stem, body=body, meta=meta)
