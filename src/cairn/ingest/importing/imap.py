"""A live mail source over IMAP (`cairn import imap`, settings in the [imap] table), read
only: each folder is opened with EXAMINE (read-only: the server may not change it) and
messages are fetched with BODY.PEEK[] (no \\Seen flag is set); nothing is stored, moved,
flagged or deleted on the server. Standard library `imaplib`, TLS unless `ssl = false`.

Messages are fetched BATCH at a time, each becoming a mail Item (cairn.ingest.importing.mail;
the same id space as mbox and Maildir: a message already imported from a file is known).
Without a Message-ID, the id is the sha1 of the message's bytes, as for an mbox (it outlives
a UIDVALIDITY change). A server that cannot be reached, a refused login or an unknown folder
raise ExportFormatError naming the server (and folder); the password is never shown.

Incremental (RFC 3501 2.3.1.1): per folder, the folder's UIDVALIDITY and the highest UID
imported are kept in `<home>/imap-state.json` (`State`). The next run asks only for the UIDs
above it (`UID SEARCH UID n:*`; "*" always matches the newest message, so the answer is
filtered again). When the server reports another UIDVALIDITY (the folder was rebuilt: old
UIDs mean nothing), every message of the folder is read again; the ids make it add nothing
already imported. The state is saved only after an import that went through (not a dry run,
not one that stopped), so a failed run is repeated whole.
"""

from __future__ import annotations

import imaplib
import json
import os
import re
import socket
import ssl as ssl_lib
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip
from cairn.ingest.importing.mail import FAMILY, content_id, message_item  # noqa: F401  (one id space with the mail files)

BATCH = 50
TIMEOUT_S = 30


STATE_FILE = "imap-state.json"


class State:
    """What was imported from each folder: {"<user>@<host>:<port>/<folder>": {"uidvalidity":
    str, "last_uid": int}}, read from and saved to `<home>/imap-state.json` (a file that
    cannot be read counts as empty: the next run reads every folder again, adding nothing)."""

    def __init__(self, home: Path):
        self.path = Path(home) / STATE_FILE
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.folders: dict[str, dict] = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            self.folders = {}
        self.seen: dict[str, dict] = {}  # what this run read, saved by `save`

    @staticmethod
    def key(cfg, folder: str) -> str:
        return f"{cfg.user}@{cfg.host}:{cfg.port}/{folder}"

    def last_uid(self, key: str, validity: str) -> int:
        """The highest UID imported from the folder under the same UIDVALIDITY, else 0."""
        old = self.folders.get(key)
        if isinstance(old, dict) and str(old.get("uidvalidity")) == validity:
            return int(old.get("last_uid") or 0)
        return 0

    def save(self) -> None:
        """Write what this run read (via a temporary file and rename)."""
        if not self.seen:
            return
        self.folders.update(self.seen)
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        tmp.write_text(json.dumps(self.folders, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _connect(cfg) -> imaplib.IMAP4:
    where = f"imap server {cfg.host}:{cfg.port}"
    if not cfg.host:
        raise ExportFormatError("imap: no server configured (set host, user and folders in the [imap] "
                                "table of config.toml; see docs/import.md)")
    try:
        if cfg.ssl:
            conn = imaplib.IMAP4_SSL(cfg.host, cfg.port, ssl_context=ssl_lib.create_default_context(),
                                     timeout=TIMEOUT_S)
        else:
            conn = imaplib.IMAP4(cfg.host, cfg.port, timeout=TIMEOUT_S)
    except (OSError, imaplib.IMAP4.error) as exc:
        raise ExportFormatError(f"{where}: cannot connect ({getattr(exc, 'strerror', None) or exc})") from None
    password = cfg.password or os.environ.get("CAIRN_IMAP_PASSWORD", "")
    try:
        conn.login(cfg.user, password)
    except (imaplib.IMAP4.error, OSError) as exc:
        reason = str(exc).replace(password, "***") if password else str(exc)
        raise ExportFormatError(f"{where}: login as {cfg.user!r} refused ({reason})") from None
    return conn


def _uidvalidity(conn: imaplib.IMAP4) -> str:
    _, data = conn.response("UIDVALIDITY")
    return (data[0].decode() if data and data[0] else "0")


def _fetched(data) -> Iterator[tuple[str, bytes]]:
    """(uid, message bytes) of a UID FETCH (BODY.PEEK[]) response."""
    for part in data:
        if isinstance(part, tuple) and len(part) == 2:
            m = re.search(rb"UID (\d+)", part[0])
            if m:
                yield m.group(1).decode(), part[1]


def read(cfg, folders: list[str] | None = None, state: State | None = None) -> Iterator[Item | Skip]:
    """Each message of the configured folders (or `folders`) as a mail Item, or a Skip for
    one that cannot be read. `cfg`: cairn.config_sections.ImapSettings. state: what earlier
    runs imported (only newer UIDs are fetched; `state.seen` gets this run's); None: every
    message."""
    conn = _connect(cfg)
    try:
        for folder in folders or cfg.folders:
            typ, data = conn.select(_quote(folder), readonly=True)  # EXAMINE
            if typ != "OK":
                raise ExportFormatError(f"imap server {cfg.host}: folder {folder!r} cannot be opened "
                                        f"({(data[0] or b'').decode(errors='replace')})")
            validity = _uidvalidity(conn)
            key = State.key(cfg, folder)
            last = state.last_uid(key, validity) if state is not None else 0
            typ, data = conn.uid("SEARCH", None, f"UID {last + 1}:*" if last else "ALL")
            uids = [u for u in ((data[0] or b"").split() if typ == "OK" else []) if int(u) > last]
            for i in range(0, len(uids), BATCH):
                batch = b",".join(uids[i:i + BATCH]).decode()
                typ, data = conn.uid("FETCH", batch, "(BODY.PEEK[])")
                if typ != "OK":
                    yield Skip(f"imap {folder}: messages {batch}", "the server did not send them")
                    continue
                for uid, raw in _fetched(data):
                    try:
                        yield message_item(raw, content_id(raw))
                    except (ValueError, LookupError, TypeError) as exc:
                        yield Skip(f"imap {folder}: UID {uid}", f"unreadable ({exc})")
            if state is not None:
                state.seen[key] = {"uidvalidity": validity, "last_uid": max([last] + [int(u) for u in uids])}
            # no CLOSE: selecting the next folder (or LOGOUT) leaves this one as it was
    except (imaplib.IMAP4.abort, socket.timeout, OSError) as exc:
        raise ExportFormatError(f"imap server {cfg.host}: the connection broke ({exc})") from None
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
