"""What `cairn search` does once its command line is read, whichever parser read it: typer's
(cli.py's `search` command) or the program's fast path (cli_fast). Nothing here imports typer.

Results go to stdout (a table, JSON with `json_out`, JSONL for a batch); warnings and errors
to stderr. Errors exit through cli_io (SystemExit with the code cli.py documents).
"""

from __future__ import annotations

from pathlib import Path

from cairn.interfaces.terminal_text import listed_title
from cairn.interfaces.cli_io import (Table, _arg_text, _dump, _early, _error_text, _service, _usage_fail, err, escape, out,
                                     plain_err)

#: The per-signal column of the table: these signals, each as 0.00, joined by "/".
SIGNAL_COLUMNS = ("keyword", "semantic", "recency", "graph", "source", "context", "speaker", "time")


#: Terminal columns from which the signals fit on one line beside a readable title and path.
WIDE_TABLE = 120


def hits_table(hits, width: int | None = None):
    """The hits as a rich Table: rank, title and snippet, where (path, page, message id),
    fused score, and the per-signal scores in SIGNAL_COLUMNS order. width: the terminal's
    columns (default: stdout's console); under WIDE_TABLE the signals take two lines."""
    narrow = (width if width is not None else out.width) < WIDE_TABLE
    table = Table(show_lines=False, expand=True)
    table.add_column("#", justify="right", width=3)
    table.add_column("title / snippet", ratio=2 if narrow else 3, overflow="fold")
    table.add_column("where", ratio=1, min_width=12, overflow="fold")  # a path wraps, never "notes/d…"
    table.add_column("score", justify="right", width=6)
    # 8 x "0.00" joined by "/": 39 characters on one line from WIDE_TABLE columns on; below,
    # two lines of four (19), so in an 80-column terminal `where` keeps its room instead of
    # 3 characters ("not / es/ / pro …", probe23).
    if narrow:
        table.add_column("kw/sem/rec/graph\nsrc/ctx/spk/time", width=19)
    else:
        table.add_column("kw/sem/rec/graph/src/ctx/spk/time", width=39)  # the title keeps its room
    for i, h in enumerate(hits, 1):
        where = h.path + (f" p.{h.page}" if h.page else "") + (f" #{h.source_id}" if h.source_id else "")
        s = h.signals
        values = [f"{s.get(n, 0):.2f}" for n in SIGNAL_COLUMNS]
        signals = "/".join(values[:4]) + "\n" + "/".join(values[4:]) if narrow else "/".join(values)
        table.add_row(str(i), f"[bold]{escape(listed_title(h.title))}[/bold]\n{escape(h.snippet)}", escape(where),
                      f"{h.score:.3f}", signals)
    return table


def run_search(query: str | None, *, k: int | None = None, json_out: bool = False,
               types: list[str] | None = None, since: str | None = None, mode: str = "hybrid",
               fusion: str | None = None, batch: Path | None = None, entity: str | None = None,
               status: str | None = None, input_source: str | None = None) -> None:
    """Run `cairn search` with its options already parsed (plain values: mode, fusion and
    types as strings). Exactly one of `query` and `batch` (a JSONL file of {id, query}) is
    given, else a usage error (exit 2); a bad --since or batch file is a usage error too,
    reported before the index is opened; an empty or blank QUERY is an error (exit 1). Prints the hits, or exits with an error."""
    from cairn.validate import check_query, check_since
    _early(check_since, since, "--since", code=2)  # the service's rule, checked before the index opens
    if (query is None) == (batch is None):
        _usage_fail("give either a QUERY or --batch FILE")
    if query is not None:
        _early(check_query, query)  # `search ""`: one clear error and exit 1, as `ask ""`
    if batch is not None:
        from cairn.service import read_batch_file
        try:  # read before the index is opened: a bad file is a usage error (exit 2)
            queries = read_batch_file(batch)
        except (OSError, ValueError) as exc:
            _usage_fail(f"--batch {_error_text(exc)}")
    with _service(preload=mode, query=True) as svc:
        if batch is not None:
            for row in svc.search_batch(queries, k=k, mode=mode, fusion=fusion, types=types, since=since,
                                        entity=entity, status=status, input_source=input_source):
                _dump(row.to_json(), compact=True)
            return
        res = svc.search(_arg_text(query), k=k, mode=mode, fusion=fusion, types=types, since=since,
                         entity=_arg_text(entity) if entity is not None else None, status=status,
                         input_source=input_source)
    if json_out:  # no rich at all: its import (~20 ms) would be most of a cold search's output
        for w in res.warnings:
            plain_err(f"warning: {w}")
        _dump(res.to_json())
        return
    for w in res.warnings:
        err.print(f"[yellow]warning:[/yellow] {escape(w)}")
    if not res.hits:
        out.print("no results" + (" (see warnings above)" if res.warnings else ""))
        return
    out.print(hits_table(res.hits))
    if res.below_floor and len(res.hits) < (k or 10):
        err.print(f"{res.below_floor} less related note(s) not shown: below the relevance floor "
                  f"(cosine < {res.semantic_floor:g}, \\[search] semantic_floor)")
