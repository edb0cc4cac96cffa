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
    (["--home", "/h", "chat", "--message", "hi", "--json"], False),
    (["chat"], False),
    (["chat", "--why", "--json"], None),
    (["chat", "--approve", "ap-1"], None),
    (["chat", "--deny=ap-1"], None),
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


def test_ctrl_c_in_the_import_machinery_leaves_at_once(monkeypatch, tmp_path):
    """A Ctrl-C that lands in importlib's own code (between `_imp.acquire_lock()` and the
    `try` that releases it, in `_get_module_lock`'s weakref callback) would leave the import
    lock held, and the next import of another thread (an `ask`'s BM25 thread, joined at
    exit) would hang the process for good (1 run in 150 in the session-11 review), also
    once the model has loaded: the handler exits at once with 130 there. Anywhere else (a
    module's own code during an import included) it raises KeyboardInterrupt."""
    import sys

    from cairn.interfaces import cli_program, cli_start
    exits: list[int] = []

    def leave(code):
        exits.append(code)
        raise SystemExit(code)  # os._exit never returns
    monkeypatch.setattr(cli_program.os, "_exit", leave)
    monkeypatch.setattr(cli_start, "_started", [])  # the model has loaded

    frames = []

    class Finder:  # called by importlib: its caller's frame is importlib's bootstrap code
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "cairn_review11_no_such_module":
                frames.append(sys._getframe(1))
            return None
    monkeypatch.setattr(sys, "meta_path", [Finder, *sys.meta_path])
    with pytest.raises(ImportError):
        import cairn_review11_no_such_module  # noqa: F401
    assert frames
    with pytest.raises(SystemExit):
        try:
            cli_program.interrupt(2, frames[0])
        except KeyboardInterrupt:
            pytest.fail("KeyboardInterrupt raised inside importlib's bootstrap code")
    assert exits == [130]
    # A module's own code, run by an import (the importlib frames are below it): raised there.
    (tmp_path / "cairn_review11_module.py").write_text("import sys\nFRAME = sys._getframe()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import cairn_review11_module
    for frame in (cairn_review11_module.FRAME, sys._getframe()):
        with pytest.raises(KeyboardInterrupt):
            cli_program.interrupt(2, frame)
    assert exits == [130]
