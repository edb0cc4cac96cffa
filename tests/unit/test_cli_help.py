"""Every `--help` shows its text as written: a config section named in a help string
("default: [search] k") is printed, not eaten as rich markup (typer renders help with rich,
where an unescaped `[word]` is a style tag and vanishes)."""

from __future__ import annotations

import re

import click
import typer
from typer.testing import CliRunner

from cairn import cli

# a config section named in a help text, escaped for rich (\[search]) or not ([search])
BRACKETED = re.compile(r"\\?\[([a-z_][a-z_.\-]*)\]")


def _is_group(command) -> bool:
    """True for a group of commands (typer ships its own copy of click: not click.Group)."""
    return isinstance(getattr(command, "commands", None), dict)


def _commands(group, path: tuple[str, ...] = ()):
    """(path, command) for every command and group below `group`, depth first."""
    for name, command in sorted(group.commands.items()):
        yield path + (name,), command
        if _is_group(command):
            yield from _commands(command, path + (name,))


def _texts(command: click.Command) -> list[str]:
    """The help strings of a command: its own and its parameters'."""
    texts = [command.help or ""]
    texts += [getattr(p, "help", None) or "" for p in command.params]
    return [t for t in texts if t]


def test_bracketed_section_names_survive_in_every_help_page():
    root = typer.main.get_command(cli.app)
    runner = CliRunner()
    lost, pages = [], 0
    for path, command in _commands(root):
        wanted = {f"[{m.group(1)}]" for text in _texts(command) for m in BRACKETED.finditer(text)}
        if not wanted:
            continue
        pages += 1
        res = runner.invoke(cli.app, [*path, "--help"], env={"COLUMNS": "250", "CAIRN_HOME": ""})
        assert res.exit_code == 0, (path, res.output)
        flat = " ".join(res.output.replace("│", " ").split())
        lost += [(" ".join(path), token) for token in sorted(wanted) if token not in flat]
    assert pages > 0  # the walk reached help strings that name a section
    assert not lost, f"help text lost as rich markup (escape it as \\\\[section]): {lost}"


def test_command_summaries_are_not_broken_where_the_source_wrapped_them():
    # With room for any summary on one line, a row of a commands table never continues on
    # the next line: the docstrings' own line breaks are not kept in the table.
    root = typer.main.get_command(cli.app)
    runner = CliRunner()
    groups = [()] + [path for path, command in _commands(root) if _is_group(command)]
    broken = []
    for path in groups:
        res = runner.invoke(cli.app, [*path, "--help"], env={"COLUMNS": "1000", "CAIRN_HOME": ""})
        assert res.exit_code == 0, (path, res.output)
        panel = res.output.split("Commands")[-1].splitlines()
        # a continuation row starts with blanks where a row starts with a command's name
        broken += [(" ".join(path), line.strip("│ ")) for line in panel
                   if line.startswith("│   ") and line.strip("│ ")]
    assert len(groups) > 3
    assert not broken, broken
