"""The vault: markdown files with YAML frontmatter, the source of truth.

Layout under `<home>/vault/`:
- `notes/<folder>/<relative path>.md` — markdown notes ingested from a folder, copied with
  the person's frontmatter intact plus `cairn_id`, `cairn_source`, `cairn_source_hash`
  added to it (a block that cannot be parsed is copied verbatim and never touched);
- `<type>/<yyyy-mm-dd>-<slug>.md` — notes Cairn writes for text, HTML, PDF and DOCX sources
  (frontmatter `generator: cairn` with id, title, type, source, pages, file, ...);
- `records/<import>/<id>.md` — records from `cairn import notes`;
- `chats/<conversation>/<session>.md` — verbatim chat archive from `cairn import chat`;
- `<path>.conflict-<YYYYMMDD-HHMMSS>.md` — the newer version of a source whose vault copy the
  person edited, written beside that copy (cairn.conflicts);
- `_files/<sha256>.<ext>` — originals of binary sources;
- `_memory/` — the memory store's mirror (memory/mirror.py), never indexed as notes.
- `.trash/<path>` — notes deleted in the app (never indexed).

The vault may also be a folder the person already keeps (config key `vault`): it is indexed
in place, and the same layout is used for what Cairn adds to it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat as stat_mod
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml
from cairn.errors import InvalidInput

from cairn import paths as P
from cairn.safe_yaml import AliasBomb, load as _load_yaml  # libyaml's safe loader; a block read just before is not read again

SKIP_DIRS = {"_files", "_memory", ".git", ".obsidian", ".trash", ".cairn", "node_modules"}
NOTE_SUFFIXES = {".md", ".markdown", ".mdx"}


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def slugify(text: str, max_len: int = 60) -> str:
    """Lower-case ASCII-ish slug ("Café budget 2024!" -> "cafe-budget-2024"); CJK kept."""
    norm = unicodedata.normalize("NFKD", text)
    norm = "".join(ch for ch in norm if not unicodedata.combining(ch))
    slug = re.sub(r"[^\w]+", "-", norm.lower(), flags=re.UNICODE).strip("-_")
    return (slug[:max_len].strip("-") or "note")


def _tmp_name(path: Path) -> Path:
    """The temporary file an atomic write of `path` goes through: hidden and unique to this
    writer (the thread's system-wide id), so two writers never share one; the name is cut to
    48 characters so a long note name stays under the file system's 255 bytes
    (`.x.md.TID.cairn-tmp`)."""
    return path.with_name(f".{path.name[:48]}.{threading.get_native_id()}.cairn-tmp")


def _fsynced(path: Path, data: bytes, mode: str = "wb") -> os.stat_result:
    """Write `data` to `path` opened with `mode` ("wb"; "xb": only a new file), flushed to disk; its stat."""
    with open(path, mode) as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
        return os.fstat(fh.fileno())


def _through_tmp(path: Path, data: bytes, place) -> os.stat_result:
    """`data` written to a temporary file beside `path`, then `place(tmp, path)`; the
    temporary file is removed when anything fails. The written file's stat."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(path)
    try:
        written = _fsynced(tmp, data)
        place(tmp, path)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    return written


def atomic_write(path: Path, text: str) -> os.stat_result:
    """Write UTF-8 text via a temporary file and rename (never a half-written note).
    Returns the written file's stat (inode, mtime, size), which a rename keeps: a later
    stat of `path` that differs means someone else wrote it since. When the write fails
    (a full disk: OSError ENOSPC) the temporary file is removed and `path` is untouched."""
    return _through_tmp(path, text.encode("utf-8"), os.replace)


def atomic_write_bytes(path: Path, data: bytes) -> os.stat_result:
    """`atomic_write` for exact bytes (a kept version written back as it was)."""
    return _through_tmp(path, data, os.replace)


_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK}  # FAT, some network shares


def atomic_create(path: Path, text: str) -> os.stat_result:
    """`atomic_write` of a new file that never replaces one: the temporary file is linked to
    `path` (os.link fails when `path` exists, atomically), so of two writers creating one
    note at once the second gets FileExistsError and the first keeps its text. On a file
    system without hard links the file is made with O_EXCL instead (a reader may then see
    it while it is written). Raises FileExistsError; OSError as atomic_write."""
    data = text.encode("utf-8")
    try:
        written = _through_tmp(path, data, os.link)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        return _fsynced(path, data, "xb")
    try:
        _tmp_name(path).unlink()  # the file's second name
    except OSError:
        pass
    return written


# Characters libyaml's emitter writes differently from PyYAML's own (escaped instead of
# written as they are: emoji and the rest beyond the Basic Multilingual Plane; C1 controls
# such as NEL, which PyYAML's emitter folds as a line break).
_C_EMITTER_DIFFERS = re.compile("[\x80-\x9f\ud800-\udfff\U00010000-\U0010ffff]")
# Keys: libyaml writes a key that needs escapes (a line break, a control character) or is
# long (its limit counts UTF-8 bytes, PyYAML's characters) as a complex key ("? ..."), and
# PyYAML an empty key; 40 characters are at most 120 bytes, under both limits (128).
_PLAIN_KEY = re.compile("[^\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\U00010000-\U0010ffff]{1,40}")


def _c_emitter_safe(value: Any) -> bool:
    """True when every string in `value` (keys too, nested) is written alike by both emitters."""
    if isinstance(value, str):
        return _C_EMITTER_DIFFERS.search(value) is None
    if isinstance(value, dict):
        return all((not isinstance(k, str) or _PLAIN_KEY.fullmatch(k)) and _c_emitter_safe(k)
                   and _c_emitter_safe(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_c_emitter_safe(v) for v in value)
    return True


def dump_yaml(data: Any) -> str:
    """`yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)`, byte for byte,
    through libyaml's emitter when PyYAML was built with it (~4x faster: an ingest writes a
    frontmatter block per note). Data holding a string libyaml would write differently
    (emoji are escaped as "\\U0001F389" by it) goes through PyYAML's own emitter, whose
    output the vault already holds. Returns the YAML text, ending in a newline."""
    dumper = getattr(yaml, "CSafeDumper", None)
    if dumper is None or not _c_emitter_safe(data):
        dumper = yaml.SafeDumper
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000)


def render_note(frontmatter: dict[str, Any], body: str) -> str:
    """A markdown note with a YAML frontmatter block."""
    fm = dump_yaml(frontmatter).strip()
    return f"---\n{fm}\n---\n\n{body.rstrip()}\n"


# A leading byte order mark (an editor's, as parse.markdown ignores it) is part of the block.
_FM_RE = re.compile(r"\A\ufeff?---[ \t]*\n(.*?\n)?(---|\.\.\.)[ \t]*(\n|\Z)", re.DOTALL)
_FM_OPEN_RE = re.compile(r"\A\ufeff?---[ \t]*\n")


def frontmatter_block(text: str) -> str | None:
    """The YAML text of the note's first frontmatter block, as `split_frontmatter` and
    `add_frontmatter_keys` read it ("" for an empty block); None when the text opens no
    closed block."""
    m = _FM_RE.match(text)
    return (m.group(1) or "") if m else None


class FrontmatterError(InvalidInput):
    """A note's frontmatter block cannot be read (the message names the problem)."""


def split_frontmatter(text: str, *, lenient: bool = False) -> tuple[dict[str, Any], str]:
    """Split a note into (meta, body).

    meta: the leading `---` ... `---` (or `...`) YAML block as a mapping; {} when the text
    has no block or an empty one. body: the text after the closing fence line, exactly as
    it is (not stripped), or the whole text when there is no block; so
    `text[:len(text) - len(body)]` is the block with its fences, byte for byte.
    Raises FrontmatterError (a ValueError) when the text opens a block that is never
    closed, or the block is not valid YAML or not a mapping. lenient=True never raises: an
    unclosed block counts as no block, an unreadable closed block gives meta {} (the body
    is still split off) — for callers that keep a person's block untouched.
    """
    m = _FM_RE.match(text)
    if not m:
        if _FM_OPEN_RE.match(text) and not lenient:
            raise FrontmatterError("frontmatter block is not closed")
        return {}, text
    block = m.group(1) or ""
    try:
        data = _load_yaml(block) if block.strip() else {}
    except AliasBomb as exc:
        if not lenient:
            raise FrontmatterError(f"frontmatter holds {exc}") from None
        data = {}
    except (yaml.YAMLError, ValueError, TypeError) as exc:
        if not lenient:
            raise FrontmatterError(f"frontmatter is not valid YAML: {exc}") from None
        data = {}
    except RecursionError:
        if not lenient:
            raise FrontmatterError("frontmatter is nested too deeply to read") from None
        data = {}
    if data is None:
        data = {}
    if not isinstance(data, dict):
        if not lenient:
            raise FrontmatterError("frontmatter is not a mapping")
        data = {}
    return data, text[m.end():]




def with_newlines_of(text: str, original: bytes) -> str:
    """`text` (read with universal newlines: "\n" only) with the line endings of the file it
    was read from: "\r\n" when `original` (its bytes) has any CRLF, "\r" when it has CRs and
    no LF at all (classic Mac OS), else as it is. A rewrite of a key of the frontmatter keeps a
    Windows or old Mac file's endings (`atomic_write` translates none).
    The hash of what is written is the hash of the returned text."""
    if b"\r\n" in original or b"\r\x00\n\x00" in original or b"\x00\r\x00\n" in original:  # UTF-8, UTF-16 LE/BE
        return text.replace("\r\n", "\n").replace("\n", "\r\n")
    if b"\r" in original and b"\n" not in original:
        return text.replace("\r\n", "\n").replace("\n", "\r")
    return text


def read_for_rewrite(path: Path, relpath: str, decode: Callable[[bytes], str]) -> tuple[str, dict, str]:
    """(text, frontmatter mapping, body) of the note file at `path` (vault-relative `relpath`,
    for the message), read to have keys of its frontmatter rewritten. `decode` turns the
    file's bytes into text with "\n" newlines (callers pass cairn.parse.text.note_text, which
    reads a UTF-16 or cp1252 note as its text; a parameter because parse sits above vault).
    Raises errors.Conflict when the frontmatter cannot be parsed: such a block is never
    rewritten (case B04); also when `decode` raises ValueError (binary data)."""
    from cairn.errors import Conflict
    try:
        text = decode(path.read_bytes())
    except ValueError as exc:  # a decoder that refuses binary data (parse.text.note_text_to_rewrite)
        raise Conflict(f"{relpath}: the file is not text now ({exc}); not rewritten") from None
    try:
        meta, body = split_frontmatter(text)
    except ValueError as exc:
        why = " ".join(str(exc).split())  # the parser's fault on one line
        raise Conflict(f"{relpath}: its frontmatter cannot be parsed ({why}); not rewritten") from None
    return text, meta, body


def add_frontmatter_keys(text: str, keys: dict[str, Any]) -> str | None:
    """Insert `keys` into the note's first frontmatter block (or a new block if it has none).

    Returns the new text, or None when the existing block is not a valid YAML mapping —
    such a block is never rewritten (case B04) — or the new block would not read back as one.
    Existing keys of the same name are replaced, with their nested lines (indented lines and
    list items below them); the other lines stay as written.
    """
    m = _FM_RE.match(text)
    new_lines = dump_yaml(keys)
    if not m:
        if text.startswith(("---\n", "\ufeff---\n")):
            return None  # an opening fence without a closing one
        return f"---\n{new_lines}---\n\n{text}"
    block = m.group(1) or ""
    try:
        data = _load_yaml(block) if block.strip() else {}
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return None
    kept, dropping = [], False
    for line in block.splitlines(keepends=True):
        if any(line.startswith(f"{k}:") for k in keys):
            dropping = True  # the key's line, and below: its nested lines
            continue
        if dropping and (line[:1] in (" ", "\t") or line.startswith("- ") or line.rstrip("\r\n") == "-"):
            continue
        dropping = False
        kept.append(line)
    new_block = new_lines + "".join(kept)
    try:
        if not isinstance(_load_yaml(new_block), dict):
            return None
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None  # never write a block that would not read back
    return "---\n" + new_block + text[m.end(1) if m.group(1) else m.start(2):]


_TEMP_RE = re.compile(
    r"(^\.)|(~$)|(^\d+$)|(___jb_(tmp|old)___$)|(\.(swp|swx|swo|tmp|part|crdownload)$)|(^#.*#$)",
    re.IGNORECASE)


def is_temp_name(name: str) -> bool:
    """True for editors' and tools' transient files, never indexed: hidden files (`.x.tmp-1`,
    `.goutputstream-*`, Cairn's own `.x.cairn-tmp`), backups `x~`, vim's numeric write probe
    (`4913`), swap files, JetBrains `x___jb_tmp___`/`x___jb_old___`, emacs `#x#`."""
    return bool(_TEMP_RE.search(name))


def is_note_name(name: str) -> bool:
    """A file name the vault indexes: a markdown suffix and not a temp file."""
    return not is_temp_name(name) and os.path.splitext(name)[1].lower() in NOTE_SUFFIXES


def skip_dir_name(name: str) -> bool:
    """Folders never indexed: `_files`, `.trash`, hidden and tool folders."""
    return name in SKIP_DIRS or name.startswith(".")


@dataclass
class NoteFile:
    """One note file found by `scan_notes`: vault-relative path, path, stat figures."""

    relpath: str
    path: Path
    mtime_ns: int
    size: int


def stat_problem(exc: OSError, *, symlink: bool = False) -> str:
    """The problem listed for a note file whose stat failed with `exc`: "symlink loop"
    (ELOOP), "dangling symlink" (the entry is a symlink: symlink=True), else
    "cannot read: <reason>"."""
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    return "dangling symlink" if symlink else f"cannot read: {exc.strerror or exc}"


def scan_notes(vault: Path, under: str = "") -> tuple[list[NoteFile], list[tuple[str, str]]]:
    """Walk the vault (or its sub-folder `under`, vault-relative) for note files.

    Returns (files sorted by relpath, problems). Stat figures come from the directory scan,
    so no note is opened. Symlinked folders that stay inside the vault are followed once,
    after every real folder (a link to a folder of the vault never takes its notes' paths: it
    is listed as "symlink to FOLDER, a folder indexed there, skipped"); a
    symlink (folder or note) that leads outside the vault is never followed (cairn.paths);
    it, a symlink loop, a dangling symlink or an unreadable folder/file is listed in
    `problems` as (relpath, reason), never raised.
    """
    files: list[NoteFile] = []
    problems: list[tuple[str, str]] = []
    seen_dirs: dict[tuple[int, int], str] = {}  # (device, inode) -> the relpath it was walked as
    linked: list[tuple[Path, str]] = []  # symlinked folders: walked after every real one
    start = vault / under if under else vault
    root_real = P.real(vault)
    if under:
        reason = P.outside_reason(root_real, start)
        if reason is not None:
            return files, [(under.strip("/"), f"{reason}, skipped")]

    def walk(folder: Path, prefix: str) -> None:
        try:
            st = folder.stat()
        except OSError as exc:
            problems.append((prefix or ".", f"cannot open folder: {exc.strerror or exc}"))
            return
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            there = seen_dirs[key]
            if not there or prefix.startswith(there + "/"):
                problems.append((prefix or ".", "symlink loop (folder already visited), skipped"))
            else:
                problems.append((prefix, f"symlink to {there}, a folder indexed there, skipped"))
            return
        seen_dirs[key] = prefix
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            problems.append((prefix or ".", f"cannot read folder: {exc.strerror or exc}"))
            return
        for e in entries:
            rel_e = f"{prefix}/{e.name}" if prefix else e.name
            try:
                is_dir = e.is_dir(follow_symlinks=True)
            except OSError:
                is_dir = False
            if is_dir and skip_dir_name(e.name) or not is_dir and not is_note_name(e.name):
                continue
            if bad_name := P.name_problem(e.name):  # the index keeps vault paths as UTF-8 text
                problems.append((P.shown(rel_e), f"{bad_name}, skipped"))
                continue
            if e.is_symlink():
                reason = P.outside_reason(root_real, e.path)
                if reason is not None and os.path.exists(e.path):  # dangling: reported below
                    problems.append((rel_e, f"{reason}, skipped"))
                    continue
            if is_dir and e.is_symlink():
                linked.append((Path(e.path), rel_e))  # a real folder keeps its own path
                continue
            if is_dir:
                walk(Path(e.path), rel_e)
                continue
            try:
                est = e.stat(follow_symlinks=True)
            except OSError as exc:
                problems.append((rel_e, stat_problem(exc, symlink=e.is_symlink())))
                continue
            if stat_mod.S_ISREG(est.st_mode):
                files.append(NoteFile(rel_e, Path(e.path), est.st_mtime_ns, est.st_size))

    walk(start, under.strip("/"))
    while linked:
        walk(*linked.pop(0))
    files.sort(key=lambda f: f.relpath)
    return files, problems


def iter_note_files(vault: Path) -> Iterator[Path]:
    """All note files under the vault (sorted), skipping `_files`, `.trash`, hidden folders
    and temp files (see `scan_notes`; problems are left to `scan_notes` callers)."""
    for f in scan_notes(vault)[0]:
        yield f.path


def note_names(vault: Path) -> Iterator[str]:
    """The vault-relative paths of the note files under `vault`, by name alone (no file is
    opened or stat'ed: the directory entries' types): the folders and temp files `scan_notes`
    skips, symlinks and names that are not UTF-8 (which sync reports) are left out; symlinked
    folders are not walked. Nothing of a folder that cannot be read."""
    def walk(folder: str, prefix: str) -> Iterator[str]:
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            return
        for e in entries:
            try:
                if e.is_symlink():
                    continue
                if e.is_dir():
                    if not skip_dir_name(e.name):
                        yield from walk(e.path, prefix + e.name + "/")
                elif is_note_name(e.name) and not P.name_problem(e.name):
                    yield prefix + e.name
            except OSError:
                continue
    yield from walk(str(vault), "")


def first_note_file(vault: Path) -> str | None:
    """The vault-relative path of one note file under `vault` (`note_names`' first), or None:
    a cheap "does the vault hold notes?" that stops at the first."""
    return next(note_names(vault), None)


def rel(vault: Path, path: Path) -> str:
    """Vault-relative path with '/' separators."""
    return path.relative_to(vault).as_posix()


def free_relpath(vault: Path, stem: str, suffix: str,
                 accept: Callable[[str], bool] | None = None) -> str:
    """The first vault-relative path of `<stem><suffix>`, `<stem>-2<suffix>`, `<stem>-3<suffix>`...
    where no file exists, or that `accept(candidate)` takes as it is (a file that already
    holds what would be written). Used for vault copies, conflict copies and the trash."""
    candidate, n = stem + suffix, 1
    while (vault / candidate).exists() and not (accept is not None and accept(candidate)):
        n += 1
        candidate = f"{stem}-{n}{suffix}"
    return candidate


def own_or_unique(vault: Path, relpath: str, note_id: str, text: str | None) -> str:
    """`relpath` if it is free or holds this note already (an earlier run wrote it and was
    interrupted before indexing, or a copy whose frontmatter Cairn must not touch), else the
    next free `-N` variant (`free_relpath`). Prevents duplicate vault copies on re-ingest."""

    def holds_note(candidate: str) -> bool:
        try:
            current = (vault / candidate).read_text(encoding="utf-8", errors="replace")
        except OSError:
            current = ""
        return note_id in current[:4000] or (text is not None and current == text)

    return free_relpath(vault, *os.path.splitext(relpath), accept=holds_note)


def stable_id(seed: str) -> str:
    """Note id derived from `seed`: the vault path of a note that carries no id of its own,
    or the source of a note Cairn creates (so re-ingest finds it). "n" + 15 hex digits."""
    return "n" + hashlib.sha1(seed.encode("utf-8")).hexdigest()[:15]
