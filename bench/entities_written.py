"""Entities on an invented vault: precision and recall of `cairn entities` for people, with
and without the written-form names (cairn.ner_written), in one run.

The vault is generated here: people with made-up names (syllables joined at random, so no
model has seen them) in the sentence shapes notes use ("X leads the Y team", "met X",
"my colleague X", list items, long notes where the name lies past spaCy's window), and
distractors: familiar capitalised words at sentence starts, places, months, products.
Gold: every generated person must come out with kind "person"; nothing else may.

    python bench/entities_written.py [--notes 40] [--seed 7] [--off ner_written.DICTIONARY_NOUNS]

Prints, for spaCy alone (written names off) and for spaCy + written names: person precision,
person recall, and the made-up names found at all (any kind); and (session 17, review3 M7)
the entities of any kind that are a common word of a distractor sentence ("He", "be",
"Bread", "Lunch", "Occurrences": a pronoun, a price line, a label), and the made-up
organisations ("Velmi Labs", "Torsen Ltd") filed as people.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

SYL = ["ka", "vel", "tor", "mi", "bran", "dol", "rue", "sen", "ost", "ar", "lin", "qua", "fey", "dro",
       "hal", "bri", "nek", "ou", "zan", "pel", "wick", "mar", "thu", "ilo", "gen", "sab"]
SHAPES = [
    "{p} leads the {g} team.", "Yesterday I met {p} at the {place} office.", "My colleague {p} sent the draft.",
    "{p} said the budget is fine.", "Call {p} about the invoice.", "The review was run by {p}.",
    "- {p}: owns the release checklist", "We had lunch with {p} and {q}.", "{p} manages the {g} group.",
    "{p} works at {o}.",
]
DISTRACT = ["Ads are running on three channels.", "Cork boards hold the plan.", "Rose bushes need pruning in March.",
            "Budget review on Monday.", "Paper, Ink and Glue are on the list.", "The Kettle Pro 2 arrived.",
            "We drove to Lisbon in May.", "Mark the dates in the calendar.", "Will this fit in the van?",
            # review3 M7 shapes: a pronoun before a person verb, price lines, a measure, a label
            "He said the budget is fine.", "Bread 1.20\nMilk 0.95\nExtra 2.00\nTOTAL £4.15",
            "The pressure should be 1.5 bar.", "Lunch was long.", "Occurrences (first year):",
            # session 29 (sources29): a contraction, a rarer noun first in its sentence before a person verb
            "Don't forget the forms.", "Dentist said to floss more.", "Plumber rang about the boiler."]
ORG_HEADS = ["Labs", "Ltd", "Studio", "Foundation"]
GROUPS = ["data", "design", "platform", "support", "finance"]
PLACES = ["Harbour", "Northgate", "Quayside"]


def name(rng: random.Random) -> str:
    def word() -> str:
        return "".join(rng.choice(SYL) for _ in range(rng.choice((2, 3)))).capitalize()
    return f"{word()} {word()}" if rng.random() < 0.7 else word()


ORGS: set[str] = set()  # made-up organisations written into the vault (make_vault)


def make_vault(root: Path, n_notes: int, seed: int) -> set[str]:
    rng = random.Random(seed)
    people: set[str] = set()
    for i in range(n_notes):
        lines = []
        if i % 3 == 0:  # a long opening: names past spaCy's window
            lines += [rng.choice(DISTRACT) + " " + "The shared printer sits by the window. " * 8]
        for _ in range(4):
            p, q = name(rng), name(rng)
            shape = rng.choice(SHAPES)
            o = f"{name(rng).split()[0]} {rng.choice(ORG_HEADS)}"
            if "{o}" in shape:
                ORGS.add(o)
            lines.append(shape.format(p=p, q=q, o=o, g=rng.choice(GROUPS), place=rng.choice(PLACES)))
            people.add(p)
            if "{q}" in shape:
                people.add(q)
            lines.append(rng.choice(DISTRACT))
        (root / f"note-{i:03d}.md").write_text(f"# Note {i}\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return people


def measure(vault: Path, people: set[str], written: bool) -> dict:
    from cairn.graph import extract as X
    from cairn.embed import get_embedder
    from cairn.service import Cairn
    saved = (X.add_written, X.add_ner)
    if not written:
        X.add_written = lambda *a, **k: None
        X.add_ner = lambda found, unit, ents, text="": saved[1](found, unit, ents)
    try:
        with tempfile.TemporaryDirectory() as home:
            with Cairn(home, embedder=get_embedder()) as app:
                app.ingest([vault])
                ents = app.entities()
    finally:
        X.add_written, X.add_ner = saved
    persons = {e["name"] for e in ents if e["kind"] == "person"}
    names = {e["name"] for e in ents}
    tp = len(persons & people)
    common = {w.lower().strip(".,:()") for d in DISTRACT for w in d.split()} - {"lisbon"}
    junk = sorted(n for n in names if n.lower() in common)
    return {"common_words": junk, "orgs_as_persons": sorted(persons & ORGS),"person_precision": tp / len(persons) if persons else 0.0,
            "person_recall": tp / len(people), "found_any_kind": len(names & people) / len(people),
            "persons": len(persons), "false_persons": sorted(persons - people)[:8]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--off", action="append", default=[], help="MODULE.SWITCH set False, e.g. ner_written.DICTIONARY_NOUNS")
    args = ap.parse_args()
    import importlib
    for switch in args.off:
        mod, name = switch.rsplit(".", 1)
        setattr(importlib.import_module("cairn." + mod), name, False)
    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "vault"
        vault.mkdir()
        people = make_vault(vault, args.notes, args.seed)
        print(f"invented vault: {args.notes} notes, {len(people)} made-up people")
        for label, written in (("spaCy only", False), ("spaCy + written names", True)):
            r = measure(vault, people, written)
            print(f"{label:24} person precision {r['person_precision']:.3f}  recall {r['person_recall']:.3f}  "
                  f"made-up names found (any kind) {r['found_any_kind']:.3f}  persons {r['persons']}  "
                  f"e.g. wrong: {r['false_persons']}")
            print(f"{'':24} common words as entities {len(r['common_words'])} {r['common_words'][:12]}  "
                  f"organisations as persons {len(r['orgs_as_persons'])} of {len(ORGS)}")


if __name__ == "__main__":
    main()
