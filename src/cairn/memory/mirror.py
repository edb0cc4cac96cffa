"""The vault mirror of the memory store: readable markdown under `<vault>/_memory/`.

- `_memory/<id>.md` — one memory: YAML frontmatter with every field (including `log`, its
  change history) and the memory text as the body;
- `_memory/core/<name>.md` — one core block, the body is its text (`_memory/core/@PERSON/<name>.md`
  for a named person's block, cairn.people);
- `_memory/entities/<id>.md` — one entity: frontmatter `id`, `name`, `kind`, `aliases`.

The files are the source of truth like every other vault file: `rebuild.rebuild_memories` (called
by `cairn reindex`) restores the tables from them, so edits made by hand are picked up. The
folder is in `vault.SKIP_DIRS`, so these files are never indexed as notes.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cairn.memory.affect import TAGS
from cairn.memory.model import KINDS, Memory
from cairn.store import memories as S
from cairn.vault import atomic_write, render_note, slugify, split_frontmatter

MEMORY_DIR = "_memory"


def memory_path(vault: Path, memory_id: str) -> Path:
    return vault / MEMORY_DIR / f"{memory_id}.md"


def write_memory(vault: Path, m: Memory) -> Path:
    """Write (or overwrite) the mirror file of `m`; returns its path."""
    fm = {k: v for k, v in m.to_json().items() if k not in ("text", "status")}
    fm = {"generator": "cairn-memory", **fm}
    path = memory_path(vault, m.id)
    atomic_write(path, render_note(fm, m.text))
    return path


def write_core(vault: Path, name: str, text: str) -> Path:
    """Write the mirror file of core block `name`: `_memory/core/<slug>.md`, or for a named
    person's block "@PERSON/NAME" `_memory/core/@PERSON/<slug>.md` (cairn.people)."""
    person, _, block = name.rpartition("/")
    folder = vault / MEMORY_DIR / "core" / (person if person.startswith("@") else "")
    path = folder / f"{slugify(block)}.md"
    atomic_write(path, render_note({"generator": "cairn-memory", "core_block": name}, text))
    return path


def write_entity(vault: Path, conn: sqlite3.Connection, entity_id: str) -> None:
    """Write the mirror of one entity (or remove it if the entity no longer exists)."""
    path = vault / MEMORY_DIR / "entities" / f"{entity_id}.md"
    ent = S.entity(conn, entity_id)
    if ent is None:
        path.unlink(missing_ok=True)
        return
    fm = {"generator": "cairn-memory", "id": entity_id, "name": ent["name"], "kind": ent["kind"],
          "aliases": ent["aliases"]}
    atomic_write(path, render_note(fm, f"# {ent['name']}"))


def _split(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter, stripped body) of a mirror file. Raises ValueError when the file has
    no frontmatter block or one that cannot be read (vault.split_frontmatter)."""
    if not text.startswith("---"):
        raise ValueError("no frontmatter block")
    data, body = split_frontmatter(text)
    return data, body.strip()


def _iso(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def memory_from_file(path: Path) -> Memory:
    """Parse one mirror file. Raises ValueError naming the problem."""
    data, body = _split(path.read_text(encoding="utf-8"))
    if not data.get("id"):
        raise ValueError("no 'id' in frontmatter")
    if not body:
        raise ValueError("memory text (the body) is empty")
    kind = str(data.get("kind", "fact"))
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (one of {', '.join(KINDS)})")
    try:
        return Memory(
            id=str(data["id"]), text=body, kind=kind,
            confidence=float(data.get("confidence", 0.6)), scope=str(data.get("scope") or "global"),
            source=str(data.get("source") or "user"),
            source_ids=[str(s) for s in data.get("source_ids") or []],
            created=_iso(data.get("created")) or datetime.now(timezone.utc).isoformat(),
            event_time=_iso(data.get("event_time")), valid_from=_iso(data.get("valid_from")),
            valid_to=_iso(data.get("valid_to")), superseded_by=_iso(data.get("superseded_by")),
            importance=float(data.get("importance", 0.5)), last_used=_iso(data.get("last_used")),
            use_count=int(data.get("use_count") or 0), tombstone=bool(data.get("tombstone", False)),
            entities=[str(e) for e in data.get("entities") or []],
            log=list(data.get("log") or []),
            impact=max(-10, min(10, int(data.get("impact") or 0))),
            tags=[str(t) for t in data.get("tags") or [] if str(t) in TAGS])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad field value: {exc}") from exc


def dumps_log(log: list[dict]) -> str:
    return json.dumps(log, ensure_ascii=False, default=str)
