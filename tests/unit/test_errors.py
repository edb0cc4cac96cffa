"""One error hierarchy (src/cairn/errors.py): every exception class Cairn raises for a person's
mistake or an unavailable dependency is a CairnError of a category (with its exit code and
HTTP status) and still an instance of what it was before; the CLI maps CairnError at its edge
and lets anything else (a bug) surface with its traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cairn import errors as E
from cairn.config import ConfigError, HomeNotWritable
from cairn.embed.export import ExportError
from cairn.embed.errors import EmbedderUnavailable
from cairn.fetch import FetchError, FetchFailed, FetchTimeout, FetchTooLarge, FetchUnreachable, URLRefused
from cairn.ingest import ImportFormatError
from cairn.jobs import PermanentJobError
from cairn.links import AmbiguousNote, NoteNotFound
from cairn.llm.errors import LLMBadResponse, LLMContextOverflow, LLMError, LLMTimeout, LLMUnavailable
from cairn.memory.extract import InvalidReply
from cairn.memory.store import MemoryNotFound
from cairn.noteops import NoteConflict
from cairn.parse.errors import EmptyDocument, ParseError, TooLarge, UndecodableText, UnsupportedFormat
from cairn.parse.notebook import NotANotebook
from cairn.store.db import IndexOpenError
from cairn.tools import ToolNotFound
from cairn.vault import FrontmatterError

CASES = [  # (instance, category class, the base it had before)
    (PermanentJobError("x"), E.InvalidInput, Exception),
    (ConfigError("x"), E.InvalidInput, ValueError),
    (HomeNotWritable(__import__("pathlib").Path("/nowhere"), "permission denied"), E.Unavailable, RuntimeError),
    (LLMError("x"), E.Unavailable, RuntimeError),
    (LLMUnavailable("x"), E.Unavailable, RuntimeError),
    (LLMTimeout("x"), E.Unavailable, RuntimeError),
    (LLMContextOverflow("x"), E.Unavailable, RuntimeError),
    (LLMBadResponse("x"), E.Unavailable, RuntimeError),
    (ImportFormatError("x"), E.InvalidInput, ValueError),
    (NoteNotFound("x"), E.NotFound, ValueError),
    (AmbiguousNote("x"), E.InvalidInput, ValueError),
    (NoteConflict("x"), E.Conflict, ValueError),
    (IndexOpenError("x"), E.Unavailable, RuntimeError),
    (ExportError("x"), E.Unavailable, RuntimeError),
    (EmbedderUnavailable("x"), E.Unavailable, RuntimeError),
    (ParseError("x"), E.InvalidInput, Exception),
    (UnsupportedFormat("GIF image", "not read"), E.InvalidInput, ParseError),
    (UndecodableText("x"), E.InvalidInput, ParseError),
    (EmptyDocument("x"), E.InvalidInput, ParseError),
    (TooLarge(10, 5), E.TooLarge, ParseError),
    (NotANotebook("x"), E.InvalidInput, ParseError),
    (FetchError("x"), E.Unavailable, Exception),
    (URLRefused("x"), E.InvalidInput, FetchError),
    (FetchTooLarge("x"), E.TooLarge, FetchError),
    (FetchTimeout("x"), E.Unavailable, FetchError),
    (FetchFailed("x", transient=True), E.Unavailable, FetchError),
    (FetchUnreachable("x"), E.Unavailable, FetchFailed),
    (InvalidReply("x"), E.InvalidInput, ValueError),
    (MemoryNotFound("x"), E.NotFound, ValueError),
    (FrontmatterError("x"), E.InvalidInput, ValueError),
    (ToolNotFound("x"), E.NotFound, ValueError),
]


@pytest.mark.parametrize("exc,category,before", CASES, ids=lambda v: type(v).__name__ if isinstance(v, Exception) else None)
def test_every_error_class_is_a_cairn_error_of_its_category(exc, category, before):
    assert isinstance(exc, category) and isinstance(exc, before)
    assert exc.http_status == category.http_status and exc.category == category.category
    assert exc.exit_code == 1
    body = exc.to_json()
    assert body["error"] == category.category and body["message"] == str(exc)


def test_user_error_is_one_line_and_its_exit_code(tmp_path, monkeypatch):
    from cairn import cli
    from cairn.service import Cairn

    def refuse(self):
        raise E.NotFound("no such thing: zebra")

    monkeypatch.setattr(Cairn, "status", refuse)
    res = CliRunner().invoke(cli.app, ["--home", str(tmp_path / "h"), "status"])
    assert res.exit_code == 1
    assert "no such thing: zebra" in res.output and "Traceback" not in res.output
    assert isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("bug", [ZeroDivisionError("division by zero"), ValueError("a bare ValueError is a bug"),
                                 KeyError("k")])
def test_a_bug_surfaces_with_its_traceback(tmp_path, monkeypatch, bug):
    from cairn import cli
    from cairn.service import Cairn

    def broken(self):
        raise bug

    monkeypatch.setattr(Cairn, "status", broken)
    res = CliRunner().invoke(cli.app, ["--home", str(tmp_path / "h"), "status"])
    assert res.exit_code == 1
    assert res.exception is bug  # not turned into a one-line "error:" message
    assert "error:" not in res.output


def test_rules_that_lived_in_the_cli_are_the_service_s(app):
    with pytest.raises(E.InvalidInput, match="is not an ISO date"):
        app.search("heron", since="last week")
    with pytest.raises(E.InvalidInput, match="the question is empty"):
        app.ask("   ", llm="none")
    with pytest.raises(E.NotFound, match="mem_nope") as info:
        app.forget("  mem_nope \n")  # ids are stripped by the service: the message names the bare id
    assert "  mem_nope" not in str(info.value) and "\\n" not in str(info.value)
