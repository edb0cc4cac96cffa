"""Entity operations over the one entity table: show, merge, split, and the chunk set of
the `search --entity` filter. Names resolve through the alias table (folded: case,
articles, punctuation, plurals, possessives; memory/entities.normalise)."""

from __future__ import annotations

import json
import sqlite3

from cairn.errors import InvalidInput, NotFound
from cairn.memory import entities as E
from cairn.store import graph as G
from cairn.store import memories as S
from cairn.store import notes as N


def _need(conn: sqlite3.Connection, name: str) -> str:
    if not name or not name.strip():
        raise InvalidInput("entity name is empty")
    eid = E.resolve(conn, name)
    if eid is None:
        raise NotFound(f"no entity named {name!r} (see `cairn entities`)")
    return eid


def _entity(conn: sqlite3.Connection, eid: str) -> dict:
    ent = S.entity(conn, eid) or {"name": eid, "kind": "entity", "aliases": []}
    return {"id": eid, "name": ent["name"], "kind": ent["kind"], "aliases": ent["aliases"]}


def entity_chunk_ids(conn: sqlite3.Connection, name: str) -> set[int]:
    """Chunk ids of every unit mentioning the entity `name`. Raises NotFound/InvalidInput."""
    return G.chunk_ids_of_entity(conn, _need(conn, name))


def show(conn: sqlite3.Connection, name: str, limit: int = 20, view=None) -> dict:
    """{"id", "name", "kind", "aliases", "notes": [{"id", "title", "path", "mentions",
    "methods"}], "memories": [{"id", "text"}], "related": [{"id", "name", "count", "first",
    "last"}]}. view: what one person sees (graph/view.View; None: everything): only their
    notes, memories and related entities, and NotFound for an entity they see no mention
    of. Raises NotFound for an unknown name, InvalidInput for an empty one."""
    eid = _need(conn, name)
    out = _entity(conn, eid)
    if view is not None:
        view.need(eid, name)
        mine_n, mine_m = view.notes.get(eid, set()), view.memories.get(eid, set())
        out["notes"] = [n for n in G.notes_of_entity(conn, eid, 10 ** 6) if n["id"] in mine_n][:limit]
        out["memories"] = [m for m in G.memories_of_entity(conn, eid, 10 ** 6) if m["id"] in mine_m][:limit]
        out["related"] = view.related(conn, eid, limit)
        return out
    out["notes"] = G.notes_of_entity(conn, eid, limit)
    out["memories"] = G.memories_of_entity(conn, eid, limit)
    related = []
    for other, n, first, last in G.neighbours(conn, eid, limit):
        other_name = G.entity_name(conn, other)
        if other_name is not None:
            related.append({"id": other, "name": other_name, "count": n, "first": first, "last": last})
    out["related"] = related
    return out


def merge(conn: sqlite3.Connection, keep: str, other: str) -> dict:
    """Merge entity `other` into `keep`: every name, note mention, memory link and
    co-occurrence of `other` now belongs to `keep`. Returns `keep` as {"id", "name", "kind",
    "aliases"}. Raises NotFound for an unknown name, InvalidInput when both are one entity."""
    a, b = _need(conn, keep), _need(conn, other)
    if a == b:
        raise InvalidInput(f"{keep!r} and {other!r} are already one entity")
    with N.transaction(conn):
        G.move_entity(conn, b, a)
    return _entity(conn, a)


def split(conn: sqlite3.Connection, name: str, aliases: list[str]) -> dict:
    """Move `aliases` (names of the entity `name`) to a new entity named after the first
    of them, exactly as written. Notes that mention the old entity are re-extracted, so
    each mention lands on the entity its name now resolves to; memories whose linked names
    include a moved alias are linked to the new entity. Returns {"from": entity, "to":
    entity}. Raises NotFound / InvalidInput (alias of another entity, or every name)."""
    eid = _need(conn, name)
    if not aliases or not all(a.strip() for a in aliases):
        raise InvalidInput("entity split needs at least one non-empty ALIAS to move")
    own = G.alias_keys_of(conn, eid)
    keys = {k for a in aliases for k in E.alias_keys(a) if k in own}
    missing = [a for a in aliases if not set(E.alias_keys(a)) & own]
    if missing:
        raise InvalidInput(f"{', '.join(repr(m) for m in missing)} is not a name of {name!r}")
    if own <= keys:
        raise InvalidInput("a split must leave the entity at least one name")
    if set(E.alias_keys(name)) & keys:
        raise InvalidInput(f"{name!r} names the entity that stays; name it by another alias")
    first = aliases[0].strip()
    kind = G.entity_kind(conn, eid) or "entity"
    with N.transaction(conn):
        new = E.entity_id(first)
        n = 1
        while S.entity_exists(conn, new):
            n += 1
            new = E.entity_id(f"{first}#{n}")
        S.insert_entity(conn, new, first, kind)
        G.move_aliases(conn, keys, eid, new)
        if G.entity_name(conn, eid) in aliases:
            G.rename_entity(conn, eid, G.first_alias_display(conn, eid) or name)
        for mid, names in G.linked_memories(conn, eid):
            linked = {k for x in json.loads(names or "[]") for k in E.alias_keys(x)}
            if linked & keys:
                S.link_memory(conn, mid, new)
                if not linked & (own - keys):
                    G.unlink_memory(conn, mid, eid)
        G.forget_state(conn, eid)
    from cairn.graph.update import update_graph
    update_graph(conn)
    return {"from": _entity(conn, eid), "to": _entity(conn, new)}
