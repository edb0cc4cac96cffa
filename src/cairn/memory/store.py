"""The memory store: remember (with reinforce/supersede), forget, list, history, core blocks.

    change = remember(conn, embedder, "My favourite football player is Messi.", now=msg_time)
    change.action, change.reason        # "supersede", "'favourite football player' changed ..."

Nothing is ever deleted: a restated memory is reinforced (same id, confidence and use_count
up), a contradicted one keeps its row with `valid_to` and `superseded_by` set, a forgotten
one is tombstoned. Every change is appended to the memory's `log`, and, when `vault` is
given, mirrored to `<vault>/_memory/` (see mirror.py) *before* the transaction commits: if
the file cannot be written the change is rolled back (the OSError is raised), so the index
never holds a memory that `cairn reindex` would lose. Matching rules: match.py.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Iterable

import numpy as np

from cairn.config import MAX_MEMORY_CHARS
from cairn.memory import entities as E
from cairn.memory import mirror
from cairn.memory.affect import TAGS, weigh
from cairn.memory.match import decide
from cairn.memory.model import (DEFAULT_IMPORTANCE, KINDS, CoreContext, Memory, MemoryChange)
from cairn.memory.slots import find_slots
from cairn.memory.vectors import memory_vectors, row_vectors, scope_cosines  # noqa: F401 (re-exported)
from cairn.memory.temporal import parse_time, resolve_event_time
from cairn.store.fts import index_text
from cairn.store import memories as S
from cairn.store.notes import transaction
from cairn.errors import InvalidInput, NotFound

USER_CONFIDENCE = 0.8       # stated by the person ("cairn remember", source "user")
EXTRACTED_CONFIDENCE = 0.6  # extracted from a message or note
REINFORCE_STEP = 0.25       # confidence += (1 - confidence) * step on each restatement


class MemoryNotFound(NotFound):
    """No memory has the given id (message names it)."""


def _now(now: datetime | None) -> datetime:
    return now if now is not None else datetime.now().astimezone()


def _mem_id(scope: str, text: str, created: str) -> str:
    return "m" + hashlib.sha1(f"{scope}\x00{text}\x00{created}".encode("utf-8")).hexdigest()[:12]


_KIND_RULES: list[tuple[str, re.Pattern]] = [
    ("constraint", re.compile(r"\b(?:allergic|allergy|intolerant|can'?t eat|cannot eat|must never|must always|never (?:book|schedule|call|send))\b", re.I)),
    ("promise", re.compile(r"\b(?:i promise|i'll make sure|i will make sure|promised to)\b", re.I)),
    ("expectation", re.compile(r"\b(?:i expect|i'm expecting|waiting for|should arrive|is due)\b", re.I)),
    ("decision", re.compile(r"\b(?:decided|we chose|i chose|we'll go with|settled on)\b", re.I)),
    ("preference", re.compile(r"\b(?:vegetarian|vegan|prefer|prefers|favou?rite|love|loves|like|likes|hate|hates|"
                              r"dislike|can'?t stand|enjoy|enjoys|don'?t eat|support)\b", re.I)),
    ("event", re.compile(r"\b(?:appointment|meeting|flight|birthday party|wedding|start(?:s|ing)? the new job|interview)\b", re.I)),
    ("expertise", re.compile(r"\b(?:expert in|experienced (?:in|with)|years of experience|fluent in|i know how to)\b", re.I)),
    ("project", re.compile(r"\b(?:project|working on|building)\b", re.I)),
    ("person", re.compile(r"\bmy (?:wife|husband|partner|sister|brother|mother|mum|mom|father|dad|son|daughter|"
                          r"friend|boss|colleague|doctor|dentist)\b", re.I)),
]


def infer_kind(text: str, event_time: str | None = None) -> str:
    """A kind for `text` by keyword rules (first match wins; dated statements -> "event")."""
    for kind, rx in _KIND_RULES:
        if rx.search(text):
            if kind in ("preference", "project", "person") and event_time:
                return "event"
            return kind
    return "event" if event_time else "fact"


# ----------------------------------------------------------------------------- rows
_COLS = S.MEMORY_COLUMNS


def _row_to_memory(row: sqlite3.Row) -> Memory:
    return Memory(id=row["id"], text=row["text"], kind=row["kind"], confidence=row["confidence"],
                  scope=row["scope"], source=row["source"], source_ids=json.loads(row["source_ids"]),
                  created=row["created"], event_time=row["event_time"], valid_from=row["valid_from"],
                  valid_to=row["valid_to"], superseded_by=row["superseded_by"],
                  importance=row["importance"], last_used=row["last_used"], use_count=row["use_count"],
                  tombstone=bool(row["tombstone"]), entities=json.loads(row["entities"]),
                  log=json.loads(row["log"]), impact=int(row["impact"] or 0), tags=json.loads(row["tags"] or "[]"))


def search_text(m: Memory) -> str:
    """Text of a memory as keyword-indexed: its text plus every differently worded
    restatement that reinforced it (so "I don't eat meat" finds "I'm vegetarian ...")."""
    parts = [m.text]
    for event in m.log:
        said = event.get("text") if event.get("action") == "reinforce" else None
        if said and said not in parts:
            parts.append(str(said))
    return "\n".join(parts)


def _refresh_fts(conn: sqlite3.Connection, m: Memory) -> None:
    S.replace_memory_keywords(conn, m.id, index_text(search_text(m)))


def insert_memory(conn: sqlite3.Connection, m: Memory, vec: np.ndarray | None, model: str | None) -> None:
    """Insert a memory row, its FTS row and its entity links (inside the caller's transaction)."""
    S.insert_memory_row(
        conn, (m.id, m.text, m.kind, m.confidence, m.scope, m.source, json.dumps(m.source_ids), m.created,
               m.event_time, m.valid_from, m.valid_to, m.superseded_by, m.importance, m.last_used,
               m.use_count, int(m.tombstone), json.dumps(m.entities, ensure_ascii=False),
               mirror.dumps_log(m.log), int(m.impact), json.dumps(list(m.tags))),
        index_text(search_text(m)), model if vec is not None else None,
        np.asarray(vec, dtype="<f4").tobytes() if vec is not None else None)
    E.link(conn, m.id, m.entities)


def _update(conn: sqlite3.Connection, m: Memory) -> None:
    S.update_memory_row(conn, m.id, confidence=m.confidence, source_ids=json.dumps(m.source_ids),
                        valid_to=m.valid_to, superseded_by=m.superseded_by, last_used=m.last_used,
                        use_count=m.use_count, tombstone=m.tombstone, log=mirror.dumps_log(m.log))


def get_memory(conn: sqlite3.Connection, memory_id: str) -> Memory:
    """The memory with this id. Raises MemoryNotFound naming it."""
    row = S.memory_row(conn, memory_id)
    if row is None:
        raise MemoryNotFound(f"no memory with id {memory_id!r} (see `cairn memories --all`)")
    return _row_to_memory(row)


def _scope_ok(scope: str) -> str:
    from cairn.controls import check_no_controls
    scope = (scope or "").strip()
    if not scope:
        raise InvalidInput("scope is empty; use 'global' or a project/agent name")
    return check_no_controls(scope, f"the scope {scope!r}")


def _unit(x: float | None, name: str) -> float | None:
    if x is None:
        return None
    if not 0.0 <= float(x) <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, got {x}")
    return float(x)


# ----------------------------------------------------------------------------- remember
def remember(conn: sqlite3.Connection, embedder, text: str, *, kind: str | None = None,
             scope: str = "global", source: str = "user", source_ids: Iterable[str] = (),
             event_time: str | None = None, confidence: float | None = None,
             importance: float | None = None, entities: Iterable[str] = (),
             now: datetime | None = None, vault: Path | None = None,
             impact: int | None = None, tags: Iterable[str] | None = None,
             paraphrase_cos: float | None = None) -> MemoryChange:
    """Store one statement, reinforcing or superseding what it restates or contradicts.

    text: the statement; relative dates in it are resolved against `now` (the time it was
    said, default: the current time, read once the store's write lock is held, so parallel
    writers are stamped in the order they commit) and the absolute date is inserted into the text.
    kind: one of KINDS (default: inferred by rules); scope: "global" or a project/agent
    name; source/source_ids: provenance; entities: names an extractor found (added to the
    capitalised names found in the text). impact/tags: the emotional weight (affect.py;
    default: weighed from `text` by affect.weigh). paraphrase_cos: the reworded-duplicate threshold
    (default match.PARAPHRASE_COS; extracted facts pass match.EXTRACTED_PARAPHRASE_COS).
    Returns the MemoryChange with its reason; action
    "none" when the statement restates a memory already recorded from the same source_ids
    (re-importing a chat changes nothing) or was already recorded with the same text and
    time, even if that memory has since been superseded or forgotten (it is not restored).
    A contradiction said *before* the memory it contradicts (an old chat imported after a
    newer `remember`) is added as history: valid_to/superseded_by point at the state that
    came next in time (`_insert_history`).
    Raises ValueError for empty text, text longer than config.MAX_MEMORY_CHARS (after
    whitespace is collapsed), text or a scope holding control characters (a NUL, an ESC), an
    unknown kind, a bad confidence/importance or an empty scope — nothing is stored then.
    """
    if not text or not text.strip():
        raise InvalidInput("memory text is empty")
    if kind is not None and kind not in KINDS:
        raise InvalidInput(f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}")
    scope = _scope_ok(scope)
    confidence = _unit(confidence, "confidence")
    importance = _unit(importance, "importance")
    text = " ".join(text.split())
    from cairn.controls import check_no_controls
    check_no_controls(text, f"the memory text {text[:80]!r}")
    if len(text) > MAX_MEMORY_CHARS:
        raise InvalidInput(f"memory text is {len(text)} characters; the limit is {MAX_MEMORY_CHARS} "
                         f"(config.MAX_MEMORY_CHARS): a memory is one statement, store long text "
                         f"as a note (`cairn ingest`)")
    _weight("", 0 if impact is None else impact, [] if tags is None else tags)  # bad impact/tags: before the lock
    source_ids = [str(s) for s in source_ids]

    def resolve(name: str) -> str:
        return E.subject_key(conn, name)

    with transaction(conn):
        # Stamped under the write lock (BEGIN IMMEDIATE), not before it: with several
        # `cairn remember` at once, the order of commits is the order of time, so the
        # statement written last is the current one, never filed as older history.
        moment = _now(now)
        if event_time is None:
            event_time, text = resolve_event_time(text, moment)
        kind = kind or infer_kind(text, event_time)
        impact, tags = _weight(text, impact, tags)
        names = list(dict.fromkeys([*E.find_names(text), *(e for e in entities if e and e.strip())]))
        created = moment.isoformat()
        same = S.memory_row(conn, _mem_id(scope, text, created))
        known = _row_to_memory(same) if same is not None else None
        if known is not None and _state(known) != "active":
            # The same statement said at the same moment is already recorded (a chat imported
            # again after the person superseded or forgot the fact taken from it): it is
            # neither restored nor reinforced.
            return MemoryChange("none", known, None, f"already recorded as {known.id} ({_state(known)})")
        new_vec = embedder.embed([text])[0]
        if known is None and (gone := _forgotten_before(conn, embedder, scope, text, names, new_vec,
                                                        resolve, created, paraphrase_cos)) is not None:
            return gone
        cosines = scope_cosines(conn, embedder, scope, new_vec)
        decision = decide(text, names, cosines, resolve,
                          **({"paraphrase_cos": paraphrase_cos} if paraphrase_cos is not None else {}))
        if decision.target is not None:  # candidates are light (id, text, entities): load all fields
            decision.target = get_memory(conn, decision.target.id)
        if known is None and decision.action == "supersede" and _said_before(created, decision.target.created):
            # An older statement (an old chat imported after a newer `remember`) never replaces
            # what was said later: it is kept as history, superseded by the state that came
            # next in time (_insert_history).
            change, moved = _insert_history(conn, embedder, decision, new_vec, resolve, created,
                                            _new_memory(scope, text, kind, confidence, importance, source,
                                                        source_ids, created, event_time, names, "add", "",
                                                        impact=impact, tags=tags))
            if vault is not None:
                _mirror(conn, vault, moved)
        elif (decision.action == "reinforce" and source_ids
                and set(source_ids) <= set(decision.target.source_ids)):
            # The same message imported again: idempotent, nothing changes.
            change = MemoryChange("none", decision.target, None,
                                  f"already recorded from {', '.join(source_ids)} ({decision.reason})")
        elif decision.action == "reinforce":
            m = decision.target
            m.confidence = round(max(m.confidence, confidence or 0.0) + (1 - m.confidence) * REINFORCE_STEP, 4)
            m.confidence = min(1.0, m.confidence)
            m.use_count += 1
            m.last_used = created
            m.source_ids = list(dict.fromkeys([*m.source_ids, *source_ids,
                                               *([source] if source != "user" else [])]))
            m.log.append({"at": created, "action": "reinforce", "reason": decision.reason, "text": text})
            _update(conn, m)
            _refresh_fts(conn, m)
            change = MemoryChange("reinforce", m, None, decision.reason)
        elif known is not None:  # the same statement at the same moment, still active
            change = MemoryChange("none", known, None, f"already recorded as {known.id} ({decision.reason})")
        else:
            m = _new_memory(scope, text, kind, confidence, importance, source, source_ids, created,
                            event_time, names, decision.action, decision.reason,
                            decision.target.id if decision.target else None, impact=impact, tags=tags)
            insert_memory(conn, m, new_vec, getattr(embedder, "model_name", "unknown"))
            previous = None
            if decision.action == "supersede":
                previous = decision.target
                previous.valid_to = created
                previous.superseded_by = m.id
                previous.log.append({"at": created, "action": "superseded", "reason": decision.reason,
                                     "by": m.id})
                _update(conn, previous)
            change = MemoryChange(decision.action, m, previous, decision.reason)
        if vault is not None and change.action != "none":
            _mirror(conn, vault, [change.memory, change.previous])  # before COMMIT: see module doc
    return change


def _forgotten_before(conn: sqlite3.Connection, embedder, scope: str, text: str, names: list[str],
                      vec: np.ndarray, resolve, said: str, paraphrase_cos: float | None) -> MemoryChange | None:
    """MemoryChange "none" when `text`, said at `said`, restates (match.decide: reinforce) a
    memory of `scope` that was forgotten at or after `said` (an old chat imported or extracted
    after the person's forget never restores it); None otherwise (said again after the forget:
    it is stored anew)."""
    cosines = scope_cosines(conn, embedder, scope, vec, forgotten=True)
    decision = decide(text, names, cosines, resolve,
                      **({"paraphrase_cos": paraphrase_cos} if paraphrase_cos is not None else {})) if cosines else None
    if decision is None or decision.action != "reinforce":
        return None
    m = get_memory(conn, decision.target.id)
    when = next((e.get("at") for e in reversed(m.log) if e.get("action") == "forget"), None)
    if when is None or _said_before(when, said):
        return None
    return MemoryChange("none", m, None, f"restates {m.id}, forgotten on {when} (said {said}, before that: not restored)")


def _insert_history(conn: sqlite3.Connection, embedder, decision, vec: np.ndarray,
                    resolve, created: str, m: Memory) -> tuple[MemoryChange, list[Memory]]:
    """Insert `m`, a statement said at `created`, before the active memory it contradicts
    (`decision.target`), as history: it ends (valid_to, superseded_by) where the next state
    in time begins. That is the earliest memory of the target's supersession chain said after
    `created` (with "Utrecht" said in December before "Rotterdam" in March and "Amsterdam"
    in April, Utrecht ends where Rotterdam begins, not at Amsterdam). A chain memory said
    before `created` that pointed at that next state now points at `m`, so the chain stays
    one line in time order. The reason names the memory its comparison was made with: the
    next state when its slot value is compared, else the target (and the next state it is
    placed before, when that is another memory). Returns (MemoryChange "add" with that reason,
    the chain memories that were re-pointed, for the vault mirror)."""
    chain = history(conn, decision.target.id)
    later = [c for c in chain if not _said_before(c.created, created)]
    nxt = later[0] if later else decision.target
    before = [c for c in chain if c.superseded_by == nxt.id and _said_before(c.created, created)]
    when = nxt.valid_from or nxt.created
    target = decision.target
    nxt_value = next((f.value for f in find_slots(nxt.text, nxt.entities, resolve)
                      if f.name == decision.slot), None) if decision.slot else None
    if nxt_value is not None:  # the slot compared with nxt itself
        reason = (f"older than {nxt.id} ({when}): '{decision.slot}' was '{decision.new_value}' "
                  f"before it became '{nxt_value}'; kept as history")
    elif nxt.id == target.id:
        reason = f"older than {nxt.id} ({when}), which contradicts it ({decision.reason}); kept as history"
    else:  # compared with the current memory, placed before an earlier state of its history
        reason = (f"older than {nxt.id} ({when}), the next state in time in the history of "
                  f"{target.id}; compared with {target.id}: {decision.reason}; kept as history")
    m.log[0]["reason"] = reason
    m.valid_to, m.superseded_by = when, nxt.id
    insert_memory(conn, m, vec, getattr(embedder, "model_name", "unknown"))
    for prev in before:  # e.g. "Porto" (2025) -> "Rotterdam" becomes "Porto" -> m -> "Rotterdam"
        prev.valid_to, prev.superseded_by = m.valid_from, m.id
        prev.log.append({"at": created, "action": "superseded", "by": m.id,
                         "reason": f"{m.id} (said {created}) came between it and {nxt.id}"})
        _update(conn, prev)
    return MemoryChange("add", m, None, reason), before


def _new_memory(scope: str, text: str, kind: str, confidence: float | None, importance: float | None,
                source: str, source_ids: list[str], created: str, event_time: str | None,
                names: list[str], action: str, reason: str, replaces: str | None = None,
                impact: int = 0, tags: list[str] | None = None) -> Memory:
    """A new Memory row (id from scope, text and `created`) with its first log entry."""
    return Memory(id=_mem_id(scope, text, created), text=text, kind=kind,
                  confidence=confidence if confidence is not None else
                  (USER_CONFIDENCE if source == "user" else EXTRACTED_CONFIDENCE),
                  scope=scope, source=source, source_ids=source_ids, created=created,
                  event_time=event_time, valid_from=created,
                  importance=importance if importance is not None else DEFAULT_IMPORTANCE[kind],
                  entities=names, impact=impact, tags=list(tags or []),
                  log=[{"at": created, "action": action, "reason": reason,
                        **({"replaces": replaces} if replaces else {})}])


def _weight(text: str, impact: int | None, tags: Iterable[str] | None) -> tuple[int, list[str]]:
    """(impact, tags) as given, checked, or weighed from `text` (affect.weigh) where None.
    Raises InvalidInput for an impact outside [-10, 10] or an unknown tag."""
    w = weigh(text) if impact is None or tags is None else None
    if impact is None:
        impact = w.impact
    elif isinstance(impact, bool) or not isinstance(impact, (int, float)) or not -10 <= impact <= 10:
        raise InvalidInput(f"impact must be an integer between -10 and 10, got {impact!r}")
    if tags is None:
        tags = w.tags
    tags = list(dict.fromkeys(str(t) for t in tags))
    bad = [t for t in tags if t not in TAGS]
    if bad:
        raise InvalidInput(f"unknown tag {bad[0]!r}; use any of: {', '.join(TAGS)}")
    return int(impact), [t for t in TAGS if t in tags]


def _state(m: Memory) -> str:
    if m.tombstone:
        return "forgotten"
    if m.superseded_by:
        return f"superseded by {m.superseded_by}"
    return "active"


def _said_before(a: str, b: str) -> bool:
    """True when ISO time `a` is strictly earlier than `b` (temporal.parse_time: naive times
    are taken as UTC); False when either is not ISO 8601."""
    try:
        return parse_time(a) < parse_time(b)
    except ValueError:
        return False


def _mirror(conn: sqlite3.Connection, vault: Path, memories: list[Memory | None]) -> None:
    for m in memories:
        if m is not None:
            mirror.write_memory(vault, m)
            for name in m.entities:
                eid = E.resolve(conn, name)
                if eid:
                    mirror.write_entity(vault, conn, eid)


# ----------------------------------------------------------------------------- forget / list
def forget(conn: sqlite3.Connection, memory_id: str, *, now: datetime | None = None,
           vault: Path | None = None) -> Memory:
    """Tombstone a memory (kept, never recalled, shown by list --all). Idempotent.
    Raises MemoryNotFound (a ValueError) naming an unknown id. See forget_change."""
    return forget_change(conn, memory_id, now=now, vault=vault).memory


def forget_change(conn: sqlite3.Connection, memory_id: str, *, now: datetime | None = None,
                  vault: Path | None = None) -> MemoryChange:
    """Tombstone a memory; returns MemoryChange action "forget", or "none" when it was
    already forgotten (nothing changes; `reason` says when it was forgotten).
    Raises MemoryNotFound (a ValueError) naming an unknown id."""
    with transaction(conn):
        m = get_memory(conn, memory_id)
        if m.tombstone:
            when = next((e.get("at") for e in reversed(m.log) if e.get("action") == "forget"), None)
            return MemoryChange("none", m, None, f"already forgotten{f' on {when}' if when else ''}")
        m.tombstone = True
        m.log.append({"at": _now(now).isoformat(), "action": "forget", "reason": "forgotten on request"})
        _update(conn, m)
        if vault is not None:
            mirror.write_memory(vault, m)
    return MemoryChange("forget", m, None, "forgotten on request")


def list_memories(conn: sqlite3.Connection, *, kind: str | None = None, scope: str | None = None,
                  include_inactive: bool = False) -> list[Memory]:
    """Memories in creation order. kind/scope filter exactly (scope None = every scope);
    include_inactive adds superseded and forgotten ones. Raises ValueError for an unknown kind."""
    if kind is not None and kind not in KINDS:
        raise InvalidInput(f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}")
    return [_row_to_memory(r) for r in S.memory_rows(conn, kind=kind, scope=scope,
                                                     include_inactive=include_inactive)]


def history(conn: sqlite3.Connection, memory_id: str) -> list[Memory]:
    """The supersession chain through `memory_id`, oldest first (each memory carries its
    own `log`). Raises MemoryNotFound naming an unknown id."""
    m = get_memory(conn, memory_id)
    chain = [m]
    seen = {m.id}
    while True:  # walk back
        row = S.superseded_row(conn, chain[0].id)
        if row is None or row["id"] in seen:
            break
        chain.insert(0, _row_to_memory(row))
        seen.add(row["id"])
    while chain[-1].superseded_by and chain[-1].superseded_by not in seen:  # walk forward
        nxt = get_memory(conn, chain[-1].superseded_by)
        chain.append(nxt)
        seen.add(nxt.id)
    return chain


# ----------------------------------------------------------------------------- core memory
def get_core_blocks(conn: sqlite3.Connection) -> dict[str, str]:
    """Core blocks, name -> text (sorted by name)."""
    return S.core_blocks(conn)


def set_core_block(conn: sqlite3.Connection, name: str, text: str, *, now: datetime | None = None,
                   vault: Path | None = None) -> None:
    """Create or replace a core block (empty text clears it). `name`: the block's name, or
    "@PERSON/NAME" for a named person's block (cairn.people.core_key). Raises InvalidInput
    for a bad name, or text holding control characters other than line breaks and tabs."""
    from cairn.controls import check_no_controls
    name = (name or "").strip()
    if not re.fullmatch(r"(@[A-Za-z0-9][A-Za-z0-9._-]{0,63}/)?[\w-]{1,40}", name):
        raise InvalidInput(f"core block name {name!r} must be 1-40 letters, digits, '-' or '_'")
    check_no_controls(text or "", f"the core block {name!r}", lines=True)
    with transaction(conn):
        S.put_core_block(conn, name, text.strip(), _now(now).isoformat())
        if vault is not None:
            mirror.write_core(vault, name, text.strip())


def core_context(conn: sqlite3.Connection, *, scope: str | None = None, limit: int = 15,
                 now: datetime | None = None) -> CoreContext:
    """What an assistant puts in every prompt: the core blocks and the top `limit` active
    memories visible in `scope` (global ones plus that scope's), ranked by confidence, then
    recency (last use or creation), as EchOS injects its top 15."""
    rows = S.top_active_rows(conn, scope or "global", limit)
    return CoreContext(get_core_blocks(conn), [_row_to_memory(r) for r in rows])


# ----------------------------------------------------------------------------- entities
def add_alias(conn: sqlite3.Connection, name: str, alias: str, *, vault: Path | None = None) -> dict:
    """Join `alias` to the entity `name` (see entities.add_alias); returns the entity as
    listed by `entities.list_entities`."""
    with transaction(conn):
        old = E.resolve(conn, alias)
        eid = E.add_alias(conn, name, alias)
        if vault is not None:
            mirror.write_entity(vault, conn, eid)
            if old and old != eid:
                mirror.write_entity(vault, conn, old)  # removes the merged entity's file
    return next(e for e in E.list_entities(conn) if e["id"] == eid)
