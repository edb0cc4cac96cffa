"""Cost of one assistant turn as the conversation grows (Session 18, turncost).

    PYTHONPATH=src python bench/assistant_turns.py [--turns 300] [--model scripted|none]
                                  [--baseline REF [--rounds R]] [--profile FILE] [--json]

Drives N turns of one session through `Assistant.turn` (the operation `cairn chat` and
REST `POST /chat` call) on a fresh temp home with the packaged embedder. `--model scripted`
(default): a model that calls tools, played by an OpenAI-compatible vendor on loopback
(tests/fakes/scripted_llm.py; it answers "ok"), with the settings of the 300-turn test of
tests/test_context.py (context_tokens 4096, recall_k = notes_k = 0), so the whole turn runs:
the understanding layer's hint, the context compiler with semantic turns, the per-turn memory
extraction, the checkpoint. `--model none`: the offline understanding layer instead. The
messages are written here (a constraint at turn 3, then random words).

Printed per turn shown (1-10, 100, 300, and the last): wall ms and CPU ms (the process's, all
its threads: steadier than wall time on a shared machine) of that turn, embedder calls and
texts of that turn, and log bytes read (every `cairn.jsonl.read_appended` call: the session log
and the artifacts log) in that turn; then the medians of the same over turns 2-10, 91-110 and
281-300 (one turn is a noisy sample), and the totals over all turns.
With `--baseline REF` the same run is made first with the `src/` of git ref REF (extracted to
a temp dir) and then with this tree's, each in a fresh process (`--rounds R`: R times,
interleaved, each turn's ms the median of its R runs), and both are printed side by side with
the ratios old/new. `--profile FILE`: cProfile of the last 10 turns written
to FILE (pstats). Nothing asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PROFILED = 10  # --profile covers the last this many turns (one turn is a noisy sample)
WORDS = ["heron", "mill", "pond", "boiler", "ticket", "train", "cousin", "lemon", "budget", "river",
         "garden", "invoice", "concert", "Ana", "Lisbon", "bicycle", "recipe", "lamp", "roof", "piano"]


def message(n: int) -> str:
    """The person's message of turn n (a constraint at turn 3, otherwise random words)."""
    if n == 3:
        return "For the garden database: not MySQL, use Postgres. Never water the ferns on Mondays."
    rnd = random.Random(n)
    words = WORDS + [f"{rnd.choice('bcdfglmnprst')}{rnd.choice('aeiou')}{rnd.randint(0, 4000)}" for _ in range(40)]
    return f"Turn {n}: " + " ".join(rnd.choice(words) for _ in range(rnd.randint(8, 60))) + "."


def run(turns: int, model: str, profile: str | None) -> list[dict]:
    """Rows {"turn", "ms", "cpu_ms", "embed_calls", "embed_texts", "log_bytes"}, one per turn."""
    import cairn.jsonl as J
    read_bytes = [0]
    original = J.read_appended

    def counted(path, offset, size):
        read_bytes[0] += max(0, size - offset)
        return original(path, offset, size)

    J.read_appended = counted  # the modules that imported it by name are patched below
    for mod in ("cairn.assistant.sessions", "cairn.context.session", "cairn.store.artifacts"):
        m = __import__(mod, fromlist=["x"])
        if getattr(m, "read_appended", None) is original:
            m.read_appended = counted

    from cairn.assistant import Assistant
    from cairn.embed import get_embedder
    from cairn.service import Cairn
    sys.path.insert(0, str(REPO / "tests"))
    from fakes.scripted_llm import ScriptedLLM

    sys.path.insert(0, str(REPO / "tests"))
    from conftest import CountingEmbedder  # the tests' counting wrapper (pytest is a dev dependency)
    emb = CountingEmbedder(get_embedder())
    prof = None
    if profile:
        import cProfile
        prof = cProfile.Profile()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, ScriptedLLM() as llm, Cairn(Path(tmp) / "home", embedder=emb) as app:
        app.settings.assistant.context_tokens = 4096
        app.settings.assistant.recall_k = app.settings.assistant.notes_k = 0
        spec = f"openai:{llm.base_url}:scripted" if model == "scripted" else "none"
        bot = Assistant(app, model=spec)
        for n in range(1, turns + 1):
            c0, t0, b0 = emb.calls, emb.texts, read_bytes[0]
            if prof is not None and n == max(1, turns - PROFILED + 1):
                prof.enable()
            s, cpu = time.perf_counter(), time.process_time()
            bot.turn(message(n))
            ms, cpu_ms = (time.perf_counter() - s) * 1000, (time.process_time() - cpu) * 1000
            if prof is not None and n == turns:
                prof.disable()
                prof.dump_stats(profile)
            rows.append({"turn": n, "ms": round(ms, 2), "cpu_ms": round(cpu_ms, 2), "embed_calls": emb.calls - c0,
                         "embed_texts": emb.texts - t0, "log_bytes": read_bytes[0] - b0})
    return rows


def shown(turns: int) -> list[int]:
    return sorted({*range(1, min(10, turns) + 1), *(t for t in (100, 300) if t <= turns), turns})


def table(rows: list[dict]) -> dict[int, dict]:
    """{turn: row} for the turns shown."""
    return {t: rows[t - 1] for t in shown(len(rows))}


def windows(turns: int) -> list[tuple[int, int]]:
    """Turn ranges whose median is printed (less noisy than one turn): 2-10, 91-110, 281-300."""
    return [(a, b) for a, b in ((2, 10), (91, 110), (281, 300)) if b <= turns]


def window(rows: list[dict], a: int, b: int) -> dict:
    """Medians of wall ms, CPU ms, embedder calls and texts, log bytes over turns a..b."""
    part = rows[a - 1:b]
    return {k: round(statistics.median(r[k] for r in part), 1)
            for k in ("ms", "cpu_ms", "embed_calls", "embed_texts", "log_bytes")}


def child(src: str | None, args) -> list[dict]:
    """The rows of a run in a fresh process with `src` (None: this tree's) first on sys.path."""
    env = dict(os.environ, PYTHONPATH=str(src or REPO / "src"), CAIRN_LOAD_PLUGINS="")
    cmd = [sys.executable, __file__, "--turns", str(args.turns), "--model", args.model, "--rows"]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"error: the run with {src or 'this tree'} failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout)


def merged(rounds: list[list[dict]]) -> list[dict]:
    """One row per turn: the median ms over the rounds, the counts of the first round (they
    are the same in every round)."""
    return [dict(rows[0], ms=round(statistics.median(r["ms"] for r in rows), 2),
                 cpu_ms=round(statistics.median(r["cpu_ms"] for r in rows), 2)) for rows in zip(*rounds)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--model", choices=("scripted", "none"), default="scripted")
    ap.add_argument("--baseline", help="git ref whose src/ is run first, for old vs new")
    ap.add_argument("--rounds", type=int, default=1, help="with --baseline: old, new, old, new...; "
                    "each turn's ms is the median over the rounds (default 1)")
    ap.add_argument("--profile", help="write a cProfile of the last 10 turns to this file")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rows", action="store_true", help=argparse.SUPPRESS)  # a child run: rows as JSON
    args = ap.parse_args()
    if args.rows:
        print(json.dumps(run(args.turns, args.model, None)))
        return
    runs: dict[str, list[dict]] = {}
    if args.baseline:
        with tempfile.TemporaryDirectory() as tmp:
            tar = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline, "src"], capture_output=True)
            if tar.returncode != 0:
                sys.exit(f"error: git archive {args.baseline}: {tar.stderr.decode()[-500:]}")
            subprocess.run(["tar", "-x", "-C", tmp], input=tar.stdout, check=True)
            rounds: dict[str, list[list[dict]]] = {"old": [], "new": []}
            for _ in range(args.rounds):  # interleaved, so a change in the machine's load hits both
                rounds["old"].append(child(str(Path(tmp) / "src"), args))
                rounds["new"].append(child(None, args))
        runs = {k: merged(v) for k, v in rounds.items()}
    elif args.profile:
        if str(REPO / "src") not in sys.path:
            sys.path.insert(0, str(REPO / "src"))
        runs["new"] = run(args.turns, args.model, args.profile)
    else:
        runs["new"] = child(None, args)
    tables = {k: table(v) for k, v in runs.items()}
    wins = {k: {f"{a}-{b}": window(v, a, b) for a, b in windows(args.turns)} for k, v in runs.items()}
    totals = {k: {"wall_s": round(sum(r["ms"] for r in v) / 1000, 1), "cpu_s": round(sum(r["cpu_ms"] for r in v) / 1000, 1)}
              for k, v in runs.items()}
    if args.json:
        print(json.dumps({"turns": args.turns, "model": args.model, "baseline": args.baseline, "rounds": args.rounds,
                          "total": totals, "windows": wins, "shown": tables}, indent=1))
        return
    print(f"assistant turns: {args.turns} turns, model {args.model}"
          + (f", old = {args.baseline}, new = this tree, {args.rounds} round(s)" if args.baseline else ""))
    for k in runs:
        print(f"  {k}: all turns {totals[k]['wall_s']} s wall, {totals[k]['cpu_s']} s CPU")
    cols = "  {:>6}  {:>8} {:>8} {:>9} {:>9} {:>8}"
    print("  " + " " * 8 + "".join(f"  {k:<48}" for k in runs))
    head = "  turns   " + "".join(f"  {'wall_ms':>8} {'cpu_ms':>8} {'emb_calls':>9} {'emb_texts':>9} {'log_kB':>8} "
                                    for _ in runs) + ("  old/new wall  old/new cpu" if len(runs) == 2 else "")
    print(head)

    def line(label, rs):
        out = f"  {label:>7} "
        for r in rs:
            out += (f"  {r['ms']:>8.1f} {r['cpu_ms']:>8.1f} {r['embed_calls']:>9} {r['embed_texts']:>9}"
                    f" {r['log_bytes'] / 1000:>8.1f} ")
        if len(rs) == 2:
            out += f"  {rs[0]['ms'] / max(rs[1]['ms'], 1e-9):>12.2f} {rs[0]['cpu_ms'] / max(rs[1]['cpu_ms'], 1e-9):>12.2f}"
        print(out)

    for t in shown(args.turns):
        line(str(t), [tables[k][t] for k in runs])
    print("  medians over turns:")
    for a, b in windows(args.turns):
        line(f"{a}-{b}", [wins[k][f"{a}-{b}"] for k in runs])


if __name__ == "__main__":
    main()
