"""The file-writing tools (Salmex S7): `write_file` (create or replace a text file) and
`edit_file` (replace one exact passage of a text file), only inside the folders the person
listed in `[assistant] write_folders` (none by default: the tools then refuse every call).

Rules, each checked before anything is opened for writing:
- the path is relative to the first write folder, or absolute inside one of them; a `..`
  part is refused outright (Forbidden), whatever it would resolve to;
- no part of the path below the folder may be a symbolic link (a link inside the folder could
  lead out, or be swapped later): refused (Forbidden); the file itself is opened with
  O_NOFOLLOW and replaced through a temporary file in its own folder (os.replace), which
  takes the replaced file's permission bits;
- only text: an existing file that is not UTF-8 or holds NUL bytes is refused (InvalidInput),
  as is new text holding NUL bytes; at most MAX_CHARS characters (TooLarge);
- `edit_file`'s `old` must occur exactly once (InvalidInput names how often it occurs).

Both tools are high risk (they always wait for the person's approval) and carry a `preview`
(`Tool.meta["preview"]`): the unified diff of the change, shown with the approval request and
kept with a pending call. A change approved after the file moved on from what the diff showed
is refused, see cairn.assistant.loop. They run only inside the assistant
(`cairn.tools.via_assistant`): called over MCP or REST, which have no judge, they refuse.
"""

from __future__ import annotations

import difflib
import os
import stat
from pathlib import Path

from cairn.errors import Conflict, Forbidden, InvalidInput, NotFound, TooLarge
from cairn.hookspecs import hookimpl
from cairn.tools import Tool

MAX_CHARS = 200_000
DIFF_LINES = 400  # a longer diff is cut, with a line saying how much was left out


def write_folders(app) -> list[Path]:
    """The folders of `[assistant] write_folders` (~ expanded, relative to the home), resolved."""
    home = Path(app.settings.home)
    return [Path(os.path.realpath(home / Path(f).expanduser())) for f in app.settings.assistant.write_folders]


def target(app, path: str) -> Path:
    """The file `path` names, checked against the rules of this module (not resolved: its
    folders below the write folder are real folders, not links). Raises Forbidden, or
    InvalidInput for a NUL in the path."""
    folders = write_folders(app)
    if not folders:
        raise Forbidden("the assistant may write no files: no folder is listed in [assistant] write_folders")
    if "\0" in path:
        raise InvalidInput(f"{path!r}: the path holds a NUL character")
    raw = Path(path).expanduser()
    if ".." in raw.parts:
        raise Forbidden(f"{path}: a path with '..' is refused (name the file inside a write folder)")
    if raw.is_absolute():
        root = next((f for f in folders if raw == f or f in raw.parents), None)
        if root is None:
            raise Forbidden(f"{path} is outside the folders the assistant may write "
                            f"({', '.join(map(str, folders))}; [assistant] write_folders)")
        rel = raw.relative_to(root)
    else:
        root, rel = folders[0], raw
    if not rel.parts:
        raise Forbidden(f"{path} is a write folder itself, not a file in it")
    if not root.is_dir():
        raise NotFound(f"the write folder {root} does not exist")
    here = root
    for part in rel.parts:
        here = here / part
        if here.is_symlink():
            raise Forbidden(f"{path}: {here} is a symbolic link; the assistant never writes through links")
    if here.exists() and not here.is_file():
        raise Forbidden(f"{path} is not a regular file")
    _not_cairns_own(app, root, Path(os.path.realpath(here)), path)
    return here


def _not_cairns_own(app, root: Path, real: Path, shown: str) -> None:
    """Refuse a file in the vault (notes are written by the note tools, which keep their
    history) and, when the write folder holds the whole Cairn home, a file in the home (its
    config.toml, index and history). A write folder inside the home (`drafts`) is the
    person's own. Raises Forbidden."""
    inside = lambda p, base: p == base or base in p.parents  # noqa: E731
    vault = Path(os.path.realpath(app.settings.vault))
    if inside(real, vault):
        raise Forbidden(f"{shown} is in the vault: notes are written with the note tools (create_note, "
                        "update_note), which keep their history, not with the file tools")
    home = Path(os.path.realpath(app.settings.home))
    if inside(home, root) and inside(real, home):
        raise Forbidden(f"{shown} is in Cairn's home ({home}: its configuration, index and history); "
                        "the file tools never write there")


def _read_text(p: Path, shown: str) -> str:
    if not p.exists():
        return ""
    fd = os.open(p, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(MAX_CHARS * 4 + 1)
    if len(data) > MAX_CHARS * 4:
        raise TooLarge(f"{shown} is too large for the file tools (over {MAX_CHARS} characters)")
    if b"\0" in data:
        raise InvalidInput(f"{shown} is not a text file (it holds NUL bytes); the assistant edits text files only")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{shown} is not UTF-8 text; the assistant edits text files only") from None


def _check_text(text: str, shown: str) -> None:
    if "\0" in text:
        raise InvalidInput(f"the new text of {shown} holds a NUL character; only text is written")
    if len(text) > MAX_CHARS:
        raise TooLarge(f"the new text of {shown} has {len(text)} characters; at most {MAX_CHARS}")


def _new_text(app, a: dict) -> tuple[Path, str, str]:
    """(file, its text now, its text after the change) for a write_file / edit_file call."""
    p = target(app, a["path"])
    old = _read_text(p, a["path"])
    if "old" in a:  # edit_file
        if not p.exists():
            raise NotFound(f"no file {a['path']} to edit (write_file creates one)")
        n = old.count(a["old"])
        if n != 1:
            raise InvalidInput(f"edit_file: the passage to replace occurs {n} times in {a['path']}; it must occur once")
        new = old.replace(a["old"], a["new"], 1)
    else:
        new = a["text"]
    _check_text(new, a["path"])
    return p, old, new


def unified_diff(old: str, new: str, name: str, created: bool) -> str:
    """The unified diff from `old` to `new` (difflib), headed `a/name` (or /dev/null for a
    new file) and `b/name`; at most DIFF_LINES lines, then a line saying how many were cut."""
    lines = list(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                      "/dev/null" if created else f"a/{name}", f"b/{name}"))
    lines = [ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n" for ln in lines]
    out = "".join(lines)
    rows = out.splitlines(keepends=True)
    if len(rows) > DIFF_LINES:
        out = "".join(rows[:DIFF_LINES]) + f"... {len(rows) - DIFF_LINES} more diff lines\n"
    return out


def preview(app, a: dict) -> str:
    """The unified diff a write_file / edit_file call would make (the text shown for approval).
    Raises the tool's own errors (Forbidden, InvalidInput, ...) for a call that cannot run."""
    p, old, new = _new_text(app, a)
    return unified_diff(old, new, a["path"], not p.exists())


def _write(app, a: dict) -> dict:
    from cairn.tools import via_assistant
    if not via_assistant.get():
        raise Forbidden("the file tools run only in the assistant, after the person approves the diff "
                        "(cairn chat); MCP and REST have no judge to ask")
    p, old, new = _new_text(app, a)
    created = not p.exists()
    if not p.parent.is_dir():
        # folders are created one by one below the write folder, none of them a link (checked)
        p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.parent / f".{p.name[:48]}.cairn-tmp-{os.getpid()}"  # cut: a long name stays under 255 bytes
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            if not created:  # the replaced file keeps its permissions (a private 0600 file stays private)
                os.fchmod(fh.fileno(), stat.S_IMODE(os.stat(p, follow_symlinks=False).st_mode))
            fh.write(new)
            fh.flush()
            os.fsync(fh.fileno())
        if p.is_symlink():  # swapped for a link since the checks: refuse
            raise Conflict(f"{a['path']} became a symbolic link; nothing was written")
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()
    return {"path": str(p), "created": created, "chars": len(new),
            "diff": unified_diff(old, new, a["path"], created)}


TOOLS = (
    Tool("write_file", "Create or replace a text file inside a folder the person allowed for writing "
         "([assistant] write_folders); the diff is shown for approval first.",
         {"type": "object", "properties": {"path": {"type": "string", "minLength": 1},
                                           "text": {"type": "string"}},
          "required": ["path", "text"], "additionalProperties": False},
         _write, risk="high", read_only=False, meta={"write_files": True, "preview": preview}),
    Tool("edit_file", "Replace one exact passage of a text file inside a folder the person allowed for "
         "writing; `old` must occur once. The diff is shown for approval first.",
         {"type": "object", "properties": {"path": {"type": "string", "minLength": 1},
                                           "old": {"type": "string", "minLength": 1},
                                           "new": {"type": "string"}},
          "required": ["path", "old", "new"], "additionalProperties": False},
         _write, risk="high", read_only=False, meta={"write_files": True, "preview": preview}),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
