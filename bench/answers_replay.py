#!/usr/bin/env python3
"""Replay LoCoMo answers offline: collect what `Cairn.ask` hands the answerer once, then
re-run `answer_question` over it as often as needed (seconds instead of minutes a variant).

    python bench/answers_replay.py collect bench/out/replay.pkl      # all five dev conversations
    python bench/answers_replay.py score bench/out/replay.pkl        # tune (1-2) / held out (3-5) / all
    python bench/answers_replay.py ranks bench/out/replay.pkl        # where the gold message ranks
    python bench/answers_replay.py causes bench/out/replay.pkl       # why citations are not all gold (tune)
    python bench/answers_replay.py ceiling bench/out/replay.pkl      # the figures if retrieval put gold first (tune)
    python bench/answers_replay.py dump bench/out/replay.pkl OUT [--typed-cache F]   # every answer, for `compare`
    python bench/answers_replay.py compare BEFORE AFTER             # answers that differ between two dumps

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

# Recorded arguments the answerer no longer takes (unknown_terms: gone in session 16), and
# those the replay sets itself.
DROPPED = ("hits", "model_check", "unknown_terms")  # model_check: the answer check, gone in session 21
HALVES = (("tune (conv-26, conv-30)", {1, 2}), ("held out (conv-41/42/43)", {3, 4, 5}), ("all", {1, 2, 3, 4, 5}))


def collect(out: Path, conversations: set[int] | None, k: int = 8, search: dict | None = None) -> None:
    """Ask every question through Cairn.ask (`k` hits), recording answer_question's inputs.
    search: settings to set in every conversation's home first, [search] unless the name says
    its section ({"context_weight": 0.3, "memory.neighbour_keys": 0.0}: a variant of what `ask`
    retrieves; the top 20 recorded is then that search's too)."""
    import dataclasses
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
                for name, value in (search or {}).items():  # "context_weight" or "memory.neighbour_keys"
                    section, _, key = name.rpartition(".")
                    section = section or "search"
                    app.settings = dataclasses.replace(app.settings, **{section: dataclasses.replace(
                        getattr(app.settings, section), **{key: value})})
                app.import_chat(chat)
                app.ask("warm-up question", llm="none")
                for q in pick_questions(sample, 0, 7):
                    seen.clear()
                    ans = app.ask(q["question"], llm="none", k=k)
                    top = app.search(q["question"], k=20, group=False).hits
                    records.append({**q, "conversation": i, "inputs": seen[0] if seen else None,
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
        kw = {k: v for k, v in inp.items() if k not in DROPPED}  # recorded since judge13
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


def score(path: Path, conversations: set[int] | None = None) -> list[dict]:
    """Replay and print the figures per half; `conversations`: only those (e.g. {1, 2}, the
    tune half, so that a variant is measured without looking at the held-out half)."""
    with open(path, "rb") as fh:
        records = [r for r in pickle.load(fh) if not conversations or r["conversation"] in conversations]
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
    print(f"gold among the hits ask handed over (answerable questions with evidence): {reach(records)}")


def reach(records: list[dict]) -> str:
    """Where the gold turn stands among the hits `ask` handed the answerer, over the records of
    categories 1-4 with evidence: at hit 1 / among the first MAX_EVIDENCE / among all hits."""
    from cairn.answer import MAX_EVIDENCE
    rows = [r for r in records if r["category"] != 5 and r["evidence"] and r["inputs"]]
    at = [next((i for i, h in enumerate(r["inputs"]["hits"]) if h.source_id in set(r["evidence"])), None)
          for r in rows]
    n = len(rows) or 1
    one, kept, any_ = (sum(i is not None and i < c for i in at) for c in (1, MAX_EVIDENCE, 10 ** 6))
    return (f"hit 1 {one}/{len(rows)} ({one / n:.3f}), first {MAX_EVIDENCE} {kept} ({kept / n:.3f}), "
            f"any {any_} ({any_ / n:.3f})")


CAUSES = ("extra citation beside a gold one", "cited turn states the reference answer too",
          "wrong answer: gold turn not among the hits", "wrong answer: gold turn under the relevance floor",
          "wrong answer: gold turn a hit past MAX_EVIDENCE (over the floor, ranked after the kept ones)",
          "wrong answer: gold follows the cited turn (same session, <= 3 turns later)",
          "wrong answer: gold precedes the cited turn (same session, <= 3 turns before)",
          "wrong answer: gold turn elsewhere in the evidence")


def cause_of(r: dict, turns: dict[str, str], reference: str) -> str:
    """Why an answered question's citations are not all gold (one of CAUSES, first that holds;
    a gold hit left out of the evidence is "under the floor" only when its relevance is: else
    the answerer's MAX_EVIDENCE cut it).
    turns: {dia_id: text} of its conversation; reference: LoCoMo's answer. "States the answer":
    the cited turns hold at least half of the reference's content words (stemmed)."""
    from cairn.answer import relevance, select_evidence
    from cairn.lexical import content_terms, stem
    cited, gold = r["now"]["cited"], set(r["evidence"])
    if set(cited) & gold:
        return CAUSES[0]
    ref = {stem(w) for w in content_terms(reference)}
    said = {stem(w) for c in cited for w in content_terms(turns.get(c, ""))}
    if ref and len(ref & said) >= len(ref) / 2:
        return CAUSES[1]
    inp = r["inputs"]
    if not gold & {h.source_id for h in inp["hits"]}:
        return CAUSES[2]
    if not gold & {e.hit.source_id for e in select_evidence(r["question"], inp["hits"], inp["floor"])}:
        over = any(h.source_id in gold and relevance(r["question"], h) >= inp["floor"] for h in inp["hits"])
        return CAUSES[4] if over else CAUSES[3]

    def turn(d: str) -> tuple[int, int]:
        s, t = d[1:].split(":")
        return int(s), int(t)
    gaps = [turn(g)[1] - turn(c)[1] for c in cited for g in gold if turn(g)[0] == turn(c)[0]]
    if any(0 < d <= 3 for d in gaps):
        return CAUSES[5]
    return CAUSES[6] if any(-3 <= d < 0 for d in gaps) else CAUSES[7]


def causes(path: Path, conversations: set[int]) -> None:
    """Count and list the answered questions of categories 1-4 whose citations are not all
    gold, by cause (cause_of), over `conversations` (the tune half by default)."""
    from locomo import load_samples
    with open(path, "rb") as fh:
        records = [r for r in pickle.load(fh) if r["conversation"] in conversations]
    replay(records)
    _, samples = load_samples()
    turns, refs = {}, {}
    for i, sample in enumerate(samples, 1):
        conv = sample["conversation"]
        turns[i] = {m["dia_id"]: str(m.get("text") or "") for key, msgs in conv.items()
                    if key.startswith("session_") and isinstance(msgs, list) for m in msgs}
        refs.update({f"{sample['sample_id']}:{j}": str(qa.get("answer", "")) for j, qa in enumerate(sample["qa"])})
    answered = [r for r in records if r["category"] != 5 and not r["now"]["abstain"] and r["evidence"]]
    bad = [r for r in answered if not (r["now"]["cited"] and set(r["now"]["cited"]) <= set(r["evidence"]))]
    by: dict[str, list[dict]] = {c: [] for c in CAUSES}
    for r in bad:
        by[cause_of(r, turns[r["conversation"]], refs.get(r["id"], ""))].append(r)
    header(f"Citations not all gold: {len(bad)} of {len(answered)} answered (conversations "
           f"{','.join(map(str, sorted(conversations)))})")
    print(table(["cause", "n", "of which temporal (cat 2)"],
                [[c, len(rs), sum(r["category"] == 2 for r in rs)] for c, rs in by.items()], "lrr"))
    for c, rs in by.items():
        for r in rs:
            print(f"  {c[:40]:40} | {r['id']:11} | cat {r['category']} | {r['question'][:70]} | cited "
                  f"{','.join(r['now']['cited'])} | gold {','.join(r['evidence'])}")


def gold_first(r: dict, margin: float) -> dict | None:
    """A record's recorded answerer inputs with its first gold hit moved to the front, its fused
    score `margin` over the best hit's; unchanged (the same dict) for category 5, a record
    without inputs, or one whose gold turn is not among the hits or already first."""
    import dataclasses
    inp = r["inputs"]
    if not inp or r["category"] == 5:
        return inp
    hits = list(inp["hits"])
    at = next((i for i, h in enumerate(hits) if h.source_id in set(r["evidence"])), None)
    if not at:
        return inp
    first = dataclasses.replace(hits[at], score=hits[0].score + margin)
    return {**inp, "hits": [first] + hits[:at] + hits[at + 1:]}


def ceiling(path: Path, conversations: set[int], margins: tuple[float, ...] = (0.01, 0.1, 0.3)) -> None:
    """What a retrieval that ranks the gold turn first among the hits `ask` handed over would
    give: for each answerable question whose gold turn is among its hits, that hit moved to the
    front with a fused score `margin` over the best one (the answerer's HIT_PRIOR reads the
    gap), everything else as recorded; the figures of `score` per margin (conversations: the
    tune half by default). An upper bound for what reordering the same hits can do."""
    with open(path, "rb") as fh:
        records = [r for r in pickle.load(fh) if r["conversation"] in conversations]
    rows = [["as collected"] + figures(replay(records))]
    for margin in margins:
        moved = [{**r, "inputs": gold_first(r, margin)} for r in records]
        rows.append([f"gold hit first, margin {margin}"] + figures(replay(moved)))
    print(table(["hits", "cat 5 declined", "cat 1-4 wrongly declined", "all gold (answered)", "one gold (answered)"],
                rows, "lrrrr"))


def dump(path: Path, typed_cache: Path | None, out: Path) -> None:
    """Every answer (verdict, text, cited sources, checks, problems, person check) of the replay's
    questions and of a typed cache's (bench/answers_ablation.py --typed-cache) with the code as it
    is, pickled to `out` keyed by question: `compare` two dumps to show a refactor changes nothing."""
    from cairn.answer import answer_question
    from cairn.embed import get_embedder
    embedder = get_embedder()

    def key(a):
        return (a.verdict, a.answer, tuple(c.get("source_id") for c in a.citations), repr(a.checks),
                tuple(a.problems), repr(a.answerability))
    with open(path, "rb") as fh:
        runs = [(("locomo", r["id"]), r["question"], r["inputs"]["hits"], None,
                 {k: v for k, v in r["inputs"].items() if k not in DROPPED}) for r in pickle.load(fh) if r["inputs"]]
    if typed_cache:
        with open(typed_cache, "rb") as fh:
            runs += [(("typed", i, r["inputs"][0]), r["inputs"][0], r["inputs"][1], r["inputs"][3],
                      {k: v for k, v in r["inputs"][4].items() if k not in DROPPED}) for i, r in enumerate(pickle.load(fh))]
    answers = {name: key(answer_question(q, hits, embedder, llm, **kw)) for name, q, hits, llm, kw in runs}
    with open(out, "wb") as fh:
        pickle.dump(answers, fh)
    print(f"{len(answers)} answers written to {out}")


def compare(a: Path, b: Path) -> int:
    """Print how many answers of dump `a` differ in dump `b` (and the first ten); 1 if any do."""
    with open(a, "rb") as fh:
        old = pickle.load(fh)
    with open(b, "rb") as fh:
        new = pickle.load(fh)
    diff = [k for k in old if old[k] != new.get(k)]
    print(f"{len(diff)} of {len(old)} answers differ")
    for k in diff[:10]:
        print(f"  {k}: {old[k][:2]} -> {new.get(k, (None, None))[:2]}")
    return 1 if diff else 0


def set_constant(item: str, fail) -> None:
    """Set a constant of cairn.answer from "NAME=VALUE" or "MODULE.NAME=VALUE" (a module of cairn.answer; VALUE a Python
    literal), for measuring a variant. A name that is no such constant calls `fail(message)` (argparse's `error`)."""
    import ast
    import importlib
    name, _, value = item.partition("=")
    module, _, attr = name.strip().rpartition(".")
    try:
        mod = importlib.import_module("cairn.answer" + (f".{module}" if module else ""))
    except ImportError:
        mod = None
    if mod is None or not hasattr(mod, attr):
        return fail(f"--set: cairn.answer{'.' + module if module else ''} has no constant {attr!r}")
    setattr(mod, attr, ast.literal_eval(value))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("collect", "score", "ranks", "causes", "ceiling", "dump", "compare"))
    ap.add_argument("file")
    ap.add_argument("out", nargs="?", help="dump: the file written; compare: the second dump")
    ap.add_argument("--typed-cache", help="dump: also the typed questions recorded there (answers_ablation.py)")
    ap.add_argument("--conversations", default="", metavar="I,J")
    ap.add_argument("--k", type=int, default=8, help="collect: the hits `ask` retrieves (its k; default 8)")
    ap.add_argument("--search", action="append", default=[], metavar="NAME=VALUE",
                    help="collect: a setting of every home, [search] unless SECTION.NAME "
                         "(context_weight=0.3, memory.neighbour_keys=0.0)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="score/causes: set a constant of cairn.answer (or of its MODULE.NAME) first "
                         "(REPLY_CONTEXT=False, types.KIND_FREE=False)")
    args = ap.parse_args(argv)
    import ast

    for item in args.set:
        set_constant(item, ap.error)
    t0 = time.perf_counter()
    convs = {int(x) for x in args.conversations.split(",") if x.strip()} or None
    if args.action in ("dump", "compare") and not args.out:
        ap.error(f"{args.action} needs a second file")
    for need in [args.file] + ([args.out] if args.action == "compare" else []) + ([args.typed_cache] if args.typed_cache else []):
        if args.action != "collect" and not Path(need).is_file():
            ap.error(f"no such file: {need}")
    if args.action == "compare":
        return compare(Path(args.file), Path(args.out))
    if args.action == "collect":
        search = {}
        for item in args.search:
            name, _, value = item.partition("=")
            search[name] = ast.literal_eval(value)
        collect(Path(args.file), convs, args.k, search)
    elif args.action == "score":
        score(Path(args.file), convs)
    elif args.action == "causes":
        causes(Path(args.file), convs or {1, 2})
    elif args.action == "dump":
        dump(Path(args.file), Path(args.typed_cache) if args.typed_cache else None, Path(args.out))
    elif args.action == "ceiling":
        ceiling(Path(args.file), convs or {1, 2})
    else:
        ranks(Path(args.file))
    print(f"total time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
