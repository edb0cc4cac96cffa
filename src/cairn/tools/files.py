"""The sandboxed file tools: read and list files only inside the vault and the folders the
person configured (`[assistant] files`). A path outside them is refused (Forbidden) before
anything is opened; symlinks are resolved first, so a link cannot lead out. The judge rates a
read outside the vault high (it waits for approval) even inside a configured folder. Results
name a vault file relative to the vault (`shown`), never by its absolute path.

For a named person of a shared home (cairn.people: `settings.owner`), the tools see only
the vault files of the notes that person may see: another person's note, the memory
mirror (`_memory/`) and the configured folders (the home's own) read as missing, and a
listing shows only the folders and files leading to their notes.
"""

from __future__ import annotations

from pathlib import Path

from cairn import paths as P
from cairn.errors import Forbidden, InvalidInput, NotFound, TooLarge
from cairn.hookspecs import hookimpl
from cairn.tools import Tool

MAX_READ_CHARS = 20_000


def allowed_folders(app) -> list[Path]:
    """The vault plus `[assistant] files` (~ expanded, relative to the home), resolved."""
    out = [Path(app.settings.vault).resolve()]
    for f in app.settings.assistant.files:
        out.append((Path(app.settings.home) / Path(f).expanduser()).resolve())
    return out


def confine(app, path: str) -> Path:
    """`path` resolved (relative paths are relative to the vault), if inside an allowed
    folder. Raises Forbidden otherwise, naming the folders; InvalidInput for a path holding a
    NUL character, which no file name can (the system call said only "embedded null byte")."""
    if "\x00" in path:
        raise InvalidInput(f"the path {path!r} holds a NUL character (U+0000), which no file name can hold")
    p = Path(path).expanduser()
    if not p.is_absolute():
        p = Path(app.settings.vault) / p
    p = P.resolved(p)  # never raises: a symlink loop is then "no file" to read
    folders = allowed_folders(app)
    if not any(p == f or f in p.parents for f in folders):
        raise Forbidden(f"{path} is outside the folders the assistant may read "
                        f"({', '.join(str(f) for f in folders)}; add one to [assistant] files)")
    return p


def shown(app, p: Path) -> str:
    """`p` (resolved, inside an allowed folder) as a tool's result names it: relative to the
    vault when inside it ("." for the vault itself, "notes/a.md"), else with the user's home
    directory written "~" — either reads back as `confine`'s input. A result never names the
    vault by its absolute path (the MCP client may be elsewhere: docs/server.md)."""
    vault = Path(app.settings.vault).resolve()
    if p == vault or vault in p.parents:
        return p.relative_to(vault).as_posix() or "."
    user = Path.home().resolve()
    if user != Path("/") and (p == user or user in p.parents):
        return str(Path("~") / p.relative_to(user))
    return str(p)


def _visible_paths(app) -> set[Path] | None:
    """Resolved vault paths of the notes the service's named person may see; None for the
    home's own person (every file of the allowed folders)."""
    if app.settings.owner is None:
        return None
    vault = Path(app.settings.vault).resolve()
    _, rows = app.store.notes.list_notes(limit=10 ** 9, person=app.settings.owner)
    return {P.resolved(vault / r.path) for r in rows}


def _read_file(app, a: dict):
    p = confine(app, a["path"])
    seen = _visible_paths(app)
    if not p.is_file() or (seen is not None and p not in seen):
        raise NotFound(f"no file {a['path']}")
    if p.stat().st_size > 4 * MAX_READ_CHARS * 4:
        raise TooLarge(f"{a['path']} is {p.stat().st_size} bytes: too large to read here (ingest it instead)")
    from cairn.parse.errors import UndecodableText
    from cairn.parse.text import decode_bytes
    try:  # UTF-8, a BOM's UTF-16/32, cp1252 and the other legacy encodings, as ingest reads text
        text, _enc = decode_bytes(p.read_bytes())
    except UndecodableText as exc:
        raise InvalidInput(f"{a['path']} is not a text file ({exc}); read its note instead") from None
    return {"path": shown(app, p), "text": text[:MAX_READ_CHARS], "truncated": len(text) > MAX_READ_CHARS}


def _list_files(app, a: dict):
    p = confine(app, a.get("folder") or ".")
    seen = _visible_paths(app)
    if seen is not None:  # only the folders and files that lead to the person's notes
        below = [f for f in seen if p in f.parents]
        if not p.is_dir() or not below:
            raise NotFound(f"no folder {a.get('folder')}")
        names = {f.relative_to(p).parts[0] for f in below}
        entries = sorted(p / n for n in names)[:200]
        return {"folder": shown(app, p), "entries": [{"name": e.name, "dir": e.is_dir()} for e in entries]}
    if not p.is_dir():
        raise NotFound(f"no folder {a.get('folder')}")
    entries = sorted(p.iterdir())[:200]
    return {"folder": shown(app, p), "entries": [{"name": e.name, "dir": e.is_dir()} for e in entries]}


TOOLS = (
    Tool("read_file", "Read a text file inside the vault or a folder the person allowed ([assistant] files).",
         {"type": "object", "properties": {"path": {"type": "string", "minLength": 1}}, "required": ["path"],
          "additionalProperties": False}, _read_file, risk="low", meta={"files": True}),
    Tool("list_files", "List a folder inside the vault or a folder the person allowed.",
         {"type": "object", "properties": {"folder": {"type": "string"}}, "additionalProperties": False},
         _list_files, risk="low", meta={"files": True}),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
