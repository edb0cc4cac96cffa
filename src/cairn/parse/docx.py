"""Word .docx files via python-docx, rendered as markdown.

Body, in document order: "Heading N" paragraphs -> '#'*N + text ("Title" style -> '#'),
list paragraphs -> "- text", other paragraphs as they are, tables -> markdown tables (first row
as header, '|' escaped, line breaks in cells become spaces); text in text boxes is appended at
the end. Blocks are separated by a blank line. Title: core properties title, else the first
Title/Heading 1 paragraph, else the first heading, else the file stem. Author and
created/modified dates come from the core properties. Headers, footers, footnotes and
comments are not read.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from .errors import EmptyDocument, ParseError, describe
from ._shared import clean_text as _clean
from ._shared import utc_iso as _iso

_HEADING = re.compile(r"^heading\s*(\d+)$", re.IGNORECASE)
_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _cell_text(cell: Any) -> str:
    text = _clean(cell.text)
    return re.sub(r"\s*\n\s*", " ", text).replace("|", "\\|")


def table_markdown(table: Any) -> str:
    rows: list[list[str]] = []
    for row in table.rows:
        rows.append([_cell_text(c) for c in row.cells])
    rows = [r for r in rows if r]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    if not any(any(c for c in r) for r in rows):
        return ""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def _style_name(paragraph: Any) -> str:
    try:
        style = paragraph.style
        return (style.name or "") if style is not None else ""
    except Exception:
        return ""


def parse_docx(data: bytes, name: str) -> ParsedDocument:
    """Parse .docx bytes of the file called `name`."""
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"DOCX support is not installed ({exc})") from None

    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ParseError(f"corrupt or unreadable DOCX: {exc}") from None
    except Exception as exc:  # python-docx raises a variety of package errors
        raise ParseError(f"corrupt or unreadable DOCX: {describe(exc)}") from None

    warnings: list[str] = []
    blocks: list[str] = []
    first_h1 = ""
    first_heading = ""
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            text = _clean(item.text)
            if not text:
                continue
            style = _style_name(item)
            m = _HEADING.match(style)
            if style.lower() == "title":
                level = 1
            elif m:
                level = max(1, min(6, int(m.group(1))))
            else:
                level = 0
            if level:
                text = re.sub(r"\s*\n\s*", " ", text)
                if level == 1 and not first_h1:
                    first_h1 = text
                if not first_heading:
                    first_heading = text
                blocks.append("#" * level + " " + text)
            elif "list" in style.lower():
                blocks.append("- " + text)
            else:
                blocks.append(text)
        elif isinstance(item, Table):
            try:
                md = table_markdown(item)
            except Exception as exc:  # irregular table grids
                warnings.append(f"docx: a table could not be read as a grid ({describe(exc)}); its text is kept")
                md = "\n".join(_clean(p.text) for p in _table_paragraphs(item))
            if md:
                blocks.append(md)

    # text boxes (shapes) are outside the paragraph flow
    try:
        seen = set(blocks)
        for p in document.element.body.iter(f"{{{_W_NS}}}txbxContent"):
            for para in p.iter(f"{{{_W_NS}}}p"):
                text = _clean("".join(t.text or "" for t in para.iter(f"{{{_W_NS}}}t")))
                if text and text not in seen:
                    seen.add(text)
                    blocks.append(text)
    except Exception:
        pass

    body = "\n\n".join(blocks)
    if not body.strip():
        raise EmptyDocument("no text in the document")
    body += "\n"

    meta: dict[str, Any] = {}
    created = updated = None
    title = ""
    try:
        props = document.core_properties
        for key in ("title", "author", "subject", "keywords", "category", "last_modified_by"):
            value = getattr(props, key, None)
            if isinstance(value, str) and value.strip():
                meta[key] = value.strip()
        created = _iso(props.created)
        updated = _iso(props.modified)
        title = meta.get("title", "")
    except Exception:
        pass
    title = title or first_h1 or first_heading or PurePath(name).stem or name

    return ParsedDocument(
        kind="docx",
        title=title,
        body=body,
        meta=meta,
        created=created,
        updated=updated,
        warnings=warnings,
    )


def _table_paragraphs(table: Any) -> list[Any]:
    from docx.text.paragraph import Paragraph

    return [Paragraph(p, table) for p in table._tbl.iter(f"{{{_W_NS}}}p")]
