"""cairn.interfaces.cli_start: what the program reads from its command line before typer."""

from __future__ import annotations

import pytest

from cairn.interfaces.cli_start import (command_name, embeds_query, home_option, is_program, option_value,
                                        start_early)


@pytest.mark.parametrize("args, name", [
    (["search", "x"], "search"),
    (["--home", "/h", "search", "x"], "search"),
    (["--home=/h", "-v", "ask", "q"], "ask"),
    (["-v"], None),
    ([], None),
    (["--home"], None),
])
def test_command_name(args, name):
    assert command_name(args) == name


def test_option_value_both_spellings_and_the_last_wins():
    assert option_value(["--mode", "keyword"], "--mode") == "keyword"
    assert option_value(["--mode=semantic"], "--mode") == "semantic"
    assert option_value(["--mode", "keyword", "--mode=hybrid"], "--mode") == "hybrid"
    assert option_value(["--mode"], "--mode") is None
    assert option_value(["--model", "x"], "--mode") is None


def test_home_option_is_read_before_the_command_only():
    assert home_option(["--home", "/a", "search", "x"]) == "/a"
    assert home_option(["--home=/b", "search", "x"]) == "/b"
    assert home_option(["search", "--home", "/c"]) is None  # after the command it is not the global option
    assert home_option(["status"]) is None


@pytest.mark.parametrize("args, expected", [
    (["search", "heron"], True),
    (["search", "heron", "--mode", "semantic"], True),
    (["search", "heron", "--mode", "keyword"], None),
    (["search", "--mode=keyword", "heron"], None),
    (["search", "heron", "--help"], None),
    (["ask", "why?"], False),
    (["status"], None),
    ([], None),
])
def test_embeds_query(args, expected):
    assert embeds_query(args) is expected


def test_only_the_program_starts_early():
    assert is_program(["/usr/bin/cairn", "search"]) and is_program(["/x/cairn/__main__.py"])
    assert not is_program(["pytest", "search"]) and not is_program([])
    assert start_early(["pytest", "search", "heron"]) is None
    assert start_early(["cairn", "status"]) is None


def test_ctrl_c_leaves_at_once_only_while_the_model_is_still_loading(monkeypatch):
    """The program's Ctrl-C handler for commands typer runs (an `ask`): while a start-up
    thread still loads the model, KeyboardInterrupt could land in an import the thread is
    also making and hang the process, so it exits at once with 130; afterwards it raises
    KeyboardInterrupt as Python's default handler does."""
    import threading

    from cairn.interfaces import cli_program, cli_start
    exits: list[int] = []

    def leave(code):
        exits.append(code)
        raise SystemExit(code)  # os._exit never returns
    monkeypatch.setattr(cli_program.os, "_exit", leave)
    release = threading.Event()
    loader = threading.Thread(target=release.wait)
    loader.start()
    monkeypatch.setattr(cli_start, "_started", [loader])
    try:
        with pytest.raises(SystemExit):
            cli_program.interrupt(2, None)
        assert exits == [130]
    finally:
        release.set()
        loader.join()
    with pytest.raises(KeyboardInterrupt):
        cli_program.interrupt(2, None)
    assert exits == [130]
