"""The question file of `cairn ask --batch FILE`: parsing and checking, nothing else.

Two formats, decided by the first non-blank line:

- **JSONL** (the first non-blank line starts with `{`): one object per line with a
  `question` (a non-empty string) and an optional `id` (a string or a number; default: the
  line number). Every non-blank line must then be such an object.
- **plain text**: one question per non-blank line; its id is the line number.

Blank lines are skipped in both. A file with no question at all is an error (a batch that
silently answers nothing hides a wrong path or an empty export).
"""

from __future__ import annotations

import json
from pathlib import Path



def read_questions(path: Path | str) -> list[tuple[str, str]]:
    """(id, question) pairs of a `--batch` file (module doc), in file order.

    Raises ValueError "PATH: line N: problem" for a line that is not UTF-8, not valid JSON
    (JSONL file), not an object with a string `question`, with an empty question, with an
    id that is not a string or number, or that repeats an earlier id; ValueError "PATH: no
    questions" for a file with none; OSError when the file cannot be read."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    jsonl: bool | None = None
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"{path}: line {lineno}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
            text = line.strip().lstrip("\ufeff")
            if not text:
                continue
            if jsonl is None:
                jsonl = text.startswith("{")
            if jsonl:
                qid, question = _json_line(path, lineno, text)
            else:
                qid, question = str(lineno), text
            if qid in seen:
                raise ValueError(f"{path}: line {lineno}: id {qid!r} repeats an earlier line's id")
            seen.add(qid)
            out.append((qid, question))
    if not out:
        raise ValueError(f"{path}: no questions (the file is empty or holds only blank lines)")
    return out


def _json_line(path, lineno: int, text: str) -> tuple[str, str]:
    """(id, question) of one JSONL line; ValueError naming the problem."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {lineno}: not valid JSON ({exc.msg} at column {exc.colno})") from exc
    if not isinstance(obj, dict):
        raise ValueError(f"{path}: line {lineno}: expected an object with 'id' and 'question', "
                         f"got {json_type_name(obj)}")
    if "question" not in obj:
        raise ValueError(f"{path}: line {lineno}: missing 'question' (expected an object with 'id' and 'question')")
    question = obj["question"]
    if not isinstance(question, str):
        raise ValueError(f"{path}: line {lineno}: question must be a string, got {json_type_name(question)}")
    if not question.strip():
        raise ValueError(f"{path}: line {lineno}: the question is empty")
    qid = obj.get("id", lineno)
    if isinstance(qid, bool) or not isinstance(qid, (str, int, float)):
        raise ValueError(f"{path}: line {lineno}: id must be a string or a number, got {json_type_name(qid)}")
    return str(qid), question.strip()


def json_type_name(value) -> str:
    """How a JSON value's type is named in error messages ("a string", "a number", "null"...;
    the wording of cairn.ingest's import errors)."""
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)
