"""API keys for callers outside the machine (`cairn keys`, docs/server.md).

A key is `cairn_<id>_<secret>`: `id` 8 hex digits (public, names the record), `secret` 43
URL-safe characters (256 random bits, `secrets.token_urlsafe(32)`). Only its SHA-256 is
stored, in `<home>/keys.json` (mode 0600): {"keys": [{"id", "name", "scope", "hash",
"created", "revoked", "person"?}]}; a key with a person acts for that person only
(cairn.people). The full key is returned once, by `create`. A plain hash (no salt,
no stretching) is enough because the secret is random, not a password. Checking compares
digests with `hmac.compare_digest` (constant time), also for a malformed or unknown key.

Scopes: "read" < "write" < "admin" (cairn.tools.SCOPES). Errors: InvalidInput (bad name or
scope), Conflict (name taken), NotFound (revoke of an unknown key), Unauthorized (verify).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from cairn.errors import Conflict, InvalidInput, NotFound, Unauthorized
from cairn.tools import SCOPES

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_TOKEN = re.compile(r"^cairn_([0-9a-f]{8})_([A-Za-z0-9_-]{20,100})$")
_DUMMY = hashlib.sha256(b"cairn-no-such-key").hexdigest()
_LOCK = threading.Lock()


def keys_path(home: Path) -> Path:
    """`<home>/keys.json`."""
    return Path(home) / "keys.json"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ApiKey:
    """A stored key (never its secret): id, name, scope, created, revoked (ISO time or
    None), person (who the key acts for, cairn.people; None: the home's own person)."""

    id: str
    name: str
    scope: str
    created: str
    revoked: str | None = None
    person: str | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "scope": self.scope, "created": self.created,
                "revoked": self.revoked, "active": self.revoked is None, "person": self.person}


class KeyStore:
    """The keys of one home. Re-reads keys.json when it changed on disk (a key revoked by
    `cairn keys revoke` in another process is refused at once)."""

    def __init__(self, home: Path) -> None:
        self.path = keys_path(home)
        self._stamp: tuple[int, int] | None = None
        self._rows: list[dict] = []

    def _read(self) -> list[dict]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._stamp, self._rows = None, []
            return []
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                rows = data.get("keys", []) if isinstance(data, dict) else []
            except ValueError as exc:
                raise InvalidInput(f"{self.path} is not valid JSON ({exc}); fix or remove it") from None
            self._stamp, self._rows = stamp, [r for r in rows if isinstance(r, dict)]
        return self._rows

    def _write(self, rows: list[dict]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".keys.{os.getpid()}.{threading.get_ident()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"keys": rows}, f, indent=2)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.path)
        self._stamp = None

    def create(self, name: str, scope: str = "read", person: str | None = None) -> tuple[ApiKey, str]:
        """A new key named `name` with `scope`, acting for `person` (None: the home's own
        person, who sees everything); returns (record, full key). The key is not stored and
        cannot be shown again. InvalidInput for a malformed person name, the empty one
        included: `--person "$NAME"` with NAME unset must not make a key that sees everything."""
        from cairn.people import check_person
        if person == "":
            raise InvalidInput("person '': use 1-64 letters, digits, '.', '_' or '-' (leave --person out "
                               "for a key of the home's own person)")
        person = check_person(person)
        if not isinstance(name, str) or not _NAME.match(name):
            raise InvalidInput(f"key name {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
        if scope not in SCOPES:
            raise InvalidInput(f"scope {scope!r} is not one of {', '.join(SCOPES)}")
        with _LOCK:
            rows = list(self._read())
            if any(r.get("name") == name and not r.get("revoked") for r in rows):
                raise Conflict(f"an active key is already named {name!r} (`cairn keys revoke {name}` first)")
            ids = {r.get("id") for r in rows}
            kid = secrets.token_hex(4)
            while kid in ids:
                kid = secrets.token_hex(4)
            token = f"cairn_{kid}_{secrets.token_urlsafe(32)}"
            row = {"id": kid, "name": name, "scope": scope, "hash": _digest(token),
                   "created": datetime.now(timezone.utc).isoformat(timespec="seconds"), "revoked": None}
            if person:
                row["person"] = person
            self._write(rows + [row])
        return _key(row), token

    def list(self) -> list[ApiKey]:
        """Every key, revoked ones too, oldest first."""
        with _LOCK:
            return [_key(r) for r in self._read()]

    def revoke(self, ref: str) -> ApiKey:
        """Revoke the active key whose name or id is `ref`. NotFound when none is."""
        with _LOCK:
            rows = [dict(r) for r in self._read()]
            hit = [r for r in rows if ref in (r.get("name"), r.get("id")) and not r.get("revoked")]
            if not hit:
                raise NotFound(f"no active key named {ref!r} (`cairn keys list` shows them)")
            hit[0]["revoked"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
            self._write(rows)
        return _key(hit[0])

    def active(self) -> int:
        """How many keys are not revoked."""
        with _LOCK:
            return sum(1 for r in self._read() if not r.get("revoked"))

    def verify(self, token: str) -> ApiKey:
        """The active key `token` is. Raises Unauthorized (wrong, malformed or revoked)."""
        m = _TOKEN.match(token or "")
        with _LOCK:
            rows = self._read()
        row = next((r for r in rows if m and r.get("id") == m.group(1)), None)
        ok = hmac.compare_digest(_digest(token or ""), (row or {}).get("hash") or _DUMMY)
        if not (m and row and ok):
            raise Unauthorized("the API key is not valid (check it, or create one with `cairn keys create NAME`)")
        if row.get("revoked"):
            raise Unauthorized(f"the API key {row.get('name')!r} was revoked on {row['revoked']}")
        return _key(row)


def _key(row: dict) -> ApiKey:
    return ApiKey(str(row.get("id")), str(row.get("name")), str(row.get("scope", "read")),
                  str(row.get("created", "")), row.get("revoked"), row.get("person") or None)
