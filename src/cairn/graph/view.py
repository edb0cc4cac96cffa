"""What one person sees of the entity graph (cairn.people): the entities mentioned by a
note they may read or linked to a memory of theirs, with counts and related entities
computed from those notes and memories only, so no name, note or memory of another person
shows through `cairn entities` / `cairn entity show`.

    view = View.of(conn, person)        # None for the home's own person (sees everything)
    view.entities(rows)                 # store.memories.list_entities rows, cut and recounted
    graph.ops.show(conn, name, view=view)  # their notes, memories and related entities only
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from cairn.errors import NotFound
from cairn.people import memory_visible
from cairn.store import graph as G
from cairn.store import notes as N


@dataclass
class View:
    """The graph as `person` sees it: `notes` {entity id: ids of their visible notes
    mentioning it}, `memories` {entity id: ids of their memories linked to it}."""

    person: str
    notes: dict[str, set[str]]
    memories: dict[str, set[str]]

    @classmethod
    def of(cls, conn: sqlite3.Connection, person: str | None) -> "View | None":
        """The view of `person`, or None for the home's own person (who sees everything)."""
        if person is None:
            return None
        _, rows = N.list_notes(conn, limit=10 ** 9, person=person)
        visible = {r.id for r in rows}
        notes: dict[str, set[str]] = {}
        for eid, nid in G.note_mention_pairs(conn):
            if nid in visible:
                notes.setdefault(eid, set()).add(nid)
        memories: dict[str, set[str]] = {}
        for eid, mid, scope in G.memory_link_pairs(conn):
            if memory_visible(scope, person):
                memories.setdefault(eid, set()).add(mid)
        return cls(person, notes, memories)

    def sees(self, entity_id: str) -> bool:
        """Whether a note or memory this person may see mentions the entity."""
        return bool(self.notes.get(entity_id) or self.memories.get(entity_id))

    def need(self, entity_id: str, name: str) -> None:
        """NotFound (worded as for an unknown name) unless this person sees the entity."""
        if not self.sees(entity_id):
            raise NotFound(f"no entity named {name!r} (see `cairn entities`)")

    def entities(self, rows: list[dict]) -> list[dict]:
        """`rows` (list_entities) cut to the entities this person sees, with "notes" and
        "memories" counted over what they see."""
        return [dict(r, notes=len(self.notes.get(r["id"], ())), memories=len(self.memories.get(r["id"], ())))
                for r in rows if self.sees(r["id"])]

    def related(self, conn: sqlite3.Connection, entity_id: str, limit: int) -> list[dict]:
        """Entities mentioned together with `entity_id` in this person's notes: [{"id",
        "name", "count" (their notes mentioning both), "first", "last" (None: the stored
        co-occurrence times span everyone's notes)}], most first."""
        mine = self.notes.get(entity_id, set())
        counts = {other: len(nids & mine) for other, nids in self.notes.items() if other != entity_id and nids & mine}
        rows = []
        for other, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))[:limit]:
            name = G.entity_name(conn, other)
            if name is not None:
                rows.append({"id": other, "name": name, "count": n, "first": None, "last": None})
        return rows
