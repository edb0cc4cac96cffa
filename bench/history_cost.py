"""What keeping note versions (store.history, issue 34) costs: the same ingests of N generated
markdown files and the same N note updates, with the history on and with it switched off
(store.history.record replaced by a no-op), alternated in one run on fresh homes.

    python bench/history_cost.py            # 300 files, 100 updates, 2 rounds
    python bench/history_cost.py --files 500 --updates 200 --rounds 3

The embedder is the packaged MiniLM (as a person's ingest uses). Prints seconds per phase and
the ratio history-on / history-off, and the disk the history folder took. Nothing asserts.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

WORDS = ["boiler", "garden", "invoice", "heron", "violin", "roof", "kettle", "piano", "lamp", "tax",
         "service", "repair", "paint", "renew", "Porto", "Ghent", "Lyon", "Cork", "week", "before"]


def one(root: Path, files: int, updates: int, on: bool, embedder) -> tuple[float, float, int]:
    from cairn.service import Cairn
    from cairn.store import history as H
    original = H.record
    if not on:
        H.record = lambda *a, **k: None
    try:
        rng = random.Random(5)
        src = root / "src"
        src.mkdir(parents=True)
        for i in range(files):
            body = " ".join(rng.choice(WORDS) for _ in range(120))
            (src / f"n{i:04d}.md").write_text(f"# Note {i}\n\n{body}\n", encoding="utf-8")
        with Cairn(root / "home", embedder=embedder) as app:
            t0 = time.perf_counter()
            app.ingest([src])
            ingest_s = time.perf_counter() - t0
            notes = app.notes_list(limit=1000)["notes"]
            t0 = time.perf_counter()
            for i in range(updates):
                app.note_update(notes[i % len(notes)]["id"], f"update {i}: " + " ".join(rng.choice(WORDS) for _ in range(60)))
            update_s = time.perf_counter() - t0
        hist = root / "home" / "history"
        size = sum(p.stat().st_size for p in hist.rglob("*") if p.is_file()) if hist.exists() else 0
        return ingest_s, update_s, size
    finally:
        H.record = original


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=300)
    ap.add_argument("--updates", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    from cairn.embed import get_embedder
    embedder = get_embedder()
    embedder.embed(["warm up"])
    res: dict[bool, list[tuple[float, float, int]]] = {True: [], False: []}
    for r in range(args.rounds):
        for on in ((True, False) if r % 2 == 0 else (False, True)):
            tmp = Path(tempfile.mkdtemp(prefix="cairn-hist-"))
            try:
                res[on].append(one(tmp, args.files, args.updates, on, embedder))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            i, u, size = res[on][-1]
            print(f"round {r + 1} history {'on ' if on else 'off'}: ingest {i:.1f} s, {args.updates} updates "
                  f"{u:.1f} s, history folder {size / 1e6:.2f} MB")
    med = {on: (sorted(x[0] for x in v)[len(v) // 2], sorted(x[1] for x in v)[len(v) // 2]) for on, v in res.items()}
    print(f"median ratio on/off: ingest {med[True][0] / med[False][0]:.2f}x, updates "
          f"{med[True][1] / med[False][1]:.2f}x ({args.files} files, {args.updates} updates, {args.rounds} rounds)")


if __name__ == "__main__":
    main()
