"""The review inbox: memories Cairn extracted from conversations that the person has not
looked at yet, and what they can do with each (docs/memory.md, "Reviewing what Cairn learned").

A memory is *to review* while it is active, did not come from the person's own `remember`
(source "user") and its change log has no review entry. Each review action leaves one entry
in the log (action "confirm", "edit", "merge" or "forget" with a reason), so the inbox is
the memories extracted since the last look, with nothing to store beside the memories.

- `inbox(conn, embedder, scope)`: [{"memory", "near": [(Memory, cosine)]}], newest first;
  `near` are active memories at least `NEAR_COS` similar (possible duplicates to merge);
- `confirm`: the person says it is right (confidence raised to at least 0.9);
- `edit`: the text corrected; the corrected statement supersedes the extracted one (kept
  as history) and is itself confirmed;
- `reject`: forgotten (a tombstone, as `cairn forget`);
- `merge(keep, drop)`: `drop` is superseded by `keep`, which takes its sources and is
  confirmed.
Unknown ids raise MemoryNotFound; merging a memory with itself or acting on one that is
no longer active raises Conflict: nothing changes then.

NEAR_COS (0.70) is set below the extraction dedup threshold (match.EXTRACTED_PARAPHRASE_COS,
0.80) and at the top of the range measured for different facts about the same subject
(all-MiniLM-L6-v2: 0.35-0.71, match.py), so the inbox shows what extraction did not dare to
merge on its own, and the person decides.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from cairn.errors import Conflict
from cairn.memory.model import Memory, MemoryChange
from cairn.memory.store import (_mirror, _now, _update, forget_change, get_memory, list_memories,
                                memory_vectors, remember)
from cairn.store.notes import transaction

NEAR_COS = 0.70
REVIEWED = ("confirm", "edit", "merge")


def to_review(m: Memory) -> bool:
    """Whether `m` waits in the inbox (see the module docstring)."""
    return m.active and m.source != "user" and not any(e.get("action") in REVIEWED for e in m.log)


def inbox(conn: sqlite3.Connection, embedder, scope: str | None = None, limit: int = 200) -> list[dict]:
    """The memories to review, newest first, each with its near-duplicates among every
    active memory of its scope: [{"memory": Memory, "near": [(Memory, cosine), …]}]."""
    active = list_memories(conn, scope=scope)
    waiting = sorted((m for m in active if to_review(m)), key=lambda m: m.created, reverse=True)[:limit]
    if not waiting:
        return []
    vecs = memory_vectors(conn, embedder, active)
    index = {m.id: i for i, m in enumerate(active)}
    out = []
    for m in waiting:
        sims = vecs @ vecs[index[m.id]]
        near = sorted(((o, float(sims[index[o.id]])) for o in active
                       if o.id != m.id and o.scope == m.scope and sims[index[o.id]] >= NEAR_COS),
                      key=lambda x: -x[1])[:3]
        out.append({"memory": m, "near": near})
    return out


def _active(conn: sqlite3.Connection, memory_id: str) -> Memory:
    m = get_memory(conn, memory_id)
    if not m.active:
        raise Conflict(f"memory {m.id} is {m.status}; only an active memory can be reviewed")
    return m


def confirm(conn: sqlite3.Connection, memory_id: str, *, now: datetime | None = None,
            vault: Path | None = None, reason: str = "confirmed in review") -> Memory:
    """Mark a memory right (log "confirm"; confidence at least 0.9). Returns it."""
    with transaction(conn):
        m = _active(conn, memory_id)
        m.confidence = max(m.confidence, 0.9)
        m.log.append({"at": _now(now).isoformat(), "action": "confirm", "reason": reason})
        _update(conn, m)
        if vault is not None:
            _mirror(conn, vault, [m])
    return m


NEVER_PARAPHRASE = 2.0  # a cosine no pair of vectors reaches: the corrected text is stored as itself


def edit(conn: sqlite3.Connection, embedder, memory_id: str, text: str, *, now: datetime | None = None,
         vault: Path | None = None, reason: str = "corrected in review") -> MemoryChange:
    """Correct a memory's text: the corrected statement (same kind, scope and sources) is
    stored and supersedes the old one, and is confirmed; `reason` goes in both logs. InvalidInput
    for empty or too long text (nothing changes)."""
    old = _active(conn, memory_id)
    moment = _now(now)
    # a changed text is never the old statement reworded: "comes on mondays" correcting "comes on fridays" embeds
    # close enough to read as a paraphrase (match.PARAPHRASE_COS), which reinforced the old one and changed nothing
    changed = " ".join(text.split()).casefold() != " ".join(old.text.split()).casefold()
    change = remember(conn, embedder, text, kind=old.kind, scope=old.scope, source=old.source,
                      source_ids=old.source_ids, event_time=old.event_time, now=moment, vault=vault,
                      **({"paraphrase_cos": NEVER_PARAPHRASE} if changed else {}))
    new = change.memory
    with transaction(conn):
        old = get_memory(conn, old.id)
        if new.id != old.id and old.active:
            old.valid_to, old.superseded_by = moment.isoformat(), new.id
            old.log.append({"at": moment.isoformat(), "action": "superseded", "by": new.id,
                            "reason": reason})
            _update(conn, old)
            if vault is not None:
                _mirror(conn, vault, [old])
    confirm(conn, new.id, now=moment, vault=vault, reason=reason)
    return MemoryChange("edit", get_memory(conn, new.id), get_memory(conn, old.id), reason)


def reject(conn: sqlite3.Connection, memory_id: str, *, now: datetime | None = None,
           vault: Path | None = None) -> MemoryChange:
    """Forget a wrongly extracted memory (a tombstone; kept in its history)."""
    _active(conn, memory_id)
    return forget_change(conn, memory_id, now=now, vault=vault)


def merge(conn: sqlite3.Connection, keep_id: str, drop_id: str, *, now: datetime | None = None,
          vault: Path | None = None) -> MemoryChange:
    """Merge two duplicates: `drop` is superseded by `keep`; `keep` takes `drop`'s sources
    and entities, and is confirmed. Conflict when both ids name the same memory."""
    moment = _now(now).isoformat()
    with transaction(conn):
        keep, drop = _active(conn, keep_id), _active(conn, drop_id)
        if keep.id == drop.id:
            raise Conflict(f"cannot merge memory {keep.id} with itself")
        keep.source_ids = list(dict.fromkeys([*keep.source_ids, *drop.source_ids,
                                              *([drop.source] if drop.source != "user" else [])]))
        keep.confidence = max(keep.confidence, drop.confidence, 0.9)
        keep.log.append({"at": moment, "action": "merge", "reason": f"merged {drop.id} into it in review",
                         "other": drop.id, "text": drop.text})
        drop.valid_to, drop.superseded_by = moment, keep.id
        drop.log.append({"at": moment, "action": "superseded", "by": keep.id,
                         "reason": f"a duplicate of {keep.id} (merged in review)"})
        _update(conn, keep)
        _update(conn, drop)
        if vault is not None:
            _mirror(conn, vault, [keep, drop])
    return MemoryChange("merge", keep, drop, f"{drop.id} merged into {keep.id}")
