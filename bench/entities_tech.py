"""Technology names (cairn.graph.tech, entity kind "technology"): precision and recall of each
cue family and of all three, on sentences generated here.

Tool names are invented (syllables joined at random, capitalised or lower-case, some with a
dotted suffix such as ".js"), so no list of known tools can help; they sit in the sentence
shapes notes use (a version after the name, a tool noun after it, a verb of use before it).
Distractors use the same shapes with things that are not tools: places after "moved to",
people after "met", "Chapter 3.2", familiar words before nouns ("the phone app"), "written
in haste". Gold: every invented tool name, and nothing else.

    python bench/entities_tech.py [--sentences 300] [--seed 11]

Prints, for each cue family alone and for all of them: precision, recall.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

SYL = ["ka", "vel", "tor", "mi", "bran", "dol", "rue", "sen", "ost", "ar", "lin", "qua", "fey", "dro",
       "hal", "bri", "nek", "zan", "pel", "wick", "thu", "ilo", "gen", "sab"]
TOOL_SHAPES = {
    "version": ["We upgraded {t} {v} on the build box.", "The server still runs {t} {v} for now."],
    "noun": ["The {t} library handles the parsing.", "She set up the {t} database yesterday.",
             "Our {t} linter flags unused imports."],
    "verb": ["The worker is written in {T}.", "Last month we migrated to {T} for the queue.",
             "I installed {t} on the laptop.", "The dashboard is built with {T}."],
}
DISTRACTORS = ["We moved to Lisbon in May.", "I met Ilse Brandvold at the station.", "Read chapter 3.2 tonight.",
               "Open the phone app and the mail server.", "The letter was written in haste.",
               "She is built with patience.", "We switched to plan B after lunch.", "See page 4.1 of the form.",
               "Use the new app on your phone.", "I was using the car all day.", "The Garden Society met on Tuesday.",
               "Installed shelves in the shed.", "Our weekly review runs on Mondays."]


def tool_name(rng: random.Random) -> tuple[str, str]:
    """(as written mid-sentence, as written after a verb cue)."""
    base = "".join(rng.choice(SYL) for _ in range(rng.randint(2, 3)))
    if rng.random() < 0.25:
        base += rng.choice([".js", "DB", "QL", "-cli"])
    cap = base[0].upper() + base[1:]
    return (cap if rng.random() < 0.6 else base), cap


def corpus(n: int, seed: int) -> list[tuple[str, str, set[str]]]:
    """(family or "distractor", sentence, gold names)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 4 == 3:
            out.append(("distractor", rng.choice(DISTRACTORS), set()))
            continue
        family = rng.choice(list(TOOL_SHAPES))
        t, T = tool_name(rng)
        shape = rng.choice(TOOL_SHAPES[family])
        v = f"{rng.randint(1, 20)}.{rng.randint(0, 12)}"
        name = T if "{T}" in shape else t
        out.append((family, shape.format(t=t, T=T, v=v), {name}))
    return out


def only(family: str):
    """technology_names with the other cue families switched off (their patterns never match)."""
    import cairn.graph.tech as tech
    never = re.compile(r"(?!x)x")
    saved = (tech._VERSION, tech._NOUN, tech._CUE)
    keep = {"version": tech._VERSION, "noun": tech._NOUN, "verb": tech._CUE}
    def run(text: str) -> list[str]:
        tech._VERSION, tech._NOUN, tech._CUE = (keep[k] if k == family or family == "all" else never
                                                for k in ("version", "noun", "verb"))
        try:
            return tech.technology_names(text)
        finally:
            tech._VERSION, tech._NOUN, tech._CUE = saved
    return run


def score(rows, find) -> tuple[float, float]:
    tp = fp = fn = 0
    for _, text, gold in rows:
        got = set(find(text))
        tp += len(got & gold)
        fp += len(got - gold)
        fn += len(gold - got)
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sentences", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    rows = corpus(args.sentences, args.seed)
    print(f"{len(rows)} sentences ({sum(1 for r in rows if r[0] == 'distractor')} distractors), seed {args.seed}")
    for family in ("version", "noun", "verb", "all"):
        p, r = score(rows, only(family))
        print(f"{family:8} precision {p:.3f}  recall {r:.3f}")


if __name__ == "__main__":
    main()
