"""Markdown tables as answerable rows: each data row keeps its header (and its section).

A quoted table line ("| 3 | 5 | ORCHID-77 |") means nothing without its header, and two tables in one passage ("Estimate
from Kowalski", "Estimate from Brightline", each with a "total" row) are told apart only by the heading above them.
`table_rows` turns every data row of a pipe table into one self-contained statement:

    "Estimate from Brightline Builders: item total, cost 6,250 EUR"

(section heading, then "header value" pairs, in column order). The extractive answerer offers these instead of the raw
lines, so an answer is one row with its header, never the whole table; the verifier accepts it because every word and
number of it is in the passage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$")
_RULE = re.compile(r"^[\s|:\-]+$")
HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)  # a markdown heading line


@dataclass
class TableRow:
    """One data row: its (start, end) in the text (the row line), the whole table's span, and the rendered statement."""

    start: int
    end: int
    table_start: int
    table_end: int
    text: str


def heading_above(text: str) -> str:
    """The text of the last markdown heading line in `text` ("" when it has none)."""
    return (HEADING.findall(text) or [""])[-1]


def _cells(line: str) -> list[str]:
    m = _ROW.match(line)
    return [c.strip() for c in m.group(1).split("|")] if m else []


def table_rows(text: str) -> list[TableRow]:
    """Every data row of every pipe table in `text` (a header line, a `---` rule line, then rows), rendered as "Heading:
    header1 value1, header2 value2" (module doc). Rows with no non-empty cell are skipped; a table without a rule line
    is not a table."""
    lines = [(m.start(), m.end(), m.group()) for m in re.finditer(r"^.*$", text, re.MULTILINE)]  # (start, end, line)
    out: list[TableRow] = []
    heading = ""
    i = 0
    while i < len(lines):
        s, e, line = lines[i]
        h = HEADING.match(line)
        if h:
            heading = h.group(1).strip()
        if _ROW.match(line) and i + 1 < len(lines) and _ROW.match(lines[i + 1][2]) and _RULE.match(lines[i + 1][2]):
            header = _cells(line)
            j = i + 2
            while j < len(lines) and _ROW.match(lines[j][2]):
                j += 1
            for rs, re_, rline in lines[i + 2:j]:
                pairs = [f"{hd} {c}".strip() if hd else c for hd, c in zip(header, _cells(rline)) if c]
                if pairs:
                    body = ", ".join(pairs)
                    out.append(TableRow(rs, re_, s, lines[j - 1][1], f"{heading}: {body}" if heading else body))
            i = j
            continue
        i += 1
    return out
