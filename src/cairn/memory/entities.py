"""Entities with aliases: one person, project or place under all its names (any script).

Tables (migration 5): `entities(id, name, kind)`, `aliases(alias casefolded, display,
entity_id)`, `memory_entities(memory_id, entity_id)`. An entity is created the first time a
name is seen; `add_alias` joins two names (merging two entities if both already exist), so
"Olga" and "Ольга" resolve to one entity and recall for either finds facts stored under the
other (EchoVessel's alias scan).

Names in memory text are found by a capitalised-name rule: a run of capitalised words (any
script with upper/lower case: Latin, Cyrillic, Greek...), joined by "&", skipping titles
("Dr.") and common words that start a sentence ("My", "Honestly", month and day names).
Names passed in by an extractor are linked as given. Scripts without case (CJK) are found
only as known aliases.
"""

from __future__ import annotations

from cairn.errors import InvalidInput

import re
import sqlite3
from typing import Iterable

from cairn.store import memories as S
from cairn.store.memories import list_entities  # noqa: F401  (its home before store/)

_WORD = r"[^\W\d_][^\W_]*(?:['’-][^\W\d_]+)*"
_TOKEN_RE = re.compile(_WORD + r"|&|[.!?;:]")
_TITLES = {"dr", "mr", "mrs", "ms", "prof", "sir", "dame", "st"}
from cairn.names import (  # noqa: F401  (their home before names.py)
    _ARTICLES, _COMMON, _PUNCT, _fold_word, alias_keys, entity_id, normalise)


def _is_cap(tok: str) -> bool:
    return tok[:1].isupper()


def find_names(text: str) -> list[str]:
    """Capitalised names in `text`, in order, without duplicates ("Dr. Okafor" -> "Okafor",
    "Ferrow & Hale" kept whole, "Harbour Town FC" kept whole)."""
    names: list[str] = []
    run: list[str] = []
    sentence_start = True

    def flush() -> None:
        while run and run[-1] == "&":
            run.pop()
        if run:
            words = [w for w in run if w != "&"]
            if not (len(words) == 1 and words[0].casefold().rstrip("'’s") in _COMMON
                    and words[0].casefold() in _COMMON):
                name = " ".join(run)
                if name not in names and normalise(name) not in _COMMON:
                    names.append(name)
        run.clear()

    for tok in _TOKEN_RE.findall(text):
        if tok in ".!?;:":
            prev = run[-1] if run else ""
            if tok == "." and prev.casefold() in _TITLES:
                run.pop()
                continue
            flush()
            sentence_start = tok != ":" or sentence_start
            if tok in ".!?":
                sentence_start = True
            continue
        if tok == "&":
            if run:
                run.append(tok)
            continue
        if _is_cap(tok):
            key = tok.casefold()
            if key in _TITLES:
                flush()
            elif sentence_start and key in _COMMON:
                flush()
            elif not run and key in _COMMON:
                pass
            else:
                run.append(tok)
        else:
            flush()
        sentence_start = False
    flush()
    return names


#: Names a transcript gives the person themselves: a chat export's speaker "user" (OpenAI's
#: message roles), the assistant's own transcripts ("The person", assistant/loop.person_name).
#: A fact about one of them is a fact about the person: its subject key is "user", as for
#: "I" and "my" (match.subject, slots.find_slots).
SELF_NAMES = frozenset({"user", "the user", "the person", "person", "me", "myself"})


def subject_key(conn: sqlite3.Connection, name: str, self_names: Iterable[str] = ()) -> str:
    """The key a statement's subject `name` is compared by: "user" for the person (SELF_NAMES
    and `self_names`, e.g. the name in their core block), else the entity id its name or
    alias resolves to (`resolve`), else the folded name (`normalise`)."""
    key = normalise(name)
    if key in SELF_NAMES or key in {normalise(n) for n in self_names if n}:
        return "user"
    return resolve(conn, name) or key


def resolve(conn: sqlite3.Connection, name: str) -> str | None:
    """Entity id for a name or alias (folded match, `normalise`; older unfolded keys
    too), or None."""
    for key in alias_keys(name):
        found = S.alias_entity(conn, key)
        if found:
            return found
    return None


def ensure_entity(conn: sqlite3.Connection, name: str, kind: str = "entity") -> str:
    """Entity id for `name`, creating the entity (with `name` as its first alias) if unknown.
    A known entity of the plain kind "entity" (made by a memory naming it, or a title) takes
    `kind` when that says more ("person" from a chat speaker); a specific kind is never
    changed here. Raises ValueError for an empty name."""
    if not name.strip():
        raise InvalidInput("entity name is empty")
    found = resolve(conn, name)
    if found:
        if kind != "entity":
            S.refine_entity_kind(conn, found, kind)
        return found
    eid = entity_id(name)
    n = 1
    while S.entity_exists(conn, eid):
        n += 1
        eid = entity_id(f"{name}#{n}")
    S.insert_entity(conn, eid, name.strip(), kind)
    S.insert_alias(conn, normalise(name), name.strip(), eid)
    return eid


def add_alias(conn: sqlite3.Connection, name: str, alias: str) -> str:
    """Make `alias` another name of the entity called `name` (created if unknown). If `alias`
    already names a different entity, that entity is merged into `name`'s: its aliases and
    memory links move over. Returns the entity id. Raises ValueError for empty names."""
    if not name.strip() or not alias.strip():
        raise InvalidInput("entity alias needs a NAME and an ALIAS, both non-empty")
    eid = ensure_entity(conn, name)
    other = resolve(conn, alias)
    if other == eid:
        return eid
    if other:
        S.merge_entity(conn, eid, other)
    else:
        S.insert_alias(conn, normalise(alias), alias.strip(), eid)
    return eid


def link(conn: sqlite3.Connection, memory_id: str, names: list[str]) -> list[str]:
    """Link a memory to the entities of `names` (created if unknown); returns entity ids."""
    ids = []
    for name in names:
        if name.strip():
            eid = ensure_entity(conn, name)
            S.link_memory(conn, memory_id, eid)
            ids.append(eid)
    return ids


def entities_in_query(conn: sqlite3.Connection, query: str) -> dict[str, str]:
    """Entities whose alias occurs in `query` as whole words (casefolded): {entity_id: alias}.
    Aliases in scripts without word breaks (CJK) match as substrings."""
    q = normalise(query)
    found: dict[str, str] = {}
    for alias, eid in S.alias_keys(conn):
        if any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in alias):
            hit = alias in q
        else:
            hit = re.search(r"(?<!\w)" + re.escape(alias) + r"(?!\w)", q) is not None
        if hit:
            found.setdefault(eid, alias)
    return found
