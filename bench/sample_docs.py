#!/usr/bin/env python3
"""Ingest every file of the sample-docs set one by one and report what Cairn extracted.

    python bench/sample_docs.py                 # Python API, one temp home
    python bench/sample_docs.py --cli           # one `cairn ingest FILE --json` per file (slower)
    python bench/sample_docs.py --show NAME     # also print the whole extracted text of NAME

Per file: outcome (added / updated / unchanged / skipped / failed, with the reason), the
detected type, characters of extracted body text, pages, seconds, and the first 80
characters. Where a ground truth exists (`expected/<stem>.md`, or `<stem>.gold.txt` beside
an image), the extracted text is compared with it: `sim` is difflib's SequenceMatcher ratio
over the lower-cased word sequences, `recall` the fraction of ground-truth words (multiset)
found in the extraction. Markdown table pipes and rules in the ground truth are ignored by
the word tokenisation.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (CairnError, data_dir, fmt_s, header, need, parse_json_report, run_cairn,  # noqa: E402
                     table)

_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def compare(extracted: str, truth: str) -> tuple[float, float]:
    a, b = words(extracted), words(truth)
    sim = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() if a or b else 1.0
    want, have = Counter(b), Counter(a)
    recall = sum(min(n, have[w]) for w, n in want.items()) / max(1, sum(want.values()))
    return sim, recall


def ground_truth(root: Path, f: Path) -> Path | None:
    if f.parent.name == "expected" or f.name.endswith(".gold.txt"):
        return None
    for cand in (root / "expected" / f"{f.stem}.md", f.with_name(f"{f.stem}.gold.txt")):
        if cand.exists():
            return cand
    return None


def extracted_note(svc, source: Path) -> dict | None:
    """Type, body, pages and warnings of the note made from `source` (read back from the vault
    the way the indexer reads it)."""
    from cairn.parse import parse_markdown_text
    from cairn.store import notes as N
    row = N.get_note_by_source(svc.conn, str(source.resolve()))
    if row is None:
        return None
    text = (svc.settings.vault / row.path).read_text(encoding="utf-8", errors="replace")
    doc = parse_markdown_text(text, Path(row.path).name)
    body = doc.body.strip() if doc.meta.get("generator") == "cairn" else doc.body
    pages = doc.meta.get("pages") or []
    nchunks = svc.conn.execute("SELECT count(*) FROM chunks WHERE note_id = ?", (row.id,)).fetchone()[0]
    return {"type": row.type, "body": body, "pages": len(pages), "warnings": row.warnings,
            "title": row.title, "chunks": nchunks}


def outcome(report: dict, name: str) -> tuple[str, str]:
    """(status, reason) of one file from an ingest report (IngestReport or its JSON)."""
    for key in ("failed", "skipped"):
        for item in report[key]:
            n, r = (item["name"], item["reason"]) if isinstance(item, dict) else item
            if n == name:
                return key, r
    for key in ("added", "updated", "unchanged"):
        val = report[key]
        if (name in val) if isinstance(val, list) else val:
            return key, ""
    return "?", ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", action="store_true", help="use `cairn ingest FILE --json` per file")
    ap.add_argument("--show", action="append", default=[], help="print the full extraction of this file name")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    root = need(data_dir() / "sample-docs", "sample-docs")
    files = sorted(p for p in root.rglob("*") if p.is_file())
    header(f"sample-docs — {root} ({len(files)} files, {'CLI' if args.cli else 'Python API'})")
    from cairn.service import Cairn
    rows, compares, details = [], [], []
    with tempfile.TemporaryDirectory(prefix="cairn-samples-") as tmp:
        home = Path(tmp) / "home"
        svc = Cairn(home)
        try:
            for f in files:
                rel = f.relative_to(root).as_posix()
                t = time.perf_counter()
                try:
                    if args.cli:
                        out, _, _ = run_cairn(home, ["ingest", str(f), "--json", "--quiet"])
                        report = parse_json_report(out)
                        status, reason = outcome(report, str(f))
                        warnings = [w["warning"] for w in report.get("warnings", [])]
                    else:
                        rep = svc.ingest([f])
                        report = {"added": rep.added, "updated": rep.updated, "unchanged": rep.unchanged,
                                  "skipped": rep.skipped, "failed": rep.failed}
                        status, reason = outcome(report, str(f))
                        warnings = [w for _, w in rep.warnings]
                except CairnError as exc:
                    status, reason, warnings = "error", str(exc).splitlines()[-1][:200], []
                except Exception as exc:  # an API-level exception is a finding, not a crash of the bench
                    status, reason, warnings = "error", f"{type(exc).__name__}: {exc}"[:200], []
                secs = time.perf_counter() - t
                note = extracted_note(svc, f) if status in ("added", "updated", "unchanged") else None
                body = note["body"] if note else ""
                first = re.sub(r"\s+", " ", body)[:80]
                rows.append([rel, status, note["type"] if note else "-", len(body) if note else "-",
                             note["pages"] if note and note["pages"] else "-",
                             note["chunks"] if note else "-", f"{secs:.2f}", first])
                if reason or warnings or (note and note["warnings"]):
                    details.append(f"{rel}: {status}{': ' + reason if reason else ''}"
                                   + (f"; warnings: {warnings or note['warnings']}" if (warnings or (note and note['warnings'])) else ""))
                gt = ground_truth(root, f)
                if gt is not None:
                    truth = gt.read_text(encoding="utf-8", errors="replace")
                    sim, rec = compare(body, truth) if note else (0.0, 0.0)
                    compares.append([rel, gt.relative_to(root).as_posix(), len(truth),
                                     len(body) if note else 0, f"{sim:.3f}", f"{rec:.3f}"])
                if f.name in args.show or rel in args.show:
                    details.append(f"--- full extraction of {rel} ---\n{body}\n--- end ---")
        finally:
            svc.close()
    print(table(["file", "result", "type", "chars", "pages", "chunks", "s", "first 80 chars"], rows,
                aligns="lllrrrrl"))
    if details:
        header("reasons and warnings")
        for d in details:
            print("  " + d)
    if compares:
        header("against ground truth (difflib ratio over words; recall of ground-truth words)")
        print(table(["file", "ground truth", "gt chars", "chars", "sim", "recall"], compares, aligns="llrrrr"))
    counts = Counter(r[1] for r in rows)
    print("\n" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f"; total time {fmt_s(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
