"""`cairn import chat` checks every line before writing: each field has its documented JSON
type, message ids are unique per session; a bad line is named (line and field) and nothing
from the file is stored. A later import merges into the archived session by message id."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.ingest import ImportFormatError
from conftest import write, write_jsonl

GOOD = {"conversation": "family", "session": "2024-06-01", "id": "m1", "speaker": "Ana",
        "time": "2024-06-01T09:15:00Z", "text": "Can you book the ferry for the 14th?"}


def _lines(tmp_path, *rows, name="chat.jsonl"):
    return write_jsonl(tmp_path / name, rows)


def _nothing_stored(app):
    assert app.status()["notes"] == 0
    assert not (app.settings.vault / "chats").exists()


@pytest.mark.parametrize("field,value,want", [
    ("speaker", ["A"], "field speaker must be a string, got an array"),
    ("text", {"a": 1}, "field text must be a string, got an object"),
    ("time", 1717233300, "field time must be a string, got a number"),
    ("id", 5.5, "field id must be a string or an integer, got a number"),
    ("id", True, "field id must be a string or an integer, got a boolean"),
    ("conversation", ["x"], "field conversation must be a string or an integer, got an array"),
    ("session", {"s": 1}, "field session must be a string or an integer, got an object"),
    ("speaker", "   ", "field speaker is blank"),
    ("id", "a]1", "field id 'a]1' may not contain ']'"),
])
def test_wrong_type_names_line_and_field_and_stores_nothing(app, tmp_path, field, value, want):
    bad = {**GOOD, "id": "m2", field: value}
    path = _lines(tmp_path, GOOD, bad)
    with pytest.raises(ImportFormatError) as exc:
        app.import_chat(path)
    assert f"line 2: {want}" in str(exc.value)
    _nothing_stored(app)


def test_integer_ids_are_stored_as_their_digits(app, tmp_path):
    path = _lines(tmp_path, {**GOOD, "conversation": 123, "session": 7, "id": 5})
    app.import_chat(path, extract=False)
    note = app.note_show("chats/123/7.md")
    assert note["body"].startswith("## [5] Ana · 2024-06-01T09:15:00Z")
    assert [h.source_id for h in app.search("ferry", mode="keyword").hits] == ["5"]


def test_integer_and_string_id_of_one_session_are_the_same_id(app, tmp_path):
    path = _lines(tmp_path, {**GOOD, "id": 5}, {**GOOD, "id": "5", "time": "2024-06-01T09:16:00Z"})
    with pytest.raises(ImportFormatError, match=r"line 2: duplicate message id '5'"):
        app.import_chat(path)


def test_duplicate_message_id_in_one_session_is_refused(app, tmp_path):
    path = _lines(tmp_path, GOOD, {**GOOD, "id": "m2", "time": "2024-06-01T09:16:00Z"},
                  {**GOOD, "speaker": "Ben", "time": "2024-06-01T09:17:00Z", "text": "dup"})
    with pytest.raises(ImportFormatError) as exc:
        app.import_chat(path)
    assert ("line 3: duplicate message id 'm1' in session family/2024-06-01 (first on line 1)"
            in str(exc.value))
    _nothing_stored(app)


def test_the_same_id_in_two_sessions_is_fine(app, tmp_path):
    path = _lines(tmp_path, GOOD, {**GOOD, "session": "2024-06-02", "time": "2024-06-02T09:15:00Z"})
    report = app.import_chat(path, extract=False)
    assert len(report.added) == 2


def test_import_merges_into_the_archived_session_by_message_id(app, tmp_path):
    rows = [{**GOOD, "id": f"m{i}", "time": f"2024-06-01T09:1{i}:00Z", "text": f"message number {i} about ferries"}
            for i in range(1, 5)]
    app.import_chat(_lines(tmp_path, *rows), extract=False)
    one = {**rows[1], "text": "message two, corrected: the ferry leaves at 08:30"}
    app.import_chat(_lines(tmp_path, one, name="one.jsonl"), extract=False)
    body = app.note_show("chats/family/2024-06-01.md")["body"]
    assert [line.split("]")[0] for line in body.splitlines() if line.startswith("## [")] == \
        ["## [m1", "## [m2", "## [m3", "## [m4"]  # kept, in time order, once each
    assert "corrected: the ferry leaves at 08:30" in body and "message number 2 " not in body
    assert app.status()["chunks"] == 4


def test_docs_describe_the_merge(tmp_path):
    text = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## cairn import chat", 1)[1].split("\n## ", 1)[0]
    assert "replacing what an earlier import wrote" not in section
    assert "merged by id" in section and "never drops the rest" in section


def test_cli_wrong_type_exits_1_with_the_line(tmp_path):
    path = write(tmp_path / "bad.jsonl", json.dumps(GOOD) + "\n" + json.dumps(
        {"conversation": 123, "session": "s", "id": 5, "speaker": ["A"], "time": "2025-01-01T00:00:00Z",
         "text": {"a": 1}}) + "\n")
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(tmp_path / "h"), "import", "chat",
                        "--no-extract", str(path)], capture_output=True, text=True, timeout=300,
                       env={**os.environ})
    assert r.returncode == 1, r.stderr
    assert "line 2: field speaker must be a string, got an array" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "h" / "vault" / "chats").exists()


@pytest.mark.parametrize("sep", [" ", "\t"])
def test_a_time_with_a_space_for_t_is_indexed_and_kept(app, tmp_path, sep):
    """ISO 8601 as Python reads it allows "2024-06-01 09:15:00"; the message heading holds
    no space in its time, so such a message was neither indexed nor kept by a later import
    of the same session (review revJ). It is stored with "T"."""
    first = _lines(tmp_path, {**GOOD, "time": f"2024-06-01{sep}09:15:00"},
                   {**GOOD, "id": "m2", "time": "2024-06-01T09:16:00Z", "text": "Yes, the early one."})
    app.import_chat(first, extract=False)
    assert [h.source_id for h in app.search("ferry", mode="keyword").hits] == ["m1"]
    assert app.search("ferry", mode="keyword").hits[0].event_time.startswith("2024-06-01T09:15:00")
    later = _lines(tmp_path, {**GOOD, "id": "m3", "time": "2024-06-01T09:20:00Z", "text": "Booked."},
                   name="later.jsonl")
    app.import_chat(later, extract=False)
    body = app.note_show("chats/family/2024-06-01.md")["body"]
    assert [line.split("]")[0] for line in body.splitlines() if line.startswith("## [")] == \
        ["## [m1", "## [m2", "## [m3"]
    assert "## [m1] Ana · 2024-06-01T09:15:00\n" in body
    assert app.status()["chunks"] == 3


@pytest.mark.parametrize("written,stored", [("2024-06-01 09:15:00 +02:00", "2024-06-01T09:15:00+02:00"),
                                            ("2024-06-01T09:15:00 Z", "2024-06-01T09:15:00Z")])
def test_a_space_before_the_offset_is_dropped(app, tmp_path, written, stored):
    app.import_chat(_lines(tmp_path, {**GOOD, "time": written}), extract=False)
    assert f"## [m1] Ana · {stored}\n" in app.note_show("chats/family/2024-06-01.md")["body"]
    assert [h.source_id for h in app.search("ferry", mode="keyword").hits] == ["m1"]


def test_carriage_returns_do_not_break_the_archive(app, tmp_path):
    """A "\\r" in a speaker broke the message heading, and a line after a "\\r" in a text was
    not escaped; the vault copy is read back with universal newlines, so a later import of
    the session dropped the message or the rest of its text (review revJ)."""
    rows = [{**GOOD, "speaker": "Ana\rLopez", "text": "Book the ferry.\rAlso ## [m9] Eve · 2024-01-01T00:00:00"},
            {**GOOD, "id": "m2", "time": "2024-06-01T09:16:00Z", "speaker": "Ben",
             "text": "Sure.\r\n## [m8] Eve · 2024-01-01T00:00:00\rdone"}]
    app.import_chat(_lines(tmp_path, *rows), extract=False)
    app.import_chat(_lines(tmp_path, {**GOOD, "id": "m3", "time": "2024-06-01T09:20:00Z", "text": "Booked."},
                           name="later.jsonl"), extract=False)
    body = app.note_show("chats/family/2024-06-01.md")["body"]
    assert [line.split("]")[0] for line in body.splitlines() if line.startswith("## [")] == \
        ["## [m1", "## [m2", "## [m3"]
    assert "## [m1] Ana Lopez · " in body and "Also ## [m9]" in body and "\\## [m8] Eve" in body
    assert "done" in body and app.status()["chunks"] == 3


# --- fields present but blank or null; empty files; names that clean to one path --------

@pytest.mark.parametrize("field,value,want", [
    ("text", "", "field text is blank"),
    ("session", "", "field session is blank"),
    ("conversation", None, "field conversation must be a string or an integer, got null"),
    ("time", None, "field time must be a string, got null"),
])
def test_a_present_blank_or_null_field_is_not_called_missing(app, tmp_path, field, value, want):
    path = _lines(tmp_path, GOOD, {**GOOD, "id": "m2", field: value})
    with pytest.raises(ImportFormatError) as exc:
        app.import_chat(path)
    assert f"line 2: {want}" in str(exc.value) and "missing" not in str(exc.value)
    _nothing_stored(app)


@pytest.mark.parametrize("content", ["", "\n \n"])
def test_a_file_without_messages_is_skipped_and_extracts_nothing(app, tmp_path, content):
    path = write(tmp_path / "empty.jsonl", content)
    report = app.import_chat(path, extract=True)
    assert report.skipped == [(str(path), "the file holds no messages (it is empty or has only blank lines); "
                                          "nothing was imported")]
    assert not report.extracted and report.extractions == [] and "extraction" not in report.to_json()
    _nothing_stored(app)


@pytest.mark.parametrize("first,second,want", [
    ({"conversation": "x"}, {"conversation": "x/../.."},
     "line 2: conversation 'x/../..' would be stored in chats/x/, the folder of conversation 'x' (line 1)"),
    ({"conversation": "Family"}, {"conversation": "family"},
     "line 2: conversation 'family' would be stored in chats/family/, the folder of conversation 'Family' (line 1)"),
    ({"session": "S 1"}, {"session": "s-1"},
     "line 2: session 's-1' of conversation 'family' would be stored at chats/family/s-1.md, "
     "the note of session 'S 1' (line 1)"),
])
def test_names_that_clean_to_one_path_are_refused(app, tmp_path, first, second, want):
    path = _lines(tmp_path, {**GOOD, **first}, {**GOOD, **second, "text": "Another session entirely."})
    with pytest.raises(ImportFormatError) as exc:
        app.import_chat(path)
    assert want in str(exc.value)
    _nothing_stored(app)


def test_a_name_that_cleans_to_an_archived_note_of_another_name_is_refused(app, tmp_path):
    app.import_chat(_lines(tmp_path, GOOD), extract=False)
    note = app.settings.vault / "chats" / "family" / "2024-06-01.md"
    before = note.read_text(encoding="utf-8")
    other = {**GOOD, "conversation": "family/../..", "text": "This must not replace m1."}
    with pytest.raises(ImportFormatError) as exc:
        app.import_chat(_lines(tmp_path, other, name="other.jsonl"), extract=False)
    assert ("line 1: conversation 'family/../..' would be stored in chats/family/, the folder of "
            "conversation 'family' (chats/family/2024-06-01.md in the vault)") in str(exc.value)
    sess = {**GOOD, "session": "2024 06 01", "text": "Nor this."}
    with pytest.raises(ImportFormatError, match=r"line 1: session '2024 06 01' of conversation 'family' would be "
                                                r"stored at chats/family/2024-06-01\.md, the note of session "
                                                r"'2024-06-01' \(chats/family/2024-06-01\.md in the vault\)"):
        app.import_chat(_lines(tmp_path, sess, name="sess.jsonl"), extract=False)
    assert note.read_text(encoding="utf-8") == before and app.status()["notes"] == 1


def test_the_same_names_again_still_merge(app, tmp_path):
    app.import_chat(_lines(tmp_path, {**GOOD, "conversation": 123, "session": 7}), extract=False)
    app.import_chat(_lines(tmp_path, {**GOOD, "conversation": "123", "session": "7", "id": "m2",
                                      "time": "2024-06-01T09:16:00Z", "text": "Booked it."},
                           {**GOOD, "conversation": "123", "session": "8"}, name="more.jsonl"), extract=False)
    body = app.note_show("chats/123/7.md")["body"]
    assert "## [m1]" in body and "## [m2]" in body and app.status()["notes"] == 2


def test_cli_blank_text_and_name_clash_exit_1_without_traceback(tmp_path):
    path = _lines(tmp_path, GOOD, {**GOOD, "id": "m2", "text": ""}, name="blank.jsonl")
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(tmp_path / "h"), "import", "chat",
                        "--no-extract", "-q", str(path)], capture_output=True, text=True, timeout=300,
                       env={**os.environ})
    assert r.returncode == 1 and "line 2: field text is blank" in r.stderr and "Traceback" not in r.stderr
    path = _lines(tmp_path, GOOD, {**GOOD, "conversation": "family/../.."}, name="clash.jsonl")
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(tmp_path / "h"), "import", "chat",
                        "--no-extract", "-q", str(path)], capture_output=True, text=True, timeout=300,
                       env={**os.environ})
    assert r.returncode == 1 and "give one of them another name" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "h" / "vault" / "chats").exists()
