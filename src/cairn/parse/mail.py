"""E-mail: RFC 822 / MIME messages (.eml, stdlib `email`) and Outlook .msg (extract-msg).

Title = Subject (else the file stem). meta: from, to, cc, date (as written), message_id,
attachments (list of file names); `created` = the Date header in ISO 8601 UTC. body = the
text/plain part (else the text/html part converted to text), followed by an
"Attachments:" list with the size of each attachment in bytes (attachments themselves are not
parsed). A message with neither text nor attachments raises EmptyDocument.
"""

from __future__ import annotations

import io
from email import policy
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from ._shared import clean_text, utc_iso
from .html import html_to_text
from .errors import EmptyDocument, ParseError, describe


def mail_date(value: Any) -> str | None:
    """An RFC 822 date string or a datetime -> "YYYY-MM-DDTHH:MM:SSZ" (UTC), else None."""
    if isinstance(value, str):
        try:
            value = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
    return utc_iso(value)


def _assemble(kind: str, name: str, subject: str, headers: dict[str, str], text: str,
              attachments: list[tuple[str, int]], created: str | None, warnings: list[str]) -> ParsedDocument:
    text = clean_text(text or "")
    parts = [text] if text else []
    if attachments:
        parts.append("Attachments:\n" + "\n".join(f"- {n} ({s:,} bytes)" for n, s in attachments))
    if not parts:
        raise EmptyDocument("e-mail has no text body and no attachments")
    meta: dict[str, Any] = {k: v for k, v in headers.items() if v}
    if attachments:
        meta["attachments"] = [n for n, _ in attachments]
    return ParsedDocument(kind=kind, title=subject or PurePath(name).stem, body="\n\n".join(parts),
                          meta=meta, created=created, warnings=warnings)


def parse_eml(data: bytes, name: str) -> ParsedDocument:
    """Parse an RFC 822 message (bytes) of the file called `name`."""
    try:
        msg = BytesParser(policy=policy.default).parsebytes(data)
    except Exception as exc:
        raise ParseError(f"unreadable e-mail message: {describe(exc)}") from None
    warnings = [f"e-mail header problem: {d.__class__.__name__}" for d in msg.defects][:5]

    def header(key: str) -> str:
        try:
            value = msg.get(key)
        except Exception:
            return ""
        return " ".join(str(value).split()) if value is not None else ""

    text = ""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
        if part is not None:
            content = part.get_content()
            text = html_to_text(content) if part.get_content_subtype() == "html" else content
    except Exception as exc:
        warnings.append(f"e-mail body could not be decoded ({describe(exc)})")
    attachments: list[tuple[str, int]] = []
    try:
        for att in msg.iter_attachments():
            payload = att.get_payload(decode=True) or b""
            attachments.append((att.get_filename() or att.get_content_type(), len(payload)))
    except Exception as exc:
        warnings.append(f"attachments could not be listed ({describe(exc)})")
    headers = {"from": header("From"), "to": header("To"), "cc": header("Cc"), "date": header("Date"),
               "message_id": header("Message-ID")}
    return _assemble("eml", name, header("Subject"), headers, text, attachments, mail_date(headers["date"]), warnings)


def parse_msg(data: bytes, name: str) -> ParsedDocument:
    """Parse an Outlook .msg file (OLE2 compound file) of the file called `name`."""
    try:
        import extract_msg
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"MSG support is not installed ({exc})") from None
    try:
        msg = extract_msg.openMsg(io.BytesIO(data), delayAttachments=True)
    except Exception as exc:
        raise ParseError(f"corrupt or unreadable Outlook message (.msg): {describe(exc)}") from None
    warnings: list[str] = []
    try:
        text = msg.body or ""
        if not text.strip() and msg.htmlBody:
            html = msg.htmlBody
            text = html_to_text(html.decode("utf-8", errors="replace") if isinstance(html, bytes) else html)
        attachments = []
        for att in msg.attachments or []:
            att_name = getattr(att, "longFilename", None) or getattr(att, "shortFilename", None) or "attachment"
            payload = getattr(att, "data", None)
            attachments.append((str(att_name), len(payload) if isinstance(payload, (bytes, bytearray)) else 0))
        headers = {"from": str(msg.sender or ""), "to": str(msg.to or ""), "cc": str(msg.cc or ""),
                   "date": str(msg.date or ""), "message_id": str(getattr(msg, "messageId", "") or "")}
        created = mail_date(msg.date)
        subject = str(msg.subject or "").strip()
    except Exception as exc:
        raise ParseError(f"corrupt or unreadable Outlook message (.msg): {describe(exc)}") from None
    finally:
        try:
            msg.close()
        except Exception:
            pass
    return _assemble("msg", name, subject, headers, text, attachments, created, warnings)
