"""probe25: `cairn import notes` of a line whose text holds a lone surrogate (JSON "\\ud800", half of
a cut emoji) stopped with "line 5: the note for this record could not be read back ('utf-8' codec
can't encode character '\\ud800' in position 154: surrogates not allowed)". The check that refuses
a NUL now names a lone surrogate the same way, for `import notes` and `import chat`; nothing is
stored, as for every bad line."""

from __future__ import annotations

import json

import pytest

from cairn.ingest.importers import ImportFormatError


def _jsonl(path, rows):
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_import_notes_names_a_lone_surrogate(app, tmp_path):
    f = _jsonl(tmp_path / "r.jsonl", [{"id": "r1", "text": "fine text"},
                                       {"id": "r2", "text": "body \u202e eight \ud800"}])
    with pytest.raises(ImportFormatError) as exc:
        app.import_file("notes", f)
    assert "line 2: field text holds a lone surrogate, half of a character (\\ud800)" in str(exc.value)
    assert app.status()["notes"] == 0  # nothing stored


def test_import_chat_names_a_lone_surrogate(app, tmp_path):
    f = _jsonl(tmp_path / "c.jsonl", [{"conversation": "fam", "session": "s1", "id": "m1", "speaker": "Ana\udc00",
                                       "time": "2024-06-01T09:15:00Z", "text": "hello"}])
    with pytest.raises(ImportFormatError) as exc:
        app.import_file("chat", f)
    assert "line 1: field speaker holds a lone surrogate, half of a character (\\udc00)" in str(exc.value)


def test_a_paired_emoji_is_kept(app, tmp_path):
    f = _jsonl(tmp_path / "r.jsonl", [{"id": "r1", "text": "the heron \U0001F426 nests in alders"}])
    app.import_file("notes", f)
    assert app.status()["notes"] == 1
