"""The `cairn` program (console script and `python -m cairn`): starts what a command will
need early (cli_start), runs a plain `search` command line without typer (cli_fast), and
hands everything else to the typer application (cairn.cli).

Importing this module does nothing; `main()` runs the program.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the `cairn` command line `argv` (default sys.argv; argv[0] is the program) and
    return its exit code (errors exit through SystemExit, as typer's commands do). For the
    fast path a Ctrl-C outside the service reads "Aborted!" with exit code 1, as under typer."""
    from cairn.interfaces.cli_start import start_early
    if argv is not None:
        sys.argv[:] = argv
    sys.argv[0] = sys.argv[0].removesuffix(".exe")
    start_early()  # the model session of a search starts now, before any other import
    from cairn.interfaces.cli_fast import parse_search, run
    line = parse_search(sys.argv[1:])
    if line is not None:
        try:
            run(line)
        except KeyboardInterrupt:
            sys.stderr.write("\nAborted!\n")
            return 1
        return 0
    from cairn.cli import app
    return app(prog_name="cairn")
