#!/usr/bin/env python3
"""Importing large exports with bounded memory: a 10k-message mbox and a 2,000-conversation
ChatGPT export, generated here (no third-party data), imported by `Cairn.import_export`.

    python bench/import_scale.py [--messages 10000] [--conversations 2000] [--embed hash|model]
                                 [--extract]

Each import runs in a child process of its own, so its peak RSS (ru_maxrss) is its alone.
Baseline in the same run: the same import of a one-item export (it loads everything an
import loads: the parsers, spaCy for the entity graph, the embedder). Each export is also
imported at a quarter of its size: if memory is bounded (the readers stream), the peak RSS
above the baseline grows far less than the export, which grows 4x. Printed per run: export size (MiB), items, seconds until every note is
keyword-searchable (`keyword_searchable_s`: written and indexed, before embedding), total
seconds, peak RSS (MiB) and its excess over the baseline, and a keyword search that finds
the last item. A second import of the full export is timed too (nothing to add: all
unchanged). --embed model uses the packaged MiniLM (slow on 2 cores: ~70 chunks/s); the
default "hash" embedder (cheap, deterministic) keeps the figure about the importer.
--extract also extracts facts from the conversations (off by default: its cost is the
extraction's, measured elsewhere).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import need  # noqa: E402,F401  (also puts <repo>/src on sys.path)

WORDS = ("heron alder river kayak sourdough rye lantern harbour orchard granite meadow ferry "
         "violin pottery glacier compass thistle saffron lighthouse quarry").split()


def _text(i: int, n: int = 40) -> str:
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(n)) + f" token{i}."


def make_mbox(path: Path, n: int) -> None:
    with open(path, "wb") as fh:
        for i in range(n):
            body = f"{_text(i)}\nFrom the desk of sender {i % 97}.\n".replace("\nFrom ", "\n>From ")
            fh.write((f"From sender{i % 97}@example.org Mon Feb  3 10:00:00 2025\n"
                      f"From: Sender {i % 97} <sender{i % 97}@example.org>\nTo: me@example.org\n"
                      f"Subject: Message {i} about {WORDS[i % len(WORDS)]}\n"
                      f"Date: Mon, 03 Feb 2025 {i % 24:02d}:{i % 60:02d}:00 +0000\n"
                      f"Message-ID: <m{i}@example.org>\nContent-Type: text/plain; charset=utf-8\n\n"
                      f"{body}\n").encode())


def make_chatgpt(path: Path, n: int) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[")
        for c in range(n):
            mapping = {"root": {"id": "root", "message": None, "parent": None, "children": ["m0"]}}
            parent = "root"
            for k in range(6):
                nid = f"m{k}"
                mapping[nid] = {"id": nid, "parent": parent, "children": [],
                                "message": {"id": f"c{c}m{k}", "author": {"role": "user" if k % 2 == 0 else "assistant"},
                                            "create_time": 1_700_000_000 + c * 100 + k,
                                            "content": {"content_type": "text", "parts": [_text(c * 6 + k, 30)]},
                                            "metadata": {}}}
                mapping[parent]["children"].append(nid)
                parent = nid
            conv = {"id": f"conv{c}", "conversation_id": f"conv{c}", "title": f"Conversation {c}",
                    "create_time": 1_700_000_000 + c * 100, "update_time": 1_700_000_000 + c * 100 + 6,
                    "mapping": mapping, "current_node": parent}
            fh.write(("," if c else "") + json.dumps(conv))
        fh.write("]")


def child(args) -> None:
    """In a child process: open the home, import (or not: baseline), print one JSON line."""
    from cairn.service import Cairn
    if args.embed == "model":
        from cairn.embed import get_embedder
        emb = get_embedder()
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from conftest import HashEmbedder
        emb = HashEmbedder()
    out: dict = {}
    with Cairn(Path(args.home), embedder=emb) as app:
        if args.source != "baseline":
            t0 = time.monotonic()
            r = app.import_export(args.source, Path(args.path), extract=args.extract)
            out = {"seconds": round(time.monotonic() - t0, 2), "added": len(r.added), "updated": len(r.updated),
                   "unchanged": len(r.unchanged), "skipped": len(r.skipped), **r.timings}
            out["found_last"] = bool(app.search(args.probe, mode="keyword").hits)
    out["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(out))


def run(source: str, path: Path | None, home: Path, args, probe: str = "") -> dict:
    cmd = [sys.executable, __file__, "--child", source, "--home", str(home), "--embed", args.embed,
           "--path", str(path or ""), "--probe", probe] + (["--extract"] if args.extract else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--conversations", type=int, default=2_000)
    ap.add_argument("--embed", choices=("hash", "model"), default="hash")
    ap.add_argument("--extract", action="store_true")
    ap.add_argument("--child")
    ap.add_argument("--home")
    ap.add_argument("--path")
    ap.add_argument("--probe", default="")
    args = ap.parse_args()
    if args.child:
        args.source = args.child
        return child(args)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for source, n, make, probe in (("mbox", args.messages, make_mbox, "token{last}"),
                                       ("chatgpt", args.conversations, make_chatgpt, "token{last}")):
            base = None
            for size in (1, n // 4, n):
                f = t / (f"{source}-{size}.mbox" if source == "mbox" else f"{source}-{size}/conversations.json")
                f.parent.mkdir(parents=True, exist_ok=True)
                make(f, size)
                last = size - 1 if source == "mbox" else size * 6 - 1
                home = t / f"h-{source}-{size}"
                r = run(source, f, home, args, probe.format(last=last))
                base = base or r
                mib = f.stat().st_size / 2**20
                print(f"{source} {size:>6} items, {mib:6.1f} MiB: added {r['added']}, skipped {r['skipped']}, "
                      f"keyword-searchable {r['keyword_searchable_s']:.1f} s, total {r['seconds']:.1f} s, "
                      f"{r['added'] / max(r['keyword_searchable_s'], 1e-9):.0f} items/s to searchable; "
                      f"peak RSS {r['peak_rss_mib']} MiB (+{r['peak_rss_mib'] - base['peak_rss_mib']:.1f} over baseline); "
                      f"last item found by keyword: {r['found_last']}")
                if size == n:
                    again = run(source, f, home, args, probe.format(last=last))
                    print(f"{source} {size:>6} again: unchanged {again['unchanged']}, added {again['added']}, "
                          f"{again['seconds']:.1f} s, peak RSS {again['peak_rss_mib']} MiB")


if __name__ == "__main__":
    main()
