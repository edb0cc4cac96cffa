#!/usr/bin/env python3
"""What reading a PDF's ruled tables from its layout text (parse/pdf_tables.py, session 25) costs the
PDF parser: every PDF under the data folder parsed with `pdf_tables.TABLES` off (the baseline) and on,
in alternating rounds in the same run; the median seconds per file and the ratio on/off.

    python bench/pdf_tables_cost.py [--rounds 5]

OCR is off in both arms (it is the same work either way); a PDF with no text layer still counts
(the parser reads its pages, then refuses it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import data_dir, header, table  # noqa: E402


def _parse_s(data: bytes, name: str) -> float:
    from cairn.parse import pdf as P
    from cairn.parse.errors import ParseError

    t = time.perf_counter()
    try:
        P.parse_pdf(data, name, ocr=False)
    except ParseError:
        pass
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    from cairn.parse import pdf_tables as T

    files = sorted(data_dir().rglob("*.pdf"))
    if not files:
        print(f"no PDF under {data_dir()}", file=sys.stderr)
        return 1
    blobs = [(f, f.read_bytes()) for f in files]
    times: dict[tuple[str, bool], list[float]] = {}
    for _ in range(args.rounds):
        for on in (False, True):
            T.TABLES = on
            for f, data in blobs:
                times.setdefault((f.name, on), []).append(_parse_s(data, f.name))
    T.TABLES = True
    header(f"PDF parse with and without layout tables: {len(files)} PDFs, median of {args.rounds} rounds")
    rows, off_total, on_total = [], 0.0, 0.0
    for f, _ in blobs:
        off, on = statistics.median(times[(f.name, False)]), statistics.median(times[(f.name, True)])
        off_total, on_total = off_total + off, on_total + on
        rows.append([f.name[:40], f"{off:.3f}", f"{on:.3f}", f"{on / off:.2f}x" if off else "-"])
    rows.append(["all", f"{off_total:.3f}", f"{on_total:.3f}", f"{on_total / off_total:.2f}x"])
    print(table(["file", "off s", "on s", "on/off"], rows, "lrrr"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
