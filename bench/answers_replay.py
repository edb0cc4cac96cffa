#!/usr/bin/env python3
"""Replay LoCoMo answers offline: collect what `Cairn.ask` hands the answerer once, then
re-run `answer_question` over it as often as needed (seconds instead of minutes a variant).

    python bench/answers_replay.py collect bench/out/replay.pkl      # all five dev conversations
    python bench/answers_replay.py score bench/out/replay.pkl        # tune (1-2) / held out (3-5) / all
    python bench/answers_replay.py ranks bench/out/replay.pkl        # where the gold message ranks

`collect` imports each conversation as bench/answers.py does and asks every question of
categories 1-5 through `Cairn.ask`, recording the exact arguments `_ask` passes to
`cairn.answer.answer_question` (hits, context hits, unknown names and terms, floor) and,
for the rank analysis, the top 20 of the same hybrid search (`group=False`). `score` calls
`answer_question` again on those inputs with the code as it now is and prints, per half
(**tune** = conversations 1-2, conv-26 and conv-30; **held out** = 3-5, conv-41/42/43) and
overall, the figures of bench/answers.py: category-5 declined, categories 1-4 wrongly
declined, and among answered answerable questions with valid evidence the share whose
citations are all gold and the share with at least one gold citation. The replay is
exact for the extractive path (`--llm none`): only the answerer's own code changes.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, table, write_jsonl  # noqa: E402

HALVES = (("tune (conv-26, conv-30)", {1, 2}), ("held out (conv-41/42/43)", {3, 4, 5}), ("all", {1, 2, 3, 4, 5}))


def collect(out: Path, conversations: set[int] | None) -> None:
    """Ask every question through Cairn.ask, recording answer_question's inputs."""
    import cairn.answer as A
    from locomo import chat_rows, load_samples
    from locomo_ask import pick_questions
    from cairn.service import Cairn
    _, samples = load_samples()
    real = A.answer_question
    seen: list[dict] = []

    def spy(question, hits, embedder, llm=None, **kw):
        seen.append({"hits": hits, **kw})
        return real(question, hits, embedder, llm, **kw)

    A.answer_question = spy
    records = []
    with tempfile.TemporaryDirectory(prefix="cairn-replay-") as tmp:
        for i, sample in enumerate(samples, 1):
            if conversations and i not in conversations:
                continue
            chat = Path(tmp) / f"{sample['sample_id']}.jsonl"
            write_jsonl(chat, chat_rows(sample))
            with Cairn(Path(tmp) / f"home-{i}") as app:
                app.import_chat(chat)
                app.ask("warm-up question", llm="none")
                for q in pick_questions(sample, 0, 7):
                    seen.clear()
                    ans = app.ask(q["question"], llm="none")
                    top = app.search(q["question"], k=20, group=False).hits
                    records.append({**q, "conversation": i, "inputs": seen[-1] if seen else None,
                                    "top20": top, "cited": [c.get("source_id") for c in ans.citations],
                                    "verdict": ans.verdict})
            print(f"  conversation {i}: collected", file=sys.stderr, flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        pickle.dump(records, fh)
    print(f"{len(records)} questions written to {out}")


def replay(records: list[dict]) -> list[dict]:
    """answer_question again on every record's inputs (the code as it is now)."""
    from cairn.answer import answer_question
    from cairn.embed import get_embedder
    embedder = get_embedder()
    for r in records:
        inp = r["inputs"]
        if inp is None:  # declined before the answerer (never happens for chat questions)
            r["now"] = {"abstain": r["verdict"] == "abstain", "cited": r["cited"]}
            continue
        kw = {k: v for k, v in inp.items() if k != "hits"}
        ans = answer_question(r["question"], inp["hits"], embedder, None, **kw)
        r["now"] = {"abstain": ans.verdict == "abstain", "cited": [c.get("source_id") for c in ans.citations],
                    "answer": ans.answer}
    return records


def figures(records: list[dict], key: str = "now") -> list:
    """[cat5 declined, cat1-4 wrongly declined, all gold, one gold] (as 'x.xxx (n/d)')."""
    def share(n, d):
        return f"{n / d:.3f} ({n}/{d})" if d else "-"
    c5 = [r for r in records if r["category"] == 5]
    ans = [r for r in records if r["category"] != 5]
    answered = [r for r in ans if not r[key]["abstain"] and r["evidence"]]
    allg = sum(bool(r[key]["cited"]) and all(c in r["evidence"] for c in r[key]["cited"]) for r in answered)
    oneg = sum(bool(set(r[key]["cited"]) & set(r["evidence"])) for r in answered)
    return [share(sum(r[key]["abstain"] for r in c5), len(c5)), share(sum(r[key]["abstain"] for r in ans), len(ans)),
            share(allg, len(answered)), share(oneg, len(answered))]


def score(path: Path) -> list[dict]:
    with open(path, "rb") as fh:
        records = pickle.load(fh)
    for r in records:
        r["then"] = {"abstain": r["verdict"] == "abstain", "cited": r["cited"]}
    replay(records)
    header(f"LoCoMo replay of {path}")
    rows = []
    for label, convs in HALVES:
        part = [r for r in records if r["conversation"] in convs]
        if part:
            rows.append([label + ", collected"] + figures(part, "then"))
            rows.append([label + ", now"] + figures(part, "now"))
    print(table(["set", "cat 5 declined", "cat 1-4 wrongly declined", "all gold (answered)", "one gold (answered)"],
                rows, "lrrrr"))
    from locomo_ask import CATEGORY_NAMES
    rows = []
    for cat in (1, 2, 3, 4):
        part = [r for r in records if r["category"] == cat]
        f = figures(part, "now")
        rows.append([f"{cat} {CATEGORY_NAMES[cat]}", len(part), f[1], f[2], f[3]])
    print(table(["category (all, now)", "n", "wrongly declined", "all gold", "one gold"], rows, "lrrrr"))
    return records


def ranks(path: Path) -> None:
    """For answered answerable questions citing no gold / not only gold: the gold's rank."""
    with open(path, "rb") as fh:
        records = pickle.load(fh)
    buckets: dict[str, int] = {}
    for r in records:
        if r["category"] == 5 or r["verdict"] == "abstain" or not r["evidence"]:
            continue
        gold = set(r["evidence"])
        cited = set(r["cited"])
        kind = "all gold" if cited <= gold else ("some gold" if cited & gold else "no gold")
        ids = [h.source_id for h in r["top20"]]
        rank = next((i + 1 for i, s in enumerate(ids) if s in gold), None)
        where = "none in 20" if rank is None else ("1" if rank == 1 else "2-3" if rank <= 3 else
                                                   "4-8" if rank <= 8 else "9-20")
        key = f"{kind:9} | cites {min(len(cited), 3)}{'+' if len(cited) >= 3 else ''} | gold rank {where}"
        buckets[key] = buckets.get(key, 0) + 1
    print(table(["bucket", "n"], [[k, v] for k, v in sorted(buckets.items())], "lr"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("collect", "score", "ranks"))
    ap.add_argument("file")
    ap.add_argument("--conversations", default="", metavar="I,J")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    convs = {int(x) for x in args.conversations.split(",") if x.strip()} or None
    if args.action == "collect":
        collect(Path(args.file), convs)
    elif args.action == "score":
        score(Path(args.file))
    else:
        ranks(Path(args.file))
    print(f"total time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
