"""The sandboxed file tools: read and list files only inside the vault and the folders the
person configured (`[assistant] files`). A path outside them is refused (Forbidden) before
anything is opened; symlinks are resolved first, so a link cannot lead out. The judge rates a
read outside the vault high (it waits for approval) even inside a configured folder.
"""

from __future__ import annotations

from pathlib import Path

from cairn.errors import Forbidden, NotFound, TooLarge
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
    folder. Raises Forbidden otherwise, naming the folders."""
    p = Path(path).expanduser()
    if not p.is_absolute():
        p = Path(app.settings.vault) / p
    p = p.resolve()
    folders = allowed_folders(app)
    if not any(p == f or f in p.parents for f in folders):
        raise Forbidden(f"{path} is outside the folders the assistant may read "
                        f"({', '.join(str(f) for f in folders)}; add one to [assistant] files)")
    return p


def _read_file(app, a: dict):
    p = confine(app, a["path"])
    if not p.is_file():
        raise NotFound(f"no file {a['path']}")
    if p.stat().st_size > 4 * MAX_READ_CHARS * 4:
        raise TooLarge(f"{a['path']} is {p.stat().st_size} bytes: too large to read here (ingest it instead)")
    text = p.read_text(encoding="utf-8", errors="replace")
    return {"path": str(p), "text": text[:MAX_READ_CHARS], "truncated": len(text) > MAX_READ_CHARS}


def _list_files(app, a: dict):
    p = confine(app, a.get("folder") or ".")
    if not p.is_dir():
        raise NotFound(f"no folder {a.get('folder')}")
    entries = sorted(p.iterdir())[:200]
    return {"folder": str(p), "entries": [{"name": e.name, "dir": e.is_dir()} for e in entries]}


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
