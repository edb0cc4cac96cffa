"""Several people in one home: who owns a note or a memory, and who may see it.

The person a service acts for is part of its context (`Cairn(person=...)`, env CAIRN_PERSON
for the CLI and `cairn mcp`, the API key's person for REST and /mcp). None is the home's own
person (the one who runs it on the machine), who sees everything; a named person sees only
what they own and notes shared with everyone.

Ownership is written where the vault keeps it, so `cairn reindex` restores it:
- a note's owner is the frontmatter key `cairn_owner` (written by ingest, imports and note
  creation for a named person); a note is shared when its frontmatter says `shared: true`;
  its chunks belong to it (they carry its note id), so search filters them by their note;
- a memory's owner is its scope: a named person's memories live in the scope "@NAME" (or
  "@NAME/SCOPE"), which the vault's memory mirror keeps.

The store filters notes and chunks in its queries (`owner_clause`); memories are filtered
by scope in the service.
"""

from __future__ import annotations

import re

from cairn.errors import InvalidInput

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
OWNER_KEY = "cairn_owner"
SHARED_KEY = "shared"


def check_person(name: str | None) -> str | None:
    """`name` if it is a valid person name (1-64 letters, digits, '.', '_', '-'), None for
    None or "". Raises InvalidInput naming the rule."""
    if name is None or name == "":
        return None
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidInput(f"person {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
    return name


def owner_keys(person: str | None) -> dict:
    """The frontmatter keys marking a note as `person`'s ({} for the home's own person)."""
    return {OWNER_KEY: person} if person else {}


def note_visible(meta: dict, person: str | None) -> bool:
    """Whether a note with frontmatter `meta` may be seen by `person`."""
    if person is None:
        return True
    return str(meta.get(OWNER_KEY) or "") == person or meta.get(SHARED_KEY) is True


def memory_scope(person: str | None, scope: str | None) -> str | None:
    """The stored scope of a memory `person` names `scope` (None: their default)."""
    if person is None:
        return scope
    return f"@{person}" + (f"/{scope}" if scope and scope != "global" else "")


def memory_visible(scope: str, person: str | None) -> bool:
    """Whether a memory stored in `scope` may be seen by `person`."""
    return person is None or scope == f"@{person}" or scope.startswith(f"@{person}/")
