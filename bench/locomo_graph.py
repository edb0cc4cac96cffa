#!/usr/bin/env python3
"""LoCoMo hit@10 of the graph signal settings, tuned on one half of the conversations and
reported on the other (issue 17).

    python bench/locomo.py --modes hybrid --keep      # imports each conversation once
    python bench/locomo_graph.py bench/out/locomo-run-XXXX [--tune conv-26,conv-30]

Opens each kept home in-process (`cairn.service.Cairn`) and runs its questions (as
`locomo.py`: categories 1-4, hit = an evidence dia_id among the top-10 source ids) for a
grid of (graph_weight, graph_hop1, graph_hop2, context_weight). The grid point with the best
hit@10 on the tuning conversations is reported with its hit@10 on the held-out ones, next
to graph_weight = 0 (no graph signal) in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, table  # noqa: E402
from locomo import chat_rows, load_samples, questions_of  # noqa: E402

# (graph_weight, graph_hop1, graph_hop2, context_weight)
GRID = [(0.0, 0.7, 0.4, 0.0), (0.1, 0.7, 0.4, 0.0), (0.2, 0.7, 0.4, 0.0), (0.0, 0.7, 0.4, 0.4),
        (0.0, 0.7, 0.4, 0.6), (0.0, 0.7, 0.4, 0.8), (0.0, 0.7, 0.4, 1.0), (0.05, 0.7, 0.4, 0.6),
        (0.1, 0.7, 0.4, 0.6), (0.1, 0.5, 0.2, 0.6)]


def hits_at(app, questions, settings, k=10) -> list[bool]:
    """hit@k per question with these search settings."""
    app.settings.search = settings
    out = []
    for q in questions:
        res = app.search(q["query"], k=k)
        got = {h.source_id for h in res.hits}
        out.append(bool(got & set(q["evidence"])))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir", type=Path, help="a bench/out/locomo-run-* folder of `locomo.py --keep`")
    ap.add_argument("--tune", default="conv-26,conv-30", help="conversations to tune on (the rest are held out)")
    ap.add_argument("--points", default="", help='grid points "w,hop1,hop2,context[,speaker[,time]];..." (default: GRID); '
                    "the first is the baseline")
    ap.add_argument("--signal", action="append", default=[], metavar="NAME=VALUE",
                    help="set a constant of cairn.graph.signal for the whole run (e.g. CONTEXT_SPAN=2)")
    ap.add_argument("--only", default="", help="comma-separated conversations to run (default: all with a home)")
    args = ap.parse_args(argv)
    grid = ([tuple(float(x) for x in p.split(",")) for p in args.points.split(";") if p.strip()]
            if args.points else GRID)
    from cairn.graph import signal as graph_signal
    from cairn.service import Cairn
    for item in args.signal:
        name, value = item.split("=", 1)
        setattr(graph_signal, name, type(getattr(graph_signal, name))(float(value)))
    tune = set(args.tune.split(","))
    _, samples = load_samples()
    per = {}  # grid point -> {"tune": [bools], "held": [bools]}
    t0 = time.perf_counter()
    for sample in samples:
        sid = sample["sample_id"]
        if args.only and sid not in args.only.split(","):
            continue
        home = args.run_dir / f"home-{sid}"
        if not home.exists():
            print(f"{sid}: no home in {args.run_dir}; skipped")
            continue
        questions, _ = questions_of(sample, {r["id"] for r in chat_rows(sample)})
        with Cairn(home) as app:
            base = app.settings.search
            for g in grid:
                s = replace(base, graph_weight=g[0], graph_hop1=g[1], graph_hop2=g[2], context_weight=g[3],
                            speaker_weight=g[4] if len(g) > 4 else base.speaker_weight,
                            time_weight=g[5] if len(g) > 5 else base.time_weight)
                per.setdefault(g, {"tune": [], "held": []})["tune" if sid in tune else "held"].extend(
                    hits_at(app, questions, s))
        print(f"{sid}: {len(questions)} questions, {time.perf_counter() - t0:.0f} s", flush=True)
    rows = []
    for g, r in per.items():
        t, h = r["tune"], r["held"]
        rows.append([f"graph={g[0]} hop1={g[1]} hop2={g[2]} context={g[3]}"
                     + (f" speaker={g[4]}" if len(g) > 4 else "") + (f" time={g[5]}" if len(g) > 5 else ""),
                     f"{sum(t) / max(1, len(t)):.3f}",
                     f"{sum(h) / max(1, len(h)):.3f}", f"{sum(t + h) / max(1, len(t + h)):.3f}"])
    header(f"LoCoMo hybrid hit@10: tune on {sorted(tune)}, held out the rest")
    print(table(["graph setting", "tune", "held out", "all"], rows))
    best = max(per, key=lambda g: sum(per[g]["tune"]))
    print(f"best on tune: {best}; held-out hit@10 {sum(per[best]['held']) / max(1, len(per[best]['held'])):.3f}"
          f" vs baseline {sum(per[grid[0]]['held']) / max(1, len(per[grid[0]]['held'])):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
