#!/usr/bin/env python3
"""Fuzzed queries and fuzzed files against one home: no crash, every reason in words.

    python bench/fuzz_inputs.py                          # 2000 queries, 1400 files
    python bench/fuzz_inputs.py --queries 500 --files 300 --seed 3

Queries: random mixes of words, FTS5 syntax (quotes, NEAR, AND/OR/NOT, `*`, `^`, column
filters), punctuation, control characters, RTL and CJK text, emoji, very long strings, a
leading "-"; each runs through `Cairn.search` in every mode. A crash is any exception that is
not a person's error (cairn.errors.is_user_error). Files: random bytes, truncated and mutated
copies of markdown (deep or broken frontmatter, NULs), HTML, JSON, ZIP/DOCX/PDF headers and
empty files, under many suffixes, ingested as one folder; a crash is an exception out of
`ingest`, a reason naming an exception class (AttributeError, RecursionError, ...) or a
"Traceback". Printed: counts of each, wall time. Exit status 1 if any crash.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

_CLASS = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback")
ATOMS = ["heron", "kayak", '"', "'", "(", ")", "*", "^", ":", "-", "+", "NEAR", "AND", "OR", "NOT",
         "title:", "{", "}", "[[", "]]", "\\", "\x00", "\x1b[31m", "\u202e", "مرحبا", "日本語", "🦩", "\t",
         "%", "_", "?", ";", "--", "NEAR(a b, 3)", "\"unclosed", "a*b*c", "\ud800".encode("utf-8", "surrogatepass")
         .decode("utf-8", "replace")]


def fuzz_query(rng: random.Random) -> str:
    n = rng.choice([1, 2, 3, 5, 8, 40, 400])
    q = "".join(rng.choice(ATOMS) + rng.choice(["", " "]) for _ in range(n))
    return ("-" + q) if rng.random() < 0.1 else q


def fuzz_file(rng: random.Random, i: int, folder: Path) -> None:
    kind = rng.randrange(9)
    suffix = rng.choice([".md", ".txt", ".html", ".json", ".docx", ".pdf", ".pptx", ".xlsx", ".eml", ".rtf",
                         ".epub", ".ipynb", ".png", ".jpg", ".mp3", "", ".bin"])
    if kind == 0:
        data = rng.randbytes(rng.randrange(0, 4000))
    elif kind == 1:
        data = ("---\nx: " + "[" * rng.randrange(10, 5000) + "]" * rng.randrange(0, 5000) + "\n---\n# T\n").encode()
    elif kind == 2:
        data = ("---\n" + rng.choice(["title: [", "a: b: c", "- list", "", "tags: {x"]) + "\n---\nbody\n").encode()
    elif kind == 3:
        data = b"PK\x03\x04" + rng.randbytes(rng.randrange(0, 3000))
    elif kind == 4:
        data = b"%PDF-1." + rng.randbytes(rng.randrange(0, 3000))
    elif kind == 5:
        data = ("<html><body>" + "<div>" * rng.randrange(0, 3000) + "text</body>").encode()
    elif kind == 6:
        data = ("# Note %d\n\n" % i + "".join(rng.choice(ATOMS) for _ in range(200))).encode("utf-8", "replace")
    elif kind == 7:
        data = b""
    else:
        data = ('{"cells": [' * rng.randrange(1, 2000)).encode()
    (folder / f"f{i:05d}{suffix}").write_bytes(data)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--files", type=int, default=1400)
    ap.add_argument("--seed", type=int, default=10)
    args = ap.parse_args()
    from cairn.errors import is_user_error
    from cairn.service import Cairn

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        for i in range(args.files):
            fuzz_file(rng, i, folder)
        t0 = time.time()
        file_crashes: list[str] = []
        with Cairn(Path(tmp) / "home") as app:
            try:
                report = app.ingest([str(folder)])
                for name, reason in report.skipped + report.failed + report.warnings:
                    if _CLASS.search(reason):
                        file_crashes.append(f"{name}: {reason}")
                outcome = (f"added {len(report.added)}, skipped {len(report.skipped)}, failed "
                           f"{len(report.failed)}")
            except Exception as exc:  # noqa: BLE001
                file_crashes.append(f"ingest raised {type(exc).__name__}: {exc}")
                outcome = "ingest raised"
            try:
                sync = app.sync()
                for name, reason in sync.failed:
                    if _CLASS.search(reason):
                        file_crashes.append(f"sync {name}: {reason}")
            except Exception as exc:  # noqa: BLE001
                file_crashes.append(f"sync raised {type(exc).__name__}: {exc}")
            t_files = time.time() - t0
            t1 = time.time()
            query_crashes, user_errors = [], 0
            for n in range(args.queries):
                q = fuzz_query(rng)
                mode = ("hybrid", "keyword", "semantic")[n % 3]
                try:
                    app.search(q, mode=mode)
                except Exception as exc:  # noqa: BLE001
                    if is_user_error(exc) and not _CLASS.search(str(exc)):
                        user_errors += 1
                    else:
                        query_crashes.append(f"{q[:60]!r} ({mode}): {type(exc).__name__}: {exc}")
            t_queries = time.time() - t1
    print(f"fuzzed files {args.files}: {outcome}; crashes or exception names {len(file_crashes)} ({t_files:.1f} s)")
    print(f"fuzzed queries {args.queries}: crashes {len(query_crashes)}, refused with a message "
          f"{user_errors} ({t_queries:.1f} s)")
    for c in (file_crashes + query_crashes)[:10]:
        print("  ", c[:300])
    return 1 if file_crashes or query_crashes else 0


if __name__ == "__main__":
    sys.exit(main())
