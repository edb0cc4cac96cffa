"""A live mail source over IMAP (`cairn import imap`, settings in the [imap] table), read
only: each folder is opened with EXAMINE (read-only: the server may not change it) and
messages are fetched with BODY.PEEK[] (no \\Seen flag is set); nothing is stored, moved,
flagged or deleted on the server. Standard library `imaplib`, TLS unless `ssl = false`.

Messages are fetched BATCH at a time, each becoming a mail Item (cairn.ingest.importing.mail;
the same id space as mbox and Maildir: a message already imported from a file is known).
Without a Message-ID, the id is "imap:<host>/<folder>;UIDVALIDITY=<v>/;UID=<uid>" (RFC 5092's
parts: fixed for the message's life in that folder). A server that cannot be reached, a
refused login or an unknown folder raise ExportFormatError naming the server (and folder);
the password is never shown.
"""

from __future__ import annotations

import imaplib
import os
import re
import socket
import ssl as ssl_lib
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip
from cairn.ingest.importing.mail import FAMILY, message_item  # noqa: F401  (one id space with the mail files)

BATCH = 50
TIMEOUT_S = 30


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


def read(cfg, folders: list[str] | None = None) -> Iterator[Item | Skip]:
    """Each message of the configured folders (or `folders`) as a mail Item, or a Skip for
    one that cannot be read. `cfg`: cairn.config_sections.ImapSettings."""
    conn = _connect(cfg)
    try:
        for folder in folders or cfg.folders:
            typ, data = conn.select(_quote(folder), readonly=True)  # EXAMINE
            if typ != "OK":
                raise ExportFormatError(f"imap server {cfg.host}: folder {folder!r} cannot be opened "
                                        f"({(data[0] or b'').decode(errors='replace')})")
            validity = _uidvalidity(conn)
            typ, data = conn.uid("SEARCH", None, "ALL")
            uids = (data[0] or b"").split() if typ == "OK" else []
            for i in range(0, len(uids), BATCH):
                batch = b",".join(uids[i:i + BATCH]).decode()
                typ, data = conn.uid("FETCH", batch, "(BODY.PEEK[])")
                if typ != "OK":
                    yield Skip(f"imap {folder}: messages {batch}", "the server did not send them")
                    continue
                for uid, raw in _fetched(data):
                    fallback = f"imap:{cfg.host}/{folder};UIDVALIDITY={validity}/;UID={uid}"
                    try:
                        yield message_item(raw, fallback)
                    except (ValueError, LookupError, TypeError) as exc:
                        yield Skip(f"imap {folder}: UID {uid}", f"unreadable ({exc})")
            # no CLOSE: selecting the next folder (or LOGOUT) leaves this one as it was
    except (imaplib.IMAP4.abort, socket.timeout, OSError) as exc:
        raise ExportFormatError(f"imap server {cfg.host}: the connection broke ({exc})") from None
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
