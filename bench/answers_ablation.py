#!/usr/bin/env python3
"""Switch each rule of `answer/` off in turn and print its effect (issue 33: rules earn their place).

    python bench/answers_replay.py collect bench/out/replay.pkl     # once (LoCoMo inputs)
    python bench/answers_ablation.py bench/out/replay.pkl           # every rule, stratified sample
    python bench/answers_ablation.py bench/out/replay.pkl --sample 0   # every LoCoMo question (slow)

The typed set's inputs are recorded once into --typed-cache (bench/out/typed_inputs.pkl);
delete that file after a change to retrieval or ingest. `--sets main,new,third` measures the
questions of those typed sets together (record them into a cache file of their own).

For every rule in RULES (a module switch or a check replaced by one that never fires), the
answerer is re-run with that rule off over (a) the recorded LoCoMo inputs of each dev half
(bench/answers_replay.py: tune = conversations 1-2, held out = 3-5; `--sample K`: K
category-5 questions and K of categories 1-4 per half, answers.stratified, seed 13) and (b)
the typed set (bench/typed_set.py, its recorded `Cairn.ask` inputs). Printed per rule:
LoCoMo category 5 declined and categories 1-4 wrongly declined and all-gold citations per
half, and on the typed set right-with-pass, wrong-with-pass and unanswerable declined;
`helps` says whether switching the rule off makes a half or the typed set worse (a rule
that helps on neither LoCoMo half nor the typed set is a candidate for removal). Net score
per set: declined(cat 5) - wrongly declined(cat 1-4) + all gold (LoCoMo); right with pass -
wrong with pass + unanswerable declined (typed).
"""

from __future__ import annotations

import argparse
import contextlib
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import header, table  # noqa: E402


def _set(module, name, value):
    @contextlib.contextmanager
    def cm():
        old = getattr(module, name)
        setattr(module, name, value)
        try:
            yield
        finally:
            setattr(module, name, old)
    return cm


def _without(**drop):
    """Switch off a rule that is an input of answer_question (e.g. the premise check's
    unknown_names): every call, the parts' included, runs without those arguments."""
    import cairn.answer as A

    @contextlib.contextmanager
    def cm():
        real = A.answer_question

        def call(question, hits, embedder, llm=None, **kw):
            return real(question, hits, embedder, llm, **{**kw, **drop})
        A.answer_question = call
        try:
            yield
        finally:
            A.answer_question = real
    return cm


def _reread(module, name):
    """A switch of how the question is read (search/asked.py `asked`): off, and the recorded
    parsed query's answer type dropped so that the question is read again."""
    @contextlib.contextmanager
    def cm():
        with _set(module, name, False)(), _without(parsed=None)():
            yield
    return cm


def rules() -> dict:
    """{rule name: a context manager factory switching it off}. (Rules measured here and
    removed: bench/README.md, sessions 14, 15 and 16.)"""
    import cairn.answer as A
    from cairn.answer import answerability as AB, checks as C, focus as FO, polarity as P, spans as SP, topic as T, typed as TD, types as TY
    from cairn.answer import elsewhere as EW, procedure as PR, rota as RT, yesno as YN
    from cairn.search import asked as QA, unasked as UA
    from cairn.answer.answerability import Answerability
    never = lambda *a, **k: None  # noqa: E731
    return {
        "typed answers (types.TYPED)": _set(TY, "TYPED", False),
        "person check (answerability.check)": _set(A.answerability, "check",
                                                   lambda q, hits, *a, **k: Answerability(about_person={h.id for h in hits})),
        "premise (unknown_names)": _without(unknown_names=None),
        "named things said of the person (focus.FOCUS)": _set(FO, "FOCUS", False),
        "chit-chat (offtopic.chit_chat)": _set(A, "chit_chat", never),
        "topic checks (topic.drafted_reason)": _set(A, "drafted_reason", lambda *a, **k: (None, None)),
        "stated of (checks.stated_gap)": _set(C, "stated_gap", lambda *a, **k: []),
        "role check (checks.role_gap)": _set(C, "role_gap", lambda *a, **k: []),
        "thing's number is a code (search.asked.CODE_OF)": _reread(QA, "CODE_OF"),
        "who-verb head (search.asked.ROLE_HEAD)": _reread(QA, "ROLE_HEAD"),
        "how-many counted head (search.asked.COUNTED)": _reread(QA, "COUNTED"),
        "verb's object in head (search.asked.OBJECT_HEAD)": _reread(QA, "OBJECT_HEAD"),
        "subject filter (subject.question_subject)": _set(A, "question_subject", never),
        "polarity (topic.contradiction)": _set(T, "contradiction", never),
        "person check's learned decision (answerability.THRESHOLD)": _set(AB, "THRESHOLD", 2.0),
        "reactions (answerability.REACTIONS)": _set(AB, "REACTIONS", False),
        "stated of the person (answerability.STATED)": _set(AB, "STATED", False),
        "time stated (TIME_STATED)": _set(A, "TIME_STATED", False),
        "purpose cue (types.CUE_KINDS)": _set(TY, "CUE_KINDS", frozenset()),
        "quantity's units (search.asked.UNITS)": _reread(QA, "UNITS"),
        "a value's head less its verbs (search.asked.HEAD_NOUNS)": _set(QA, "HEAD_NOUNS", False),
        "the verb a value is asked with (search.unasked.LIGHT_VERBS)": _set(UA, "LIGHT_VERBS", False),
        "a hard-wrapped sentence read whole (typed.UNWRAP)": _set(TD, "UNWRAP", False),
        "a field's comma list is a list (typed.FIELD_LIST)": _set(TD, "FIELD_LIST", False),
        "what to bring said in a sentence (typed.PROSE_LIST)": _set(TD, "PROSE_LIST", False),
        "a verb held by its agent noun (types.AGENT)": _set(TY, "AGENT", False),
        "a code in spaced digit groups (types.SPACED)": _set(TY, "SPACED", False),
        "another note holds more of the question (elsewhere.OTHER_NOTE)": _set(EW, "OTHER_NOTE", False),
        "another line states the attribute asked (elsewhere.OTHER_LINE)": _set(EW, "OTHER_LINE", False),
        "compound's kind noun (search.asked.COMPOUND_KIND)": _set(QA, "COMPOUND_KIND", False),
        "function words not asked (search.asked.NOMINAL)": _reread(QA, "NOMINAL"),
        "a date's role in its label (typed.ROLE)": _set(TD, "ROLE", 0.0),
        "the thing asked in the quote (checks.HEAD_QUOTED)": _set(C, "HEAD_QUOTED", frozenset({"purpose"})),
        "the line states the asked attribute (checks.ATTR_STATED)": _set(C, "ATTR_STATED", False),
        "a code asked by name is no phone number (typed.CODE_NO_PHONE)": _set(TD, "CODE_NO_PHONE", False),
        "a named person's number is a phone (search.asked.PERSON_NUMBER)": _set(QA, "PERSON_NUMBER", False),
        "where: a place (types.LOCATIVE)": _set(TY, "LOCATIVE", False),
        "a date's role read from the question (search.asked.ROLE)": _set(QA, "ROLE", False),
        "who: a line keyed by the day or role asked (rota.KEYED)": _set(RT, "KEYED", False),
        "who: a role by its work (rota.BY_WORK)": _set(RT, "BY_WORK", False),
        "record lines (spans.RECORD_LINE)": _set(SP, "RECORD_LINE", 0),
        "a field's key, not the line above (typed.FIELD_KEY)": _set(TD, "FIELD_KEY", False),
        "name bonus (NAME_BONUS)": _set(A, "NAME_BONUS", 0.0),
        "one passage (ONE_PASSAGE)": _set(A, "ONE_PASSAGE", False),
        "context lift (CONTEXT_WEIGHT)": _set(A, "CONTEXT_WEIGHT", 0.0),
        "hit prior (HIT_PRIOR)": _set(A, "HIT_PRIOR", 0.0),
        "reply weight (REPLY_WEIGHT)": _set(A, "REPLY_WEIGHT", 0.0),
        "reply read with its question (REPLY_CONTEXT)": _set(A, "REPLY_CONTEXT", False),
        "value sentence under the floor (SENTENCE_READ)": _set(A, "SENTENCE_READ", 0),
        "caption quoted last (spans.is_caption)": _set(A, "is_caption", lambda *a: False),
        "addressed by name (answerability._addresses)": _set(AB, "_addresses", lambda *a: False),
        "comment on the other's news (answerability.echoes_other)": _set(AB, "echoes_other", lambda *a: False),
        "opposite words (polarity.OPPOSITES)": _set(P, "_PAIRS", P._PAIRS[len(P._PAIRS) - 2 * len(P.COUNTERPARTS):]),
        "classifier nouns name the slot (focus.CLASSIFIERS)": _set(FO, "CLASSIFIERS", frozenset()),
        "kinship counterparts (polarity.COUNTERPARTS)": _set(P, "_PAIRS", P._PAIRS[:len(P._PAIRS) - 2 * len(P.COUNTERPARTS)]),
        "parts answered alone (parts.split)": _set(A.parts, "split", lambda q: [q]),
        "a note's total for its own thing (typed.TOTAL)": _set(TD, "TOTAL", False),
        "a total known by its sum (typed.TOTAL_SUM)": _set(TD, "TOTAL_SUM", False),
        "whose phone or code, by its line (typed.OWNED)": _set(TD, "OWNED", False),
        "a note's header names its thing (typed.HEADER)": _set(TD, "HEADER", False),
        "asked words of another line or clause (typed.OWN_LINE)": _set(TD, "OWN_LINE", False),
        "a date's verb is its role (typed.LIGHT_ROLE)": _set(TD, "LIGHT_ROLE", False),
        "pronouns not asked (search.unasked.CLOSED)": _set(UA, "CLOSED", False),
        "'this month' not asked (search.unasked.PERIOD)": _set(UA, "PERIOD", False),
        "a field's own key is a list's (typed.OWN_KEY)": _set(TD, "OWN_KEY", False),
        "the candidate names its kind (typed.KIND_WORD)": _set(TD, "KIND_WORD", 0.0),
        "the question's words in the candidate (typed.LEXICAL)": _set(TD, "LEXICAL", 0.0),
        "short forms of titles (types.SHORT_FORMS)": _set(TY, "SHORT_FORMS", {}),
        "yes/no answered by a line (yesno.YESNO)": _set(YN, "YESNO", False),
        "yes/no: the predicate's verbs held (yesno.PREDICATE)": _set(YN, "PREDICATE", False),
        "procedure's steps (procedure.PROCEDURE)": _set(PR, "PROCEDURE", False),
        "the learned acceptance gate (checks.GATE)": _set(C, "GATE", False),
    }


def locomo(records: list[dict], embedder) -> dict[str, tuple[float, float, float]]:
    """{half: (cat 5 declined, cat 1-4 wrongly declined, all gold among answered)}."""
    from answers_replay import DROPPED, HALVES
    from cairn.answer import answer_question
    out = {}
    for r in records:
        inp = r["inputs"]
        if inp is None:
            r["x"] = {"abstain": r["verdict"] == "abstain", "cited": r["cited"]}
            continue
        kw = {k: v for k, v in inp.items() if k not in DROPPED}
        ans = answer_question(r["question"], inp["hits"], embedder, None, **kw)
        r["x"] = {"abstain": ans.verdict == "abstain", "cited": [c.get("source_id") for c in ans.citations]}
    for label, convs in HALVES[:2]:
        part = [r for r in records if r["conversation"] in convs]
        c5 = [r for r in part if r["category"] == 5]
        ans = [r for r in part if r["category"] != 5]
        answered = [r for r in ans if not r["x"]["abstain"] and r["evidence"]]
        allg = sum(bool(r["x"]["cited"]) and all(c in r["evidence"] for c in r["x"]["cited"]) for r in answered)
        out[label.split(" (")[0]] = (sum(r["x"]["abstain"] for r in c5) / max(len(c5), 1),
                                     sum(r["x"]["abstain"] for r in ans) / max(len(ans), 1),
                                     allg / max(len(answered), 1))
    return out


def typed(rows: list[dict]) -> dict[str, tuple[float, float, float]]:
    """{typed set: (right with pass, wrong with pass, unanswerable declined)} over the typed
    sets' recorded inputs ("main": its tune and held parts; "all": every row)."""
    from answers_replay import DROPPED
    from answers_typed import judge
    import cairn.answer as A
    res = []
    for r in rows:
        question, hits, embedder, llm, kw = r["inputs"]
        ans = A.answer_question(question, hits, embedder, llm, **{k: v for k, v in kw.items() if k not in DROPPED})
        res.append((r, ans.verdict, judge(r, ans.verdict, ans.answer)))

    def figures(sel):
        ans_rows = [x for x in sel if x[0]["expect"] is not None]
        un = [x for x in sel if x[0]["expect"] is None]
        return (sum(o == "right" and v == "pass" for _, v, o in ans_rows) / max(len(ans_rows), 1),
                sum(v == "pass" and o in ("wrong", "answered") for _, v, o in sel) / max(len(sel), 1),
                sum(o == "declined" for _, _, o in un) / max(len(un), 1))
    sets = dict.fromkeys("main" if r["part"] in ("tune", "held") else r["part"] for r in rows)
    out = {s: figures([x for x in res if ("main" if x[0]["part"] in ("tune", "held") else x[0]["part"]) == s])
           for s in sets}
    out["all"] = figures(res)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", help="bench/answers_replay.py collect's output")
    ap.add_argument("--sample", type=int, default=40, metavar="K", help="per half: K cat-5 + K cat 1-4 (0: all)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--only", default="", help="comma-separated substrings of rule names")
    ap.add_argument("--typed-cache", default="bench/out/typed_inputs.pkl",
                    help="the typed set's recorded inputs (written on the first run; delete to re-record)")
    ap.add_argument("--sets", default="main,new,third,fourth,fifth",
                    help="comma-separated typed sets whose questions are measured (main, new, third, fourth: "
                         "bench/typed_set.py, typed_set_new.py, ...); never a held-out set not yet run")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    from answers import stratified
    from answers_typed import run
    from cairn.embed import get_embedder
    with open(args.file, "rb") as fh:
        records = pickle.load(fh)
    if args.sample:
        by_conv: dict[int, list[dict]] = {}
        for r in records:
            by_conv.setdefault(r["conversation"], []).append(r)
        keep = stratified(by_conv, args.sample, args.seed)
        records = [r for r in records if r["id"] in keep]
    embedder = get_embedder()
    cache = Path(args.typed_cache)
    if cache.exists():
        with open(cache, "rb") as fh:
            rows = pickle.load(fh)
    else:
        import importlib
        rows = [r for name in args.sets.split(",")
                for r in run(speed=False, qset=None if name == "main" else importlib.import_module(f"typed_set_{name}"))
                if r["inputs"] is not None]
        cache.parent.mkdir(parents=True, exist_ok=True)
        with open(cache, "wb") as fh:  # the embedder is not pickled: put back on load
            pickle.dump([{**r, "inputs": (r["inputs"][0], r["inputs"][1], None, *r["inputs"][3:])} for r in rows], fh)
    rows = [{**r, "inputs": (r["inputs"][0], r["inputs"][1], embedder, *r["inputs"][3:])} for r in rows]

    def measure():
        lo = locomo(records, embedder)
        return lo, typed(rows)
    base = measure()
    header(f"Ablation of answer/ rules: LoCoMo replay {args.file} ({len(records)} questions), typed set "
           f"({len(rows)} questions)")
    head = ["rule off", "tune c5 decl", "tune wrong decl", "tune all gold", "held c5 decl", "held wrong decl",
            "held all gold", "typed right+pass", "typed wrong+pass", "typed unans decl", "helps on (net loss off)",
            "hurts on (net gain off)"]

    def fmt(lo, ty, helps="", hurts=""):
        t, h = lo["tune"], lo["held out"]
        return [f"{x:.3f}" for x in (*t, *h, *ty["all"])] + [helps, hurts]

    def net(x):
        return x[0] - x[1] + x[2]

    def nets(lo, ty):
        return {"tune": net(lo["tune"]), "held": net(lo["held out"]), **{s: net(v) for s, v in ty.items() if s != "all"}}
    base_nets = nets(*base)
    out = [["(all on)"] + fmt(*base)]
    for name, off in rules().items():
        if args.only and not any(s.strip() in name for s in args.only.split(",")):
            continue
        with off():
            lo, ty = measure()
        now = nets(lo, ty)
        helps = [f"{s} {base_nets[s] - now[s]:+.3f}" for s in base_nets if base_nets[s] > now[s] + 1e-9]
        hurts = [f"{s} {base_nets[s] - now[s]:+.3f}" for s in base_nets if base_nets[s] < now[s] - 1e-9]
        out.append([name] + fmt(lo, ty, ", ".join(helps) or "none", ", ".join(hurts) or "none"))
        print(f"  {name}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    print(table(head, out, "l" + "r" * 9 + "ll"))
    print("all on, typed sets: " + "; ".join(f"{s} {r:.3f}/{w:.3f}/{u:.3f}" for s, (r, w, u) in base[1].items()))
    print(f"total time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
