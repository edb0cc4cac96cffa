"""One parsed query (issue 33): the same searches run by two source trees, to show that parsing a
query once (search/query.py) changed no result and no latency.

For each round, each tree (this one's src/, and `--baseline-src`, e.g. a checkout of main)
runs in its own process (`--worker`): it opens the home with `Cairn`, searches every query in
each mode once to warm up, then times every query (`Cairn.search`, k=10, warm); the trees
alternate round by round (A B A B ...), so a change of machine load hits both alike. Printed
per tree and mode: p50 / p95 in ms over all rounds, the p50 ratio (this tree / baseline), the
p50 of each round (to judge the noise), the mean time of `parse_query` alone where the tree
has it, and
a SHA-256 digest of every query's results (hit ids, scores rounded to 1e-9, warnings; every
search at one fixed time, as recency depends on it): equal digests mean every query returned
the same hits, in the same order, with the same scores.

The queries: the questions of a LoCoMo home kept by `bench/locomo.py --keep` (its
conv-*-questions.jsonl) plus queries written here for the query syntax (punctuation and
operators, CJK, column filters, dates, stopwords only, quotes, empty).

    python bench/search_parse.py --run-dir bench/out/locomo-run-XXXX --baseline-src ../main/src [--rounds 3] [--paired]

--paired adds a second measurement: both trees' processes are alive at once and each query is
timed by one and then the other (order alternating), so load changes hit both alike; it prints
the median of the per-query time ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Written for this bench: the query syntax's corners (docs/concepts.md "Query syntax").
SYNTAX_QUERIES = [
    "C++ templates", "k8s-prod 08:00", "health.base", "NEAR(a b)", "a OR", "x:y:z", "\\", "-", "*", "?!",
    "🙂 emoji", '"support group" Caroline', '"the the"', "title:caroline", "tags:chat painting",
    "title:!! sunrise", "TITLE:Melanie camping", "the of and", "what", "", "   ",
    "in July 2023", "7 May 2023 Caroline", "2023-05-08", "Melanie in May", "告警", "内存告警已清零 東京",
    "Zoë's café", "LGBTQ+ support", "pottery, camping; painting.", "Caroline's adoption agency?",
]


def _queries(run_dir: Path) -> list[str]:
    out = []
    for f in sorted(run_dir.glob("conv-*-questions.jsonl")):
        out += [json.loads(line)["query"] for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out + SYNTAX_QUERIES


def worker(home: Path, queries: list[str], modes: list[str]) -> dict:
    """{mode: {"ms": [per-query ms], "digest": sha256 of the results}} for this process's cairn."""
    from datetime import datetime, timezone

    import cairn.search.hybrid as hybrid
    from cairn.service import Cairn
    real, fixed = hybrid.search, datetime(2026, 12, 1, tzinfo=timezone.utc)
    # one clock for every search of both trees: the recency signal depends on the time of the search
    hybrid.search = lambda *a, **kw: real(*a, **{**kw, "now": fixed})
    out = {}
    with Cairn(home) as app:
        for mode in modes:
            for q in queries:  # warm up: model session, caches, document frequencies
                app.search(q, k=10, mode=mode)
            digest = hashlib.sha256()
            ms = []
            for q in queries:
                t0 = time.perf_counter()
                res = app.search(q, k=10, mode=mode)
                ms.append((time.perf_counter() - t0) * 1000)
                digest.update(json.dumps([q, [(h.id, round(h.score, 9)) for h in res.hits], res.warnings],
                                         ensure_ascii=False).encode())
            out[mode] = {"ms": ms, "digest": digest.hexdigest()[:16]}
    try:  # the parse alone (a tree without search/query.py has none)
        from cairn.search.query import parse_query
    except ImportError:
        return out
    t0 = time.perf_counter()
    for _ in range(20):
        for q in queries:
            parse_query(q)
    out["parse_us"] = (time.perf_counter() - t0) / (20 * len(queries)) * 1e6
    return out


def serve(home: Path, queries: list[str], modes: list[str]) -> None:
    """--serve: warm up as `worker`, print "ready", then for each stdin line "MODE INDEX" time
    that search and print its ms (the parent times the two trees query by query)."""
    from datetime import datetime, timezone

    import cairn.search.hybrid as hybrid
    from cairn.service import Cairn
    real, fixed = hybrid.search, datetime(2026, 12, 1, tzinfo=timezone.utc)
    hybrid.search = lambda *a, **kw: real(*a, **{**kw, "now": fixed})
    with Cairn(home) as app:
        for mode in modes:
            for q in queries:
                app.search(q, k=10, mode=mode)
        print("ready", flush=True)
        for line in sys.stdin:
            mode, i = line.split()
            t0 = time.perf_counter()
            app.search(queries[int(i)], k=10, mode=mode)
            print(f"{(time.perf_counter() - t0) * 1000:.4f}", flush=True)


def paired(args, trees: dict[str, Path], queries: list[str], modes: list[str]) -> None:
    """--paired: both trees' processes alive at once, each query timed by one then the other
    (the order alternating per query and round), so a change of load hits both within
    milliseconds. Prints p50 / p95 per tree and mode and the median of the per-query ratios."""
    procs = {}
    for tree, src in trees.items():
        procs[tree] = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--run-dir", str(args.run_dir), "--baseline-src",
             str(args.baseline_src), "--modes", args.modes], env=dict(os.environ, PYTHONPATH=str(src)),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for p in procs.values():
        assert p.stdout.readline().strip() == "ready"
    times = {t: {m: [] for m in modes} for t in trees}
    ratios = {m: [] for m in modes}
    names = list(trees)
    n_rounds = args.paired_rounds or args.rounds
    for r in range(n_rounds):
        for i in range(len(queries)):
            for m in modes:
                got = {}
                for tree in (names if (i + r) % 2 == 0 else names[::-1]):
                    procs[tree].stdin.write(f"{m} {i}\n")
                    got[tree] = float(procs[tree].stdout.readline())
                for tree in names:
                    times[tree][m].append(got[tree])
                ratios[m].append(got["this tree"] / got["baseline"])
    for p in procs.values():
        p.stdin.close()
        p.wait()
    print(f"paired: {n_rounds} rounds x {len(queries)} queries, each timed by both trees back to back")
    print("| tree | mode | p50 ms | p95 ms | median of per-query ratios (this / baseline) |")
    print("|---|---|---:|---:|---:|")
    for m in modes:
        for tree in names:
            xs = times[tree][m]
            ratio = f"{statistics.median(ratios[m]):.3f}" if tree == "this tree" else "1"
            print(f"| {tree} | {m} | {statistics.median(xs):.1f} | {_pct(xs, 0.95):.1f} | {ratio} |")


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", type=Path, required=True, help="a bench/locomo.py --keep run folder")
    ap.add_argument("--baseline-src", type=Path, required=True, help="the src/ folder of the tree to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--modes", default="keyword,hybrid")
    ap.add_argument("--paired", action="store_true",
                    help="also time each query by both trees back to back (two processes alive at once)")
    ap.add_argument("--paired-rounds", type=int, default=0, help="rounds of --paired (default: --rounds)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    homes = sorted(p for p in args.run_dir.glob("home-*") if p.is_dir())
    if not homes:
        sys.exit(f"no home-* folder in {args.run_dir} (run bench/locomo.py --keep first)")
    queries = _queries(args.run_dir)
    if args.worker:
        print(json.dumps(worker(homes[0], queries, modes)))
        return 0
    if args.serve:
        serve(homes[0], queries, modes)
        return 0
    trees = {"this tree": ROOT / "src", "baseline": args.baseline_src.resolve()}
    times: dict[str, dict[str, list[float]]] = {t: {m: [] for m in modes} for t in trees}
    parse_us: dict[str, list[float]] = {t: [] for t in trees}
    digests: dict[str, dict[str, set[str]]] = {t: {m: set() for m in modes} for t in trees}
    rounds: dict[str, dict[str, list[float]]] = {t: {m: [] for m in modes} for t in trees}  # p50 of each round
    print(f"{len(queries)} queries ({len(SYNTAX_QUERIES)} of them syntax cases), home {homes[0]}, "
          f"{args.rounds} rounds, load {os.getloadavg()[0]:.1f}")
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for tree in order:
            env = dict(os.environ, PYTHONPATH=str(trees[tree]))
            proc = subprocess.run([sys.executable, __file__, "--worker", "--run-dir", str(args.run_dir),
                                   "--baseline-src", str(args.baseline_src), "--modes", args.modes],
                                  env=env, capture_output=True, text=True, check=True)
            res = json.loads(proc.stdout.strip().splitlines()[-1])
            if "parse_us" in res:
                parse_us[tree].append(res["parse_us"])
            for m in modes:
                times[tree][m] += res[m]["ms"]
                rounds[tree][m].append(statistics.median(res[m]["ms"]))
                digests[tree][m].add(res[m]["digest"])
    print(f"| tree | mode | p50 ms | p95 ms | p50 ratio (this / baseline) | results digest |")
    print("|---|---|---:|---:|---:|---|")
    for m in modes:
        base = statistics.median(times["baseline"][m])
        for tree in trees:
            xs = times[tree][m]
            print(f"| {tree} | {m} | {statistics.median(xs):.1f} | {_pct(xs, 0.95):.1f} | "
                  f"{statistics.median(xs) / base:.3f} | {', '.join(sorted(digests[tree][m]))} |")
    for m in modes:
        for tree in trees:
            print(f"{tree} {m} p50 per round: " + ", ".join(f"{x:.1f}" for x in rounds[tree][m]))
    for tree in trees:
        if parse_us[tree]:
            print(f"{tree}: parse_query alone, mean µs per query per round: "
                  + ", ".join(f"{x:.0f}" for x in parse_us[tree]))
    same = all(digests["this tree"][m] == digests["baseline"][m] for m in modes)
    print("results identical in every mode" if same else "RESULTS DIFFER between the trees")
    if args.paired:
        paired(args, trees, queries, modes)
    print(f"load {os.getloadavg()[0]:.1f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
