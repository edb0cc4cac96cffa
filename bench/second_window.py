#!/usr/bin/env python3
"""SciFact nDCG@10 with a second embedding window for chunks longer than the model's 256
word pieces (issue 17), measured in one process on a copy of bench/out/scifact-home.

    python bench/scifact.py --fresh --modes hybrid      # builds bench/out/scifact-home
    python bench/second_window.py [--tail-words 150] [--limit-queries 0]

The train queries run (hybrid, k=100) on the copy as imported, then every chunk whose
embedding text (ingest/embedding.embed_text) is longer than the embedder's max_seq_length
gets a second vector of its title plus its last --tail-words words, and its stored vector
becomes the normalised sum of the two (ingest/embedding.window_texts / combine_windows, the
rule ingest uses); the queries run again. Prints nDCG@10 and recall@100 of both, on all
queries and on each half (odd / even query position), and how many chunks were long.

`--combine max` keeps each window's vector apart instead (max over windows): the stored
vectors stay as imported, the tails are held in memory, and the semantic channel scores a
long chunk by the larger of its two cosines (the vector index's scan with the tail cosines
folded in, a stand-in for one index row per window).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT, data_dir, header, read_jsonl, table  # noqa: E402
from scifact import HOME, load_qrels, ndcg_at, ranked_ids, recall_at  # noqa: E402


def score(app, queries, qrels) -> list[tuple[float, float]]:
    out = []
    for qid, text in queries:
        hits = [h.to_json() for h in app.search(text, k=100).hits]
        ranked = ranked_ids(hits)
        out.append((ndcg_at(ranked, qrels[qid], 10), recall_at(ranked, qrels[qid], 100)))
    return out


def summary(name, s) -> list[str]:
    def avg(xs):
        return sum(xs) / max(1, len(xs))
    return [name, f"{avg([a for a, _ in s]):.4f}", f"{avg([a for a, _ in s[0::2]]):.4f}",
            f"{avg([a for a, _ in s[1::2]]):.4f}", f"{avg([b for _, b in s]):.4f}"]


def _max_over_windows(vi, long_ids: list[int], tails: np.ndarray) -> None:
    """Make `vi.search` (store.vectors.VectorIndex) score each chunk of `long_ids` by
    max(cosine of its stored vector, cosine of its tail vector, row of `tails`)."""
    from cairn.store.vectors import top_k
    vi._load()
    pos = {int(c): i for i, c in enumerate(vi._ids)}
    rows = np.array([pos[c] for c in long_ids], dtype=np.int64)

    def search(query_vec, k, allowed=None, refresh=True):
        q = np.asarray(query_vec, dtype=np.float32)
        scores = vi._mat @ q
        scores[rows] = np.maximum(scores[rows], tails @ q)
        return top_k(vi._ids, scores, k, allowed)

    vi.search = search


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tail-words", type=int, default=0, help="words of the second window (0: ingest's rule)")
    ap.add_argument("--limit-queries", type=int, default=0)
    ap.add_argument("--combine", choices=("mean", "max"), default="mean",
                    help="mean: one stored vector, the normalised sum; max: the best window's cosine")
    args = ap.parse_args(argv)
    from cairn.ingest.embedding import combine_windows, embed_text, window_texts
    from cairn.model import Chunk
    from cairn.service import Cairn
    qrels = load_qrels(data_dir() / "beir-scifact" / "qrels" / "train.tsv")
    queries = [(q["_id"], q["text"]) for q in read_jsonl(data_dir() / "beir-scifact" / "queries-train.jsonl")
               if q["_id"] in qrels]
    if args.limit_queries:
        queries = queries[:args.limit_queries]
    home = Path(tempfile.mkdtemp(prefix="second-window-", dir=OUT))
    try:
        shutil.copy(HOME / "index.db", home / "index.db")
        with Cairn(home) as app:
            before = score(app, queries, qrels)
            emb = app.embedder
            rows = app.conn.execute("""SELECT c.id, c.text, c.heading, c.speaker, n.title FROM chunks c
                                       JOIN notes n ON n.id = c.note_id JOIN vectors v ON v.chunk_id = c.id""").fetchall()
            t0 = time.perf_counter()
            texts = {r["id"]: embed_text(r["title"], Chunk(ord=0, text=r["text"], start=0, end=0,
                                                           heading=r["heading"], speaker=r["speaker"])) for r in rows}
            windows = {cid: window_texts(emb, t, r["title"], args.tail_words or None)
                       for (cid, t), r in zip(texts.items(), rows)}
            long_ids = [cid for cid, w in windows.items() if len(w) > 1]
            tails = emb.embed([windows[c][1] for c in long_ids]) if long_ids else np.zeros((0, 384), np.float32)
            if args.combine == "max":
                _max_over_windows(app.vectors, long_ids, np.asarray(tails, dtype=np.float32))
            else:
                for cid, tail in zip(long_ids, tails):
                    (blob,) = app.conn.execute("SELECT vec FROM vectors WHERE chunk_id = ?", (cid,)).fetchone()
                    head = np.frombuffer(blob, dtype=np.float32)
                    app.conn.execute("UPDATE vectors SET vec = ? WHERE chunk_id = ?",
                                     (combine_windows(np.stack([head, tail])).tobytes(), cid))
                app.conn.execute("""INSERT INTO meta(key, value) VALUES ('vector_generation', '1')
                                    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1""")
                app.conn.commit()
            spent = time.perf_counter() - t0
            after = score(app, queries, qrels)
        header(f"SciFact train, {len(queries)} queries, hybrid: {len(long_ids)} of {len(rows)} chunks long "
               f"(second window embedded in {spent:.0f} s)")
        print(table(["vectors", "nDCG@10", "odd half", "even half", "recall@100"],
                    [summary("one window (as imported)", before), summary(f"two windows ({args.combine})", after)]))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
