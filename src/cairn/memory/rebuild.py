"""Rebuild the memory tables from the vault mirror `<vault>/_memory/` (mirror.py writes it;
the files are the source of truth). Its own module because it needs both the store (to
insert) and the mirror (to read), and the store writes through the mirror: keeping it in
mirror.py made mirror and store import each other."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cairn.memory import entities as E
from cairn.memory.mirror import MEMORY_DIR, _split, memory_from_file, memory_path
from cairn.memory.model import Memory
from cairn.memory.store import insert_memory
from cairn.store import memories as S
from cairn.store.notes import transaction


def rebuild_memories(conn: sqlite3.Connection, vault: Path, embedder=None) -> dict[str, Any]:
    """Replace the memory tables with the contents of `<vault>/_memory/`.

    Returns {"memories": n, "entities": n, "core": n, "failed": [(path, reason)]}. A file
    that cannot be read is reported in "failed" and left untouched on disk. With an
    `embedder`, memory vectors are computed now; else on the first recall/remember.
    """
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
        for path in sorted([*(root / "core").glob("*.md"), *(root / "core").glob("@*/*.md")]):
            try:
                data, body = _split(path.read_text(encoding="utf-8"))
                plain = (f"{path.parent.name}/{path.stem}" if path.parent.name.startswith("@") else path.stem)
                cores.append((str(data.get("core_block") or plain), body))
            except (ValueError, OSError) as exc:
                report["failed"].append((str(path), str(exc)))
    vecs = None
    if embedder is not None and loaded:
        vecs = embedder.embed([m.text for m in loaded])
    model = getattr(embedder, "model_name", None)
    now = datetime.now(timezone.utc).isoformat()
    with transaction(conn):
        S.clear_memory_tables(conn)
        for data in ents:
            eid = str(data["id"])
            S.insert_entity(conn, eid, str(data["name"]), str(data.get("kind") or "entity"), if_new=True)
            for alias in [data["name"], *(data.get("aliases") or [])]:
                S.insert_alias(conn, E.normalise(str(alias)), str(alias), eid, if_new=True)
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
            S.put_core_block(conn, name, text, now)
            report["core"] += 1
    return report
