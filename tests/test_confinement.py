"""Issue 10: nothing outside the vault (or the folder given to `cairn ingest`) is read, moved
or deleted. One rule (cairn.paths) for the vault scan, sync, note show/update/delete and
folder ingest; a symlink file named on the command line is read, and the report says so.
The bounded fuzz test at the end builds vaults full of symlink farms, loops and links out
and watches every file open and folder listing while Cairn works on them."""

from __future__ import annotations

import hashlib
import os
import random
import sys
import threading

import pytest

from cairn import paths as P
from cairn.service import Cairn

from conftest import write


# ------------------------------------------------------------------ the rule itself

def test_escape_reason_names_links_out_loops_and_accepts_links_inside(tmp_path):
    root, out = tmp_path / "vault", tmp_path / "outside"
    write(root / "a" / "n.md", "x")
    write(out / "secret.md", "s")
    (root / "inside").symlink_to(root / "a")
    (root / "out").symlink_to(out)
    (root / "slash").symlink_to("/")
    (root / "loop1").symlink_to(root / "loop2")
    (root / "loop2").symlink_to(root / "loop1")
    assert P.escape_reason(root, root / "a" / "n.md") is None
    assert P.escape_reason(root, root / "inside" / "n.md") is None
    assert P.escape_reason(root, root / "new" / "not-yet.md") is None  # about to be written
    assert P.escape_reason(root, root / "out" / "secret.md") == f"symlink leads outside the vault (-> {out / 'secret.md'})"
    assert "leads outside the vault (-> /)" in P.escape_reason(root, root / "slash")
    assert P.escape_reason(root, root / "loop1") == "symlink loop"
    with pytest.raises(P.PathOutside, match="leads outside the folder given"):
        P.confine(root, root / "out" / "secret.md", "the folder given")


# ------------------------------------------------------------------ vault: scan, sync, notes

def _outside(tmp_path):
    out = tmp_path / "outside"
    write(out / "private.md", "# Private\n\nThe safe code is zanzibarquill.\n")
    write(out / "deep" / "more.md", "# More\n\nAnother zanzibarquill secret.\n")
    return out


def test_sync_never_reads_through_a_link_out_of_the_vault_nor_walks_slash(app, tmp_path):
    out = _outside(tmp_path)
    vault = app.settings.vault
    write(vault / "mine.md", "# Mine\n\nA note about herons.\n")
    (vault / "linked").symlink_to(out)
    (vault / "root").symlink_to("/")
    (vault / "file-link.md").symlink_to(out / "private.md")
    report = app.sync()
    failed = dict((r["path"], r["reason"]) for r in report.to_json()["failed"])
    assert report.added == ["mine.md"]
    assert failed["linked"].startswith("symlink leads outside the vault") and failed["linked"].endswith(", skipped")
    assert "leads outside the vault (-> /)" in failed["root"]
    assert "leads outside the vault" in failed["file-link.md"]
    assert not app.search("zanzibarquill", mode="keyword").hits
    assert app.reindex().added == ["mine.md"]  # reindex scans the same way


def test_note_show_update_delete_refuse_a_note_whose_folder_now_leads_outside(app, tmp_path):
    """The index knows `shared/plan.md`; the folder is then swapped for a link to a folder
    outside the vault holding a file of the same name. Show, update and delete refuse, and
    the outside file stays where it lives, unchanged (it was moved into .trash before)."""
    out = _outside(tmp_path)
    write(out / "plan.md", "# Plan\n\nOutside plan.\n")
    vault = app.settings.vault
    write(vault / "shared" / "plan.md", "# Plan\n\nInside plan.\n")
    write(vault / "other.md", "# Other\n\nStays.\n")
    app.sync()
    (vault / "shared" / "plan.md").unlink()
    (vault / "shared").rmdir()
    (vault / "shared").symlink_to(out)
    before = (out / "plan.md").read_bytes()
    for op in (lambda: app.note_show("shared/plan.md"),
               lambda: app.note_update("shared/plan.md", "overwritten"),
               lambda: app.note_mark("shared/plan.md", "read"),  # review2: these two read it through the
               lambda: app.enrich("shared/plan.md"),             # link and copied it into the vault
               lambda: app.note_delete("shared/plan.md")):
        with pytest.raises(P.PathOutside, match="leads outside the vault"):
            op()
    assert (out / "plan.md").read_bytes() == before
    assert (vault / "shared").is_symlink() and not (vault / ".trash").exists()
    app.sync()  # the note whose file is out of reach leaves the index
    assert app.status()["notes"] == 1


def test_cli_note_delete_through_a_link_is_refused_with_exit_1(tmp_path):
    import subprocess
    home = tmp_path / "h"
    out = _outside(tmp_path)
    with Cairn(home, embedder=_NoEmbed()) as a:
        write(a.settings.vault / "d" / "private.md", "# Private\n\ninside\n")
        a.sync()
        (a.settings.vault / "d" / "private.md").unlink()
        (a.settings.vault / "d").rmdir()
        (a.settings.vault / "d").symlink_to(out)
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), "note", "delete", "d/private.md"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "leads outside the vault" in r.stderr and "Traceback" not in r.stderr
    assert (out / "private.md").exists()


# ------------------------------------------------------------------ ingest of a folder

def test_folder_ingest_skips_links_out_of_the_folder_and_names_them(app, tmp_path):
    out = _outside(tmp_path)
    src = tmp_path / "src"
    write(src / "real.md", "# Real\n\nA note about kayaks.\n")
    (src / "passwd.txt").symlink_to(out / "private.md")  # was copied into the vault
    (src / "notes.md").symlink_to(out / "private.md")    # failed with a raw ValueError
    (src / "everything").symlink_to("/")
    (src / "up").symlink_to(src)  # a loop: never walked
    (src / "l1.md").symlink_to(src / "l2.md")
    (src / "l2.md").symlink_to(src / "l1.md")
    write(src / "sub" / "inner.md", "# Inner\n\nAbout canoes.\n")
    (src / "alias.md").symlink_to(src / "sub" / "inner.md")  # inside the folder: fine
    report = app.ingest([str(src)])
    skipped = dict(report.skipped)
    assert "leads outside the folder given" in skipped[str(src / "passwd.txt")]
    assert "leads outside the folder given" in skipped[str(src / "notes.md")]
    assert "leads outside the folder given (-> /)" in skipped[str(src / "everything")]
    assert skipped[str(src / "l1.md")] == "symlink loop, skipped"
    assert str(src / "real.md") in report.added and len(report.added) == 2  # alias.md = inner.md
    assert not report.failed and app.status()["notes"] == 2
    assert not app.search("zanzibarquill", mode="keyword").hits
    vault_text = "".join(p.read_text(errors="replace") for p in app.settings.vault.rglob("*") if p.is_file())
    assert "zanzibarquill" not in vault_text


def test_a_symlink_file_named_on_the_command_line_is_read_and_said(app, tmp_path):
    out = _outside(tmp_path)
    link = tmp_path / "chosen.md"
    link.symlink_to(out / "private.md")
    report = app.ingest([str(link)])
    assert report.added == [str(link)]
    assert report.warnings == [(str(link), f"is a symbolic link to {out / 'private.md'}; read as given")]
    assert app.search("zanzibarquill", mode="keyword").hits


# ------------------------------------------------------------------ bounded fuzz

class _NoEmbed:
    """Vectors are not the point here: a deterministic 8-dimension embedder (no model)."""

    model_name = "fuzz-hash"
    model_id = "fuzz-hash"
    dim = 8

    def embed(self, texts):
        import numpy as np
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            h = hashlib.sha256(t.encode()).digest()
            out[i] = [b - 128 for b in h[:self.dim]]
            out[i] /= np.linalg.norm(out[i]) or 1.0
        return out


class _Watch:
    """An audit hook (PEP 578) recording every file open and folder listing that resolves
    inside one of `forbidden` (or lists `/`), while `on` is set."""

    def __init__(self):
        self.forbidden: list[str] = []
        self.hits: list[tuple[str, str]] = []
        self.on = threading.Event()
        sys.addaudithook(self)

    def __call__(self, event, args):
        if not self.on.is_set() or event not in ("open", "os.scandir", "os.listdir", "shutil.copyfile",
                                                 "os.rename", "os.replace", "os.remove", "os.unlink"):
            return
        target = args[0] if args else None
        if isinstance(target, int) or target is None:
            return
        real = os.path.realpath(os.fsdecode(target))
        if event in ("os.scandir", "os.listdir") and real == "/":
            self.hits.append((event, real))
        if any(P.is_inside(f, real) for f in self.forbidden):
            self.hits.append((event, real))


_WATCH: _Watch | None = None


def _watch() -> _Watch:
    global _WATCH
    if _WATCH is None:
        _WATCH = _Watch()
    return _WATCH


def _snapshot(folder):
    return {p: (hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir")
            for p in sorted(folder.rglob("*"))}


def _farm(rng: random.Random, vault, src, secret, n: int) -> None:
    """Notes, folders and a random symlink farm in `vault` and in the ingest folder `src`."""
    folders = [vault, vault / "a", vault / "a" / "b", vault / "c"]
    sfolders = [src, src / "x", src / "x" / "y"]
    for i in range(6):
        write(rng.choice(folders) / f"note{i}.md", f"# Note {i}\n\nHeron count {i} on the estuary.\n")
        write(rng.choice(sfolders) / f"doc{i}.md", f"# Doc {i}\n\nKayak trip {i}.\n")
    targets = [secret, secret / "inner", secret / "leak.md", secret / "leak.txt", "/", "/etc",
               secret / "missing.md"]
    kinds = ["out", "out", "out", "loop", "inside", "chain", "dangling"]
    for j in range(8):
        for base, pool in ((vault, folders), (src, sfolders)):
            where = rng.choice(pool)
            where.mkdir(parents=True, exist_ok=True)
            kind = rng.choice(kinds)
            name = where / f"link{n}-{j}{rng.choice(['', '.md', '.txt'])}"
            if name.exists() or name.is_symlink():
                continue
            if kind == "out":
                name.symlink_to(rng.choice(targets))
            elif kind == "loop":
                name.symlink_to(rng.choice([base, where, name]))
            elif kind == "inside":
                name.symlink_to(rng.choice(pool))
            elif kind == "chain":
                hop = where / f"hop{n}-{j}"
                hop.symlink_to(rng.choice(targets[:4]))
                name.symlink_to(hop)
            else:
                name.symlink_to(where / "nowhere.md")


def test_fuzz_symlink_farms_never_read_move_or_delete_outside(tmp_path):
    """Bounded: 10 generated vaults (seeded; CAIRN_FUZZ_VAULTS=N for a longer run), each with a random farm of links out (to a
    secret folder, `/`, `/etc`), loops, chains and dangling links, in the vault and in a
    folder to ingest. sync, reindex, search, show, update and delete of every note and a
    folder ingest never open, list, move or delete anything in the secret folder, never
    list `/`, and the secret's words reach neither the vault nor the index."""
    watch = _watch()
    rng = random.Random(10)
    for n in range(int(os.environ.get("CAIRN_FUZZ_VAULTS", "10"))):  # more for a longer run
        base = tmp_path / f"case{n}"
        secret = base / "secret"
        write(secret / "leak.md", "# Leak\n\nquixotrumble secret words.\n")
        write(secret / "leak.txt", "quixotrumble in plain text\n")
        write(secret / "inner" / "deep.md", "# Deep\n\nquixotrumble deeper.\n")
        home, src = base / "home", base / "src"
        with Cairn(home, embedder=_NoEmbed()) as app:
            _farm(rng, app.settings.vault, src, secret, n)
            before = _snapshot(secret)
            watch.forbidden = [os.path.realpath(secret), "/etc"]
            watch.hits.clear()
            watch.on.set()
            try:
                app.sync()
                app.reindex()
                app.ingest([str(src)])
                assert not app.search("quixotrumble", mode="keyword").hits
                for row in app.notes_list(limit=1000)["notes"]:
                    path = row["path"]
                    app.note_show(path)
                    app.note_update(path, "replaced body", mode="append")
                    app.note_delete(path)
            finally:
                watch.on.clear()
            assert watch.hits == [], f"case {n}: {watch.hits[:5]}"
            assert _snapshot(secret) == before, f"case {n}: the secret folder changed"
            text = app.conn.execute("SELECT group_concat(text, ' ') FROM chunks").fetchone()[0] or ""
            assert "quixotrumble" not in text
            for root, dirs, files in os.walk(app.settings.vault):  # links not followed
                for f in files:
                    p = os.path.join(root, f)
                    if not os.path.islink(p):
                        with open(p, "rb") as fh:
                            assert b"quixotrumble" not in fh.read(), p
