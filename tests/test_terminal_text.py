"""Stored text never drives the person's terminal: control sequences in a note or memory are
removed from the command line's human-readable output (interfaces.terminal_text), kept
(escaped) in its JSON."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from cairn.interfaces.terminal_text import SHOWN_AS, SafeConsole, printable

HOSTILE = ("Title \x1b]0;pwned\x07 here; \x1b[2J\x1b[31mred\x1b[0m text, clipboard \x1b]52;c;aGk=\x1b\\ "
           "link \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ 8-bit \x9b2Jdone")


@pytest.mark.parametrize("text, shown", [
    ("plain text, tabs\tand\nlines", "plain text, tabs\tand\nlines"),
    ("\x1b[31mred\x1b[0m", "red"),                          # CSI (SGR) removed whole
    ("a\x1b[2J\x1b[1;1Hb", "ab"),                           # screen clear, cursor move
    ("t\x1b]0;title\x07x", "tx"),                           # OSC ended by BEL
    ("t\x1b]52;c;aGk=\x1b\\x", "tx"),                       # OSC 52 (clipboard) ended by ST
    ("\x1bPq#0;2;0;0;0\x1b\\after", "after"),               # DCS (sixel)
    ("x\x9b31my", "xy"),                                    # 8-bit CSI
    ("windows\r\nline", "windows\nline"),                   # CR LF read as LF
    ("over\rwrite", f"over{SHOWN_AS}write"),                # a lone CR would overwrite the line
    ("bell\x07 back\x08 nul\x00 esc\x1b", f"bell{SHOWN_AS} back{SHOWN_AS} nul{SHOWN_AS} esc{SHOWN_AS}"),
    ("Děčín — café ☕", "Děčín — café ☕"),                  # printable Unicode untouched
    ("rtl\u202etxt.md", "rtltxt.md"),                       # hygiene27: a bidi override ("rtldm.txt" shown)
    ("a\u2067b\u2069 \u202ax\u202c", "ab x"),              # isolates and embeddings too
    ("שלום\u200f world", "שלום\u200f world"),               # a right-to-left mark reorders nothing: kept
])
def test_printable(text, shown):
    assert printable(text) == shown
    assert printable(shown) == shown  # idempotent


def test_printable_returns_clean_text_itself():
    text = "nothing to clean here"
    assert printable(text) is text


def test_safe_console_cleans_text_and_keeps_table_widths():
    from rich.table import Table
    buf = io.StringIO()
    console = SafeConsole(file=buf, width=60, force_terminal=True, color_system="standard")
    table = Table("title", "n")
    table.add_row(HOSTILE[:40], "1")
    table.add_row("plain", "2")
    console.print(table)
    console.print("[bold]bold[/bold] " + HOSTILE)
    text = buf.getvalue()
    assert "\x1b]" not in text and "\x1b[2J" not in text and "\x9b" not in text
    assert "\x1b[1m" in text  # rich's own styling still reaches a terminal
    plain = printable(text)  # the table's lines all have one width once styling is removed
    widths = {len(line) for line in plain.splitlines()[:6] if line.strip()}
    assert len(widths) == 1, plain


def cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))


def test_cli_output_holds_no_control_sequence_from_stored_text(tmp_path):
    home = tmp_path / "home"
    r = cairn(home, "remember", f"my locker code is 4417. {HOSTILE}")  # a memory refuses them (ops/memory)
    assert r.returncode == 1 and "control characters" in r.stderr and "U+001B" in r.stderr, r.stderr
    r = cairn(home, "memories", "--json")
    assert r.returncode == 0 and "4417" not in r.stdout, r.stdout  # nothing stored
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "locker.md").write_text(f"# Locker\n\nMy locker code is 4417. {HOSTILE}\n", encoding="utf-8")
    assert cairn(home, "ingest", str(notes)).returncode == 0  # a note keeps its text as written
    r = cairn(home, "search", "locker code")
    assert r.returncode == 0, r.stderr
    assert "4417" in r.stdout
    assert "\x1b" not in r.stdout and "\x9b" not in r.stdout and "\x07" not in r.stdout, r.stdout
    assert "pwned" not in r.stdout  # the window title's text went with its sequence
    r = cairn(home, "search", "locker code", "--json")
    assert r.returncode == 0, r.stderr
    assert "\\u001b]0;pwned" in r.stdout and "\x1b" not in r.stdout  # JSON: the exact text, escaped
