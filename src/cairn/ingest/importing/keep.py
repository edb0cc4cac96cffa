"""Google Keep from Google Takeout (takeout.google.com -> Keep): the Takeout .zip or folder,
whose `Keep/` folder holds one JSON file per note (with an .html twin, not read) and its
attachments.

A note's JSON: {title, textContent | listContent: [{text, isChecked}], labels: [{name}],
annotations: [{title, url, description}], attachments: [{filePath, mimetype}], sharees:
[{email, isOwner}], isTrashed, isArchived, isPinned, color, createdTimestampUsec,
userEditedTimestampUsec}. A checklist becomes "- [ ]"/"- [x]" lines; labels become tags;
links become a list; attachments (found beside the JSON) are kept beside the note; the
people a note is shared with become `people` (by address). Trashed notes are skipped.
source_id = createdTimestampUsec (fixed for a note's life; the file name follows the title),
else the file name. A file that is not valid JSON is a Skip; an export without any Keep
note JSON is refused with ExportFormatError.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Skip, iso, walk_export


def _usec(value) -> str | None:
    try:
        return iso(int(value) / 1_000_000)
    except (TypeError, ValueError):
        return None


def _list(value) -> list:
    """`value` when it is a JSON array, else [] (a damaged note may hold anything)."""
    return value if isinstance(value, list) else []


def note_item(obj: dict, name: str, files: dict[str, bytes]) -> Item:
    """The Item of one Keep note object (`name`: its file, for the fallback id). Raises
    ValueError for an object that is not a Keep note."""
    if not isinstance(obj, dict) or not any(k in obj for k in ("textContent", "listContent", "title")):
        raise ValueError("not a Keep note (no title, textContent or listContent)")
    parts = []
    if str(obj.get("textContent") or "").strip():
        parts.append(str(obj["textContent"]).strip())
    for entry in _list(obj.get("listContent")):
        if isinstance(entry, dict):
            parts.append(f"- [{'x' if entry.get('isChecked') else ' '}] {entry.get('text', '')}".rstrip())
    links = [a for a in _list(obj.get("annotations")) if isinstance(a, dict) and a.get("url")]
    if links:
        parts.append("Links:\n" + "\n".join(f"- [{a.get('title') or a['url']}]({a['url']})" for a in links))
    attached = []
    for att in _list(obj.get("attachments")):
        fp = str(att.get("filePath") or "") if isinstance(att, dict) else ""
        if fp and fp in files:
            attached.append((fp, files[fp]))
    title = str(obj.get("title") or "").strip() or (parts[0].splitlines()[0][:60] if parts else "(untitled Keep note)")
    sid = str(obj.get("createdTimestampUsec") or "") or name
    people = [s["email"] for s in _list(obj.get("sharees")) if isinstance(s, dict) and s.get("email") and not s.get("isOwner")]
    return Item(source_id=f"keep:{sid}", title=title, body="\n\n".join(parts),
                created=_usec(obj.get("createdTimestampUsec")), updated=_usec(obj.get("userEditedTimestampUsec")),
                tags=[str(l["name"]) for l in _list(obj.get("labels")) if isinstance(l, dict) and l.get("name")],
                meta={"people": people, "pinned": bool(obj.get("isPinned")) or None,
                      "archived": bool(obj.get("isArchived")) or None, "color": obj.get("color")},
                files=attached)


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """Each note of the Keep Takeout at `path` as an Item (or a Skip naming its file)."""
    if path.is_file() and path.suffix.lower() == ".json":
        entries = [(path.name, path.read_bytes)]
        others: dict[str, object] = {}
    else:
        entries, others = [], {}
        for name, get in walk_export(path):
            in_keep = "keep/" in name.lower().replace("\\", "/") or path.is_dir()
            if not in_keep:
                continue
            if name.lower().endswith(".json"):
                entries.append((name, get))
            elif not name.lower().endswith(".html"):
                others[name.rsplit("/", 1)[-1]] = get
    if not entries:
        raise ExportFormatError(f"{path}: no Google Keep notes (no Keep/*.json) in this export")
    for name, get in entries:
        short = name.rsplit("/", 1)[-1]
        try:
            obj = json.loads(get())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            yield Skip(f"{path.name}: {short}", f"not valid JSON ({exc})")
            continue
        except RecursionError:
            yield Skip(f"{path.name}: {short}", "JSON nested too deeply")
            continue
        if isinstance(obj, dict) and obj.get("isTrashed"):
            yield Skip(f"{path.name}: {short}", "in the Keep trash")
            continue
        wanted = {str(a.get("filePath")) for a in (_list(obj.get("attachments"))) if isinstance(a, dict)} \
            if isinstance(obj, dict) else set()
        files = {fp: others[fp]() for fp in wanted if fp in others}
        try:
            yield note_item(obj, short, files)
        except ValueError as exc:
            yield Skip(f"{path.name}: {short}", str(exc))
