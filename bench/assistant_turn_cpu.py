"""CPU time of a chat turn against a cold `cairn ask`, in fresh processes, interleaved (issue 32).

    PYTHONPATH=src python bench/assistant_turn_cpu.py [--case DIR] [--rounds 3] [--home DIR] [--only KIND,...]

The wall-time ratio of bench/assistant_week.py swings with the machine's load (on the shared
2-core machine a process gets a varying share of a core); the CPU time a process uses (user +
system, of the process and its threads, from wait4) moves much less. A temp home gets the
case's notes (A01 by default) and one `chat --new` turn trains the intent classifier (cached
in <home>/nlu, as after any first turn); then each round runs, for every request kind below,
`cairn ask Q` and `cairn chat --message M --json` one after the other. Printed: the median CPU
seconds and wall seconds of each, and the ratios. Nothing asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, cairn_bin, run_cairn

CASE = REPO.parent / "shared" / "cases" / "A01-assistant-week"
ASKS = ["what make is the boiler?", "when does the book club meet?", "where is the router?"]
TURNS = {  # kind -> message (not A01's requests; read-only or reversible on the temp home)
    "question": "what make is the boiler?",
    "profile": "what do you know about the plumber?",
    "reminders": "what reminders do I have?",
    "small talk": "hello there",
    "refusal": "what's the weather like today?",
    "remember": "remember that my bike lock code is 4412",
    # a request with a clause after it (nlu.understand.REASON_AFTER classifies both clauses once more)
    "prefaced": "remember that my gym locker is 31, it's the one by the window",
}


def _run(home: Path, args: list[str]) -> tuple[float, float]:
    """(CPU seconds user+system, wall seconds) of `cairn --home HOME ARGS`."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([*cairn_bin(), "--home", str(home), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"error: cairn {' '.join(args)} failed: {proc.stderr.read().decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", type=Path, default=CASE)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--home", type=Path, help="a home with the case's notes already (else a temp one)")
    ap.add_argument("--only", help=f"comma-separated request kinds to run (of {', '.join(TURNS)}; default all)")
    args = ap.parse_args()
    turns = TURNS
    if args.only:
        unknown = set(args.only.split(",")) - set(TURNS)
        if unknown:
            sys.exit(f"error: --only names no request kind: {', '.join(sorted(unknown))} (kinds: {', '.join(TURNS)})")
        turns = {k: v for k, v in TURNS.items() if k in args.only.split(",")}
    home = args.home or Path(tempfile.mkdtemp(prefix="cairn-cpu-")) / "home"
    if args.home is None:
        run_cairn(home, ["ingest", str(args.case / "notes")])
    run_cairn(home, ["chat", "--message", "hello", "--json", "--new"])  # the classifier, trained once
    ask_cpu, ask_wall = [], []
    chat: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in turns}
    for r in range(args.rounds):
        for i, (kind, msg) in enumerate(turns.items()):
            c, w = _run(home, ["ask", ASKS[(r + i) % len(ASKS)]])
            ask_cpu.append(c)
            ask_wall.append(w)
            c, w = _run(home, ["chat", "--message", msg, "--json"])
            chat[kind][0].append(c)
            chat[kind][1].append(w)
    ac, aw = statistics.median(ask_cpu), statistics.median(ask_wall)
    print(f"cold `cairn ask`: CPU {ac:.2f} s, wall {aw:.2f} s (median of {len(ask_cpu)})")
    all_c = [x for c, _ in chat.values() for x in c]
    all_w = [x for _, w in chat.values() for x in w]
    for kind, (c, w) in chat.items():
        mc, mw = statistics.median(c), statistics.median(w)
        print(f"chat {kind:10}: CPU {mc:.2f} s ({mc / ac:.2f}x), wall {mw:.2f} s ({mw / aw:.2f}x)")
    mc, mw = statistics.median(all_c), statistics.median(all_w)
    print(f"chat, all kinds : CPU {mc:.2f} s ({mc / ac:.2f}x), wall {mw:.2f} s ({mw / aw:.2f}x) (median of {len(all_c)})")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
