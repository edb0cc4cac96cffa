#!/usr/bin/env python3
"""Ingest every file of the sample-docs set one by one and report what Cairn extracted.

    python bench/sample_docs.py                 # Python API, one temp home
    python bench/sample_docs.py --cli           # one `cairn ingest FILE --json` per file (slower)
    python bench/sample_docs.py --show NAME     # also print the whole extracted text of NAME
    python bench/sample_docs.py --no-throughput # skip the OCR/ASR throughput pass

Per file: outcome (added / updated / unchanged / skipped / failed, with the reason), the
detected type, characters of extracted body text, pages, seconds, and the first 80
characters. Where a ground truth exists (`expected/<stem>.md`, or `<stem>.gold.txt` beside
an image), the extracted text is compared with it: `sim` is difflib's SequenceMatcher ratio
over the lower-cased word sequences, `recall` the fraction of ground-truth words (multiset)
found in the extraction. Markdown table pipes and rules in the ground truth are ignored by
the word tokenisation. Ground-truth files themselves are not ingested.

Ground-truth checks (PASS/FAIL): OCR'd images against their `.gold.txt` (sim >= OCR_MIN_SIM);
the known recordings against the words that must be heard (SPOKEN, from SOURCE.md: the
counting clip must give one..five, the JFK clip "my fellow americans" and "your country"); the
scanned medical report against phrases printed on its pages (SCANNED).

Throughput (a second pass, parse only, models loaded before timing): OCR seconds per image and
scanned-PDF pages per second, ASR audio seconds transcribed per wall-clock second, and as the
baseline measured in the same run, pypdf text-layer pages per second on the text PDFs.
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
_OWN_LINK = re.compile(r"\n*!?\[[^\]\n]*\]\([^)\n]*_files/[^)\n]*\)$")
OCR_MIN_SIM = 0.9
NUMBERS = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five"}
# words that must be heard in a recording (lower case, digits spelled out), by file stem prefix
SPOKEN = {
    "markitdown_count_1_to_5": ["one", "two", "three", "four", "five"],
    "whisper_jfk": ["my fellow americans", "your country"],
}
# phrases printed on the scanned (image-only) PDF's pages, by file stem
SCANNED = {
    "MEDRPT-2024-PAT-3847_medical_report_scan": ["seattle general hospital", "physical examination",
                                                 "treatment plan"],
}


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def compare(extracted: str, truth: str) -> tuple[float, float]:
    a, b = words(extracted), words(truth)
    sim = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() if a or b else 1.0
    want, have = Counter(b), Counter(a)
    recall = sum(min(n, have[w]) for w, n in want.items()) / max(1, sum(want.values()))
    return sim, recall


def is_truth_file(root: Path, f: Path) -> bool:
    """Ground-truth files (expected/*.md, *.gold.txt, an image's <stem>.txt) are not samples."""
    if f.parent == root / "expected" or f.name.endswith(".gold.txt") or f.name == "SOURCE.md":
        return True
    return f.suffix == ".txt" and any(f.with_suffix(x).exists() for x in (".png", ".tif", ".jpg"))


def ground_truth(root: Path, f: Path) -> Path | None:
    if is_truth_file(root, f):
        return None
    for cand in (root / "expected" / f"{f.stem}.md", f.with_name(f"{f.stem}.gold.txt"),
                 f.with_name(f"{f.stem}.txt")):
        if cand.exists() and cand != f:
            return cand
    return None


def spoken_words(text: str) -> str:
    """Lower-cased words with digits spelled out (whisper writes "1, 2" or "One, two")."""
    return " ".join(NUMBERS.get(w, w) for w in words(text))


def phrase_check(body: str, phrases: list[str]) -> tuple[bool, list[str]]:
    """(all found, missing phrases) — phrases matched on word sequences."""
    have = " " + spoken_words(body) + " "
    missing = [p for p in phrases if " " + " ".join(words(p)) + " " not in have]
    return not missing, missing


def load_models() -> tuple[float, float]:
    """Load the OCR engine and the ASR model (once per process); (seconds, seconds)."""
    from cairn.parse.audio import asr_model
    from cairn.parse.ocr import ocr_engine

    t = time.perf_counter()
    ocr_engine()
    ocr_load = time.perf_counter() - t
    t = time.perf_counter()
    asr_model()
    return ocr_load, time.perf_counter() - t


def throughput(files: list[Path], ocr_load: float, asr_load: float) -> list[list]:
    """Parse-only timings: OCR per image, OCR'd PDF pages, ASR audio seconds, pypdf baseline."""
    from cairn.parse import parse_file

    images = pdf_ocr_pages = pdf_text_pages = 0
    img_s = pdf_ocr_s = pdf_text_s = audio_s = audio_wall = 0.0
    for f in files:
        try:
            t = time.perf_counter()
            doc = parse_file(f)
            dt = time.perf_counter() - t
        except Exception:
            continue
        if doc.kind == "image":
            images += 1
            img_s += dt
        elif doc.kind == "audio":
            audio_s += float(doc.meta.get("duration") or 0)
            audio_wall += dt
        elif doc.kind == "pdf":
            n_ocr = len(doc.meta.get("ocr_pages") or [])
            if n_ocr:
                pdf_ocr_pages += n_ocr
                pdf_ocr_s += dt
            else:
                pdf_text_pages += int(doc.meta.get("pages") or 0)
                pdf_text_s += dt
    rows = [["OCR model load (rapidocr PP-OCRv6)", "", f"{ocr_load:.2f} s"],
            ["ASR model load (faster-whisper tiny.en int8)", "", f"{asr_load:.2f} s"]]
    if images:
        rows.append(["OCR images", f"{images} images, {img_s:.1f} s", f"{img_s / images:.2f} s/image"])
    if pdf_ocr_pages:
        rows.append(["OCR scanned-PDF pages", f"{pdf_ocr_pages} pages, {pdf_ocr_s:.1f} s",
                     f"{pdf_ocr_pages / pdf_ocr_s:.3f} pages/s"])
    if pdf_text_pages:
        rows.append(["baseline: pypdf text-layer pages", f"{pdf_text_pages} pages, {pdf_text_s:.2f} s",
                     f"{pdf_text_pages / pdf_text_s:.1f} pages/s"])
    if pdf_ocr_pages and pdf_text_pages:
        ratio = (pdf_text_pages / pdf_text_s) / (pdf_ocr_pages / pdf_ocr_s)
        rows.append(["OCR page vs text-layer page", "", f"OCR is {ratio:.0f}x slower"])
    if audio_wall:
        rows.append(["ASR audio", f"{audio_s:.1f} s of audio, {audio_wall:.1f} s wall",
                     f"{audio_s / audio_wall:.1f} audio s per wall s"])
    return rows


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
    if row.type in ("image", "audio"):  # the note's link to its kept original is not extracted text
        body = _OWN_LINK.sub("", body, count=1).strip()
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
    ap.add_argument("--no-throughput", action="store_true", help="skip the parse-only OCR/ASR timing pass")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    root = need(data_dir() / "sample-docs", "sample-docs")
    files = sorted(p for p in root.rglob("*") if p.is_file() and not is_truth_file(root, p))
    header(f"sample-docs — {root} ({len(files)} files, {'CLI' if args.cli else 'Python API'})")
    from cairn.service import Cairn
    loads = None if args.no_throughput else load_models()
    rows, compares, details, checks = [], [], [], []
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
                    if note and note["type"] == "image":
                        checks.append([rel, f"OCR sim >= {OCR_MIN_SIM} vs {gt.name}", f"{sim:.3f}",
                                       "PASS" if sim >= OCR_MIN_SIM else "FAIL"])
                for prefix, phrases in SPOKEN.items():
                    if f.stem.startswith(prefix):
                        ok, missing = phrase_check(body, phrases)
                        checks.append([rel, "spoken: " + ", ".join(phrases),
                                       "missing " + ", ".join(missing) if missing else "all heard",
                                       "PASS" if ok else "FAIL"])
                if f.stem in SCANNED:
                    ok, missing = phrase_check(body, SCANNED[f.stem])
                    checks.append([rel, "scanned PDF: " + ", ".join(SCANNED[f.stem]),
                                   "missing " + ", ".join(missing) if missing else "all read",
                                   "PASS" if ok else "FAIL"])
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
    if checks:
        header("ground-truth checks")
        print(table(["file", "check", "result", "verdict"], checks, aligns="llll"))
    if not args.no_throughput:
        header("throughput (parse only, models loaded first; baseline = pypdf text layer, same run)")
        print(table(["what", "work", "rate"], throughput(files, *loads), aligns="lll"))
    counts = Counter(r[1] for r in rows)
    failed_checks = sum(1 for c in checks if c[3] == "FAIL")
    print("\n" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + f"; ground-truth checks {len(checks) - failed_checks}/{len(checks)} passed"
          + f"; total time {fmt_s(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
