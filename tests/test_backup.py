"""Backup and restore (issue 34): a snapshot taken while 10 writers keep writing restores to
a home whose index passes `PRAGMA integrity_check` and holds every write acknowledged
before the backup began; a damaged snapshot (a changed file, a corrupt database, a missing
manifest) is refused with nothing replaced; the CLI's contract (`cairn backup --to DIR
--json` prints {"snapshot": PATH}; `cairn restore` asks unless --yes); daily snapshots
keep N. On PostgreSQL (pg_dump / pg_restore): tests/store/test_backup_pg.py."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import HashEmbedder
from cairn.service import Cairn
from cairn.store.backup import BackupDamaged, MANIFEST, prune, snapshots

SRC = Path(__file__).resolve().parents[1] / "src"


def cli(home, *args, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)


WORDS = ["amber", "birch", "cedar", "dune", "elm", "fern", "grove", "heath", "iris", "juniper"]


def _word(n: int) -> str:
    """A word of its own for each n (qa, qb, ...)."""
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = chr(97 + r) + out
        if not n:
            return "q" + out


def tree_hashes(root: Path) -> dict[str, str]:
    """relative path -> sha256 of every file under `root`."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def taken(tmp_path_factory):
    """A home written by 10 concurrent writers (notes and memories) while a backup runs."""
    root = tmp_path_factory.mktemp("backup")
    home = root / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("Seed", "the first note")
    acked: list[tuple[str, str, float]] = []  # (kind, text, monotonic time acknowledged)
    lock, stop, errors = threading.Lock(), threading.Event(), []

    def writer(i: int) -> None:
        try:
            with Cairn(home, embedder=HashEmbedder()) as app:
                n = 0
                while not stop.is_set():
                    n += 1
                    if n % 4 == 0:
                        text = f"{WORDS[i]} {_word(n)} note {n}"  # memories that differ only in a number may merge
                        app.remember(text)
                        kind = "memory"
                    else:
                        text = f"w{i} note {n}"
                        app.note_create(text, f"body of writer {i}, note {n}")
                        kind = "note"
                    with lock:
                        acked.append((kind, text, time.monotonic()))
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(repr(exc))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    while len(acked) < 40 and not errors:
        time.sleep(0.05)
    started = time.monotonic()
    with Cairn(home, embedder=HashEmbedder()) as app:
        snap = Path(app.backup(root / "backups")["snapshot"])
    finished = time.monotonic()
    time.sleep(0.5)
    stop.set()
    for t in threads:
        t.join(120)
    assert not errors, errors
    during = [a for a in acked if started <= a[2] <= finished]
    return {"root": root, "home": home, "snap": snap, "before": [a for a in acked if a[2] < started],
            "during": during, "all": acked}


def test_backup_under_ten_writers_restores_every_acknowledged_write(taken):
    snap, root = taken["snap"], taken["root"]
    assert snap.parent == root / "backups" and snap.name.startswith("cairn-backup-")
    manifest = json.loads((snap / MANIFEST).read_text())
    assert {"index.db", "vault/Seed.md"} <= set(manifest["files"])
    assert all(len(v["sha256"]) == 64 for v in manifest["files"].values())
    target = root / "restored"
    with Cairn(target, embedder=HashEmbedder()) as app:
        done = app.restore(snap)
        assert done["files"] == len(manifest["files"])
        conn = sqlite3.connect(target / "index.db")
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
        assert len(taken["before"]) >= 40
        memories = {m.text for m in app.memories(include_inactive=True)}  # one may supersede another: both kept
        for kind, text, _ in taken["before"]:
            if kind == "note":
                note = app.find_note(text)
                assert (target / "vault" / note.path).read_text().endswith(f"note {text.split()[-1]}\n")
            else:
                assert text in memories
        # every note the restored index holds has its file (the files were copied after the index)
        listed = app.notes_list(limit=1000)["notes"]
        assert listed and all((target / "vault" / n["path"]).is_file() for n in listed)
    print(f"\nbackup under 10 writers: {len(taken['before'])} writes acknowledged before it, "
          f"{len(taken['during'])} during it, {len(taken['all'])} in all")


@pytest.mark.parametrize("damage", ["changed vault file", "corrupt index", "no manifest", "added file",
                                    "path outside", "linked file", "linked folder"])
def test_a_damaged_snapshot_is_refused_with_nothing_replaced(taken, tmp_path, damage):
    import shutil
    snap = tmp_path / taken["snap"].name
    shutil.copytree(taken["snap"], snap)
    manifest = json.loads((snap / MANIFEST).read_text())
    if damage == "changed vault file":
        (snap / "vault" / "Seed.md").write_text("tampered")
    elif damage == "corrupt index":
        data = bytearray((snap / "index.db").read_bytes())
        data[4096 * 2:4096 * 6] = b"\xa5" * (4096 * 4)  # b-tree pages overwritten, header intact
        (snap / "index.db").write_bytes(bytes(data))
        manifest["files"]["index.db"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        (snap / MANIFEST).write_text(json.dumps(manifest))  # the hashes match: the database check must catch it
    elif damage == "no manifest":
        (snap / MANIFEST).unlink()
    elif damage == "path outside":
        manifest["files"]["../outside.md"] = {"sha256": "0" * 64, "size": 1}
        (snap / MANIFEST).write_text(json.dumps(manifest))
    elif damage in ("linked file", "linked folder"):  # probe22: restore copied the file a link pointed to
        secret = tmp_path / "elsewhere" / "secret.md"
        secret.parent.mkdir()
        secret.write_text("a file outside the snapshot")
        if damage == "linked file":
            (snap / "vault" / "Linked.md").symlink_to(secret)
            rel = "vault/Linked.md"
        else:
            (snap / "vault" / "linked").symlink_to(secret.parent, target_is_directory=True)
            rel = "vault/linked/secret.md"
        data = secret.read_bytes()
        manifest["files"][rel] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        (snap / MANIFEST).write_text(json.dumps(manifest))  # the hashes match: only the link gives it away
    else:
        (snap / "vault" / "Planted.md").write_text("not in the manifest")
    target = tmp_path / "home"
    with Cairn(target, embedder=HashEmbedder()) as app:
        app.note_create("Mine", "a note that must survive")
    before = tree_hashes(target)
    with Cairn(target, embedder=HashEmbedder()) as app:
        with pytest.raises(BackupDamaged) as info:
            app.restore(snap)
    assert {"changed vault file": "Seed.md does not match its sha256", "corrupt index": "integrity check",
            "no manifest": "manifest.json is missing", "added file": "Planted.md is not in the manifest",
            "path outside": "a path outside the snapshot", "linked file": "vault/Linked.md is a symbolic link",
            "linked folder": "vault/linked is a symbolic link"}[damage] \
        in str(info.value)
    assert tree_hashes(target) == before


def test_cli_contract_backup_json_restore_asks_and_refuses_damage(taken, tmp_path):
    home = taken["home"]
    r = cli(home, "backup", "--to", str(tmp_path / "out"), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out) == ["snapshot"] and Path(out["snapshot"]).parent == tmp_path / "out"
    snap = Path(out["snapshot"])
    before = tree_hashes(home / "vault")
    r = cli(home, "restore", str(snap))  # no --yes and no terminal to ask on: refused
    assert r.returncode == 1 and "--yes" in r.stderr
    (snap / "vault" / "Seed.md").write_bytes(b"flipped")
    r = cli(home, "restore", str(snap), "--yes")
    assert r.returncode == 1 and "does not match its sha256" in r.stderr
    assert tree_hashes(home / "vault") == before
    r = cli(home, "restore", str(tmp_path / "nowhere"), "--yes")
    assert r.returncode == 1 and "not a snapshot folder" in r.stderr


def test_daily_snapshots_keep_n(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[backup]\nkeep = 2\n")
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("A", "a")
        first = app.backup_daily()
        assert first is not None and app.backup_daily() is None  # one a day
        dest = home / "backups"
        for day in ("20200101-000000Z", "20200102-000000Z"):  # two older days' snapshots
            old = dest / f"cairn-backup-{day}"
            old.mkdir()
            (old / MANIFEST).write_text("{}")
        assert prune(dest, 2) == [dest / "cairn-backup-20200101-000000Z"]
        assert [p.name for p in snapshots(dest)][-1] == Path(first["snapshot"]).name
        # the backups folder is inside the home: a snapshot never copies it
        again = app.backup(tmp_path / "elsewhere")
        files = json.loads((Path(again["snapshot"]) / MANIFEST).read_text())["files"]
        assert not [f for f in files if f.startswith("backups/")]


def test_a_backup_folder_inside_the_vault_is_refused(tmp_path):
    from cairn.errors import InvalidInput
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        app.note_create("A", "a")
        with pytest.raises(InvalidInput, match="inside the vault"):
            app.backup(tmp_path / "home" / "vault" / "backups")
        assert not (tmp_path / "home" / "vault" / "backups").exists()


def test_cairn_daemon_once_takes_the_daily_snapshot(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n\n[backup]\nkeep = 1\ndir = "snaps"\n')
    (home / "vault").mkdir()
    (home / "vault" / "n.md").write_text("# N\n\ntext\n")
    r = cli(home, "daemon", "--once")
    assert r.returncode == 0, r.stderr
    found = snapshots(home / "snaps")
    assert len(found) == 1 and "vault/n.md" in json.loads((found[0] / MANIFEST).read_text())["files"]
    assert "backup " in r.stderr


def test_restore_is_refused_while_another_process_has_the_home_open(taken, tmp_path):
    """A running server (here: another process holding the home open) keeps the old index
    open: restore refuses with nothing replaced, and works once that process has gone."""
    home = tmp_path / "busy"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("Mine", "a note that must survive")
    before = tree_hashes(home / "vault"), hashlib.sha256((home / "index.db").read_bytes()).hexdigest()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from cairn.store.locks import hold_home; hold_home(sys.argv[1]); "
         "print('open', flush=True); sys.stdin.read()", str(home)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(SRC)))
    try:
        assert holder.stdout.readline().strip() == "open"
        r = cli(home, "restore", str(taken["snap"]), "--yes")
        assert r.returncode == 1 and "another Cairn process has the home" in r.stderr, r.stderr
        assert (tree_hashes(home / "vault"), hashlib.sha256((home / "index.db").read_bytes()).hexdigest()) == before
    finally:
        holder.stdin.close()
        holder.wait(30)
    r = cli(home, "restore", str(taken["snap"]), "--yes")
    assert r.returncode == 0, r.stderr
    assert (home / "vault" / "Seed.md").is_file() and not (home / "vault" / "Mine.md").exists()
