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

Names are compared by `person_key` (`same_person`): without surrounding spaces and
case-folded, so CAIRN_PERSON=alice is the person whose notes say `cairn_owner: Alice`; the
store's owner filter (OWNER_SQL) folds the same way. The name is kept as written.
"""

from __future__ import annotations

import re

from pathlib import Path

from cairn.errors import InvalidInput

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
OWNER_KEY = "cairn_owner"
SHARED_KEY = "shared"


def check_person(name: str | None) -> str | None:
    """`name` without surrounding spaces if it is a valid person name (1-64 letters, digits,
    '.', '_', '-'), as the person wrote it otherwise (its case is kept for display and for
    what is written); None for None, "" or spaces only. Raises InvalidInput naming the rule."""
    if isinstance(name, str):
        name = name.strip()
    if name is None or name == "":
        return None
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidInput(f"person {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
    return name


def person_key(name: str | None) -> str | None:
    """The identity of a person's name, for comparing only: without surrounding spaces and
    case-folded ("Alice", "alice" and " ALICE " are one person); None for None or blank.
    Every comparison of people's names (an owner, a viewer, a scope's or key's name) goes
    through it (`same_person`), so CAIRN_PERSON=alice sees what Alice wrote. What is shown
    and written keeps the spelling the person used."""
    if name is None:
        return None
    key = str(name).strip().casefold()
    return key or None


def same_person(a: str | None, b: str | None) -> bool:
    """Whether two person names (None or blank: the home's own person) name the same
    person, by `person_key`."""
    return person_key(a) == person_key(b)


def _scope_person(scope: str) -> str | None:
    """The person of a stored memory scope "@NAME" or "@NAME/SCOPE" (None for another)."""
    if not scope.startswith("@"):
        return None
    return scope[1:].split("/", 1)[0]


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
    return same_person(str(meta.get(OWNER_KEY) or ""), person) or meta.get(SHARED_KEY) is True


def memory_scope(person: str | None, scope: str | None) -> str | None:
    """The stored scope of a memory `person` names `scope` (None: their default)."""
    if person is None:
        return scope
    return f"@{person}" + (f"/{scope}" if scope and scope != "global" else "")


def memory_visible(scope: str, person: str | None) -> bool:
    """Whether a memory stored in `scope` may be seen by `person`."""
    return person is None or (_scope_person(scope) is not None and same_person(_scope_person(scope), person))


def stored_spelling(person: str, stored) -> str:
    """`person` as it is already spelled among the names `stored` (an iterable of str) when
    one of them is the same person (`same_person`: "Alice" for "alice"), else as given: what
    one person writes under their name (a folder, a key) stays one thing however they type it."""
    return next((s for s in stored if same_person(s, person)), person)


def _folders(parent: Path, prefix: str = "") -> list[str]:
    """Names (without `prefix`) of the folders directly in `parent` starting with `prefix`."""
    try:
        return sorted(p.name[len(prefix):] for p in parent.iterdir() if p.is_dir() and p.name.startswith(prefix))
    except OSError:  # no such folder yet
        return []


def state_dir(home: Path, person: str | None) -> Path:
    """The folder of `person`'s own state files (mood, reflection): the home itself for the
    home's own person (None), `<home>/people/NAME` for a named one (not created here; an
    existing folder of the same person in another case is theirs: `stored_spelling`)."""
    if person is None:
        return home
    return home / "people" / stored_spelling(person, _folders(home / "people"))


def person_folder_name(parent: Path, person: str) -> str:
    """The name of `person`'s own folder "@NAME" in `parent` (an existing one of the same
    person in another case, else as written): cairn.exports' `exports/@NAME`."""
    return "@" + stored_spelling(person, _folders(parent, "@"))


def core_key(person: str | None, name: str, stored=()) -> str:
    """The stored key of core block `name` of `person` ("@NAME/BLOCK"; the name itself for
    the home's own person). stored: the keys already stored; a block of the same person and
    name in another case is replaced, not doubled."""
    if person is None:
        return name
    key = f"@{person}/{name}"
    return next((k for k in stored if k.startswith("@") and "/" in k and same_person(k[1:].split("/", 1)[0], person)
                 and k.split("/", 1)[1] == name), key)


def own_core_blocks(blocks: dict[str, str], person: str | None) -> dict[str, str]:
    """The core blocks `person` sees, by their plain names: for a named person only their
    own ("@NAME/BLOCK" keys); for the home's own person only the home's (keys without "@")."""
    if person is None:
        return {k: v for k, v in blocks.items() if not k.startswith("@")}
    return {k.split("/", 1)[1]: v for k, v in blocks.items()
            if k.startswith("@") and "/" in k and same_person(k[1:].split("/", 1)[0], person)}


def record_visible(owner: str | None, person: str | None) -> bool:
    """Whether a session, reminder or audit entry recorded for `owner` (None: the home's own
    person) may be seen by `person`: the home's own person sees all, a named one their own."""
    return person is None or same_person(owner, person)
