"""One RFC 5322 / MIME message (bytes) -> one mail Item; shared by the mbox and Maildir readers.

source_id = the Message-ID without its angle brackets (the same message found again in
another export is the same note), else `fallback_id`. Title = Subject; created = Date (UTC).
Body: the text/plain part, else the text/html part as text (cairn.parse.html), then each
attachment: its text read by the existing parsers (cairn.parse.parse_file, OCR and speech
off; at most MAX_ATTACHMENT bytes each) under "## Attachment: NAME", the file itself kept
beside the note. Frontmatter: from, to, cc, message_id, in_reply_to, thread (the first
Message-ID of References, else In-Reply-To, else its own: the thread's root) and people (the
sender's display name, else the address: mail senders become people in the entity graph).
"""

from __future__ import annotations

import hashlib
from email import policy
from email.header import decode_header, make_header
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path

from cairn.ingest.importing.items import Item
from cairn.parse.html import html_to_text
from cairn.parse.mail import mail_date

MAX_ATTACHMENT = 5_000_000
FAMILY = "mail"  # the id space of every mail reader: one message in two exports is one note
# compat32: headers are decoded here only when read (RFC 2047 words), ~10x faster than the
# header registry of policy.default, which parses every header it is asked for in full.
_PARSER = BytesParser(policy=policy.compat32)


def _header(msg, key: str) -> str:
    value = msg.get(key)
    if value is None:
        return ""
    try:
        value = str(make_header(decode_header(str(value))))
    except (UnicodeError, LookupError, ValueError, TypeError):  # a malformed encoded word
        value = str(value)
    return " ".join(value.split())


def _decoded(part) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name
        return payload.decode("utf-8", errors="replace")


def _body(msg) -> str:
    """The text/plain part (else text/html as text) that is not an attachment."""
    found: dict[str, str] = {}
    for part in msg.walk():
        if part.is_multipart() or part.get_filename() or \
                str(part.get("Content-Disposition", "")).lower().startswith("attachment"):
            continue
        kind = part.get_content_type()
        if kind in ("text/plain", "text/html") and kind not in found:
            found[kind] = _decoded(part)
    if "text/plain" in found:
        return found["text/plain"]
    return html_to_text(found["text/html"]) if "text/html" in found else ""


def _attachments(msg):
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename()
        if name or str(part.get("Content-Disposition", "")).lower().startswith("attachment"):
            try:
                name = str(make_header(decode_header(name))) if name else None
            except (UnicodeError, LookupError, ValueError):
                pass
            yield name, part.get_payload(decode=True)


def _ids(value: str) -> list[str]:
    return [p.strip("<> \t") for p in value.replace(">", "> ").split() if p.strip("<> \t")]


def _attachment_text(name: str, data: bytes) -> str:
    from cairn.parse import parse_file
    from cairn.parse.errors import ParseError
    if len(data) > MAX_ATTACHMENT:
        return f"(not read: {len(data):,} bytes, over {MAX_ATTACHMENT:,})"
    try:
        return parse_file(Path(name), data=data, ocr=False, asr=False).body.strip()
    except (ParseError, OSError, ValueError) as exc:
        return f"(not read: {exc})"


def message_item(data: bytes, fallback_id: str) -> Item:
    """The mail Item of one message. Raises ValueError (the message is skipped) for bytes
    that hold no header at all."""
    msg = _PARSER.parsebytes(data)
    if not msg.keys():
        raise ValueError("no mail headers")
    subject = _header(msg, "Subject")
    sender = _header(msg, "From")
    mid = " ".join(_ids(_header(msg, "Message-ID"))[:1])
    refs, reply = _ids(_header(msg, "References")), _ids(_header(msg, "In-Reply-To"))
    body = [_body(msg).strip()]
    files: list[tuple[str, bytes]] = []
    for name, payload in _attachments(msg):
        name = name or f"attachment{len(files) + 1}"
        if isinstance(payload, bytes) and payload:
            files.append((name, payload))
            body.append(f"## Attachment: {name}\n\n{_attachment_text(name, payload)}")
    people = [n or a for n, a in getaddresses([sender]) if n or a]
    return Item(source_id=mid or fallback_id, title=subject or "(no subject)", type="email",
                body="\n\n".join(b for b in body if b) or "(empty message)",
                created=mail_date(_header(msg, "Date")) or None,
                meta={"from": sender, "to": _header(msg, "To"), "cc": _header(msg, "Cc"),
                      "message_id": mid, "in_reply_to": reply[-1] if reply else None,
                      "thread": (refs or reply or [mid or fallback_id])[0], "people": people[:1]},
                files=files)


def content_id(data: bytes) -> str:
    """The id of a message without a Message-ID: sha1 of its bytes."""
    return "sha1:" + hashlib.sha1(data).hexdigest()

