#!/usr/bin/env python3
"""LoCoMo hit@10 with neighbour-carrying message keys (issue 17), in the full search
pipeline, tuned on one half of the conversations and reported on the other.

    python bench/locomo.py --modes hybrid --keep          # imports each conversation once
    python bench/neighbour_keys.py bench/out/locomo-run-XXXX [--alphas 0,0.2,0.3,0.5]
                                   [--contexts 0.6] [--speakers 0.4]

The kept homes must hold PLAIN message vectors (imported with `[memory] neighbour_keys = 0`,
the script checks the home's setting and exits otherwise). For each alpha, each home's
vector matrix is replaced in memory by the rule of cairn/ingest/neighbours.py (message
vector + alpha x mean of the previous and next message of the session, renormalised; notes
untouched), then every question (categories 1-4, as `locomo.py`) runs through
`Cairn.search` (hybrid, k=10) with the home's search settings, for each
context_weight x speaker_weight given (the query-time neighbour signals of
graph/signal.py, which the key may duplicate). hit = an evidence dia_id among the top-10
source ids. Nothing is written to the homes.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, table  # noqa: E402
from locomo import chat_rows, load_samples, questions_of  # noqa: E402
from locomo_graph import hits_at  # noqa: E402


def chat_groups(conn, ids: np.ndarray) -> tuple[np.ndarray, list]:
    """(row order by note and chunk order, group of each row in that order: the chat note id
    or None) for the vector matrix rows `ids`."""
    info = {r[0]: (r[1], r[2], r[3]) for r in conn.execute(
        "SELECT c.id, c.note_id, c.ord, n.type FROM chunks c JOIN notes n ON n.id = c.note_id")}
    order = sorted(range(len(ids)), key=lambda i: (info[int(ids[i])][0], info[int(ids[i])][1]))
    groups = [info[int(ids[i])][0] if info[int(ids[i])][2] == "chat" else None for i in order]
    return np.asarray(order, dtype=np.int64), groups


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--tune", default="conv-26,conv-30")
    ap.add_argument("--alphas", default="0,0.2,0.3,0.5")
    ap.add_argument("--contexts", default="", help="context_weight values (default: the home's)")
    ap.add_argument("--speakers", default="", help="speaker_weight values (default: the home's)")
    args = ap.parse_args(argv)
    from cairn.ingest.neighbours import mix_rows
    from cairn.service import Cairn
    alphas = [float(a) for a in args.alphas.split(",") if a.strip()]
    tune = set(args.tune.split(","))
    _, samples = load_samples()
    per: dict[tuple, dict[str, list[bool]]] = {}
    t0 = time.perf_counter()
    for sample in samples:
        sid = sample["sample_id"]
        home = args.run_dir / f"home-{sid}"
        if not home.exists():
            print(f"{sid}: no home; skipped")
            continue
        questions, _ = questions_of(sample, {r["id"] for r in chat_rows(sample)})
        with Cairn(home) as app:
            if getattr(app.settings.memory, "neighbour_keys", 0.0) > 0:
                sys.exit(f"{home}: imported with neighbour_keys > 0; this script needs plain vectors")
            vi = app.vectors
            vi.refresh()
            raw = np.array(vi._mat, dtype=np.float32)
            order, groups = chat_groups(app.conn, vi._ids)
            base = app.settings.search
            ctxs = [float(x) for x in args.contexts.split(",")] if args.contexts else [base.context_weight]
            spks = [float(x) for x in args.speakers.split(",")] if args.speakers else [base.speaker_weight]
            for a in alphas:
                mixed = np.empty_like(raw)
                mixed[order] = mix_rows(raw[order], groups, a)
                vi._mat = mixed  # same generation: search keeps this matrix
                for c in ctxs:
                    for p in spks:
                        s = replace(base, context_weight=c, speaker_weight=p)
                        per.setdefault((a, c, p), {"tune": [], "held": []})[
                            "tune" if sid in tune else "held"].extend(hits_at(app, questions, s))
            vi._mat = raw
        print(f"{sid}: {len(questions)} questions, {time.perf_counter() - t0:.0f} s", flush=True)
    rows = []
    for key, r in per.items():
        t, h = r["tune"], r["held"]
        rows.append([f"{key[0]:g}", f"{key[1]:g}", f"{key[2]:g}", f"{sum(t) / max(1, len(t)):.3f}",
                     f"{sum(h) / max(1, len(h)):.3f}", f"{sum(t + h) / max(1, len(t + h)):.3f}"])
    header(f"LoCoMo hybrid hit@10, neighbour keys: tune on {sorted(tune)}, held out the rest")
    print(table(["alpha", "context", "speaker", "tune", "held out", "all"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
