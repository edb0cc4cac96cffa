#!/usr/bin/env python3
"""LoCoMo conversational memory: evidence hit@5 / hit@10 per question category and mode.

    python bench/locomo.py                          # all conversations, three modes
    python bench/locomo.py --limit-conversations 1  # quick run
    python bench/locomo.py --fusion rrf             # default: Cairn's own default fusion
    python bench/locomo.py --store-url postgresql://user@host/postgres   # the same on PostgreSQL

Each conversation of `locomo/locomo-dev.json` becomes a chat JSONL
(conversation=sample_id, session=session_N, id=dia_id, speaker, time, text) imported with
`cairn import chat` into its own temporary home. `time` is the session's `session_N_date_time`
("1:56 pm on 8 May, 2023") as ISO 8601, plus one minute per message to keep the order.
A shared image is appended to the text as "[image: <blip_caption>]" (--no-captions: text only).
The questions are written as a batch JSONL (id, query) and run with
`cairn search --batch FILE --k 10 --mode M` for each mode.

hit@k = fraction of questions (categories 1-4; 5 is adversarial/unanswerable and has no
evidence to find) with at least one of their `evidence` dia_ids among the `source_id`s of
the top-k hits. Evidence ids are normalised ("D:11:26" -> "D11:26", "D8:6; D9:17" -> two
ids); ids that do not occur in the conversation are dropped, and a question left with no
valid evidence is not scored (the count is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (MODES, CairnError, batch_search, data_dir, fmt_s, fusion_label, header,  # noqa: E402
                     need, parse_json_report, run_cairn, table, work_dir, write_jsonl)

# Conventional names of LoCoMo's numeric categories (as used by most papers using the data).
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10)
_SESSION_RE = re.compile(r"session_(\d+)")


def parse_session_time(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> datetime(2023, 5, 8, 13, 56)."""
    cleaned = re.sub(r"\s+", " ", text.strip())
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y"):
        try:
            return datetime.strptime(cleaned, fmt)
        except ValueError:
            pass
    raise ValueError(f"unrecognised LoCoMo date-time {text!r}")


def chat_rows(sample: dict, captions: bool = True) -> list[dict]:
    """The chat JSONL rows of one LoCoMo conversation, sessions in numeric order."""
    conv = sample["conversation"]
    sessions = sorted((int(m.group(1)), key) for key in conv
                      if (m := _SESSION_RE.fullmatch(key)) and isinstance(conv[key], list))
    rows = []
    for _, key in sessions:
        start = parse_session_time(conv[f"{key}_date_time"])
        for i, msg in enumerate(conv[key]):
            text = str(msg.get("text") or "").strip()
            if captions and msg.get("blip_caption"):
                text = (text + f" [image: {msg['blip_caption']}]").strip()
            if not text:
                continue
            rows.append({"conversation": sample["sample_id"], "session": key, "id": msg["dia_id"],
                         "speaker": msg["speaker"],
                         "time": (start + timedelta(minutes=i)).isoformat(timespec="minutes"),
                         "text": text})
    return rows


def normalise_evidence(evidence: list, known: set[str]) -> list[str]:
    out = []
    for item in evidence:
        for part in re.split(r"[;,\s]+", str(item)):
            part = re.sub(r"^D:(\d+)", r"D\1", part.strip())
            if part in known and part not in out:
                out.append(part)
    return out


def questions_of(sample: dict, known: set[str]) -> tuple[list[dict], int]:
    """The scored questions of one conversation (categories 1-4 with valid evidence) as
    {id, query, category, evidence}, and how many were dropped for lack of valid evidence."""
    out, dropped = [], 0
    for i, qa in enumerate(sample["qa"]):
        cat = int(qa.get("category", 0))
        if cat not in CATEGORY_NAMES:
            continue
        ev = normalise_evidence(qa.get("evidence") or [], known)
        if not ev:
            dropped += 1
            continue
        out.append({"id": f"{sample['sample_id']}:{i}", "query": qa["question"], "category": cat,
                    "evidence": ev})
    return out, dropped


def load_samples(limit: int = 0) -> tuple[Path, list[dict]]:
    """(path, conversations) of `locomo/locomo-dev.json` under the data folder; the first
    `limit` conversations if limit > 0. Exits with a message if the file is missing."""
    path = need(data_dir() / "locomo" / "locomo-dev.json", "LoCoMo")
    samples = json.loads(path.read_text(encoding="utf-8"))
    return path, samples[:limit] if limit else samples


def new_score() -> dict:
    """An empty tally: score[k][category] = [hits, n] for every k in KS."""
    return {k: defaultdict(lambda: [0, 0]) for k in KS}


def tally(score: dict, q: dict, got: list) -> dict[int, bool]:
    """Count question `q` against the ranked source ids `got` in `score` (see new_score),
    under its category and "all"; returns {k: hit} (hit = an evidence id in the top k)."""
    ev = set(q["evidence"])
    hits = {}
    for k in KS:
        hits[k] = hit = bool(ev & set(got[:k]))
        for cat in (q["category"], "all"):
            score[k][cat][0] += hit
            score[k][cat][1] += 1
    return hits


def category_rows(scores: list[dict]) -> list[list]:
    """Table rows [label, n, hit@k fraction for each score and each k in KS], one per
    category scored (and "overall"); categories and n are taken from the first score."""
    first = scores[0][KS[0]]
    rows = []
    for cat in [c for c in (1, 2, 3, 4) if first[c][1]] + ["all"]:
        n = first[cat][1]
        label = f"{cat} {CATEGORY_NAMES[cat]}" if cat != "all" else "overall"
        rows.append([label, n] + [f"{s[k][cat][0] / n:.3f}" for s in scores for k in KS])
    return rows


def print_misses(misses: list[tuple[str, dict, list]], n: int) -> None:
    """Print the first `n` (conversation id, question, ranked source ids) misses."""
    for sid, q, got in misses[:n]:
        print(f"{sid} cat{q['category']} {q['query']!r} evidence={q['evidence']} top5={got[:5]}")


def run_conversation(sample: dict, modes: list[str], fusion: str | None, captions: bool, workdir: Path,
                     k: int = 10, store_url: str = "") -> dict:
    """Import one conversation and run its questions; returns per-question hits per mode.
    store_url: a PostgreSQL server; the conversation's home gets a fresh database there."""
    sid = sample["sample_id"]
    if store_url:
        from _common import fresh_database
        os.environ["CAIRN_STORE_URL"] = fresh_database(store_url, "cairn_locomo_" + re.sub(r"\W", "_", sid).lower())
    home = workdir / f"home-{sid}"
    chat = workdir / f"{sid}-chat.jsonl"
    rows = chat_rows(sample, captions)
    write_jsonl(chat, rows)
    out, _, import_wall = run_cairn(home, ["import", "chat", str(chat), "--json", "--quiet"])
    report = parse_json_report(out)
    questions, dropped = questions_of(sample, {r["id"] for r in rows})
    batch = workdir / f"{sid}-questions.jsonl"
    write_jsonl(batch, ({"id": q["id"], "query": q["query"]} for q in questions))
    per_mode, walls, warnings = {}, {}, {}
    for mode in modes:
        results, warns, wall = batch_search(home, batch, workdir / f"{sid}-{mode}.jsonl", k=k,
                                            mode=mode, fusion=fusion)
        per_mode[mode] = {q["id"]: [h.get("source_id") for h in results.get(q["id"], [])] for q in questions}
        walls[mode], warnings[mode] = wall, warns
    return {"sid": sid, "messages": len(rows), "questions": questions, "dropped": dropped,
            "report": report, "import_wall": import_wall, "hits": per_mode, "search_wall": walls,
            "warnings": warnings}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fusion", default=None,
                    help="passed to `cairn search --fusion` (weighted | rrf); default: Cairn's default")
    ap.add_argument("--limit-conversations", type=int, default=0, metavar="N", help="only the first N conversations")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated search modes")
    ap.add_argument("--no-captions", action="store_true", help="do not append image captions to messages")
    ap.add_argument("--keep", action="store_true", help="keep the homes in a new bench/out/locomo-run-* folder")
    ap.add_argument("--store-url", default="",
                    help="run Cairn on PostgreSQL: a postgresql:// URL of a server; each conversation gets a "
                         "fresh database there")
    ap.add_argument("--misses", type=int, default=0, metavar="N",
                    help="print N hybrid misses@10 (question, evidence, top hits) for inspection")
    args = ap.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    os.environ.pop("CAIRN_STORE_URL", None)  # SQLite unless --store-url

    t0 = time.perf_counter()
    path, samples = load_samples(args.limit_conversations)
    header(f"LoCoMo — {path} ({len(samples)} conversation(s), fusion={fusion_label(args.fusion)}, "
           f"store: {'postgresql' if args.store_url else 'sqlite'})")
    convs = []
    with work_dir(args.keep, "locomo-run-", "cairn-locomo-") as workdir:
        for sample in samples:
            try:
                res = run_conversation(sample, modes, args.fusion, not args.no_captions, workdir,
                                       store_url=args.store_url)
            except CairnError as exc:
                print(f"{sample['sample_id']}: FAILED: {exc}")
                continue
            r = res["report"]
            print(f"{res['sid']}: {res['messages']} messages -> added {r['added']} session(s), "
                  f"{r['embedded_chunks']} chunks embedded, import {fmt_s(res['import_wall'])}; "
                  f"{len(res['questions'])} questions (cat 1-4; {res['dropped']} without valid evidence); "
                  "search " + ", ".join(f"{m} {fmt_s(w)}" for m, w in res["search_wall"].items()), flush=True)
            for key in ("failed", "skipped"):
                if r.get(key):
                    print(f"  import {key}: {r[key][:3]}")
            for m, w in res["warnings"].items():
                if w:
                    print(f"  {m}: {len(w)} warning(s), e.g. {w[:2]}")
            convs.append(res)
    if not convs:
        return 1

    # score[mode][k][category] = [hit count, n]
    score = {m: new_score() for m in modes}
    misses = []
    for res in convs:
        for q in res["questions"]:
            for m in modes:
                got = res["hits"][m][q["id"]]
                if not tally(score[m], q, got)[10] and m == "hybrid":
                    misses.append((res["sid"], q, got))
    header("LoCoMo evidence retrieval (`cairn search --batch --k 10`), fraction of questions")
    headers = ["category", "n"] + [f"{m} @{k}" for m in modes for k in KS]
    print(table(headers, category_rows([score[m] for m in modes])))
    if args.misses and "hybrid" in modes:
        header(f"first {args.misses} hybrid misses@10")
        print_misses(misses, args.misses)
    print(f"total time {fmt_s(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
