#!/usr/bin/env python3
"""kill -9 during an ingest, restart, and check every file is indexed exactly once.

    python bench/crash_ingest.py                 # 500 files, kill once a third is indexed
    python bench/crash_ingest.py --files 2000 --kill-at 0.5 --resume jobs-run
    python bench/crash_ingest.py --kill-in-embed  # kill during the embedding phase instead

Steps:
1. write --files small distinct markdown files (each with its own unique token) to a temp folder;
2. start `cairn --home H ingest -q DIR` as a subprocess and poll the index (read-only) until
   it holds at least --kill-at of the notes (or, with --kill-in-embed, all notes and some but
   not all vectors); then `kill -9` it and record what the index held at that moment;
3. restart: `cairn ingest -q DIR` again (default) or `cairn jobs run` (--resume jobs-run);
4. check and print: N notes, N distinct sources, N vault copies (no `-2` duplicates), every
   file's unique token found by keyword search in exactly its own note, no orphan chunks /
   keyword rows / vectors, no chunk without a vector, no job queued, running or dead.
Exit status 1 if any check fails. Figures printed: time to the kill, restart time.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO, cairn_bin  # noqa: E402

WORDS = ("harbour lantern meadow quarry ember willow granite falcon cedar orchard beacon "
         "thistle canyon marble ferry juniper glacier pewter saffron tundra").split()


def make_files(folder: Path, n: int, seed: int = 7) -> dict[str, str]:
    """n markdown files with distinct text; returns {file name: unique token}."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    tokens = {}
    for i in range(n):
        token = f"crashtok{i:05d}q"
        words = " ".join(rng.choice(WORDS) for _ in range(40))
        name = f"note-{i:05d}.md"
        (folder / name).write_text(f"# Crash note {i}\n\nRecord {i} carries {token}. {words}.\n",
                                   encoding="utf-8")
        tokens[name] = token
    return tokens


def _count(db: Path, sql: str) -> int | None:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.2)
        try:
            return conn.execute(sql).fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def run_and_kill(cmd: list[str], env: dict, db: Path, n: int, kill_at: float,
                 in_embed: bool, poll_s: float = 0.005, timeout_s: float = 600) -> dict:
    """Start `cmd`, kill -9 it at the chosen point; returns what the index held then."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    want = max(1, int(n * kill_at))
    state: dict = {"killed": False}
    while proc.poll() is None and time.perf_counter() - t0 < timeout_s:
        notes = _count(db, "SELECT count(*) FROM notes")
        if notes is not None:
            if in_embed:
                vecs = _count(db, "SELECT count(*) FROM vectors") or 0
                ready = notes >= n and vecs > 0
            else:
                ready = notes >= want
            if ready:
                os.kill(proc.pid, signal.SIGKILL)
                state["killed"] = True
                break
        time.sleep(poll_s)
    proc.wait()
    state["seconds_to_kill"] = time.perf_counter() - t0
    state["returncode"] = proc.returncode
    state["stderr"] = proc.stderr.read().decode("utf-8", "replace")[-2000:] if proc.stderr else ""
    for key, sql in [("notes", "SELECT count(*) FROM notes"), ("chunks", "SELECT count(*) FROM chunks"),
                     ("vectors", "SELECT count(*) FROM vectors"),
                     ("jobs_running", "SELECT count(*) FROM jobs WHERE state = 'running'"),
                     ("jobs_done", "SELECT count(*) FROM jobs WHERE state = 'done'"),
                     ("jobs_queued", "SELECT count(*) FROM jobs WHERE state = 'queued'")]:
        state[key] = _count(db, sql)
    return state


def check(home: Path, src: Path, tokens: dict[str, str]) -> list[tuple[str, bool, str]]:
    """(check, ok, detail) for the exactly-once conditions listed in the module docstring."""
    from cairn.service import Cairn

    n = len(tokens)
    out = []
    with Cairn(home) as app:
        c = app.conn
        q = lambda sql: c.execute(sql).fetchone()[0]  # noqa: E731
        notes, sources = q("SELECT count(*) FROM notes"), q("SELECT count(DISTINCT source) FROM notes")
        out.append(("notes == files", notes == n, f"{notes} notes for {n} files"))
        out.append(("one note per source", sources == n, f"{sources} distinct sources"))
        vault_files = sorted((home / "vault").rglob("*.md"))
        dupes = [p.name for p in vault_files if not p.name.startswith("note-") or p.stem.count("-") > 1]
        out.append(("vault copies == files", len(vault_files) == n and not dupes,
                    f"{len(vault_files)} vault files, {len(dupes)} unexpected names {dupes[:3]}"))
        missing = []
        for name, token in tokens.items():
            hits = app.search(token, mode="keyword", k=5).hits
            if len(hits) != 1 or Path(hits[0].source or "").name != name:
                missing.append((name, len(hits)))
        out.append(("every token found, in its own note only", not missing,
                    f"{n - len(missing)}/{n} ok" + (f"; e.g. {missing[:3]}" if missing else "")))
        orphan_chunks = q("SELECT count(*) FROM chunks WHERE note_id NOT IN (SELECT id FROM notes)")
        orphan_fts = q("SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)")
        missing_fts = q("SELECT count(*) FROM chunks WHERE id NOT IN (SELECT rowid FROM chunks_fts)")
        orphan_vecs = q("SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)")
        no_vec = q("SELECT count(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM vectors)")
        out.append(("no orphan chunks / keyword rows / vectors",
                    orphan_chunks == orphan_fts == missing_fts == orphan_vecs == 0,
                    f"chunks {orphan_chunks}, fts {orphan_fts} (+{missing_fts} missing), vectors {orphan_vecs}"))
        out.append(("every chunk has a vector", no_vec == 0, f"{no_vec} without"))
        jobs = app.jobs()["counts"]
        out.append(("no job left queued/running/dead",
                    jobs["queued"] == jobs["running"] == jobs["dead"] == 0 and jobs["done"] == n, str(jobs)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--kill-at", type=float, default=0.33, help="fraction of notes indexed at the kill")
    ap.add_argument("--kill-in-embed", action="store_true", help="kill during the embedding phase")
    ap.add_argument("--resume", choices=("ingest", "jobs-run"), default="ingest")
    ap.add_argument("--keep", action="store_true", help="keep the temp folder (path printed)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="cairn-crash-"))
    src, home = tmp / "src", tmp / "home"
    tokens = make_files(src, args.files)
    env = dict(os.environ, PYTHONPATH=str(REPO / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    base = [*cairn_bin(), "--home", str(home)]
    db = home / "index.db"
    print(f"== crash ingest: {args.files} files in {src}; home {home}")
    state = run_and_kill([*base, "ingest", "-q", str(src)], env, db, args.files, args.kill_at,
                         args.kill_in_embed)
    if not state["killed"]:
        print(f"the ingest ended (rc {state['returncode']}) before the kill point: {state['stderr']}")
        return 1
    print(f"killed -9 after {state['seconds_to_kill']:.1f} s holding {state['notes']} notes, "
          f"{state['chunks']} chunks, {state['vectors']} vectors; jobs: {state['jobs_done']} done, "
          f"{state['jobs_running']} running, {state['jobs_queued']} queued")
    resume = ["ingest", "-q", str(src)] if args.resume == "ingest" else ["jobs", "run", "-q"]
    t0 = time.perf_counter()
    r = subprocess.run([*base, *resume], env=env, capture_output=True, text=True)
    restart_s = time.perf_counter() - t0
    print(f"restart `cairn {' '.join(resume[:2])}`: rc {r.returncode} in {restart_s:.1f} s: {r.stdout.strip()}")
    if r.returncode != 0:
        print(r.stderr[-2000:])
    results = check(home, src, tokens)
    for name, ok, detail in results:
        print(f"  [{'ok' if ok else 'FAIL'}] {name}: {detail}")
    all_ok = r.returncode == 0 and all(ok for _, ok, _ in results)
    print("RESULT: every file indexed exactly once" if all_ok else "RESULT: FAILED")
    if args.keep:
        print(f"kept {tmp}")
    else:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
