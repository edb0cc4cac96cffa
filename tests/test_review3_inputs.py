"""Bad input at the command line, from a fresh-eyes review (review3, low findings 7, 8, 9, 10,
14, 17): each refused with one clear error naming the problem, or warned about, and nothing
already stored is lost. Commands run in this process through typer's runner; one small home
(a markdown note and an imported calendar event) is built once for the module."""

from __future__ import annotations

import json

import pytest

from cairn.service import Cairn
from conftest import write

EVENT_ICS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//cairn tests//EN
BEGIN:VEVENT
UID:optician-1@cairn.test
DTSTART:20270410T100000Z
DTEND:20270410T103000Z
SUMMARY:Optician check-up
LOCATION:Harbour Opticians
END:VEVENT
END:VCALENDAR
"""


def cli(*args):
    """`cairn ARGS` in this process: (exit code, stdout, stderr or the mixed output)."""
    from typer.testing import CliRunner
    from cairn import cli as C
    res = CliRunner().invoke(C.app, [str(a) for a in args])
    err = getattr(res, "stderr", "") if getattr(res, "stderr_bytes", None) is not None else ""
    return res.exit_code, res.stdout, " ".join((err or res.output).replace("│", " ").split())


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("review3")
    note = write(root / "in" / "garden.md", "# Garden\n\nThe shed key is under the blue pot by the door.\n")
    write(root / "in" / "event.ics", EVENT_ICS)
    with Cairn(root / "home", embedder=real_embedder) as app:
        app.ingest([note])
        app.import_export("ics", root / "in" / "event.ics")
    return root


def _notes(home) -> int:
    code, out, err = cli("--home", home / "home", "status", "--json")
    assert code == 0, err
    return json.loads(out)["notes"]


def test_an_empty_search_is_one_clear_error(home):
    for query in ("", "   "):
        code, out, err = cli("--home", home / "home", "search", query)
        assert code == 1 and err.count("the query is empty") == 1, (code, out, err)
        assert "no results" not in out


def test_search_by_the_type_an_import_writes(home):
    code, out, err = cli("--home", home / "home", "search", "optician", "--type", "event", "--json")
    assert code == 0, err
    assert [h["title"] for h in json.loads(out)["hits"]] == ["Optician check-up"]


@pytest.mark.parametrize("args, message", [
    (["backup", "--to", ""], "the backup folder path is empty"),
    (["export", "--tag", ""], "the tag is empty"),
    (["export", "--tag", "  "], "the tag is empty"),
    (["remind", "call the optician", "--at", "in 2 hours", "--tz", ""], "the time zone is empty"),
])
def test_an_empty_option_value_is_refused(home, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)  # `backup --to ""` once wrote its snapshot into the current folder
    code, out, err = cli("--home", home / "home", *args)
    assert code == 1 and f"error: {message}" in err, (code, out, err)
    assert list(tmp_path.iterdir()) == []
    code, out, _ = cli("--home", home / "home", "reminders", "--json")
    assert code == 0 and json.loads(out) == []


def test_a_file_named_with_a_trailing_slash_is_refused(home):
    before = _notes(home)
    path = f"{home / 'in' / 'garden.md'}/"
    code, out, err = cli("--home", home / "home", "ingest", "-q", path)
    assert code == 1 and f"{path}: not a folder: the trailing '/' names a folder, but this is a file" in err, err
    assert _notes(home) == before


def test_broken_frontmatter_is_warned_about_and_the_note_kept(home):
    bad = write(home / "home" / "vault" / "notes" / "broken.md",
                "---\ntitle: [unclosed\n---\n\nThe ladder hangs on the garage wall.\n")
    code, out, err = cli("--home", home / "home", "sync")
    assert code == 0, err
    assert "warning notes/broken.md: frontmatter: YAML parse error" in err, err
    assert "added notes/broken.md" in " ".join(out.split())
    code, out, err = cli("--home", home / "home", "sync", "--json")  # unchanged now: no second warning
    assert code == 0 and json.loads(out)["warnings"] == []
    assert bad.read_text(encoding="utf-8").startswith("---\ntitle: [unclosed")  # the file as written


def test_an_empty_home_says_how_to_add_notes(tmp_path):
    code, out, err = cli("--home", tmp_path / "empty", "ask", "where is the shed key?", "--llm", "none")
    assert code == 0, err
    assert "holds no notes yet: add some with `cairn ingest PATH`" in " ".join(out.split())
