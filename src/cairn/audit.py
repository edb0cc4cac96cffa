"""The audit log: an append-only record of every write and every judged decision.

One JSON object per line in `<home>/audit/audit.jsonl`, flushed and fsync'd per line:
{"at": ISO-8601 UTC, "actor": who (e.g. "cli", "key:NAME", "assistant", "mcp"),
 "action": what (e.g. "note.create", "tool.delete_note"), "target": id or name or None,
 "outcome": "ok" | "denied" | "failed" | "pending" | "vetoed" | ..., "detail": free JSON,
 "person": the person (cairn.people) the write was made for, absent for the home's own}.
Secrets never go in: `detail` values under keys that look like secrets are replaced by
"[redacted]", and in `target` and every text of `detail` (a memory's or reminder's words) a
value after a secret's label ("password: X", "PIN 4412", "token is X"; a value holding a
digit or symbol, so "password reset" stays) and a key of a known shape (sk-…, ghp_…,
github_pat_…, xox?-…, AKIA…, AIza…, cairn_…, Bearer …) become "[redacted]" (`redact_text`). Reading is `entries(home, limit)` (newest last; `viewer` a named person: only
the entries made for them). Errors: OSError when the home
is not writable (the caller's write is then refused too: a write that cannot be audited fails).
"""

from __future__ import annotations

import json
import os
import re
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cairn.people import same_person

_LOCK = threading.Lock()
_SECRET_KEY = re.compile(r"(?i)(token|secret|password|api[_-]?key|authorization|bearer)")


def audit_path(home: Path) -> Path:
    """`<home>/audit/audit.jsonl`."""
    return Path(home) / "audit" / "audit.jsonl"


# A secret's label, what may sit between it and the value, and a value with a digit or symbol.
_LABELLED = re.compile(r"(?i)\b(passwords?|passwd|passphrase|passcode|pin(?: code)?|api[ _-]?key|access[ _-]?key|"
                       r"private[ _-]?key|token|secret|credentials?)\b([^:=\n]{0,30}?(?:[:=]|\bis\b)\s*|\s+)"
                       r"[\"']?(?=[^\s,;\"']*[\d_+/=!@#$%^&*-])[^\s,;\"']{3,}")
_SHAPED = re.compile(r"\b(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|"
                     r"xox[abprs]-[\w-]{10,}|AKIA[0-9A-Z]{16}|AIza[\w-]{30,}|cairn_[0-9a-f]{8}_[\w-]+)|"
                     r"(?i:(?<=bearer )[^\s\"']+)")


def redact_text(text: str) -> str:
    """`text` with labelled secret values and keys of a known shape replaced by "[redacted]"
    (see the module docstring)."""
    text = _SHAPED.sub("[redacted]", text)
    return _LABELLED.sub(lambda m: m.group(1) + m.group(2) + "[redacted]", text)


def redact(value: Any) -> Any:
    """`value` with every dict entry whose key names a secret replaced by "[redacted]", and
    every text through `redact_text`."""
    if isinstance(value, dict):
        return {k: ("[redacted]" if _SECRET_KEY.search(str(k)) else redact(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def record(home: Path, actor: str, action: str, target: str | None = None, outcome: str = "ok",
           detail: dict | None = None, person: str | None = None) -> dict:
    """Append one audit entry (see the module docstring) and return it. person: who the
    write was made for (cairn.people; None: the home's own person, no "person" key)."""
    entry = {"at": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), "actor": actor,
             "action": action, "target": redact(target), "outcome": outcome, "detail": redact(detail or {})}
    if person:
        entry["person"] = person
    path = audit_path(home)
    line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
    with _LOCK:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
    return entry


def entries(home: Path, limit: int = 100, action: str | None = None, viewer: str | None = None) -> list[dict]:
    """The last `limit` entries (oldest first), optionally only those whose action starts
    with `action`. viewer: a named person (cairn.people) sees only the entries made for
    them; None (the home's own person) sees all. A torn last line (a crash mid-write) is
    skipped."""
    path = audit_path(home)
    if not path.is_file():
        return []
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if viewer is not None and (not isinstance(e, dict) or not same_person(e.get("person"), viewer)):
                continue
            if action is None or str(e.get("action", "")).startswith(action):
                out.append(e)
    return out[-limit:] if limit else out
