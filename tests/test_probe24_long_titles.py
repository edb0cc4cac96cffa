"""probe24: a note whose title is huge (a frontmatter `title:` of 200,000 characters, or a
first heading that is one 2 MB line) made `cairn search` print 746 KB for three hits: the
title column printed it whole, folded over thousands of lines (an answer's Sources list the
same). Lists now print a title on one line of at most 200 characters, with "…"; `note show`
and --json keep it whole."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from cairn.interfaces.cli_search import hits_table
from cairn.interfaces.terminal_text import LISTED_TITLE_CHARS, listed_title


def _printed(title: str, width: int = 120) -> str:
    hit = SimpleNamespace(title=title, snippet="body text here", path="notes/longtitle.md", page=None,
                          source_id=None, score=0.489, signals={"keyword": 1.0})
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(hits_table([hit], width=width))
    return console.export_text()


def test_a_huge_title_is_listed_cut():
    text = _printed("T" * 200_000)
    assert len(text) < 5_000, len(text)
    assert text.count("T") == LISTED_TITLE_CHARS - 1 and "…" in text


def test_listed_title_keeps_short_titles_and_joins_lines():
    assert listed_title("Boiler service") == "Boiler service"
    assert listed_title("Line one\n  line two") == "Line one line two"
    cut = listed_title("word " * 100)
    assert len(cut) == LISTED_TITLE_CHARS and cut.endswith("…")


def test_the_answer_sources_list_cuts_a_huge_title(capsys):
    from cairn import cli
    ans = SimpleNamespace(fallback=None, answer="It is blue [1].", verdict="pass", mode="extractive", llm=None,
                          citations=[{"n": 1, "title": "T" * 200_000, "path": "notes/x.md", "page": None,
                                      "start": 0, "end": 10, "speaker": None, "source": None}])
    cli._print_answer(ans)
    out = capsys.readouterr().out
    assert len(out) < 2_000 and "…" in out
