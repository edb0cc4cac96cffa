#!/usr/bin/env python3
"""Why answerable LoCoMo questions are declined: the check that declined each, by category and half.

    python bench/answers_declines.py bench/out/replay.pkl [--conversations 1,2] [--show]

Re-runs `answer_question` on the inputs `bench/answers_replay.py collect` recorded (the code as it is now) and, for every
declined question of categories 1-4, names the check from its first problem (`CHECKS`: the person check's three
reasons, focus.py's thing never said, the premise, polarity, no supporting sentence, no evidence over the floor;
"other" keeps the problem's first words). It also says whose message LoCoMo's gold turn is, for person-check declines
("gold by the person" is a decline the check should not have made; "gold by the other only" is the data set's own
misattribution). --show lists each question. Prints to stdout only.
"""

from __future__ import annotations

import argparse
import pickle
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import table  # noqa: E402

CHECKS = ((r"is from .*, not ", "person check: the evidence is from someone else"),
          (r"said of someone else", "person check: key terms said only of someone else"),
          (r"evidence about this is not about", "person check: the evidence is not about the person"),
          (r"never said of", "focus: a thing named never said of the person"),
          (r"never mention", "premise: a name no message holds"),
          (r"where the question says", "polarity: the evidence says the opposite"),
          (r"no supporting sentence", "no supporting sentence"),
          (r"relevance floor", "no evidence over the floor"),
          (r"chit-chat", "chit-chat"))
HALF = {1: "tune", 2: "tune", 3: "held", 4: "held", 5: "held"}


def check_of(problem: str) -> str:
    """The check that declined, read from the answer's first problem (CHECKS), else 'other: <its first words>'."""
    return next((name for pattern, name in CHECKS if re.search(pattern, problem)), "other: " + problem[:50])


def speakers() -> dict[tuple[int, str], str]:
    """{(conversation 1-5, dia_id): speaker} of the LoCoMo file."""
    from locomo import load_samples
    _, samples = load_samples()
    return {(i, m["dia_id"]): m["speaker"] for i, s in enumerate(samples, 1) for key, msgs in s["conversation"].items()
            if key.startswith("session_") and isinstance(msgs, list) for m in msgs}


def declines(path: Path, conversations: set[int] | None, show: bool) -> Counter:
    """Count the declined questions of categories 1-4 by (half, category, check, whose gold); print the tables."""
    from answers_replay import DROPPED
    from cairn.answer import answer_question
    from cairn.embed import get_embedder
    embedder = get_embedder()
    with open(path, "rb") as fh:
        records = [r for r in pickle.load(fh) if r["category"] != 5 and r["inputs"]
                   and (not conversations or r["conversation"] in conversations)]
    who = speakers()
    counts: Counter = Counter()
    for r in records:
        ans = answer_question(r["question"], r["inputs"]["hits"], embedder, None,
                              **{k: v for k, v in r["inputs"].items() if k not in DROPPED})
        if ans.verdict != "abstain":
            continue
        check = check_of(ans.problems[0] if ans.problems else "")
        gold = ""
        if check.startswith("person check") and ans.answerability:
            said = {who.get((r["conversation"], g)) for g in r["evidence"]}
            gold = "gold by the person" if ans.answerability["person"] in said else "gold by the other only"
        counts[(HALF[r["conversation"]], r["category"], check, gold)] += 1
        if show:
            print(f"  {HALF[r['conversation']]} | cat {r['category']} | {check[:40]:40} | {r['question'][:70]}")
    total = Counter(HALF[r["conversation"]] for r in records)
    rows = [[h, c, k, g, n] for (h, c, k, g), n in sorted(counts.items())]
    print(table(["half", "category", "check", "person check: gold", "declined"], rows, "lrllr"))
    by_check = Counter()
    for (h, _, k, _), n in counts.items():
        by_check[(h, k)] += n
    print(table(["half", "check", "declined", "share of answerable"],
                [[h, k, n, f"{n / total[h]:.3f}"] for (h, k), n in sorted(by_check.items())], "llrr"))
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", help="bench/answers_replay.py collect's pickle")
    ap.add_argument("--conversations", default="", metavar="I,J")
    ap.add_argument("--show", action="store_true", help="list each declined question")
    args = ap.parse_args(argv)
    if not Path(args.file).is_file():
        ap.error(f"no such file: {args.file}")
    try:
        convs = {int(x) for x in args.conversations.split(",") if x.strip()} or None
    except ValueError:
        ap.error(f"--conversations takes numbers 1-5 separated by commas, not {args.conversations!r}")
    declines(Path(args.file), convs, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
