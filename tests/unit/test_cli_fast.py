"""The program's fast path for `search` (cairn.interfaces.cli_fast) reads a command line as
typer's `search` command does, and leaves everything else to typer."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cairn import cli
from cairn.interfaces import cli_fast, cli_io, cli_search


def _typer_reads(args: list[str], monkeypatch) -> dict:
    """What typer's `search` command passes on for `args`: the global options and the
    run_search call, recorded instead of run."""
    seen: dict = {}
    monkeypatch.setattr(cli_io, "apply_globals", lambda home, verbose: seen.update(home=home, verbose=verbose))
    import cairn.interfaces.cli_common as common
    monkeypatch.setattr(common, "apply_globals", lambda home, verbose: seen.update(home=home, verbose=verbose))

    def record(query, **kw):
        seen.update(query=query, **kw)
    monkeypatch.setattr(cli_search, "run_search", record)
    res = CliRunner().invoke(cli.app, args, env={"CAIRN_HOME": ""})
    assert res.exit_code == 0, res.output
    return seen


def _fast_reads(args: list[str]) -> dict:
    line = cli_fast.parse_search(args, environ={})
    assert line is not None, args
    return dict(home=line.home, verbose=line.verbose, query=line.query, k=line.k, json_out=line.json_out,
                types=line.types, since=line.since, mode=line.mode, fusion=line.fusion, batch=None,
                entity=line.entity, status=line.status, input_source=line.input_source)


ACCEPTED = [
    ["search", "heron"],
    ["--home", "/h", "search", "heron nests", "--json"],
    ["--home=/h", "-v", "search", "--k", "3", "heron"],
    ["--verbose", "search", "heron", "--k=7", "--mode", "keyword", "--fusion", "rrf"],
    ["search", "heron", "--type", "markdown", "--type=pdf", "--since", "2024-01-02"],
    ["search", "--entity", "Marta", "heron", "--mode=semantic", "--json"],
    ["search", "heron", "--status", "read"],
    ["search", "heron", "--input-source=voice", "--status", "saved"],
    ["search", "--k", "010", "--", "heron"],
    ["search", "--json", "--json", "Děčín"],
]


@pytest.mark.parametrize("args", ACCEPTED)
def test_the_fast_path_reads_a_command_line_as_typer_does(args, monkeypatch):
    assert _fast_reads(args) == _typer_reads(args, monkeypatch)


@pytest.mark.parametrize("args", [
    ["search", "heron", "--help"],
    ["search", "--batch", "q.jsonl"],
    ["search", "heron", "--k", "0"],
    ["search", "heron", "--k", "1001"],
    ["search", "heron", "--k", "ten"],
    ["search", "heron", "--k", "+5"],
    ["search", "heron", "--k=", "--json"],
    ["search", "heron", "--mode", "fuzzy"],
    ["search", "heron", "--mode", "Hybrid"],
    ["search", "heron", "--fusion", "max"],
    ["search", "heron", "--type", "spreadsheet"],
    ["search", "heron", "--k", "1", "--k", "2"],
    ["search", "heron", "--json=yes"],
    ["search", "heron", "--unknown"],
    ["search", "-5 degrees"],
    ["search", "--", "-5 degrees"],
    ["search"],
    ["search", "heron", "egret"],
    ["search", "heron", "--k"],
    ["search", "heron", "--since", "-1"],
    ["search", "heron", "--home", "/h"],
    ["--home", "/h", "--home", "/g", "search", "heron"],
    ["--homes", "/h", "search", "heron"],
    ["--home"],
    ["ask", "heron"],
    ["status"],
    [],
])
def test_anything_else_is_left_to_typer(args):
    assert cli_fast.parse_search(args, environ={}) is None


def test_shell_completion_is_left_to_typer():
    assert cli_fast.parse_search(["search", "heron"], environ={"_CAIRN_COMPLETE": "bash_source"}) is None


def test_the_home_comes_from_cairn_home_unless_given():
    assert cli_fast.parse_search(["search", "x"], environ={"CAIRN_HOME": "/e"}).home == "/e"
    assert cli_fast.parse_search(["search", "x"], environ={"CAIRN_HOME": ""}).home is None
    assert cli_fast.parse_search(["--home", "/h", "search", "x"], environ={"CAIRN_HOME": "/e"}).home == "/h"


def test_every_option_of_the_typer_search_command_is_known_to_the_fast_path():
    import typer.main
    group = typer.main.get_command(cli.app)
    search = group.commands["search"]
    opts = {o for p in search.params for o in p.opts if o.startswith("-")} - {"--help"}
    known = set(cli_fast.VALUE_OPTIONS) | set(cli_fast.FLAG_OPTIONS) | set(cli_fast.LEFT_TO_TYPER)
    assert opts <= known, sorted(opts - known)
    globals_ = {o for p in group.params for o in p.opts if o.startswith("-")} - {"--help"}
    assert globals_ == {"--home", "--verbose", "-v"}


@pytest.mark.parametrize("code, status", [(None, 0), (0, 0), (2, 2), (130, 130), ("a message", 1)])
def test_the_exit_status_of_a_fast_search_is_pythons(code, status, capsys):
    from cairn.interfaces.cli_program import _exit_status
    assert _exit_status(code) == status
    assert capsys.readouterr().err == ("a message\n" if code == "a message" else "")
