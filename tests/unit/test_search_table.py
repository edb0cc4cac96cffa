"""`cairn search`'s table in an 80-column terminal (probe23): the signal column's 39 fixed
characters left the `where` column 3 characters wide, so a path read "not / es/ / pro / be2 …"
over a dozen lines; a narrow terminal now folds the signals onto two lines."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from cairn.interfaces.cli_search import hits_table

HIT = SimpleNamespace(title="Contacts", snippet="Electrician (Sue): 07700 900789", path="notes/home/contacts.md",
                      page=None, source_id=None, score=0.489,
                      signals={"keyword": 1.0, "semantic": 0.47, "recency": 1.0, "source": 0.6})


def _where_cells(width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(hits_table([HIT], width=width))
    rows = [line.split("│") for line in console.export_text().splitlines() if line.startswith("│")]
    return [r[3].strip() for r in rows if r[3].strip()]


def test_the_path_keeps_room_in_an_80_column_terminal():
    cells = _where_cells(80)
    assert "".join(cells) == HIT.path
    assert min(len(c) for c in cells[:-1]) >= 10, cells


def test_a_wide_terminal_keeps_the_signals_on_one_line():
    console = Console(width=160, file=io.StringIO(), record=True, color_system=None)
    console.print(hits_table([HIT], width=160))
    text = console.export_text()
    assert "1.00/0.47/1.00/0.00/0.60/0.00/0.00/0.00" in text and "kw/sem/rec/graph/src/ctx/spk/time" in text
    assert _where_cells(160) == [HIT.path]
