"""Sync speed: no-change startup reconcile of the Dendron vault, and edit-to-searchable
latency with `cairn watch` running.

    python bench/reconcile.py [--vault PATH] [--runs 5] [--edits 10] [--keep]

1. Baseline, same run: `Cairn.ingest(<notes-dendron-vault>)` into a fresh home (parse,
   index, embed): wall time.
2. No-change reconcile as at startup: a new `Cairn` on that home (new connection, as a
   restarted process; the timing includes opening the index) runs `sync()`; median and max
   of `--runs` runs, and the ratio to the ingest time. Also: a reconcile after `touch` of 20 files (read + hashed, found equal).
3. With the watcher running in a thread (`Cairn.watch`): for `--edits` notes, the time
   from the file write (body edit with a new word) until keyword search finds the word;
   the same for a rename (until the note's id is found at the new path) and a delete
   (until the word is no longer found). Figures are measured through the Python API on a
   second connection, like a separate `cairn search` process sees the index.
Nothing asserts; the script prints figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from _common import data_dir, fmt_s, header, need, table

from cairn.service import Cairn


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def wait_for(cond, timeout=30.0) -> float:
    """Seconds until cond() is true (polled every 10 ms), or inf after timeout."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if cond():
            return time.perf_counter() - t0
        time.sleep(0.01)
    return float("inf")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vault", type=Path, default=None)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--keep", action="store_true", help="keep the temporary home")
    args = ap.parse_args(argv)
    src = need(args.vault or data_dir() / "notes-dendron-vault" / "vault", "notes vault")
    tmp = Path(tempfile.mkdtemp(prefix="cairn-reconcile-"))
    home = tmp / "home"
    header(f"Sync: no-change reconcile and watch latency — {src}")
    try:
        with Cairn(home) as app:
            app.embedder  # load the model outside the timing
            t_ingest, rep = timed(lambda: app.ingest([src]))
            n_notes = app.status()["notes"]
        print(f"baseline: full ingest of {len(rep.added)} files ({n_notes} notes): {fmt_s(t_ingest)}")

        times = []
        for _ in range(args.runs):
            def startup():
                with Cairn(home) as app:  # a restarted process: new connection, no model loaded
                    return app.sync()
            t, r = timed(startup)
            assert not r.changed, r.to_json()
            times.append(t)
        med = statistics.median(times)
        vault = Cairn(home).settings.vault
        files = sorted(vault.rglob("*.md"))
        for f in files[:20]:
            os.utime(f)
        with Cairn(home) as app:
            t_touch, r = timed(app.sync)
        rows = [["no-change reconcile (median)", fmt_s(med), f"{med / t_ingest:.4f}"],
                ["no-change reconcile (max)", fmt_s(max(times)), f"{max(times) / t_ingest:.4f}"],
                [f"reconcile after touching 20 files ({r.unchanged} unchanged)", fmt_s(t_touch),
                 f"{t_touch / t_ingest:.4f}"]]
        print(table(["operation", "time", "ratio to full ingest"], rows, "lrr"))

        with Cairn(home) as app, Cairn(home) as reader:
            stop, ready = threading.Event(), threading.Event()
            th = threading.Thread(target=app.watch, args=(stop,),
                                  kwargs={"on_event": lambda e: e.kind == "ready" and ready.set()}, daemon=True)
            th.start()
            ready.wait(120)
            reader.embedder
            targets = [f for f in files[40:] if f.stat().st_size > 200][: args.edits]
            edit, move, delete = [], [], []
            for i, f in enumerate(targets):
                word = f"zqxbench{i}edit"
                f.write_text(f.read_text(encoding="utf-8") + f"\n\nBench line {word}.\n", encoding="utf-8")
                edit.append(wait_for(lambda: bool(reader.search(word, mode="keyword").hits)))
                rel = f.relative_to(vault).as_posix()
                note_id = reader.find_note(rel).id
                dest = f.with_name("moved-" + f.name)
                os.rename(f, dest)
                new_rel = dest.relative_to(vault).as_posix()
                move.append(wait_for(lambda: reader.conn.execute(
                    "SELECT 1 FROM notes WHERE id = ? AND path = ?", (note_id, new_rel)).fetchone() is not None))
                dest.unlink()
                delete.append(wait_for(lambda: not reader.search(word, mode="keyword").hits))
            stop.set()
            th.join(30)

        def row(name, xs):
            return [name, str(len(xs)), fmt_s(statistics.median(xs)), fmt_s(max(xs))]
        print(table(["watch: change until searchable", "n", "p50", "max"],
                    [row("body edit -> new word found", edit), row("rename -> same id at new path", move),
                     row("delete -> word no longer found", delete)], "lrrr"))
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
