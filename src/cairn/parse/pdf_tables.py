"""Tables of a PDF page as markdown pipe tables (issue 33: a value's row and column are what it is of).

pypdf's plain text layer writes a ruled table one cell a line ("Ticket", "Valid from", ..., "14 April 2029", "13 April
2030"): which date is "Valid to" of which ticket is lost. Its layout mode (`extract_text(extraction_mode="layout")`)
keeps each row on one line, cells apart by runs of spaces. `tabulate(plain, layout)` finds the tables of the layout text
(`layout_tables`: two or more consecutive lines of two or more cells, each cell under a column of the first line, its
header) and replaces in the plain text the run of lines that is exactly that table's cells, in order, by a pipe table
(header, rule, rows; an empty cell stays empty), which answer/tables.py reads row by row with its header; a table of
two columns is a form, its rows written "Key: value", as are the summary rows closing a table ("Total due: £306.00"). A table whose
cells the plain text does not hold in that order is left as it was: the plain text is never lost. Pure functions.

Switch off: TABLES.
"""

from __future__ import annotations

import re

TABLES = True
_GAP = re.compile(r"\S(?:.*?\S)??(?=\s{3,}|\s*$)")  # a cell: text up to a run of three or more spaces


def _cells(line: str) -> list[tuple[int, str]]:
    """(column, text) of each cell of a layout line: text apart from the next by three or more spaces."""
    return [(m.start(), m.group()) for m in _GAP.finditer(line)]


def layout_tables(layout: str) -> list[list[list[str]]]:
    """The tables of a page's layout text, each a list of rows of cells (the header first), every row as wide as the
    header. A table is two or more consecutive lines of two or more cells each, every cell starting within its
    header cell's column (a cell is placed in the column whose start is the nearest at or before it)."""
    out, block = [], []
    for line in layout.split("\n") + [""]:
        cells = _cells(line)
        if len(cells) >= 2 and (not block or _fits(cells, block[0])):
            block.append(cells)
            continue
        if len(block) >= 2:
            starts = [c for c, _ in block[0]]
            rows = []
            for cells_ in block:
                row = [""] * len(starts)
                for col, text in cells_:
                    k = max(i for i, s in enumerate(starts) if s <= col + 2)
                    row[k] = f"{row[k]} {text}".strip()
                rows.append(row)
            out.append(rows)
        block = [cells] if len(cells) >= 2 else []
    return out


def _fits(cells: list[tuple[int, str]], header: list[tuple[int, str]]) -> bool:
    """True when every cell of a line starts at or after the first header column and no two share a column."""
    starts = [c for c, _ in header]
    cols = [max((i for i, s in enumerate(starts) if s <= col + 2), default=-1) for col, _ in cells]
    return -1 not in cols and len(set(cols)) == len(cols)


def _pipe(rows: list[list[str]]) -> str:
    """A pipe table of `rows` (the header first); a table of two columns is a form, written "Key: value" a row."""
    if len(rows[0]) == 2:
        return "\n".join(f"{k}: {v}" if k and v else k or v for k, v in rows)
    end = len(rows)  # the summary rows closing it ("Subtotal", "Total due": a label and the last column only)
    while end > 2 and rows[end - 1][-1] and len([c for c in rows[end - 1] if c]) == 2:
        end -= 1
    line = lambda r: "| " + " | ".join(c.replace("|", "/") for c in r) + " |"  # noqa: E731
    return "\n".join([line(rows[0]), "| " + " | ".join("---" for _ in rows[0]) + " |"] + [line(r) for r in rows[1:end]]
                     + [f"{next(c for c in r if c)}: {r[-1]}" for r in rows[end:]])


def tabulate(plain: str, layout: str) -> str:
    """`plain` (a page's plain text, one line a cell in its tables) with each table of `layout` (module doc) written as
    a pipe table in place of the run of lines holding its cells; `plain` unchanged when TABLES is off or no table's
    cells are found there in order."""
    if not TABLES or not layout.strip():
        return plain
    lines = plain.split("\n")
    for rows in layout_tables(layout):
        cells = [c for r in rows for c in r if c]
        n = len(cells)
        at = next((i for i in range(len(lines) - n + 1)
                   if [x.strip() for x in lines[i:i + n]] == cells), None)
        if at is not None:
            lines[at:at + n] = _pipe(rows).split("\n")
    return "\n".join(lines)
