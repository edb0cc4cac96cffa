"""ChatGPT's data export (Settings -> Data controls -> Export data): `conversations.json`, a
JSON array of conversations, given as the file, the unzipped folder or the export .zip.

A conversation is {id/conversation_id, title, create_time, update_time (epoch seconds),
mapping: {node id: {id, message | null, parent, children: [...]}}, current_node}. The
mapping is a tree: every "regenerate" or edited prompt adds a branch. The branch the person
saw last is the path from `current_node` up through `parent` to the root; it is the one
imported (a conversation without current_node: the path to the newest leaf). Nodes whose
message is null (the root), system and tool messages, hidden messages
(metadata.is_visually_hidden_from_conversation) and messages without text are left out.
Message text: the string `content.parts` joined (a non-text part, e.g. an image pointer, is
left out), else `content.text`. Speaker "user" -> the owner's name or "User"; "assistant" ->
"ChatGPT" (or the author name). One conversation = one chat note; its stable id is the
conversation id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from cairn.ingest.importing.items import (Item, Message, Skip, chat_item, chat_message, iso, iter_json_array,
                                          open_export)

FORMAT = "ChatGPT data export: conversations.json (the file, its folder or the export .zip)"


def _branch(conv: dict) -> list[dict]:
    """The nodes of the branch the person saw, root first: from current_node up the parents
    (a loop in a damaged export stops the walk). Without current_node: the newest leaf's."""
    mapping = conv.get("mapping")
    if not isinstance(mapping, dict):
        raise ValueError("no message tree (mapping)")
    node_id = conv.get("current_node")
    if not isinstance(node_id, str) or node_id not in mapping:
        leaves = [n for n in mapping.values() if isinstance(n, dict) and not n.get("children")]
        if not leaves:
            return []
        node_id = max(leaves, key=lambda n: _number(_dict(n.get("message")).get("create_time"))).get("id")
    path, seen = [], set()
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            break
        path.append(node)
        node_id = node.get("parent")
    return path[::-1]


def _dict(value: Any) -> dict:
    """`value` when it is a JSON object, else {} (a damaged export may hold anything)."""
    return value if isinstance(value, dict) else {}


def _number(value: Any) -> float:
    """`value` when it is a JSON number, else 0."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _text(msg: dict) -> str:
    content = _dict(msg.get("content"))
    parts = content.get("parts")
    if isinstance(parts, list):
        texts = [p if isinstance(p, str) else (p.get("text") if isinstance(p, dict) and
                                               isinstance(p.get("text"), str) else "") for p in parts]
        return "\n\n".join(t for t in texts if t and t.strip()).strip()
    return str(content.get("text") or "").strip()


def _speaker(author: dict, owner: str | None) -> str | None:
    role = author.get("role")
    if role == "user":
        return owner or "User"
    if role == "assistant":
        return "ChatGPT"
    return None  # system, tool


def conversation(conv: Any, owner: str | None = None) -> Item:
    """The chat Item of one conversation object. Raises ValueError (the item is skipped)
    when it has no id or no message tree."""
    if not isinstance(conv, dict):
        raise ValueError("not a conversation object")
    cid = conv.get("conversation_id") or conv.get("id")
    if not cid:
        raise ValueError("the conversation has no id")
    messages: list[Message] = []
    fallback = iso(conv.get("create_time")) or "1970-01-01T00:00:00Z"
    for node in _branch(conv):
        msg = node.get("message")
        if not isinstance(msg, dict):
            continue  # the root, or a null message
        speaker = _speaker(_dict(msg.get("author")), owner)
        if speaker is None or _dict(msg.get("metadata")).get("is_visually_hidden_from_conversation"):
            continue
        text = _text(msg)
        if not text:
            continue
        chat_message(messages, msg.get("id") or node.get("id"), speaker, iso(msg.get("create_time")), text, fallback)
    return chat_item(cid, conv.get("title"), "ChatGPT", iso(conv.get("create_time")), iso(conv.get("update_time")),
                     messages)


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each conversation of the export at `path` as a chat Item (or a Skip naming it).
    Raises ExportFormatError for a file that is not a JSON array or is cut off."""
    name = str(path)
    with open_export(path, "conversations.json") as fh:
        for n, conv in enumerate(iter_json_array(fh, name), 1):
            try:
                item = conversation(conv, owner)
            except ValueError as exc:
                title = conv.get("title") if isinstance(conv, dict) else None
                yield Skip(f"{path.name}: conversation {n}" + (f" ({title})" if title else ""), str(exc))
                continue
            if not item.messages:
                yield Skip(f"{path.name}: conversation {n} ({item.title})", "no message with text")
                continue
            yield item
