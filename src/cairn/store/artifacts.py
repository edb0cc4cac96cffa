"""The content-addressed artifact store (PRAANA P15, P16): what tools, saved conversations and
exports produced, kept once by content, with a record of who made it from what.

    <home>/artifacts/blobs/<aa>/<sha256>   the bytes (aa: the first two hex digits), written once
    <home>/artifacts/records.jsonl         one line per production: {"id", "at", "kind", "size",
                                           "media", "session", "turn", "tool", "call_id",
                                           "arguments", "inputs", "sources", "owner"}

id = the SHA-256 of the bytes (hex): the same content produced twice is stored once and has two
records. `inputs` are artifact ids it was made from (the lineage query follows them);
`sources` are other references it came from ({"note": id}, {"session": id}). Records are
appended with O_APPEND and fsync'd; a torn last line is skipped when reading. Every path is
built from a validated hex id, so nothing is read or written outside `<home>/artifacts/`.

    put(home, data, kind="tool_output", ...) -> Record      get(home, id) -> bytes
    records(home, owner=...) -> [Record]                    resolve(home, ref, owner) -> id
    lineage(home, id, owner=...) -> {"artifact", "produced_by", "inputs": [lineage...]}
    prune(home, older_than_days=30) -> {"records_removed", "blobs_removed", "bytes_freed", "records_kept"}

Errors: InvalidInput for a malformed id (not 8-64 hex digits), NotFound for an unknown one
(or one only another person produced: `owner`, cairn.people), InvalidInput for an ambiguous
prefix.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from cairn.errors import InvalidInput, NotFound
from cairn.jsonl import read_appended

_LOCK = threading.Lock()
_HEX = re.compile(r"^[0-9a-f]{8,64}$")
MAX_DEPTH = 6  # input levels the lineage query follows


@dataclass
class Record:
    """One production of an artifact (module docstring)."""

    id: str
    at: str
    kind: str
    size: int
    media: str = "application/octet-stream"
    session: str | None = None
    turn: int | None = None
    tool: str | None = None
    call_id: str | None = None
    arguments: dict = field(default_factory=dict)
    inputs: list[str] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    owner: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


def _root(home: Path) -> Path:
    return Path(home) / "artifacts"


def _blob(home: Path, aid: str) -> Path:
    if not _HEX.match(aid) or len(aid) != 64:
        raise InvalidInput(f"invalid artifact id {aid!r}: 64 hex digits expected")
    return _root(home) / "blobs" / aid[:2] / aid


def encode(data) -> tuple[bytes, str]:
    """(bytes, media type) of `data`: bytes as they are, str as UTF-8 text, anything else as
    JSON (sorted keys, so equal values give equal ids)."""
    if isinstance(data, bytes):
        return data, "application/octet-stream"
    if isinstance(data, str):
        return data.encode("utf-8"), "text/plain; charset=utf-8"
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"),
            "application/json")


def _records_lock(home: Path):
    """An exclusive lock on `<home>/artifacts/records.lock` (store.locks.file_lock) for the whole
    append or rewrite of records.jsonl: a prune in one process never drops a record another
    process appends meanwhile."""
    from cairn.store.locks import file_lock
    return file_lock(_root(home) / "records.lock")


def put(home: Path, data, *, kind: str = "tool_output", session: str | None = None, turn: int | None = None,
        tool: str | None = None, call_id: str | None = None, arguments: dict | None = None,
        inputs: list[str] | None = None, sources: list[dict] | None = None, owner: str | None = None,
        media: str | None = None) -> Record:
    """Store `data` (see encode) and append its production record; returns the record."""
    raw, guessed = encode(data)
    aid = hashlib.sha256(raw).hexdigest()
    blob = _blob(home, aid)
    rec = Record(aid, datetime.now(timezone.utc).isoformat(timespec="milliseconds"), kind, len(raw),
                 media or guessed, session, turn, tool, call_id, dict(arguments or {}),
                 [i for i in (inputs or []) if i != aid], list(sources or []), owner)
    line = (json.dumps(rec.to_json(), ensure_ascii=False, default=str) + "\n").encode("utf-8")
    with _LOCK, _records_lock(home):
        if not blob.is_file():
            blob.parent.mkdir(parents=True, exist_ok=True)
            tmp = blob.with_suffix(".tmp")
            tmp.write_bytes(raw)
            os.replace(tmp, blob)
        fd = os.open(_root(home) / "records.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
    return rec


def records(home: Path, owner: str | None = None) -> list[Record]:
    """Every production record, oldest first; with `owner` (a person), only theirs."""
    path = _root(home) / "records.jsonl"
    if not path.is_file():
        return []
    from cairn.people import same_person
    rows, _ = read_appended(path, 0, path.stat().st_size)
    out = []
    for r in rows:
        try:
            rec = Record(**{k: r.get(k) for k in Record.__dataclass_fields__ if k in r})
        except TypeError:
            continue
        if owner is None or same_person(rec.owner, owner):
            out.append(rec)
    return out


def resolve(home: Path, ref: str, owner: str | None = None) -> str:
    """The full id of artifact `ref` (an id or a unique prefix of at least 8 hex digits)."""
    ref = (ref or "").strip().lower()
    if not _HEX.match(ref):
        raise InvalidInput(f"invalid artifact id {ref!r}: 8 to 64 hex digits expected")
    ids = sorted({r.id for r in records(home, owner) if r.id.startswith(ref)})
    if not ids:
        raise NotFound(f"no artifact {ref!r} (`cairn artifacts` lists them)")
    if len(ids) > 1:
        raise InvalidInput(f"artifact id {ref!r} is ambiguous: {', '.join(i[:12] for i in ids[:5])} ...")
    return ids[0]


def get(home: Path, aid: str) -> bytes:
    """The bytes of artifact `aid` (a full id). NotFound when its blob is missing."""
    blob = _blob(home, aid)
    try:
        return blob.read_bytes()
    except FileNotFoundError:
        raise NotFound(f"artifact {aid[:12]} has no stored content") from None


def lineage(home: Path, aid: str, owner: str | None = None, depth: int = MAX_DEPTH) -> dict:
    """What produced artifact `aid` and from what: {"artifact": {"id", "kind", "size",
    "media"}, "produced_by": [Record.to_json()], "inputs": [the same for each input artifact,
    `depth` levels deep; an input already shown higher up is {"id", "seen": true}]}."""
    by_id: dict[str, list[Record]] = {}
    for r in records(home, owner):
        by_id.setdefault(r.id, []).append(r)
    if aid not in by_id:
        raise NotFound(f"no artifact {aid[:12]!r} (`cairn artifacts` lists them)")

    def node(i: str, level: int, seen: set[str]) -> dict:
        recs = by_id.get(i)
        if recs is None:
            return {"id": i, "missing": True}
        if i in seen:
            return {"id": i, "seen": True}
        seen = seen | {i}
        inputs = list(dict.fromkeys(x for r in recs for x in r.inputs))
        first = recs[0]
        return {"artifact": {"id": i, "kind": first.kind, "size": first.size, "media": first.media},
                "produced_by": [r.to_json() for r in recs],
                "inputs": [node(x, level + 1, seen) for x in inputs] if level < depth else
                [{"id": x, "deeper": True} for x in inputs]}

    return node(aid, 0, set())


def prune(home: Path, older_than_days: float = 30.0, now: datetime | None = None) -> dict:
    """Drop the production records made more than `older_than_days` days before `now` (UTC)
    and every blob no remaining record names; records.jsonl is rewritten atomically under the
    records lock. Returns {"records_removed", "blobs_removed", "bytes_freed", "records_kept"}.
    An artifact that a kept record names as an input but that was pruned shows as
    {"missing": true} in `lineage`. Raises InvalidInput for a negative or non-finite age."""
    import math
    days = float(older_than_days)
    if not math.isfinite(days) or days < 0:
        raise InvalidInput(f"older than {older_than_days!r} days: a number of days >= 0 expected")
    cutoff = (now or datetime.now(timezone.utc)).timestamp() - days * 86400
    path = _root(home) / "records.jsonl"
    if not path.is_file():
        return {"records_removed": 0, "blobs_removed": 0, "bytes_freed": 0, "records_kept": 0}
    with _LOCK, _records_lock(home):
        rows, _ = read_appended(path, 0, path.stat().st_size)

        def made_at(row: dict) -> float:
            try:
                return datetime.fromisoformat(str(row.get("at"))).timestamp()
            except ValueError:
                return math.inf  # an unreadable time is kept
        kept = [r for r in rows if made_at(r) >= cutoff]
        if len(kept) < len(rows):
            tmp = path.with_name(f".records.{os.getpid()}.tmp")
            with open(tmp, "wb") as fh:
                fh.write(b"".join((json.dumps(r, ensure_ascii=False, default=str) + "\n").encode("utf-8")
                                  for r in kept))
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        named = {str(r.get("id")) for r in kept}
        blobs = freed = 0
        for blob in (_root(home) / "blobs").glob("*/*"):
            if blob.name not in named and _HEX.match(blob.name) and blob.is_file():
                freed += blob.stat().st_size
                blob.unlink()
                blobs += 1
    return {"records_removed": len(rows) - len(kept), "blobs_removed": blobs, "bytes_freed": freed,
            "records_kept": len(kept)}
