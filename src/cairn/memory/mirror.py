"""The vault mirror of the memory store: readable markdown under `<vault>/_memory/`.

- `_memory/<id>.md` — one memory: YAML frontmatter with every field (including `log`, its
  change history) and the memory text as the body;
- `_memory/core/<name>.md` — one core block, the body is its text;
- `_memory/entities/<id>.md` — one entity: frontmatter `id`, `name`, `kind`, `aliases`.

The files are the source of truth like every other vault file: `rebuild_memories` (called
by `cairn reindex`) restores the tables from them, so edits made by hand are picked up. The
folder is in `vault.SKIP_DIRS`, so these files are never indexed as notes.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cairn.memory import entities as E
from cairn.memory.model import KINDS, Memory
from cairn.store.notes import transaction
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
    path = vault / MEMORY_DIR / "core" / f"{slugify(name)}.md"
    atomic_write(path, render_note({"generator": "cairn-memory", "core_block": name}, text))
    return path


def write_entity(vault: Path, conn: sqlite3.Connection, entity_id: str) -> None:
    """Write the mirror of one entity (or remove it if the entity no longer exists)."""
    path = vault / MEMORY_DIR / "entities" / f"{entity_id}.md"
    row = conn.execute("SELECT name, kind FROM entities WHERE id = ?", (entity_id,)).fetchone()
    if row is None:
        path.unlink(missing_ok=True)
        return
    aliases = [r[0] for r in conn.execute(
        "SELECT display FROM aliases WHERE entity_id = ? ORDER BY display", (entity_id,))]
    fm = {"generator": "cairn-memory", "id": entity_id, "name": row[0], "kind": row[1], "aliases": aliases}
    atomic_write(path, render_note(fm, f"# {row[0]}"))


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
            log=list(data.get("log") or []))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad field value: {exc}") from exc


def rebuild_memories(conn: sqlite3.Connection, vault: Path, embedder=None) -> dict[str, Any]:
    """Replace the memory tables with the contents of `<vault>/_memory/`.

    Returns {"memories": n, "entities": n, "core": n, "failed": [(path, reason)]}. A file
    that cannot be read is reported in "failed" and left untouched on disk. With an
    `embedder`, memory vectors are computed now; else on the first recall/remember.
    """
    from cairn.memory.store import insert_memory  # store imports this module

    root = vault / MEMORY_DIR
    report: dict[str, Any] = {"memories": 0, "entities": 0, "core": 0, "failed": []}
    loaded: list[Memory] = []
    ents: list[dict] = []
    cores: list[tuple[str, str]] = []
    if root.is_dir():
        for path in sorted(root.glob("*.md")):
            try:
                loaded.append(memory_from_file(path))
            except (ValueError, OSError) as exc:
                report["failed"].append((str(path), str(exc)))
        for path in sorted((root / "entities").glob("*.md")):
            try:
                data, _ = _split(path.read_text(encoding="utf-8"))
                if not data.get("id") or not data.get("name"):
                    raise ValueError("entity needs 'id' and 'name'")
                ents.append(data)
            except (ValueError, OSError) as exc:
                report["failed"].append((str(path), str(exc)))
        for path in sorted((root / "core").glob("*.md")):
            try:
                data, body = _split(path.read_text(encoding="utf-8"))
                cores.append((str(data.get("core_block") or path.stem), body))
            except (ValueError, OSError) as exc:
                report["failed"].append((str(path), str(exc)))
    vecs = None
    if embedder is not None and loaded:
        vecs = embedder.embed([m.text for m in loaded])
    model = getattr(embedder, "model_name", None)
    now = datetime.now(timezone.utc).isoformat()
    with transaction(conn):
        for table in ("memory_entities", "aliases", "entities", "memories_fts", "memories", "core_blocks"):
            conn.execute(f"DELETE FROM {table}")
        for data in ents:
            eid = str(data["id"])
            conn.execute("INSERT OR IGNORE INTO entities(id, name, kind) VALUES (?, ?, ?)",
                         (eid, str(data["name"]), str(data.get("kind") or "entity")))
            for alias in [data["name"], *(data.get("aliases") or [])]:
                conn.execute("INSERT OR IGNORE INTO aliases(alias, display, entity_id) VALUES (?, ?, ?)",
                             (E.normalise(str(alias)), str(alias), eid))
            report["entities"] += 1
        inserted: set[str] = set()  # the table was emptied above: only this loop's ids can clash
        for i, m in enumerate(loaded):
            if m.id in inserted:
                report["failed"].append((str(memory_path(vault, m.id)), f"duplicate memory id {m.id}"))
                continue
            insert_memory(conn, m, vecs[i] if vecs is not None else None, model)
            inserted.add(m.id)
            report["memories"] += 1
        for name, text in cores:
            conn.execute("INSERT OR REPLACE INTO core_blocks(name, text, updated) VALUES (?, ?, ?)",
                         (name, text, now))
            report["core"] += 1
    return report


def dumps_log(log: list[dict]) -> str:
    return json.dumps(log, ensure_ascii=False, default=str)
