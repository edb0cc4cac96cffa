"""PowerPoint .pptx (python-pptx) and Excel .xlsx (openpyxl), rendered as markdown.

PPTX: one section per slide, "## Slide N: <title>" (or "## Slide N"), then the text of every
shape in reading order (text frames paragraph by paragraph, group shapes recursively, tables as
markdown tables, chart titles as "Chart: ..."), then speaker notes as "Notes: ...". Each slide
with text gets a PageSpan with page = slide number. Title: core properties title, else the
first slide's title, else the file stem.

XLSX: one section per sheet, "## <sheet name>", then the used range as a markdown table (first
row as header; cached values of formulas, not the formulas; empty trailing rows/columns
dropped). At most MAX_ROWS rows per sheet are read (a warning says how many were left out).
Title: core properties title, else the file stem.

A ZIP that claims the format but cannot be opened raises ParseError naming the format.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import PurePath
from typing import Any, Iterable

from ..model import PageSpan, ParsedDocument
from .errors import EmptyDocument, ParseError, describe
from ._shared import clean_text as _clean
from ._shared import utc_iso as _iso

MAX_ROWS = 5000


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, (dt.datetime, dt.date, dt.time)):
        value = value.isoformat()
    return " ".join(_clean(value).split()).replace("|", "\\|")


def markdown_table(rows: Iterable[list[Any]]) -> str:
    """Rows of cell values -> markdown table (first row = header); "" when all cells are empty."""
    grid = [[_cell(v) for v in r] for r in rows]
    grid = [r for r in grid if any(r)] if grid else []
    if not grid:
        return ""
    width = max(max((i + 1 for i, c in enumerate(r) if c), default=0) for r in grid)
    grid = [(r + [""] * width)[:width] for r in grid]
    lines = ["| " + " | ".join(grid[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in grid[1:]]
    return "\n".join(lines)


def _core(props: Any) -> tuple[str, dict[str, Any], str | None, str | None]:
    meta: dict[str, Any] = {}
    title = _clean(getattr(props, "title", "") or "")
    author = _clean(getattr(props, "author", "") or "")
    if author:
        meta["author"] = author
    return title, meta, _iso(getattr(props, "created", None)), _iso(getattr(props, "modified", None))


def _shape_texts(shape: Any) -> list[str]:
    out: list[str] = []
    if getattr(shape, "shape_type", None) is not None and shape.shape_type == 6:  # GROUP
        for sub in shape.shapes:
            out.extend(_shape_texts(sub))
        return out
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [[c.text for c in row.cells] for row in shape.table.rows]
        table = markdown_table(rows)
        if table:
            out.append(table)
        return out
    if getattr(shape, "has_chart", False) and shape.has_chart:
        chart = shape.chart
        if chart.has_title and chart.chart_title.has_text_frame:
            title = _clean(chart.chart_title.text_frame.text)
            if title:
                out.append(f"Chart: {title}")
        return out
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        text = "\n".join(_clean(p.text) for p in shape.text_frame.paragraphs if _clean(p.text))
        if text:
            out.append(text)
    return out


def parse_pptx(data: bytes, name: str) -> ParsedDocument:
    """Parse a PowerPoint .pptx file's bytes. Raises ParseError / EmptyDocument."""
    try:
        from pptx import Presentation
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"PPTX support is not installed ({exc})") from None
    try:
        prs = Presentation(io.BytesIO(data))
    except Exception as exc:
        raise ParseError(f"corrupt or unreadable PowerPoint presentation: {describe(exc)}") from None
    title, meta, created, updated = _core(prs.core_properties)
    parts: list[str] = []
    spans: list[PageSpan] = []
    warnings: list[str] = []
    pos = 0
    first_title = ""
    n = 0
    for n, slide in enumerate(prs.slides, 1):
        try:
            title_shape = slide.shapes.title
            slide_title = _clean(title_shape.text) if title_shape is not None else ""
            blocks = []
            for shape in slide.shapes:
                if title_shape is not None and shape.shape_id == title_shape.shape_id:
                    continue
                blocks.extend(_shape_texts(shape))
            if slide.has_notes_slide:
                notes = _clean(slide.notes_slide.notes_text_frame.text) if slide.notes_slide.notes_text_frame else ""
                if notes:
                    blocks.append(f"Notes: {notes}")
        except Exception as exc:  # one broken slide must not lose the others
            warnings.append(f"slide {n}: could not be read ({describe(exc)})")
            continue
        first_title = first_title or slide_title
        if not slide_title and not blocks:
            continue
        head = f"## Slide {n}: {slide_title}" if slide_title else f"## Slide {n}"
        text = "\n\n".join([head, *blocks])
        if parts:
            pos += 2
        spans.append(PageSpan(page=n, start=pos, end=pos + len(text)))
        parts.append(text)
        pos += len(text)
    if not parts:
        raise EmptyDocument(f"no text in {n} slides")
    meta["slides"] = n
    return ParsedDocument(kind="pptx", title=title or first_title or PurePath(name).stem,
                          body="\n\n".join(parts), pages=spans, meta=meta, created=created,
                          updated=updated, warnings=warnings)


def parse_xlsx(data: bytes, name: str) -> ParsedDocument:
    """Parse an Excel .xlsx file's bytes. Raises ParseError / EmptyDocument."""
    try:
        from openpyxl import load_workbook
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"XLSX support is not installed ({exc})") from None
    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:
        raise ParseError(f"corrupt or unreadable Excel spreadsheet: {describe(exc)}") from None
    try:
        title, meta, created, updated = _core(wb.properties)
        parts: list[str] = []
        warnings: list[str] = []
        sheets = wb.sheetnames
        for ws in wb.worksheets:
            rows: list[list[Any]] = []
            total = 0
            try:
                for row in ws.iter_rows(values_only=True):
                    total += 1
                    if len(rows) < MAX_ROWS:
                        rows.append(list(row))
            except Exception as exc:
                warnings.append(f"sheet {ws.title!r}: could not be read ({describe(exc)})")
                continue
            if total > MAX_ROWS:
                warnings.append(f"sheet {ws.title!r}: only the first {MAX_ROWS} of {total} rows were read")
            table = markdown_table(rows)
            if table:
                parts.append(f"## {_clean(ws.title)}\n\n{table}")
    finally:
        wb.close()
    if not parts:
        raise EmptyDocument(f"no cell values in {len(sheets)} sheets")
    meta["sheets"] = sheets
    return ParsedDocument(kind="xlsx", title=title or PurePath(name).stem, body="\n\n".join(parts),
                          meta=meta, created=created, updated=updated, warnings=warnings)
