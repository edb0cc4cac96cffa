"""JSONL importers: notes (`cairn import notes`) and chat transcripts (`cairn import chat`).
The whole file is checked before anything is written.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from cairn import paths as P
from cairn import vault as V
from cairn.people import owner_keys
from cairn.chunk import chunk_chat, format_chat_message
from cairn.config import Settings
from cairn.instants import instant
from cairn.parse import parse_markdown_text
from cairn.parse.errors import ParseError
from cairn.parse.text import decode_bytes
from cairn.store import notes as N
from cairn.errors import InvalidInput
from cairn.report import IngestReport, Progress, json_type_name
from cairn.ingest.embedding import WriteAhead, embed_missing, embed_note, entity_lane
from cairn.ingest.index import _sha1, index_note_file


class ImportFormatError(InvalidInput):
    """A JSONL import file is malformed (message names the file, line and field)."""


def _read_jsonl(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSONL import file. Checks only
    that each line is a JSON object holding every `required` key (its value's type and
    blankness are for `_string_field`). Raises ImportFormatError naming the file and line:
    no such file, not valid JSON, not an object, "missing field(s) a, b"."""
    if not path.exists():
        raise ImportFormatError(f"{path}: no such file")
    out: list[tuple[int, dict]] = []
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ImportFormatError(f"{path}: line {lineno}: not valid JSON ({exc})") from exc
            except RecursionError:
                raise ImportFormatError(f"{path}: line {lineno}: JSON nested too deeply") from None
            if not isinstance(obj, dict):
                raise ImportFormatError(f"{path}: line {lineno}: expected a JSON object")
            missing = [k for k in required if k not in obj]
            if missing:
                raise ImportFormatError(f"{path}: line {lineno}: missing field(s) {', '.join(missing)}")
            out.append((lineno, obj))
    return out


def _wrong_type(path: Path, lineno: int, name: str, want: str, value: Any) -> ImportFormatError:
    shown = "" if value is None else " " + json.dumps(value, ensure_ascii=False)[:60]
    return ImportFormatError(f"{path}: line {lineno}: field {name} must be {want}, "
                             f"got {json_type_name(value)}{shown}")


def _string_field(path: Path, lineno: int, obj: dict, name: str, *, integer: bool = False,
                  optional: bool = False) -> str | None:
    """Field `name` of one JSONL import line as a string: the value must be a JSON string,
    or with integer=True also an integer (returned as its digits, so 5 and "5" are one id;
    a boolean is not an integer), and not blank. optional=True: a field left out, null or
    blank (only whitespace) gives None instead. Shared by `import notes` and `import chat`.
    Raises ImportFormatError "FILE: line N: field NAME must be a string, got an array [...]"
    or "FILE: line N: field NAME is blank"."""
    value = obj.get(name)
    if optional and (value is None or (isinstance(value, str) and not value.strip())):
        return None
    if integer and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise _wrong_type(path, lineno, name, "a string or an integer" if integer else "a string", value)
    if not value.strip():
        raise ImportFormatError(f"{path}: line {lineno}: field {name} is blank")
    _no_nul(path, lineno, name, value)
    return value


def _no_nul(path: Path, lineno: int, name: str, value: str) -> None:
    """Raise ImportFormatError when `value` holds a NUL character (JSON "\\u0000": a note holding
    one is read back as binary data) or a lone surrogate (JSON "\\ud800" unpaired: no UTF-8 writes it)."""
    if bad := re.search("[\x00\ud800-\udfff]", value):
        what = "a NUL character" if bad.group() == "\x00" else "a lone surrogate, half of a character"
        raise ImportFormatError(f"{path}: line {lineno}: field {name} holds {what} "
                                f"(\\u{ord(bad.group()):04x}), which a note cannot store; remove it")


def _iso_time(path: Path, lineno: int, name: str, value: str) -> None:
    """Raise ImportFormatError unless `value` is an ISO 8601 date or date-time as Python's
    `datetime.fromisoformat` reads it ("2024-10-09", "2024-10-09T08:30:00Z"). Stricter
    than the index's rule for a note's dates (parse.markdown.to_iso, which also takes
    epoch seconds and surrounding spaces) and memory.temporal.parse_time (surrounding
    spaces): whatever passes here is accepted by both."""
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ImportFormatError(f"{path}: line {lineno}: {name} {value!r} is not ISO 8601 "
                                "(write 2024-10-09 or 2024-10-09T08:30:00Z)") from None


def _empty_file(path: Path, report: IngestReport, what: str) -> IngestReport:
    """The report of an import whose file holds no line at all (an empty file, /dev/null,
    only blank lines): the file is listed as skipped, which leaves the exit code 0."""
    report.skipped.append((str(path), f"the file holds no {what} (it is empty or has only blank lines); "
                                      "nothing was imported"))
    return report


def _write_and_index(conn: sqlite3.Connection, settings: Settings, relpath: str, fm: dict,
                     body: str, report: IngestReport, label: str,
                     undo: list[tuple[Path, bytes | None]] | None = None, text: str | None = None) -> str:
    """Write a generated vault note (only if its text changed) and index it; returns its
    note id. undo: gets (path, bytes before or None) before the file is written, for
    `_roll_back`. text: the note already rendered from `fm` with the owner's keys and
    `body` (`_check_renders`). Raises PathOutside (nothing written) when the note's folder
    leads outside the vault."""
    if text is None:
        text = V.render_note({**owner_keys(settings.owner), **fm}, body)
    target = settings.vault / relpath
    P.confine(settings.vault, target)
    if not (target.exists() and target.read_text(encoding="utf-8") == text):
        if undo is not None:
            undo.append((target, target.read_bytes() if target.exists() else None))
        V.atomic_write(target, text)
    status, note_id, _ = index_note_file(conn, settings, target)
    {"added": report.added, "updated": report.updated, "metadata": report.updated,
     "unchanged": report.unchanged}[status].append(label)
    return note_id


NOTE_FIELDS = ("id", "text")  # required; title, tags and created are optional


@dataclass
class _Record:
    """One checked line of a notes import (see `_note_record`)."""

    lineno: int
    id: str
    text: str
    title: str | None
    tags: list[str]
    created: str | None


def _note_record(path: Path, lineno: int, obj: dict) -> _Record:
    """One line of a notes import, checked: id a string or integer (written as digits),
    text a string, neither blank; title a string, created an ISO 8601 date or date-time
    string (`_iso_time`), tags a list of strings or one string of tags separated by commas
    or spaces; an optional field left out, null or blank counts as not given. Other keys
    are ignored. Raises ImportFormatError naming the file, line and field."""
    rid = _string_field(path, lineno, obj, "id", integer=True)
    text = _string_field(path, lineno, obj, "text")
    title = _string_field(path, lineno, obj, "title", optional=True)
    created = _string_field(path, lineno, obj, "created", optional=True)
    if created is not None:
        _iso_time(path, lineno, "created", created)
    raw_tags = obj.get("tags")
    if raw_tags is None:
        tags: list[str] = []
    elif isinstance(raw_tags, str):
        _no_nul(path, lineno, "tags", raw_tags)
        tags = [t for t in raw_tags.replace(",", " ").split() if t]
    elif isinstance(raw_tags, list):
        tags = []
        for n, tag in enumerate(raw_tags):
            if not isinstance(tag, str):
                raise _wrong_type(path, lineno, f"tags[{n}]", "a string", tag)
            if not tag.strip():
                raise ImportFormatError(f"{path}: line {lineno}: field tags[{n}] is blank")
            _no_nul(path, lineno, f"tags[{n}]", tag)
            tags.append(tag)
    else:
        raise _wrong_type(path, lineno, "tags", "a list of strings or a string", raw_tags)
    return _Record(lineno, rid, text, title, tags, created)


def _check_record_owner(path: Path, vault: Path, rec: _Record, relpath: str, note_id: str) -> None:
    """Refuse to overwrite a record note that another import file wrote: file names that
    clean to the same folder ("a b.jsonl" and "a-b.jsonl" both give records/a-b/) would
    otherwise replace each other's records of the same id. The note at `relpath` belongs
    to this file when its frontmatter id is `note_id` (or it has none, or is unreadable).
    Raises ImportFormatError naming the line, the path and the other file."""
    target = vault / relpath
    if not target.is_file():
        return
    try:
        fm, _ = V.split_frontmatter(target.read_text(encoding="utf-8", errors="replace"), lenient=True)
    except OSError:
        return
    if fm.get("id") and str(fm["id"]) != note_id:
        other = str(fm.get("source") or "another file").rsplit("#", 1)[0]
        raise ImportFormatError(f"{path}: line {rec.lineno}: record {rec.id!r} would be stored at {relpath}, "
                                f"the note of record {str(fm.get('source_id', rec.id))!r} imported from "
                                f"{other}; rename one of the files")


def import_notes_jsonl(conn: sqlite3.Connection, settings: Settings, path: Path, embedder,
                       progress: Progress | None = None) -> IngestReport:
    """Import records `{id, text, title?, tags?, created?}`, one note each. The whole file is
    checked before anything is written (`_note_record`: types, blanks, ISO dates; ids
    unique in the file): ImportFormatError names the file, line and field, nothing is
    written. A file with no records is reported as skipped (`_empty_file`)."""
    records: list[_Record] = []
    first_line: dict[str, int] = {}
    for lineno, obj in _read_jsonl(path, NOTE_FIELDS):
        rec = _note_record(path, lineno, obj)
        if rec.id in first_line:
            raise ImportFormatError(f"{path}: line {lineno}: duplicate record id {rec.id!r} "
                                    f"(first on line {first_line[rec.id]})")
        first_line[rec.id] = lineno
        records.append(rec)
    report = IngestReport()
    if not records:
        return _empty_file(path, report, "records")
    undo: list[tuple[Path, bytes | None]] = []
    keys = {"fact_keys": settings.memory.fact_keys, "neighbour_keys": settings.memory.neighbour_keys}
    # started first: the entity worker loads spaCy on the core the checks leave idle
    with entity_lane(settings, len(records)) as entities_many:
        notes = [_rendered(path, settings, rec) for rec in records]
        with WriteAhead(conn, embedder, settings.chunk.embed_max_chunks, **keys) as ahead:
            try:
                for i, (rec, relpath, fm, text) in enumerate(notes):
                    ahead.written(_write_and_index(conn, settings, relpath, fm, rec.text, report,
                                                   f"{path.name}:{rec.lineno}", undo, text))
                    if progress:
                        progress("import", i + 1, len(records))
            except BaseException as exc:
                raise _stopped(conn, settings, undo, embedder, path, exc, f"line {rec.lineno}: ")
            report.embedded, report.reused_vectors = embed_missing(
                conn, embedder, progress, settings.chunk.embed_max_chunks, ahead=ahead,
                entities_many=entities_many, **keys)
    return report


def _rendered(path: Path, settings: Settings, rec: _Record) -> tuple[_Record, str, dict, str]:
    """(record, vault path, frontmatter, note text) of one record of a notes import, checked
    (`_check_record_owner`, `_check_renders`) as every record is before anything is written."""
    relpath = f"records/{P.not_device(V.slugify(path.stem))}/{V.slugify(rec.id, 80)}-{_sha1(rec.id)[:6]}.md"
    note_id = V.stable_id(f"rec:{path.name}:{rec.id}")
    _check_record_owner(path, settings.vault, rec, relpath, note_id)
    fm: dict[str, Any] = {"generator": "cairn", "id": note_id, "title": rec.title or rec.id, "type": "record",
                          "source_id": rec.id, "source": f"{path.resolve()}#{rec.id}", "input_source": "import"}
    fm.update({k: v for k, v in (("created", rec.created), ("tags", rec.tags)) if v})
    fm = {**owner_keys(settings.owner), **fm}
    return rec, relpath, fm, _check_renders(path, rec.lineno, relpath, fm, rec.text)


def _stopped(conn: sqlite3.Connection, settings: Settings, undo: list[tuple[Path, bytes | None]], embedder,
             path: Path, exc: BaseException, where: str = "") -> BaseException:
    """Put back what an import of `path` wrote (`_roll_back`) when `exc` stopped it; returns what
    to raise: an ImportFormatError naming the file (and `where`) for a failed write (OSError,
    ValueError), else `exc` (a Ctrl-C or SIGTERM marked `rolled_back` for cli_io._stopped)."""
    _roll_back(conn, settings, undo, embedder)
    if isinstance(exc, (OSError, ValueError)):
        err = ImportFormatError(f"{path}: {where}the import stopped ({_reason(exc)}); "
                                "nothing was imported (the vault and index are as before)")
        err.__cause__ = exc
        return err
    if isinstance(exc, KeyboardInterrupt):
        exc.rolled_back = f"nothing from {path} was imported (the vault and index are as before)"
    return exc


def _check_renders(path: Path, lineno: int, relpath: str, fm: dict, body: str) -> str:
    """The note `fm` + `body` as written to the vault; raises ImportFormatError (naming the
    line) unless it reads back as the index reads it (`decode_bytes`, `parse_markdown_text`):
    checked for every record before anything is written, so a record that could be written
    but not indexed stops the import while nothing has changed."""
    text = V.render_note(fm, body)
    try:
        decode_bytes(text.encode("utf-8"))
        parse_markdown_text(text, relpath.rsplit("/", 1)[-1])
    except (ParseError, ValueError, RecursionError) as exc:
        raise ImportFormatError(f"{path}: line {lineno}: the note for this record could not be "
                                f"read back ({_reason(exc)}); nothing was imported") from None
    return text


def _reason(exc: BaseException) -> str:
    """An exception's message for a person: its text, never its class name alone."""
    if isinstance(exc, OSError):  # with the file it concerns, when known
        return f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else exc.strerror or str(exc)
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc) or "unreadable"


def _roll_back(conn: sqlite3.Connection, settings: Settings, undo: list[tuple[Path, bytes | None]],
               embedder) -> None:
    """Put every file in `undo` (path, bytes before or None = did not exist) back as it was,
    newest first, and bring its index rows back in line (re-index, or drop the note); a restored
    note gets its old vectors back from the vector cache (`embed_note(cached_only=True)`)."""
    for target, before in reversed(undo):
        relpath = V.rel(settings.vault, target)
        try:
            if before is None:
                target.unlink(missing_ok=True)
                row = N.get_note_by_path(conn, relpath)
                if row is not None:
                    with N.transaction(conn):
                        N.delete_note(conn, row.id)
            else:
                V.atomic_write(target, before.decode("utf-8"))
                note_id = index_note_file(conn, settings, target)[1]
                if embedder is not None:  # None: a dry run's (which writes nothing)
                    embed_note(conn, embedder, note_id, settings.chunk.embed_max_chunks, cached_only=True,
                               fact_keys=settings.memory.fact_keys, neighbour_keys=settings.memory.neighbour_keys)
        except (OSError, ValueError, sqlite3.Error):
            continue  # best effort: the next sync reconciles what is left


def _merge_with_archive(path: Path, msgs: list[dict]) -> list[dict]:
    """Messages already archived for this session plus the new ones (same id: new wins), so
    importing part of a session again never drops earlier messages."""
    if not path.exists():
        return msgs
    doc = parse_markdown_text(path.read_text(encoding="utf-8"), path.name)
    merged = {c.source_id: {"id": c.source_id, "speaker": c.speaker, "time": c.event_time,
                            "text": c.text.replace("\\## [", "## [")}
              for c in chunk_chat(doc.body.strip())}
    merged.update({str(m["id"]): m for m in msgs})
    return list(merged.values())


CHAT_FIELDS = ("conversation", "session", "id", "speaker", "time", "text")


_NAME_FIELDS = ("conversation", "session", "id")  # a string, or an integer (written as digits)


def _chat_message(path: Path, lineno: int, obj: dict) -> dict[str, str]:
    """The six fields of one chat line as strings. conversation, session and id must be a
    JSON string or integer; speaker, time and text a string; no field may be blank and an
    id may not hold "]" or a line break (it is written into the message heading). Line
    breaks in the speaker become a space, and "\\r\\n" or a lone "\\r" in the text "\\n".
    Raises ImportFormatError naming the line and the field."""
    out = {name: _string_field(path, lineno, obj, name, integer=name in _NAME_FIELDS)
           for name in CHAT_FIELDS}
    if "]" in out["id"] or "\n" in out["id"] or "\r" in out["id"]:
        raise ImportFormatError(f"{path}: line {lineno}: field id {out['id']!r} may not contain ']' or a line break")
    # The archive note is read back with universal newlines (a lone "\r" ends a line): a
    # speaker stays on its heading line, and a text's lines are the ones written and escaped.
    out["speaker"] = re.sub(r"[\r\n]+", " ", out["speaker"])
    out["text"] = re.sub(r"\r\n?", "\n", out["text"])
    return out


def _chat_time(path: Path, lineno: int, time: str) -> str:
    """`time` (already read by datetime.fromisoformat) without whitespace, as the message
    heading needs (chunk.format_chat_message: a time with a space is not read back, so the
    message would be neither indexed nor kept by a later import): a space between date and
    time becomes "T" ("2024-06-01 09:15" -> "2024-06-01T09:15"), one before the offset is
    dropped. ImportFormatError when that changes the moment it names."""
    if not re.search(r"\s", time):
        return time
    fixed = re.sub(r"\s", "", re.sub(r"^(\S+?)\s+(?=\d)", r"\1T", time, count=1))
    try:
        same = (datetime.fromisoformat(fixed.replace("Z", "+00:00"))
                == datetime.fromisoformat(time.replace("Z", "+00:00")))
    except (ValueError, TypeError):  # TypeError: naive against aware
        same = False
    if not same:
        raise ImportFormatError(f"{path}: line {lineno}: time {time!r}: write it without spaces "
                                "(2024-06-01T09:15:00Z)")
    return fixed


def _session_relpath(conv: str, sess: str) -> str:
    """The vault path of a chat session's note: chats/<slug of conversation>/<slug of session>.md."""
    return f"chats/{P.not_device(V.slugify(conv))}/{P.not_device(V.slugify(sess) + '.md')}"


def _archived_names(vault: Path, folder: str) -> dict[str, tuple[str, str]]:
    """{relpath: (conversation, session)} of the session notes already in chats/<folder>/,
    as their frontmatter names them (notes without both names are left out)."""
    out: dict[str, tuple[str, str]] = {}
    base = vault / "chats" / folder
    if not base.is_dir():
        return out
    for note in sorted(base.glob("*.md")):
        try:
            fm, _ = V.split_frontmatter(note.read_text(encoding="utf-8", errors="replace"), lenient=True)
        except OSError:
            continue
        if fm.get("conversation") is not None and fm.get("session") is not None:
            out[f"chats/{folder}/{note.name}"] = (str(fm["conversation"]), str(fm["session"]))
    return out


def _check_session_names(path: Path, vault: Path, first_line: dict[tuple[str, str], int]) -> None:
    """Refuse conversation and session names that differ but clean (`V.slugify`) to the same
    vault place, so two of them never merge into one note: two conversations of the import
    sharing a folder (`x/../..` and `x` both give chats/x/), two sessions of one conversation
    sharing a file, or a name whose folder or file already holds a session note written for
    another conversation or session name. first_line: {(conversation, session): first line}.
    Raises ImportFormatError naming the line, both names and the path."""
    folders: dict[str, tuple[str, str]] = {}  # folder -> (conversation, where it was seen)
    files: dict[str, tuple[str, str]] = {}  # relpath -> (session, where it was seen)
    for (conv, sess), lineno in first_line.items():
        folder = V.slugify(conv)
        relpath = _session_relpath(conv, sess)
        if folder not in folders:
            folders[folder] = (conv, f"line {lineno}")
            for other_path, (other_conv, other_sess) in _archived_names(vault, folder).items():
                if other_conv != conv:
                    folders[folder] = (other_conv, f"{other_path} in the vault")
                    break
                files.setdefault(other_path, (other_sess, f"{other_path} in the vault"))
        other_conv, where = folders[folder]
        if other_conv != conv:
            raise ImportFormatError(
                f"{path}: line {lineno}: conversation {conv!r} would be stored in chats/{folder}/, "
                f"the folder of conversation {other_conv!r} ({where}); give one of them another name")
        other_sess, where = files.setdefault(relpath, (sess, f"line {lineno}"))
        if other_sess != sess:
            raise ImportFormatError(
                f"{path}: line {lineno}: session {sess!r} of conversation {conv!r} would be stored at "
                f"{relpath}, the note of session {other_sess!r} ({where}); give one of them another name")


def import_chat_jsonl(conn: sqlite3.Connection, settings: Settings, path: Path, embedder,
                      progress: Progress | None = None,
                      after_index: Callable[[list[str]], None] | None = None) -> IngestReport:
    """Import chat messages `{conversation, session, id, speaker, time, text}` into the
    verbatim archive: one vault note per (conversation, session), one indexed unit per
    message, event time = the message's own `time` (ISO 8601, validated). A session already
    in the archive is merged by message id (`_merge_with_archive`: same id = new wins, the
    others are kept). The whole file is checked first (`_chat_message`: types, blanks; ids
    unique per session; `_check_session_names`: names that differ never share a note):
    ImportFormatError names the line and field, nothing is written. A file with no
    messages is reported as skipped (`_empty_file`) and `after_index` is not called.
    after_index: called with the imported sessions' note ids once they are indexed and
    before embedding (fact extraction hooks in here, so messages are embedded once); the
    messages are embedded even when the hook raises (the exception then propagates)."""
    rows = _read_jsonl(path, CHAT_FIELDS)
    sessions: dict[tuple[str, str], list[dict]] = {}
    first_line: dict[tuple[str, str, str], int] = {}
    session_line: dict[tuple[str, str], int] = {}
    for lineno, raw in rows:
        msg = _chat_message(path, lineno, raw)
        _iso_time(path, lineno, "time", msg["time"])
        msg["time"] = _chat_time(path, lineno, msg["time"])
        key = (msg["conversation"], msg["session"], msg["id"])
        if key in first_line:
            raise ImportFormatError(f"{path}: line {lineno}: duplicate message id {msg['id']!r} in session "
                                    f"{msg['conversation']}/{msg['session']} (first on line {first_line[key]})")
        first_line[key] = lineno
        if (msg["conversation"], msg["session"]) not in sessions:
            session_line[(msg["conversation"], msg["session"])] = lineno
        sessions.setdefault((msg["conversation"], msg["session"]), []).append(msg)
    report = IngestReport()
    if not sessions:
        return _empty_file(path, report, "messages")
    _check_session_names(path, settings.vault, session_line)
    note_ids: list[str] = []
    planned = []
    for (conv, sess), msgs in sessions.items():
        relpath = _session_relpath(conv, sess)
        msgs = _merge_with_archive(settings.vault / relpath, msgs)
        msgs.sort(key=lambda m: instant(str(m["time"])) or "")  # in time order, whatever the offsets
        fm = {"generator": "cairn", "id": V.stable_id(f"chat:{conv}:{sess}"),
              "title": f"{conv} — {sess}", "type": "chat", "conversation": conv,
              "session": sess, "source": str(path.resolve()), "input_source": "import",
              "created": str(msgs[0]["time"]), "event_time": str(msgs[0]["time"]),
              "speakers": sorted({str(m["speaker"]) for m in msgs})}
        body = "".join(format_chat_message(str(m["id"]), str(m["speaker"]).replace("\n", " "),
                                           str(m["time"]), str(m["text"])) for m in msgs)
        _check_renders(path, session_line[(conv, sess)], relpath, fm, body)
        planned.append((conv, sess, relpath, fm, body))
    from cairn import ner
    ner.preload()  # while the sessions are written: the entity pass of embed_missing needs it
    undo: list[tuple[Path, bytes | None]] = []
    for i, (conv, sess, relpath, fm, body) in enumerate(planned):
        try:
            _write_and_index(conn, settings, relpath, fm, body, report, f"{conv}/{sess}", undo)
        except BaseException as exc:  # all or nothing: put back what this import wrote
            raise _stopped(conn, settings, undo, embedder, path, exc)
        note_ids.append(fm["id"])
        if progress:
            progress("import", i + 1, len(sessions))
    try:
        if after_index is not None:
            after_index(note_ids)
    finally:  # a failing hook never leaves the written messages without vectors
        report.embedded, report.reused_vectors = embed_missing(
            conn, embedder, progress, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys,
            neighbour_keys=settings.memory.neighbour_keys)
    return report
