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

import itertools
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


# A flattened table (a PDF's text layer writes each cell on a line of its own: "Booster vaccination", "1", "£56.50"): a
# cell is a short line, not a "Key: value" pair or a sentence.
_CELL = re.compile(r"^(?![^:]*:\s)[^\n]{1,40}$")
FLAT_ROWS = True  # ablation switch (bench/answers_ablation.py)
_MAX_LABELS = 4  # label cells of one row at most: more is text, not a row


def _cell(x: str) -> bool:
    """True when the line `x` is a cell (`_CELL`: short, no "Key: value" pair) and no sentence (no final full stop)."""
    return bool(_CELL.match(x.strip())) and not x.strip().endswith(".")


def flat_rows(lines: list[str], bare) -> dict[int, tuple[str, str]]:
    """The rows of tables whose cells are written one a line, found by their value cells: `bare(line)` is True for a
    line that is one value and nothing else ("£56.50"). Runs of consecutive value lines end the rows; the cell lines
    between two runs are the next row's labels ("Booster vaccination", "1"); the first row takes as many label lines as
    the others (the most common gap) and the cell lines above those are the header ("Item", "Qty", "Amount"). Returns
    {index of a value line: (row text "Booster vaccination 1 £56.50", header text)}; {} when fewer than two runs are
    separated by cell lines only."""
    if not FLAT_ROWS:
        return {}
    flags = [bool(bare(x)) for x in lines]  # runs: (first, last) index of each run of value lines
    runs = [(g[0], g[-1]) for g in (list(r) for _, r in itertools.groupby(range(len(lines)), flags.__getitem__))
            if flags[g[0]]]
    gaps = [b0 - a1 - 1 for (_, a1), (b0, _) in zip(runs, runs[1:])]
    linked = [1 <= g <= _MAX_LABELS and all(map(_cell, lines[a1 + 1:b0]))
              for g, (_, a1), (b0, _) in zip(gaps, runs, runs[1:])]
    if not any(linked):
        return {}
    out: dict[int, tuple[str, str]] = {}
    k = 0
    while k < len(runs):  # one table: runs linked to the next by label cells only
        m = k
        while m < len(linked) and linked[m]:
            m += 1
        if m > k:
            width = max(set(gaps[k:m]), key=gaps[k:m].count)
            s0 = runs[k][0]
            first = max(0, s0 - width)
            top = first
            while top > 0 and first - top < width + runs[k][1] - s0 + 1 and _cell(lines[top - 1]):
                top -= 1
            header = " ".join(x.strip() for x in lines[top:first])
            for r in range(k, m + 1):
                s, e = runs[r]
                start = first if r == k else runs[r - 1][1] + 1
                row = " ".join(x.strip() for x in lines[start:e + 1] if x.strip())
                for idx in range(s, e + 1):
                    out[idx] = (row, header)
        k = m + 1
    return out


def one_row_header(lines: list[str], i: int) -> str:
    """The header cell above the cell `lines[i]` of a one-row table written one cell a line (a ticket's "Train",
    "Departs", "Arrives", then "10:30 LNER", "10:30", "12:21"): a run of 2k cell lines (k >= 2) whose first k hold no
    digit and whose line i is one of the last k; the cell k lines above it names its column. "" when `lines[i]` is no
    such cell (FLAT_ROWS off)."""
    if not FLAT_ROWS or not _cell(lines[i]):
        return ""
    a, b = i, i + 1
    while a > 0 and _cell(lines[a - 1]):
        a -= 1
    while b < len(lines) and _cell(lines[b]):
        b += 1
    k = 0
    while a + k < b and not re.search(r"\d", lines[a + k]):
        k += 1
    return lines[i - k].strip() if k >= 2 and b - a == 2 * k and i - a >= k else ""
