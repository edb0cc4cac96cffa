"""`cairn import notes` checks every line before writing, as `import chat` does: each field
has its documented JSON type (id a string or integer; text and title strings; tags a list
of strings or one string; created an ISO 8601 string), text is not blank, record ids are
unique in the file; a bad line is named (file, line, field) and nothing is stored. A file
without records is reported as skipped (exit 0)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.ingest import ImportFormatError
from conftest import write, write_jsonl

GOOD = {"id": "r1", "text": "The boiler was serviced by Harbour Lane Plumbing.", "title": "Boiler",
        "tags": ["home"], "created": "2024-10-09"}
DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def _lines(tmp_path, *rows, name="records.jsonl"):
    return write_jsonl(tmp_path / name, rows)


def _nothing_stored(app):
    assert app.status()["notes"] == 0
    assert not (app.settings.vault / "records").exists()


@pytest.mark.parametrize("field,value,want", [
    ("tags", 7, "field tags must be a list of strings or a string, got a number 7"),
    ("tags", {"a": 1}, "field tags must be a list of strings or a string, got an object"),
    ("tags", ["ok", 3], "field tags[1] must be a string, got a number 3"),
    ("tags", ["ok", " "], "field tags[1] is blank"),
    ("id", {"a": 1}, "field id must be a string or an integer, got an object"),
    ("id", ["r2"], "field id must be a string or an integer, got an array"),
    ("id", 2.5, "field id must be a string or an integer, got a number"),
    ("id", True, "field id must be a string or an integer, got a boolean"),
    ("id", "  ", "field id is blank"),
    ("id", None, "field id must be a string or an integer, got null"),
    ("title", {"t": 1}, "field title must be a string, got an object"),
    ("title", ["a", "b"], "field title must be a string, got an array"),
    ("text", {"a": 1}, "field text must be a string, got an object"),
    ("text", ["a"], "field text must be a string, got an array"),
    ("text", 42, "field text must be a string, got a number"),
    ("text", None, "field text must be a string, got null"),
    ("text", "", "field text is blank"),
    ("text", " \n\t", "field text is blank"),
    ("created", "last week", "created 'last week' is not ISO 8601"),
    ("created", 12345, "field created must be a string, got a number 12345"),
    ("created", "12345", "created '12345' is not ISO 8601"),
    ("created", "2024-13-01", "created '2024-13-01' is not ISO 8601"),
])
def test_wrong_type_names_file_line_and_field_and_stores_nothing(app, tmp_path, field, value, want):
    bad = {**GOOD, "id": "r2", field: value}
    path = _lines(tmp_path, GOOD, bad)
    with pytest.raises(ImportFormatError) as exc:
        app.import_notes(path)
    assert f"records.jsonl: line 2: {want}" in str(exc.value)
    _nothing_stored(app)


def test_a_missing_field_is_still_named_as_missing(app, tmp_path):
    with pytest.raises(ImportFormatError, match=r"line 1: missing field\(s\) text"):
        app.import_notes(_lines(tmp_path, {"id": "r1"}))
    _nothing_stored(app)


def test_duplicate_record_id_is_refused_naming_the_first_line(app, tmp_path):
    path = _lines(tmp_path, GOOD, {**GOOD, "id": "r2"}, {**GOOD, "text": "a second text for r1"})
    with pytest.raises(ImportFormatError) as exc:
        app.import_notes(path)
    assert "records.jsonl: line 3: duplicate record id 'r1' (first on line 1)" in str(exc.value)
    _nothing_stored(app)


def test_integer_and_string_id_are_the_same_id(app, tmp_path):
    path = _lines(tmp_path, {"id": 5, "text": "first"}, {"id": "5", "text": "second"})
    with pytest.raises(ImportFormatError, match=r"line 2: duplicate record id '5' \(first on line 1\)"):
        app.import_notes(path)


def test_a_bad_line_at_the_end_leaves_an_earlier_import_as_it_was(app, tmp_path):
    app.import_notes(_lines(tmp_path, GOOD))
    before = app.note_show(app.search("boiler", mode="keyword").hits[0].path)
    changed = {**GOOD, "text": "The boiler was replaced."}
    with pytest.raises(ImportFormatError, match="line 2: field tags"):
        app.import_notes(_lines(tmp_path, changed, {**GOOD, "id": "r2", "tags": 7}))
    after = app.note_show(before["path"])
    assert after["body"] == before["body"] and app.status()["notes"] == 1


def test_valid_fields_are_stored_as_given(app, tmp_path):
    path = _lines(tmp_path, {"id": 7, "text": "Bin collection moved to Thursdays.", "tags": "home, council",
                             "created": "2024-03-01T08:30:00Z"},
                  {"id": "r2", "text": "Spare key is with the neighbour.", "title": None, "tags": None,
                   "created": None},
                  {"id": "r3", "text": "Chimney sweep booked.", "title": "  ", "created": ""},
                  {"id": "r4", "text": "Smoke alarm battery changed.", "extra": {"ignored": True}})
    report = app.import_notes(path)
    assert len(report.added) == 4 and not report.warnings
    hit = app.search("Thursdays", mode="keyword").hits[0]
    assert hit.source_id == "7"
    note = app.note_show(hit.path)
    assert note["title"] == "7" and note["tags"] == ["home", "council"]
    created = app.conn.execute("SELECT created FROM notes WHERE path = ?", (hit.path,)).fetchone()[0]
    assert created.startswith("2024-03-01T08:30:00")
    assert app.note_show(app.search("neighbour", mode="keyword").hits[0].path)["title"] == "r2"
    assert app.note_show(app.search("sweep", mode="keyword").hits[0].path)["title"] == "r3"
    # a created date accepted at import is read back by reindex without a warning
    assert app.reindex().warnings == []


@pytest.mark.parametrize("content", ["", "\n  \n\n"])
def test_a_file_without_records_is_skipped_not_silent(app, tmp_path, content):
    path = write(tmp_path / "empty.jsonl", content)
    report = app.import_notes(path)
    assert not report.added and not report.failed
    assert report.skipped == [(str(path), "the file holds no records (it is empty or has only blank lines); "
                                          "nothing was imported")]
    _nothing_stored(app)


def test_the_documented_example_imports(app, tmp_path):
    section = DOCS.read_text(encoding="utf-8").split("## cairn import notes", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"```json\n(.*?)```", section, re.DOTALL).group(1)
    report = app.import_notes(write(tmp_path / "records.jsonl", example))
    assert len(report.added) == len(example.strip().splitlines()) == 2
    assert "must be" in section and "duplicate record id" in section and "holds no records" in section


def _cli(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(tmp_path / "h"), *args],
                          capture_output=True, text=True, timeout=300, env={**os.environ})


def test_cli_wrong_tags_type_exits_1_without_traceback(tmp_path):
    path = write(tmp_path / "bad.jsonl", '{"id":"r1","text":"ok","tags":7}\n')
    r = _cli(tmp_path, "import", "notes", "-q", str(path))
    assert r.returncode == 1, r.stderr
    assert "error:" in r.stderr and "bad.jsonl: line 1: field tags must be a list of strings or a string, got a number 7" \
        in " ".join(r.stderr.split())
    assert "Traceback" not in r.stderr and "TypeError" not in r.stderr
    assert not (tmp_path / "h" / "vault" / "records").exists()


def test_cli_duplicate_id_exits_1(tmp_path):
    path = write(tmp_path / "dup.jsonl", '{"id":"r1","text":"one"}\n{"id":"r1","text":"two"}\n')
    r = _cli(tmp_path, "import", "notes", "-q", str(path))
    assert r.returncode == 1 and "line 2: duplicate record id 'r1' (first on line 1)" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "h" / "vault" / "records").exists()


@pytest.mark.parametrize("kind,what", [("notes", "records"), ("chat", "messages")])
def test_cli_empty_file_says_so_and_exits_0(tmp_path, kind, what):
    r = _cli(tmp_path, "import", kind, "-q", os.devnull)
    assert r.returncode == 0, r.stderr
    assert f"the file holds no {what}" in r.stderr and "Traceback" not in r.stderr
    assert "skipped 1" in r.stdout and "extracted 0 fact(s)" not in r.stdout


def test_two_file_names_that_clean_to_one_folder_do_not_overwrite_each_other(app, tmp_path):
    first = _lines(tmp_path, GOOD, name="home notes.jsonl")
    app.import_notes(first)
    hit = app.search("boiler", mode="keyword").hits[0]
    before = (app.settings.vault / hit.path).read_text(encoding="utf-8")
    second = _lines(tmp_path, {**GOOD, "id": "r2", "text": "A new record."},
                    {**GOOD, "text": "This must not replace the boiler record."}, name="home-notes.jsonl")
    with pytest.raises(ImportFormatError) as exc:
        app.import_notes(second)
    assert (f"home-notes.jsonl: line 2: record 'r1' would be stored at {hit.path}, the note of record 'r1' "
            f"imported from {first.resolve()}; rename one of the files") in str(exc.value)
    assert (app.settings.vault / hit.path).read_text(encoding="utf-8") == before
    assert app.status()["notes"] == 1
    app.import_notes(first)  # the file that wrote it may import it again


def test_a_deeply_nested_line_is_named_not_a_crash(app, tmp_path):
    path = write(tmp_path / "records.jsonl", (json.dumps(GOOD) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n").encode())
    with pytest.raises(ImportFormatError, match=r"records.jsonl: line 2: JSON nested too deeply"):
        app.import_notes(path)
    _nothing_stored(app)
