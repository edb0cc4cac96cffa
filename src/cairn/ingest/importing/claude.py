"""Claude's data export (Settings -> Privacy -> Export data): `conversations.json`, a JSON
array of conversations, given as the file, the unzipped folder or the export .zip.

A conversation is {uuid, name, created_at, updated_at (ISO 8601), chat_messages: [{uuid,
sender: "human" | "assistant", text, content: [{type: "text", text}, ...], created_at,
attachments: [{file_name, extracted_content}], files: [{file_name}]}]}. The messages are a
list in the order shown (no branches). A message's text is `text`, else its text content
blocks joined; the extracted text of an attachment follows it under "Attachment: NAME".
Speaker "human" -> the owner's name or "User"; "assistant" -> "Claude". One conversation =
one chat note; its stable id is the conversation uuid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from cairn.ingest.importing.items import (Item, Message, Skip, chat_item, chat_message, iso, iter_json_array,
                                          open_export)


def _text(msg: dict) -> str:
    text = msg.get("text") if isinstance(msg.get("text"), str) else ""
    if not text.strip():
        blocks = msg.get("content") if isinstance(msg.get("content"), list) else []
        text = "\n\n".join(b["text"] for b in blocks
                           if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str))
    atts = msg.get("attachments") if isinstance(msg.get("attachments"), list) else []
    for att in atts:
        if isinstance(att, dict) and isinstance(att.get("extracted_content"), str) and att["extracted_content"].strip():
            text += f"\n\nAttachment: {att.get('file_name') or 'file'}\n\n{att['extracted_content'].strip()}"
    return text.strip()


def conversation(conv: Any, owner: str | None = None) -> Item:
    """The chat Item of one conversation object. Raises ValueError (the item is skipped)
    when it has no uuid or its chat_messages is not a list."""
    if not isinstance(conv, dict):
        raise ValueError("not a conversation object")
    cid = conv.get("uuid")
    if not cid:
        raise ValueError("the conversation has no uuid")
    raw = conv.get("chat_messages")
    if not isinstance(raw, list):
        raise ValueError("no chat_messages list")
    messages: list[Message] = []
    fallback = iso(conv.get("created_at")) or "1970-01-01T00:00:00Z"
    for n, msg in enumerate(raw):
        if not isinstance(msg, dict):
            continue
        sender = msg.get("sender")
        speaker = (owner or "User") if sender == "human" else "Claude" if sender == "assistant" else None
        text = _text(msg)
        if speaker is None or not text:
            continue
        chat_message(messages, msg.get("uuid") or f"{cid}-{n}", speaker, iso(msg.get("created_at")), text, fallback)
    return chat_item(cid, conv.get("name"), "Claude", iso(conv.get("created_at")), iso(conv.get("updated_at")),
                     messages)


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each conversation of the export at `path` as a chat Item (or a Skip naming it).
    Raises ExportFormatError for a file that is not a JSON array or is cut off."""
    with open_export(path, "conversations.json") as fh:
        for n, conv in enumerate(iter_json_array(fh, str(path)), 1):
            name = f"{path.name}: conversation {n}"
            if isinstance(conv, dict) and conv.get("name"):
                name += f" ({conv['name']})"
            try:
                item = conversation(conv, owner)
            except ValueError as exc:
                yield Skip(name, str(exc))
                continue
            if not item.messages:
                yield Skip(name, "no message with text")
                continue
            yield item
