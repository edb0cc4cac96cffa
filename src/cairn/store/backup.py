"""Snapshots of a whole Cairn home, checked before anything is restored from them.

A snapshot is one folder `<dest>/cairn-backup-YYYYMMDD-HHMMSSZ/` (UTC; "-2", "-3"... when
taken within the same second) holding:
- every SQLite database of the home (`index.db`, `schedule.db`) copied through SQLite's
  online backup API (a consistent copy while the server keeps writing: WAL readers never
  block writers), or, with a PostgreSQL store, `index.pgdump` from `pg_dump -Fc`;
- `vault/`: the vault's files (also a vault kept outside the home);
- every other file of the home (memories' files, sessions, schedule, keys.json, config.toml,
  the audit log, note history, people, ...), except what is rebuilt or temporary: the
  SQLite `-wal`/`-shm`/`.lock` files, the vector matrix cache, `tmp/`, `exports/`,
  `uploads/`, and the backup folder itself;
- `manifest.json`: {"format": 1, "created": UTC ISO, "store": "sqlite" | "postgresql",
  "files": {relative path: {"sha256": hex, "size": bytes}}} — every other file, hashed.

The databases are copied first and the files after, so every note the index holds has its
file in the snapshot (a restore then reconciles the index with the vault: a note saved
during the backup is found again). The folder is written as `.<name>.partial` and renamed
when complete: a snapshot interrupted half way is never mistaken for one.

`verify(snapshot)` checks the manifest, every file's size and sha256, that no file was added,
and `PRAGMA integrity_check` of every database; `restore` runs it before it replaces
anything (raising BackupDamaged naming the first problem, with nothing changed) and moves
what it replaces to `<home>/.restore-previous-<time>/` instead of deleting it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from cairn.errors import CairnError, InvalidInput

MANIFEST = "manifest.json"
PREFIX = "cairn-backup-"
PG_DUMP = "index.pgdump"
DATABASES = ("index.db", "schedule.db")
# Rebuilt or temporary: never copied (names at the home's top level).
SKIP_TOP = {"tmp", "exports", "uploads", "vectors.npy", "vector_ids.npy", "vectors.gen", "vault"}
SKIP_SUFFIXES = ("-wal", "-shm", "-journal", ".lock", ".cairn-tmp", ".partial")


class BackupDamaged(CairnError, ValueError):
    """A snapshot failed its check (a file missing, changed or added, a database that fails
    its integrity check, no manifest): nothing was replaced (exit 1, HTTP 400)."""

    http_status = 400
    category = "invalid_input"


def sha256_file(path: Path) -> str:
    """sha256 (hex) of a file's bytes, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _skip(rel: Path) -> bool:
    name = rel.name
    return name.endswith(SKIP_SUFFIXES) or name.startswith(".restore-") or name == ".lock"


def _copy_tree(src: Path, dst: Path, skip_top: set[str], manifest: dict, prefix: str) -> None:
    """Copy the regular files under `src` to `dst` (symlinks are not followed), adding each
    to `manifest` under `prefix` + its relative path. A file that vanishes meanwhile (a note
    deleted during the backup) is left out."""
    for dirpath, dirnames, filenames in os.walk(src):
        here = Path(dirpath)
        rel_dir = here.relative_to(src)
        if rel_dir == Path("."):
            dirnames[:] = [d for d in dirnames if d not in skip_top and not d.startswith(".restore-")]
        for name in sorted(filenames):
            rel = rel_dir / name
            if (rel_dir == Path(".") and name in skip_top) or _skip(rel) or name in DATABASES and rel_dir == Path("."):
                continue
            source = here / name
            if source.is_symlink() or not source.is_file():
                continue
            target = dst / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with open(source, "rb") as fin, open(target, "wb") as fout:
                    h = hashlib.sha256()
                    for block in iter(lambda: fin.read(1 << 20), b""):
                        h.update(block)
                        fout.write(block)
            except FileNotFoundError:
                target.unlink(missing_ok=True)
                continue
            manifest[(Path(prefix) / rel).as_posix()] = {"sha256": h.hexdigest(), "size": target.stat().st_size}


def _sqlite_copy(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite database `source` through the online backup API."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=60)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # one step: one read transaction, a single point in time
        finally:
            dst.close()
    finally:
        src.close()


def _new_name(dest: Path) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%SZ")
    name, n = PREFIX + stamp, 1
    while (dest / name).exists() or (dest / f".{name}.partial").exists():
        n += 1
        name = f"{PREFIX}{stamp}-{n}"
    return name


def snapshot(home: Path, vault: Path, dest: Path, *, pg_url: str | None = None, pg_bin: str = "",
             skip: Path | None = None) -> Path:
    """Write one snapshot of `home` (with its `vault`) under `dest`; returns its folder.
    pg_url: the PostgreSQL store to dump instead of `index.db`; skip: a folder of the home
    never copied (the daily backups' folder). Raises InvalidInput when `dest` is inside the
    vault or is the home itself, BackupFailed (CairnError) when pg_dump fails; OSError from the file system."""
    home, vault, dest = Path(home).resolve(), Path(vault).resolve(), Path(dest).expanduser().resolve()
    if dest == vault or vault in dest.parents:
        raise InvalidInput(f"the backup folder {dest} is inside the vault; choose a folder outside it")
    if dest == home:
        # The home is copied whole: a snapshot written there would hold its own partial copy
        # and every earlier snapshot, one more level each time.
        raise InvalidInput(f"the backup folder {dest} is the home folder itself; choose a folder "
                           "inside it (such as `backups`, the default) or outside it")
    dest.mkdir(parents=True, exist_ok=True)
    name = _new_name(dest)
    work = dest / f".{name}.partial"
    work.mkdir()
    try:
        files: dict[str, dict] = {}
        if pg_url:
            _pg(pg_bin, "pg_dump", ["-Fc", "-f", str(work / PG_DUMP), "--dbname", pg_url])
        for db in DATABASES:
            if (home / db).is_file() and not (pg_url and db == "index.db"):
                _sqlite_copy(home / db, work / db)
        for db in [d for d in (*DATABASES, PG_DUMP) if (work / d).is_file()]:
            files[db] = {"sha256": sha256_file(work / db), "size": (work / db).stat().st_size}
        skip_top = set(SKIP_TOP)
        for folder in (dest, skip):
            if folder is not None and home in Path(folder).resolve().parents:
                skip_top.add(Path(folder).resolve().relative_to(home).parts[0])
        _copy_tree(vault, work / "vault", set(), files, "vault")
        _copy_tree(home, work, skip_top, files, "")
        manifest = {"format": 1, "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    "store": "postgresql" if pg_url else "sqlite", "files": dict(sorted(files.items()))}
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        final = dest / name
        os.replace(work, final)
        return final
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


class BackupFailed(CairnError):
    """pg_dump / pg_restore failed or is missing (the message carries its error)."""

    http_status = 503
    category = "unavailable"


def _pg(pg_bin: str, tool: str, args: list[str]) -> None:
    exe = str(Path(pg_bin) / tool) if pg_bin else shutil.which(tool)
    if not exe or not Path(exe).is_file():
        raise BackupFailed(f"{tool} was not found ({'in ' + pg_bin if pg_bin else 'on the PATH'}); "
                           "set [backup] pg_bin to the folder holding pg_dump and pg_restore")
    done = subprocess.run([exe, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupFailed(f"{tool} failed: {done.stderr.strip()[-500:]}")


def verify(snap: Path, *, pg_bin: str = "") -> dict:
    """Check snapshot `snap` (see the module docstring); returns its manifest. Raises
    BackupDamaged naming the first problem."""
    snap = Path(snap)
    if not snap.is_dir():
        raise BackupDamaged(f"{snap} is not a snapshot folder")
    try:
        manifest = json.loads((snap / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BackupDamaged(f"{snap}: {MANIFEST} is missing; this is not a complete snapshot") from None
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON
        raise BackupDamaged(f"{snap}: {MANIFEST} cannot be read ({exc}); this is not a complete snapshot") from None
    # checked without `assert`, which `python -O` leaves out
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or manifest.get("format") != 1:
        raise BackupDamaged(f"{snap}: {MANIFEST} is not a Cairn snapshot manifest (format 1 with a \"files\" table); "
                            "this is not a complete snapshot")
    present = set()
    for dirpath, _dirs, names in os.walk(snap):
        for n in names:
            rel = (Path(dirpath) / n).relative_to(snap).as_posix()
            if rel != MANIFEST:
                present.add(rel)
    for rel in sorted(present - set(files)):
        raise BackupDamaged(f"{snap}: {rel} is not in the manifest (the snapshot was changed)")
    for rel, info in files.items():
        path = snap / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            raise BackupDamaged(f"{snap}: the manifest names a path outside the snapshot ({rel})")
        steps = [Path(rel), *(q for q in Path(rel).parents if q != Path("."))]
        linked = next((q for q in steps if (snap / q).is_symlink()), None)
        if linked is not None:  # a backup copies files, never writes a link: one would restore a file from elsewhere
            raise BackupDamaged(f"{snap}: {linked.as_posix()} is a symbolic link; a snapshot holds only files "
                                "(restoring it would copy a file from outside the snapshot)")
        if not path.is_file():
            raise BackupDamaged(f"{snap}: {rel} is missing")
        if path.stat().st_size != info.get("size") or sha256_file(path) != info.get("sha256"):
            raise BackupDamaged(f"{snap}: {rel} does not match its sha256 in the manifest (damaged)")
    for db in DATABASES:
        if db in files:
            _integrity(snap / db)
    if PG_DUMP in files:
        try:
            _pg(pg_bin, "pg_restore", ["--list", str(snap / PG_DUMP)])
        except BackupFailed as exc:
            raise BackupDamaged(f"{snap}: {PG_DUMP} cannot be read: {exc}") from None
    return manifest


def _integrity(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupDamaged(f"{path.name} fails its integrity check: {exc}") from None
    if rows != ["ok"]:
        raise BackupDamaged(f"{path.name} fails its integrity check: {'; '.join(map(str, rows[:3]))}")


def restore(snap: Path, home: Path, vault: Path, *, pg_url: str | None = None, pg_bin: str = "") -> dict:
    """Replace the home's files (and the vault's) with those of snapshot `snap`, after
    `verify` passed. What is replaced is moved to `<home>/.restore-previous-<time>/`.
    Returns {"snapshot", "previous", "files"}. Raises BackupDamaged (nothing replaced)."""
    snap, home, vault = Path(snap).resolve(), Path(home).resolve(), Path(vault).resolve()
    manifest = verify(snap, pg_bin=pg_bin)
    if manifest.get("store") == "postgresql" and not pg_url:
        raise BackupDamaged(f"{snap} holds a PostgreSQL dump; this home uses SQLite (set [store] url first)")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S%f")
    staging = home / f".restore-staging-{stamp}"
    previous = home / f".restore-previous-{stamp}"
    files = manifest["files"]
    try:  # copy everything first: a full disk fails here, before anything is replaced
        for rel in files:
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(snap / rel, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if PG_DUMP in files:
        _pg(pg_bin, "pg_restore", ["--clean", "--if-exists", "--no-owner", "--dbname", pg_url,
                                   str(staging / PG_DUMP)])
        (staging / PG_DUMP).unlink()
    previous.mkdir()
    tops = sorted({Path(rel).parts[0] for rel in files if rel != PG_DUMP})
    for top in tops:
        src = staging / top
        if top == "vault":
            _swap_dir(src, vault, previous / "vault")
            continue
        here = home / top
        if top in DATABASES:
            for extra in ("-wal", "-shm"):
                side = home / (top + extra)
                if side.exists():
                    os.replace(side, previous / side.name)
        if here.exists() or here.is_symlink():
            os.replace(here, previous / top)
        os.replace(src, here)
    shutil.rmtree(staging, ignore_errors=True)
    return {"snapshot": str(snap), "previous": str(previous), "files": len(files)}


def _swap_dir(src: Path, target: Path, aside: Path) -> None:
    """Put folder `src` in the place of `target` (kept at `aside`); a vault that is a mount
    point or outside the home has its contents swapped instead of itself."""
    aside.mkdir(parents=True, exist_ok=True)
    if target.exists():
        for child in list(target.iterdir()):
            shutil.move(str(child), str(aside / child.name))
    target.mkdir(parents=True, exist_ok=True)
    for child in list(src.iterdir()):
        shutil.move(str(child), str(target / child.name))


def snapshots(dest: Path) -> list[Path]:
    """The complete snapshots under `dest`, oldest first (by name: the name is the time)."""
    dest = Path(dest)
    if not dest.is_dir():
        return []
    return sorted(p for p in dest.iterdir() if p.is_dir() and p.name.startswith(PREFIX) and (p / MANIFEST).is_file())


def prune(dest: Path, keep: int) -> list[Path]:
    """Delete all but the `keep` newest snapshots under `dest`; returns those deleted."""
    found = snapshots(dest)
    gone = found[:-keep] if keep > 0 else []
    for p in gone:
        shutil.rmtree(p, ignore_errors=True)
    return gone
