"""Several people in one home: who owns a note or a memory, and who may see it.

Words: a *person* here is one of the people sharing a home (issue 21), named by env
CAIRN_PERSON, `Cairn(person=...)` or an API key's person; the service keeps the name as
`settings.owner`, the *owner* of every row it writes and the filter of every row it reads.
"The person" of the memory and context features (mood, reflection, core blocks) is whoever
the service acts for: each owner has their own. None is the home's own person (the one who
runs it on the machine), who sees everything; a named person sees only what they own and
notes shared with everyone.

Ownership is written where the vault keeps it, so `cairn reindex` restores it:
- a note's owner is the frontmatter key `cairn_owner` (written by ingest, imports and note
  creation for a named person); a note is shared when its frontmatter says `shared: true`;
  its chunks belong to it (they carry its note id), so search filters them by their note;
- a memory's owner is its scope: a named person's memories live in the scope "@NAME" (or
  "@NAME/SCOPE"), which the vault's memory mirror keeps.

- a core block of a named person is stored under the key "@NAME/BLOCK" (mirrored as
  `_memory/core/@NAME/BLOCK.md`); the home's blocks keep their plain names;
- files of the person's state (mood.json, reflection.json) live in `<home>/people/NAME/`
  for a named person, in the home folder for the home's own person (`state_dir`);
- sessions, reminders and audit entries record their owner (`owner` in their JSON).

The store filters notes and chunks in its queries (`OWNER_SQL`); memories are filtered by
scope, entities by the notes and memories that mention them, in the service.
"""

from __future__ import annotations

import re

from pathlib import Path

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


def keeps_owner(existing_meta: dict | None, person: str | None) -> dict:
    """The owner keys for a note being (re)written for `person`: a note that exists keeps
    its owner (a re-ingest or sync by someone else never takes it over; the first one owns
    it), a new note is `person`'s."""
    if existing_meta is None:
        return owner_keys(person)
    return owner_keys(str(existing_meta.get(OWNER_KEY) or "") or None)


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


def state_dir(home: Path, person: str | None) -> Path:
    """The folder of `person`'s own state files (mood, reflection): the home itself for the
    home's own person (None), `<home>/people/NAME` for a named one (not created here)."""
    return home if person is None else home / "people" / person


def core_key(person: str | None, name: str) -> str:
    """The stored key of core block `name` of `person` ("@NAME/BLOCK"; the name itself for
    the home's own person)."""
    return name if person is None else f"@{person}/{name}"


def own_core_blocks(blocks: dict[str, str], person: str | None) -> dict[str, str]:
    """The core blocks `person` sees, by their plain names: for a named person only their
    own ("@NAME/BLOCK" keys); for the home's own person only the home's (keys without "@")."""
    if person is None:
        return {k: v for k, v in blocks.items() if not k.startswith("@")}
    prefix = f"@{person}/"
    return {k[len(prefix):]: v for k, v in blocks.items() if k.startswith(prefix)}


def record_visible(owner: str | None, person: str | None) -> bool:
    """Whether a session, reminder or audit entry recorded for `owner` (None: the home's own
    person) may be seen by `person`: the home's own person sees all, a named one their own."""
    return person is None or owner == person
