#!/usr/bin/env python3
"""CPU of the entity pass's own Python over the SciFact corpus (everything of
`graph.update.update_graph` but spaCy and SQL), two source trees side by side.

    python bench/entity_text_cpu.py                          # this tree alone
    python bench/entity_text_cpu.py --base ../main/src --rounds 3 [--limit N]

For every abstract, as `import notes` stores it (one record note, its text one chunk): the
pieces spaCy reads (`extract.ner_units`, with the name gate), the names by written form
(`ner_written.written_names`) and technology names (`graph.tech.technology_names`) of the
whole text, and `extract.add_ner` of spaCy's entities for the piece (computed once, before
timing, and given to both trees alike). Each tree runs in a subprocess of its own, the
trees alternating by round; each prints its CPU seconds (process CPU, `time.process_time`)
per step and a digest of everything the steps returned, so a change that should keep
the output can be seen to keep it. Nothing is asserted; figures are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import data_dir, need  # noqa: E402  (also puts <repo>/src on sys.path)


def notes_of(corpus: Path, limit: int | None) -> list[tuple[str, str]]:
    """(title, text) of the corpus's abstracts with text, in file order."""
    out = []
    with open(corpus, encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if str(d.get("text") or "").strip():
                out.append((d.get("title") or "", d["text"]))
                if limit and len(out) >= limit:
                    break
    return out


def _row(title: str, text: str):
    note = {"id": "n", "type": "record", "title": title, "tags": "[]", "meta": "{}"}
    chunks = [{"text": text, "source_id": "", "speaker": None, "event_time": None}]
    return note, chunks


def child(data: Path, tree: Path) -> None:
    """Run the steps once over the pickled (notes, entities) in `data` with cairn imported
    from `tree`; print JSON figures."""
    sys.path.insert(0, str(tree))
    from cairn.graph import extract as X
    from cairn.ner_written import written_names
    from cairn.graph.tech import technology_names
    notes, ents = pickle.loads(data.read_bytes())
    written_names("Warm up: Ilse Brandvold said so.")  # the vocabulary and stop words, read once
    technology_names("Python 3.11")
    X.add_ner(X.Found(), "", [], "at 14:00 UTC")
    cpu, out = {}, []

    def timed(step, fn):
        c0 = time.process_time()
        res = [fn(i, title, text) for i, (title, text) in enumerate(notes)]
        cpu[step] = time.process_time() - c0
        out.append(res)

    timed("ner_units", lambda i, title, text: X.ner_units(*_row(title, text)))
    timed("written_names", lambda i, title, text: [(e.text, e.label) for e in written_names(text)])
    timed("technology_names", lambda i, title, text: technology_names(text))

    def ner(i, title, text):
        found = X.Found()
        X.add_ner(found, "", ents[i], X.ner_units(*_row(title, text))[0][1] if ents[i] else text)
        return sorted((n, found.kind[n], c) for n, c in found.units.get("", {}).items())
    timed("add_ner", ner)
    digest = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    print(json.dumps({"cpu": cpu, "total": sum(cpu.values()), "digest": digest}))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N abstracts only")
    ap.add_argument("--base", type=Path, default=None, help="another checkout's src folder to compare with")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", type=Path, nargs=2, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return 0
    corpus = need(data_dir() / "beir-scifact" / "corpus.jsonl", "SciFact corpus")
    notes = notes_of(corpus, args.limit)
    from cairn import ner
    from cairn.graph import extract as X
    pieces = [X.ner_units(*_row(t, x)) for t, x in notes]
    found = ner.entities_many([p[0][1] for p in pieces if p])  # spaCy once, for both trees
    it = iter(found)
    ents = [next(it) if p else [] for p in pieces]
    here = Path(__file__).resolve().parent.parent / "src"
    trees = {"this": here} | ({"base": args.base.resolve()} if args.base else {})
    with tempfile.TemporaryDirectory(prefix="cairn-enttext-") as tmp:
        data = Path(tmp) / "data.pickle"
        data.write_bytes(pickle.dumps((notes, ents)))
        res: dict[str, list[dict]] = {k: [] for k in trees}
        for r in range(args.rounds):
            for name in (list(trees) if r % 2 == 0 else list(reversed(trees))):
                p = subprocess.run([sys.executable, __file__, "--child", str(data), str(trees[name])],
                                   capture_output=True, text=True, check=True)
                res[name].append(json.loads(p.stdout.strip().splitlines()[-1]))
                print(f"round {r + 1}, {name}: {res[name][-1]['total']:.2f} s CPU "
                      f"(load {os.getloadavg()[0]:.2f})", flush=True)
    print(f"\n{len(notes)} abstracts; CPU s per step, mean of {args.rounds}:")
    for name, runs in res.items():
        steps = {k: sum(x["cpu"][k] for x in runs) / len(runs) for k in runs[0]["cpu"]}
        print(f"  {name:5} ({trees[name]}): " + ", ".join(f"{k} {v:.2f}" for k, v in steps.items())
              + f"; total {sum(steps.values()):.2f}; output digest {runs[0]['digest']}")
    if "base" in res:
        a = sum(x["total"] for x in res["this"]) / args.rounds
        b = sum(x["total"] for x in res["base"]) / args.rounds
        same = res["this"][0]["digest"] == res["base"][0]["digest"]
        print(f"this / base CPU: {a / b:.3f}; outputs {'identical' if same else 'DIFFER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
