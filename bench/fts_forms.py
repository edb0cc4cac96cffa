#!/usr/bin/env python3
"""Keyword search latency for common words: the store's BM25 query against the application's
keyword path, and the FTS5 `rank` column form, on one generated keyword index.

    python bench/fts_forms.py                 # 100,000 chunks
    python bench/fts_forms.py --chunks 20000 --queries 100

The index holds bench/scale.py's synthetic corpus (40 Zipf pseudo-words a chunk, 10 chunks a
note), keyword rows only (no vectors), built in a temp folder through the store interfaces.
Two query sets of three words each: "bench" (words drawn from the 3,000 most frequent, as
scale.py's store-level keyword figure) and "common" (from the 200 most frequent). For each,
the process CPU time per query (p50 / p95, ms; CPU because the machine is shared):
- store bm25: `store.keyword.bm25` of the plain OR query (every word kept: the figure that
  showed p95 4-6x p50 at 1M chunks);
- app keyword channel: `search.hybrid._keyword_channel`, what `cairn search` runs (very common
  words dropped, the remaining words capped at BM25_MAX_POSTINGS rows, the phrase pass);
- the same MATCH with `ORDER BY rank LIMIT 50` (the rank column configured to the same
  bm25 weights) against the `-bm25(...) AS s ... ORDER BY s DESC LIMIT 50` the store runs,
  with a check that both give the same order.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale as S  # noqa: E402  (puts <repo>/src on sys.path)


def cpu_ms(fn, items) -> str:
    out = []
    for it in items:
        c = time.process_time()
        fn(it)
        out.append(time.process_time() - c)
    out.sort()
    return f"p50 {1000 * statistics.median(out):6.2f}  p95 {1000 * out[int(0.95 * (len(out) - 1))]:6.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=60)
    args = ap.parse_args()
    from cairn.model import Chunk
    from cairn.search import hybrid as H
    from cairn.store import db
    from cairn.store import keyword as K
    from cairn.store.backend import SQLiteBackend
    from cairn.store.fts import build_match_query

    vocab, texts = S.corpus(args.chunks)
    tmp = Path(tempfile.mkdtemp(prefix="cairn-fts-forms-"))
    try:
        conn = db.connect(tmp / "index.db")
        b = SQLiteBackend(conn)
        t = time.perf_counter()
        n_notes = args.chunks // S.PER_NOTE
        for lo in range(0, n_notes, 100):
            with b.transaction():
                for i in range(lo, min(n_notes, lo + 100)):
                    b.notes.upsert_note(S.note(i))
                    b.notes.insert_chunks(f"n{i}", f"note {i}", [], [
                        Chunk(ord=j, text=texts[i * S.PER_NOTE + j], start=0, end=1) for j in range(S.PER_NOTE)])
        print(f"{args.chunks} chunks indexed in {time.perf_counter() - t:.1f} s; load average "
              f"{os.getloadavg()[0]:.1f}")
        w = H.BM25_WEIGHTS
        conn.execute(f"INSERT INTO chunks_fts(chunks_fts, rank) VALUES('rank', 'bm25({w[0]}, {w[1]}, {w[2]})')")
        conn.commit()
        store_sql = (f"SELECT rowid, -bm25(chunks_fts, {w[0]}, {w[1]}, {w[2]}) AS s FROM chunks_fts "
                     "WHERE chunks_fts MATCH ? ORDER BY s DESC LIMIT 50")
        rank_sql = "SELECT rowid, -rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 50"
        rng = np.random.default_rng(1)
        sets = {"bench": [" ".join(rng.choice(vocab[:3000], 3)) for _ in range(args.queries)],
                "common": [" ".join(rng.choice(vocab[:200], 3)) for _ in range(args.queries)]}
        print("CPU ms per query:")
        for name, qs in sets.items():
            print(f"  {name:6} store bm25 (every word)         {cpu_ms(lambda q: K.bm25(conn, build_match_query(q), w, 10), qs)}")
            print(f"  {name:6} app keyword channel             "
                  f"{cpu_ms(lambda q: H._keyword_channel(conn, q, 50, None, 0.1), qs)}")
            capped = [build_match_query(q, drop=H.capped_terms(conn, q, H.common_terms(conn, q))) for q in qs]
            same = all([r[0] for r in conn.execute(store_sql, (m,))] == [r[0] for r in conn.execute(rank_sql, (m,))]
                       for m in capped)
            print(f"  {name:6} capped MATCH, ORDER BY s (store) {cpu_ms(lambda m: conn.execute(store_sql, (m,)).fetchall(), capped)}")
            print(f"  {name:6} capped MATCH, ORDER BY rank     {cpu_ms(lambda m: conn.execute(rank_sql, (m,)).fetchall(), capped)}"
                  f"  (same order: {same})")
        conn.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
