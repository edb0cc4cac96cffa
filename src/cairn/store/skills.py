"""Skills (PRAANA P24, P25): named sequences of tool calls the person recorded from a
conversation, with their usefulness feedback, in one plain JSON file `<home>/skills.json`.

    {"skills": {NAME: {"name", "steps": [{"tool", "arguments"}], "created", "source":
     {"session", "turns"}, "helpful", "not_helpful", "runs", "last_run", "owner"}}}

usefulness = (helpful + 1) / (helpful + not_helpful + 2): Laplace's rule of succession, so a
skill nobody rated is 0.5, one "helpful" lifts it to 0.67 and one "not helpful" drops it to
0.33; more votes weigh more. `ranked` orders skills by usefulness, then runs, then name.

Writes are atomic (a temporary file renamed over the old one) under an advisory lock
(`<home>/skills.lock`), so two processes never lose each other's change. Errors:
InvalidInput for a bad name (1-60 letters, digits, "-", "_", " "), an empty step list or an
unreadable file (named, nothing overwritten); NotFound for an unknown skill (or another
person's: `owner`, cairn.people); Conflict when saving over an existing name without replace.
"""

from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from cairn.errors import Conflict, InvalidInput, NotFound
from cairn.store.locks import file_lock

NAME = re.compile(r"^[\w][\w \-]{0,59}$")
MAX_STEPS = 20


def usefulness(s: dict) -> float:
    """(helpful + 1) / (helpful + not_helpful + 2)."""
    return (int(s.get("helpful", 0)) + 1) / (int(s.get("helpful", 0)) + int(s.get("not_helpful", 0)) + 2)


def _path(home: Path) -> Path:
    return Path(home) / "skills.json"


def _read(home: Path) -> dict:
    path = _path(home)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"skills": {}}
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path} cannot be read ({exc}); fix or move it, nothing was changed") from exc
    if not isinstance(data, dict) or not isinstance(data.get("skills"), dict):
        raise InvalidInput(f"{path} is not a skills file ({{\"skills\": {{...}}}}); nothing was changed")
    return data


@contextmanager
def _locked(home: Path):
    with file_lock(Path(home) / "skills.lock"):
        data = _read(home)
        yield data
        tmp = _path(home).with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, _path(home))


def check_name(name: str) -> str:
    """`name` stripped; InvalidInput unless 1-60 letters, digits, spaces, "-" or "_"."""
    name = (name or "").strip()
    if not NAME.match(name):
        raise InvalidInput(f"invalid skill name {name!r}: 1-60 letters, digits, spaces, '-' or '_'")
    return name


def _mine(s: dict, owner: str | None) -> bool:
    from cairn.people import same_person
    return owner is None or same_person(s.get("owner"), owner)


def save(home: Path, name: str, steps: list[dict], source: dict, owner: str | None = None,
         replace: bool = False) -> dict:
    """Record skill `name` with `steps` ([{"tool", "arguments"}], 1..MAX_STEPS); returns it."""
    name = check_name(name)
    steps = [{"tool": str(s["tool"]), "arguments": dict(s.get("arguments") or {})} for s in steps]
    if not steps:
        raise InvalidInput("a skill needs at least one tool call: that turn made none")
    if len(steps) > MAX_STEPS:
        raise InvalidInput(f"a skill holds at most {MAX_STEPS} tool calls, not {len(steps)}")
    with _locked(home) as data:
        old = data["skills"].get(name)
        if old is not None and not replace:
            raise Conflict(f"a skill named {name!r} exists (replace it, or choose another name)")
        if old is not None and not _mine(old, owner):
            raise Conflict(f"the skill name {name!r} is taken")
        skill = {"name": name, "steps": steps, "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 "source": source, "helpful": 0, "not_helpful": 0, "runs": 0, "last_run": None, "owner": owner}
        data["skills"][name] = skill
    return dict(skill, usefulness=usefulness(skill))


def get(home: Path, name: str, owner: str | None = None) -> dict:
    """Skill `name` with its usefulness. NotFound when unknown."""
    s = _read(home)["skills"].get(check_name(name))
    if s is None or not _mine(s, owner):
        raise NotFound(f"no skill {name!r} (`cairn skills` lists them)")
    return dict(s, usefulness=usefulness(s))


def ranked(home: Path, owner: str | None = None) -> list[dict]:
    """Every skill with its usefulness, most useful first (then most run, then by name)."""
    rows = [dict(s, usefulness=usefulness(s)) for s in _read(home)["skills"].values() if _mine(s, owner)]
    return sorted(rows, key=lambda s: (-s["usefulness"], -int(s.get("runs", 0)), s["name"]))


def update(home: Path, name: str, owner: str | None = None, *, helpful: bool | None = None,
           ran: bool = False) -> dict:
    """Count one run (`ran`) and/or one vote (`helpful` True / False) for skill `name`."""
    name = check_name(name)
    with _locked(home) as data:
        s = data["skills"].get(name)
        if s is None or not _mine(s, owner):
            raise NotFound(f"no skill {name!r} (`cairn skills` lists them)")
        if helpful is not None:
            s["helpful" if helpful else "not_helpful"] = int(s.get("helpful" if helpful else "not_helpful", 0)) + 1
        if ran:
            s["runs"] = int(s.get("runs", 0)) + 1
            s["last_run"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return dict(s, usefulness=usefulness(s))


def delete(home: Path, name: str, owner: str | None = None) -> None:
    """Remove skill `name`. NotFound when unknown."""
    name = check_name(name)
    with _locked(home) as data:
        s = data["skills"].get(name)
        if s is None or not _mine(s, owner):
            raise NotFound(f"no skill {name!r} (`cairn skills` lists them)")
        del data["skills"][name]
