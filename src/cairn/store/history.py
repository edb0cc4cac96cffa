"""Note history: every state of a note's file that Cairn wrote or saw, kept under the home.

Layout (`<home>/history/`, never inside the vault's note folders):
- `blobs/<aa>/<sha256>.z` — a file's exact bytes, zlib-compressed, named by the sha256 of
  the uncompressed bytes (one copy however many versions share it);
- `notes/<sha1(note id)>.jsonl` — one line per version of one note, oldest first:
  {"version": int (1, 2, ...), "at": UTC ISO, "by": who made it, "action": "create" |
   "update" | "restore" | "undo" | "delete" | "outside" | "seen", "note_id", "path",
   "hash": sha256 hex of the bytes or null for a delete, "size": bytes, "undoes": version
   or absent};
- `log.jsonl` — the same entries for every note in the order they were written (the undo
  of "the assistant's last change" reads it backwards).

Who made a change (`by`) is the actor of the running context (`acting(by)`: "cli", "rest",
"web", "mcp", "assistant", ...) and "outside" for an edit Cairn only saw (sync, watcher).
Appends are serialised between processes by an exclusive flock on `history/.lock`; a
version number is never reused. Reads never raise for a missing note: an empty list.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from cairn.errors import NotFound

_actor: contextvars.ContextVar[str | None] = contextvars.ContextVar("cairn_history_actor", default=None)


class VersionNotFound(NotFound):
    """The note has no version with that number (message names the versions it has)."""


@contextlib.contextmanager
def acting(by: str) -> Iterator[None]:
    """Attribute every note version recorded inside the block to `by` (a door or "assistant")."""
    token = _actor.set(by)
    try:
        yield
    finally:
        _actor.reset(token)


def actor(default: str | None = None) -> str | None:
    """The actor set by the innermost `acting` block, else `default`."""
    return _actor.get() or default


def root(home: Path) -> Path:
    """`<home>/history`."""
    return Path(home) / "history"


def _note_log(home: Path, note_id: str) -> Path:
    import hashlib  # here, not at the top: a search imports this module and never hashes (cold start)
    return root(home) / "notes" / (hashlib.sha1(note_id.encode("utf-8")).hexdigest() + ".jsonl")


def _blob(home: Path, digest: str) -> Path:
    return root(home) / "blobs" / digest[:2] / f"{digest}.z"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _locked(home: Path):
    from cairn.store.locks import file_lock
    return file_lock(root(home) / ".lock")


def _read_lines(path: Path) -> list[dict]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a line cut by a crash: the versions before and after it stand
    return out


def _append(path: Path, entry: dict, durable: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
        fh.flush()
        if durable:
            os.fsync(fh.fileno())


def _put_blob(home: Path, data: bytes, durable: bool = True) -> str:
    import hashlib
    import zlib
    digest = hashlib.sha256(data).hexdigest()
    target = _blob(home, digest)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            fh.write(zlib.compress(data, 6))
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, target)
    return digest


def versions(home: Path, note_id: str) -> list[dict]:
    """Every version of `note_id`, oldest first (the entries described above)."""
    return _read_lines(_note_log(home, note_id))


def latest(home: Path, note_id: str) -> dict | None:
    """The newest version of `note_id`, or None."""
    found = versions(home, note_id)
    return found[-1] if found else None


def record(home: Path, note_id: str, path: str, data: bytes | None, *, by: str, action: str,
           undoes: int | None = None, only_if_new: bool = False, durable: bool = True) -> dict | None:
    """Keep `data` (the file's bytes; None for a delete) as the next version of `note_id`.
    only_if_new: skip (return None) when the newest version already holds these exact bytes
    at this path. durable: fsync what is written (False for the states an ingest or sync
    sees, whose bytes the vault holds anyway: one file a note, no flush each). Returns the
    entry written."""
    import hashlib
    home = Path(home)
    with _locked(home):
        log = _note_log(home, note_id)
        found = _read_lines(log)
        digest = hashlib.sha256(data).hexdigest() if data is not None else None
        if only_if_new and found and found[-1].get("hash") == digest and found[-1].get("path") == path:
            return None
        if data is not None:
            _put_blob(home, data, durable)
        entry = {"version": (found[-1]["version"] + 1) if found else 1, "at": _now(), "by": by,
                 "action": action, "note_id": note_id, "path": path, "hash": digest,
                 "size": len(data) if data is not None else 0}
        if undoes is not None:
            entry["undoes"] = undoes
        _append(log, entry, durable)
        _append(root(home) / "log.jsonl", entry, durable)
        return entry


def read_bytes(home: Path, entry: dict) -> bytes:
    """The exact bytes of version `entry`. Raises VersionNotFound for a delete entry and
    ValueError when the stored copy is damaged (its sha256 differs)."""
    import hashlib
    import zlib
    digest = entry.get("hash")
    if not digest:
        raise VersionNotFound(f"version {entry.get('version')} records a delete: it has no text")
    data = zlib.decompress(_blob(Path(home), digest).read_bytes())
    if hashlib.sha256(data).hexdigest() != digest:
        raise ValueError(f"the stored copy of version {entry.get('version')} is damaged")
    return data


def get(home: Path, note_id: str, version: int) -> dict:
    """The entry of `version` of `note_id`. Raises VersionNotFound naming the versions kept."""
    found = versions(home, note_id)
    for e in found:
        if e.get("version") == version:
            return e
    have = f"1..{found[-1]['version']}" if found else "none"
    raise VersionNotFound(f"the note has no version {version} (versions kept: {have})")


def log_entries(home: Path) -> list[dict]:
    """Every entry of every note in the order written (oldest first)."""
    return _read_lines(root(Path(home)) / "log.jsonl")


def _rewrite(path: Path, entries: list[dict]) -> None:
    """Replace a log file with `entries` atomically (a temporary file, fsynced, then renamed)."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def prune(home: Path, keep_versions: int, keep_days: float, *, now: datetime | None = None) -> dict:
    """Forget old versions: of each note keep its newest `keep_versions` versions and every
    version newer than `keep_days` days; then drop the stored copies no kept version uses
    and the pruned entries from `log.jsonl` (an undo only ever needs the versions kept).
    Returns {"notes": notes pruned, "versions": entries removed, "blobs": copies removed,
    "bytes": their compressed size}. Raises ValueError for keep_versions < 1 or keep_days < 0."""
    if keep_versions < 1:
        raise ValueError(f"keep_versions must be at least 1 (the newest version is always kept), got {keep_versions}")
    if not keep_days >= 0:  # nan too: it would keep no recent version
        raise ValueError(f"keep_days must be 0 or more, got {keep_days}")
    home = Path(home)
    cutoff = ((now or datetime.now(timezone.utc)).timestamp() - keep_days * 86400.0)
    report = {"notes": 0, "versions": 0, "blobs": 0, "bytes": 0}
    with _locked(home):
        kept_ids: set[tuple[str, int]] = set()
        kept_hashes: set[str] = set()
        for log in sorted((root(home) / "notes").glob("*.jsonl")):
            found = _read_lines(log)
            tail = {id(e) for e in found[-keep_versions:]}
            keep = [e for e in found if id(e) in tail or _timestamp(e) >= cutoff]
            if len(keep) < len(found):
                _rewrite(log, keep)
                report["notes"] += 1
                report["versions"] += len(found) - len(keep)
            kept_ids.update((e.get("note_id"), e.get("version")) for e in keep)
            kept_hashes.update(e["hash"] for e in keep if e.get("hash"))
        if report["versions"]:
            main_log = root(home) / "log.jsonl"
            _rewrite(main_log, [e for e in _read_lines(main_log) if (e.get("note_id"), e.get("version")) in kept_ids])
        for blob in sorted((root(home) / "blobs").glob("*/*.z")):
            if blob.name[:-2] not in kept_hashes:
                report["bytes"] += blob.stat().st_size
                blob.unlink()
                report["blobs"] += 1
    return report


def _timestamp(entry: dict) -> float:
    """An entry's `at` as POSIX seconds (0.0 when unreadable: such an entry only survives in
    the newest `keep_versions`)."""
    try:
        return datetime.fromisoformat(entry["at"]).timestamp()
    except (KeyError, TypeError, ValueError):
        return 0.0
