#!/usr/bin/env python3
"""Answer quality: abstention, citation precision, answer-span length and seconds per question.

    python bench/answers.py                                  # vault set + all LoCoMo dev conversations
    python bench/answers.py --only vault --llm none,embedded # the vault set, both answer paths
    python bench/answers.py --only locomo --conversations 1,2,3 --dump bench/out/a.jsonl
    python bench/answers.py --only locomo --cosine-only-misattribution   # the person check's old rule 1

Two sets, both asked in-process through `Cairn.ask` (the service `cairn ask` calls):

1. **vault** — bench/fixtures/answers_vault/ (ten short notes written for this bench) is
   ingested into a temp home, then the questions of bench/fixtures/answers_questions.jsonl
   are asked. Each has a `kind`: `answerable` (a `gold` note and an `expect` fragment the
   answer must hold), `offtopic` (general knowledge the notes do not hold), `chitchat`
   (greetings, thanks, noise) or `trick` (close to the notes, but not answered by them).
   Printed per kind: declined (verdict "abstain"), and for answerable questions: answered
   and right (holds `expect`), citation precision, answer span, seconds per question.
2. **locomo** — each LoCoMo dev conversation imported as in bench/locomo_ask.py (one home per
   conversation); every question of categories 1-5 asked. Printed per category: declined
   (for category 5 the goal, for 1-4 a wrong decline), and among answered answerable
   questions with valid evidence: **all gold** (every citation's source_id is an evidence
   message), **one gold** (at least one is), answer span and seconds per question.
   Per part too: conversations 1-2 (conv-26, conv-30: where rules are tuned since
   2026-12-02) and 3-5 (conv-41/42/43: held out); until then the split was 1-3 / 4-5.

Answer span = characters of the answer text without the citation markers "[n]". Seconds
per question = wall time of `Cairn.ask` (median and mean), the model's time included.
With `--llm a,b` every set runs once per answer path and a line compares the medians (the
default-model latency criterion of issue 13: default median <= 2x `--llm none`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT, header, table, write_jsonl  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"
KINDS = ("answerable", "offtopic", "chitchat", "trick")
HALVES = (("1-2 (tune: conv-26, conv-30)", {1, 2}), ("3-5 (held out: conv-41/42/43)", {3, 4, 5}))


def span(answer: str) -> int:
    """Characters of an answer without its citation markers."""
    return len(re.sub(r"\s*\[\d+\]", "", answer).strip())


def _ask(app, question: str, llm: str) -> tuple[object, float]:
    t0 = time.perf_counter()
    ans = app.ask(question, llm=llm)
    return ans, time.perf_counter() - t0


def _record(ans, secs: float) -> dict:
    return {"verdict": ans.verdict, "abstain": ans.verdict == "abstain", "answer": ans.answer,
            "mode": ans.mode, "fallback": ans.fallback, "problems": ans.problems, "secs": secs,
            "cited_ids": [c.get("source_id") for c in ans.citations],
            "cited_paths": [c.get("path") for c in ans.citations], "span": span(ans.answer)}


def _secs(recs: list[dict]) -> str:
    if not recs:
        return "-"
    s = [r["secs"] for r in recs]
    return f"{statistics.median(s):.2f} / {statistics.fmean(s):.2f}"


def _share(n: int, d: int) -> str:
    return f"{n / d:.3f} ({n}/{d})" if d else "-"


def run_vault(llm: str) -> list[dict]:
    """Ingest the fixture vault into a temp home and ask every fixture question."""
    from cairn.service import Cairn
    qs = [json.loads(line) for line in (FIXTURES / "answers_questions.jsonl").read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="cairn-answers-") as tmp, Cairn(Path(tmp) / "home") as app:
        app.ingest([FIXTURES / "answers_vault"])
        _ask(app, "warm-up question about the boiler", llm)  # load the models once, outside the timing
        for q in qs:
            ans, secs = _ask(app, q["question"], llm)
            q["rec"] = _record(ans, secs)
            _score_vault(q, q["rec"])
    return qs


def _score_vault(q: dict, rec: dict) -> None:
    gold = q.get("gold")
    paths = rec["cited_paths"]
    rec["all_gold"] = bool(gold and paths and all(p.endswith("/" + gold) for p in paths))
    rec["one_gold"] = bool(gold and any(p.endswith("/" + gold) for p in paths))
    rec["right"] = bool(q.get("expect") and not rec["abstain"] and q["expect"].lower() in rec["answer"].lower())


def _score_locomo(q: dict, rec: dict) -> None:
    gold = set(q["evidence"])
    ids = rec["cited_ids"]
    rec["all_gold"] = bool(gold and ids and all(c in gold for c in ids))
    rec["one_gold"] = bool(gold & set(ids))


def report_vault(qs: list[dict], llm: str) -> None:
    header(f"vault set ({len(qs)} questions, llm={llm})")
    rows = []
    for kind in KINDS:
        group = [q for q in qs if q["kind"] == kind]
        if not group:
            continue
        recs = [q["rec"] for q in group]
        answered = [r for r in recs if not r["abstain"]]
        declined = sum(r["abstain"] for r in recs)
        if kind == "answerable":
            rows.append([kind, len(group), _share(declined, len(group)), _share(sum(r["right"] for r in recs), len(group)),
                         _share(sum(r["all_gold"] for r in answered), len(answered)),
                         _share(sum(r["one_gold"] for r in answered), len(answered)),
                         f"{statistics.median([r['span'] for r in answered]):.0f}" if answered else "-", _secs(recs)])
        else:
            rows.append([kind, len(group), _share(declined, len(group)), "-", "-", "-",
                         f"{statistics.median([r['span'] for r in answered]):.0f}" if answered else "-", _secs(recs)])
    print(table(["kind", "n", "declined", "answered right", "all gold", "one gold", "span (median chars)",
                 "s/question (median / mean)"], rows, "lrrrrrrr"))
    off = [q for q in qs if q["kind"] in ("offtopic", "chitchat")]
    print(f"off-topic + chit-chat declined: {_share(sum(q['rec']['abstain'] for q in off), len(off))}")
    answered = [q for q in qs if not q["rec"]["abstain"]]
    llm_kept = sum(q["rec"]["mode"] == "llm" for q in answered)
    fell_back = sum(bool(q["rec"]["fallback"]) for q in qs)
    print(f"answers written by the model (its draft verified): {llm_kept} of {len(answered)} answered; "
          f"model drafts replaced by the extractive answer: {fell_back}")
    for q in qs:
        r = q["rec"]
        bad = (q["kind"] == "answerable" and not r["right"]) or (q["kind"] != "answerable" and not r["abstain"])
        if bad:
            print(f"  MISS {q['id']} {q['kind']:10} {q['question']!r} -> {r['answer'][:150]!r}")


def stratified(by_conv: dict[int, list[dict]], k: int, seed: int) -> set[str]:
    """Question ids of a stratified sample: per half (HALVES), `k` category-5 questions and
    `k` of categories 1-4 drawn with random.Random(f"{seed}:{half}") (k = 0: every
    category-5 question and as many of categories 1-4; k larger than a pool: all of it)."""
    chosen: set[str] = set()
    for label, convs in HALVES:
        pool = [q for c in sorted(convs) for q in by_conv.get(c, [])]
        five = [q["id"] for q in pool if q["category"] == 5]
        rest = [q["id"] for q in pool if q["category"] != 5]
        rng = random.Random(f"{seed}:{label}")
        n5 = len(five) if k == 0 else min(k, len(five))
        n = len(five) if k == 0 else k
        chosen |= set(rng.sample(five, n5)) | set(rng.sample(rest, min(n, len(rest))))
    return chosen


def run_locomo(llm: str, conversations: set[int] | None, per_half: int | None = None, seed: int = 13) -> list[dict]:
    """Every question of the chosen LoCoMo dev conversations, asked in one home each
    (`per_half`: only the questions of `stratified(..., per_half, seed)`)."""
    from locomo import chat_rows, load_samples
    from locomo_ask import pick_questions
    from cairn.service import Cairn
    _, samples = load_samples()
    out = []
    keep = None
    if per_half is not None:
        keep = stratified({i: pick_questions(s, 0, 7) for i, s in enumerate(samples, 1)}, per_half, seed)
    with tempfile.TemporaryDirectory(prefix="cairn-answers-locomo-") as tmp:
        for i, sample in enumerate(samples, 1):
            if conversations and i not in conversations:
                continue
            qs = [q for q in pick_questions(sample, 0, 7) if keep is None or q["id"] in keep]
            if not qs:
                continue
            chat = Path(tmp) / f"{sample['sample_id']}.jsonl"
            write_jsonl(chat, chat_rows(sample))
            with Cairn(Path(tmp) / f"home-{i}") as app:
                app.import_chat(chat)
                _ask(app, "warm-up question", llm)
                for q in qs:
                    ans, secs = _ask(app, q["question"], llm)
                    q["rec"] = _record(ans, secs)
                    _score_locomo(q, q["rec"])
                    q["conversation"] = i
            print(f"  conversation {i}: {len(qs)} questions asked", file=sys.stderr, flush=True)
            out.extend(qs)
    return out


def locomo_rows(qs: list[dict], label_prefix: str = "") -> list[list]:
    from locomo_ask import CATEGORY_NAMES
    groups = [(f"{c} {CATEGORY_NAMES[c]}", [q for q in qs if q["category"] == c]) for c in (1, 2, 3, 4, 5)]
    groups.insert(4, ("1-4 answerable", [q for q in qs if q["category"] != 5]))
    rows = []
    for label, group in groups:
        if not group:
            continue
        recs = [q["rec"] for q in group]
        declined = sum(r["abstain"] for r in recs)
        if label.startswith("5"):
            rows.append([label_prefix + label, len(group), _share(declined, len(group)), "-", "-", "-", _secs(recs)])
            continue
        answered = [q["rec"] for q in group if not q["rec"]["abstain"] and q["evidence"]]
        rows.append([label_prefix + label, len(group), _share(declined, len(group)),
                     _share(sum(r["all_gold"] for r in answered), len(answered)),
                     _share(sum(r["one_gold"] for r in answered), len(answered)),
                     f"{statistics.median([r['span'] for r in answered]):.0f}" if answered else "-", _secs(recs)])
    return rows


def report_locomo(qs: list[dict], llm: str) -> None:
    hdr = ["category", "n", "declined", "all gold (answered)", "one gold (answered)", "span (median chars)",
           "s/question (median / mean)"]
    header(f"LoCoMo dev, all conversations run (llm={llm})")
    print(table(hdr, locomo_rows(qs), "lrrrrrr"))
    for label, convs in HALVES:
        part = [q for q in qs if q["conversation"] in convs]
        if part:
            header(f"LoCoMo dev, conversations {label}")
            print(table(hdr, locomo_rows(part), "lrrrrrr"))
    why: dict[str, int] = {}
    for q in qs:
        if q["rec"]["abstain"]:
            key = ("cat5 " if q["category"] == 5 else "cat1-4 ") + _reason(q["rec"])
            why[key] = why.get(key, 0) + 1
    print("why declined: " + ", ".join(f"{k} {v}" for k, v in sorted(why.items(), key=lambda kv: -kv[1])))


def _reason(rec: dict) -> str:
    text = " ".join(rec["problems"][:1]) or rec["answer"]
    for key in ("chit-chat", "don't mention", "do not mention", "is from", "said of someone else",
                "never said of", "never mention", "says '", "no supporting sentence", "relevance floor"):
        if key in text:
            return key
    return text[:40]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("vault", "locomo"), help="run one set only")
    ap.add_argument("--llm", default="none", help="comma-separated answer paths: none,embedded,openai:... (default none)")
    ap.add_argument("--conversations", default="", metavar="I,J", help="LoCoMo conversations (1-based); default all")
    ap.add_argument("--dump", metavar="FILE", help="write every question's record as JSONL")
    ap.add_argument("--cosine-only-misattribution", action="store_true",
                    help="the person check's misattribution rule without its word agreement "
                         "(removed in session 26: an error now; the decision is learned)")
    ap.add_argument("--sample", type=int, metavar="K",
                    help="LoCoMo: a stratified sample per half (tune 1-2, held out 3-5): K category-5 questions "
                         "and K of categories 1-4 (0: every category-5 question and as many others)")
    ap.add_argument("--seed", type=int, default=13, help="seed of --sample (default 13)")
    args = ap.parse_args(argv)
    if args.cosine_only_misattribution:
        ap.error("--cosine-only-misattribution: the rule is gone; the person check's decision is learned since "
                 "session 26 (answer/answerability.py, bench/answerability_fit.py)")
    convs = {int(x) for x in args.conversations.split(",") if x.strip()} or None
    dumped: list[dict] = []
    medians: dict[str, tuple[float, float]] = {}
    t0 = time.perf_counter()
    for llm in [x.strip() for x in args.llm.split(",") if x.strip()]:
        secs: list[float] = []
        secs_answerable: list[float] = []  # where a draft is written: answerable questions
        if args.only in (None, "vault"):
            qs = run_vault(llm)
            report_vault(qs, llm)
            secs += [q["rec"]["secs"] for q in qs]
            secs_answerable += [q["rec"]["secs"] for q in qs if q["kind"] == "answerable"]
            dumped += [{"set": "vault", "llm": llm, **q} for q in qs]
        if args.only in (None, "locomo"):
            qs = run_locomo(llm, convs, args.sample, args.seed)
            report_locomo(qs, llm)
            secs += [q["rec"]["secs"] for q in qs]
            secs_answerable += [q["rec"]["secs"] for q in qs if q["category"] != 5]
            dumped += [{"set": "locomo", "llm": llm, **q} for q in qs]
        medians[llm] = (statistics.median(secs) if secs else 0.0,
                        statistics.median(secs_answerable) if secs_answerable else 0.0)
    if len(medians) > 1 and "none" in medians and min(medians["none"]) > 0:
        header("median seconds per question, by answer path (all questions / answerable ones)")
        base_all, base_ans = medians["none"]
        for llm, (m_all, m_ans) in medians.items():
            print(f"{llm:>10}: {m_all:.2f} s ({m_all / base_all:.1f}x --llm none) / "
                  f"{m_ans:.2f} s ({m_ans / base_ans:.1f}x --llm none)")
    if args.dump:
        OUT.mkdir(parents=True, exist_ok=True)
        write_jsonl(Path(args.dump), dumped)
        print(f"records written to {args.dump}")
    print(f"total time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
