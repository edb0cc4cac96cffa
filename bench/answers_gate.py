#!/usr/bin/env python3
"""One learned decision instead of the person check's rules (issue 33, session 22 "convo22").

    python bench/answers_gate.py features bench/out/replay.pkl bench/out/gate.pkl   # ~40 s
    python bench/answers_gate.py train bench/out/gate.pkl                           # tune half only
    python bench/answers_gate.py heldout bench/out/gate.pkl                         # once, at the end

The rules that decline a LoCoMo question naming a participant (answer/answerability.py rules
1-3: misattribution, key terms said of someone else, never said of them; answer/topic.py's chat
topic check) are switched off and the answer drafted without them; a logistic regression over
the figures those rules compare (`FEATURES`: the best support about the person minus about
others, the same for the share of key terms one sentence holds, the shares of key terms said
only of others / never of the person, log(1 + number of key terms), the share of key terms the
cited messages with their replied turns do not support) then says whether to decline. It replaces
the rules (bench/answers_abstain.py, session 16, *added* declines on top of them). Hypothetical
questions and declines for other reasons (no evidence, premise, polarity) are left as they are.

Fitted on the **tune half only** (conv-26, conv-30), classes balanced (answers_abstain.fit); the
threshold is the lowest whose out-of-fold declines (fit on one tune conversation, score the
other) keep the tune half's answerable wrongly declined <= WRONG_MAX. `heldout` fits on both
tune conversations and prints conv-41/42/43 with that threshold, then (a diagnostic that chooses
nothing) the held-out figures at other thresholds.
"""

from __future__ import annotations

import math
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answers_abstain import fit, predict  # noqa: E402

TUNE, HELD = {1, 2}, {3, 4, 5}
WRONG_MAX = 0.08
FEATURES = ("support_gap", "words_gap", "only_other", "not_about", "n_keys", "turn_unsupported")


def features(replay: Path, out: Path) -> None:
    """Replay every question with the rules off; record per question its category, whether it
    is declined anyway, its citations and (a person-checked answer from chat messages) FEATURES."""
    from answers_replay import DROPPED
    import cairn.answer as A
    from cairn.answer import answerability as AB, topic as T
    from cairn.search.asked import is_hypothetical
    from cairn.embed import get_embedder
    from cairn.lexical import content_terms, stem
    embedder = get_embedder()
    AB.THRESHOLD = math.inf  # the person check's decision never fires (learned since session 26)
    real, seen = A.drafted_reason, {}

    def no_topic(question, ans, hits, emb, person_checked, focus, replies, checks, polarity):
        seen.clear()
        cited = [h for h in hits if h.id in {c["chunk_id"] for c in ans.citations}]
        if person_checked and cited and not ans.abstained and all(h.speaker for h in cited):
            keys = AB.key_terms(focus or question)
            terms = [t for t in dict.fromkeys(content_terms(focus or question)) if stem(t) in keys and not t.isdigit()]
            said = " ".join(f"{h.text}\n{(replies or {}).get(h.id, '')}" for h in cited)
            held = T.supported_terms(terms, said, emb) if terms else set()
            seen.update(n_terms=len(terms), unsupported=1 - len(held) / max(len(terms), 1))
        return real(question, ans, hits, emb, person_checked, focus, replies, False, polarity)

    A.drafted_reason = no_topic
    with open(replay, "rb") as fh:
        records = pickle.load(fh)
    rows = []
    for r in records:
        if r["inputs"] is None:
            continue
        seen.clear()
        ans = A.answer_question(r["question"], r["inputs"]["hits"], embedder, None,
                                **{k: v for k, v in r["inputs"].items() if k not in DROPPED})
        s = (ans.answerability or {}).get("scores") or {}
        x = None
        if s and seen and not ans.abstained and not is_hypothetical(r["question"]):
            x = [s["support_person"] - s["support_other"], s["words_person"] - s["words_other"],
                 s["key_terms_only_other"], s.get("key_terms_not_about_person", 0.0),
                 math.log1p(seen["n_terms"]), seen["unsupported"]]
        rows.append({"id": r["id"], "conversation": r["conversation"], "category": r["category"],
                     "abstain": ans.abstained, "x": x, "cited": [c.get("source_id") for c in ans.citations],
                     "evidence": r["evidence"]})
    with open(out, "wb") as fh:
        pickle.dump(rows, fh)
    print(f"{len(rows)} rows, {sum(r['x'] is not None for r in rows)} with figures, written to {out}")


def _model(rows: list[dict]):
    """The balanced logistic regression over the rows with figures."""
    sel = [r for r in rows if r["x"] is not None]
    X, y = np.array([r["x"] for r in sel]), np.array([float(r["category"] == 5) for r in sel])
    w = np.where(y == 1, len(y) / (2 * max(1, y.sum())), len(y) / (2 * max(1, len(y) - y.sum())))
    return fit(X, y, w)


def _scored(model, rows: list[dict]) -> dict[str, float]:
    sel = [r for r in rows if r["x"] is not None]
    return {r["id"]: float(p) for r, p in zip(sel, predict(model, np.array([r["x"] for r in sel])))} if sel else {}


def figures(rows: list[dict], declined: set[str]) -> str:
    """'cat-5 declined / cat 1-4 wrongly declined / all citations gold (answered)' with counts,
    the rows' own declines plus `declined` (ids)."""
    def out(r):
        return r["abstain"] or r["id"] in declined
    c5 = [r for r in rows if r["category"] == 5]
    ans = [r for r in rows if r["category"] != 5]
    answered = [r for r in ans if not out(r) and r["evidence"]]
    gold = sum(bool(r["cited"]) and all(c in r["evidence"] for c in r["cited"]) for r in answered)
    d5, dw = sum(map(out, c5)), sum(map(out, ans))
    return (f"{d5 / max(len(c5), 1):.3f} ({d5}/{len(c5)}) / {dw / max(len(ans), 1):.3f} ({dw}/{len(ans)}) / "
            f"{gold / max(len(answered), 1):.3f} ({gold}/{len(answered)})")


def choose(rows: list[dict]) -> tuple[float, dict[str, float]]:
    """(threshold, out-of-fold probabilities) on the tune half (module doc)."""
    tune = [r for r in rows if r["conversation"] in TUNE]
    oof: dict[str, float] = {}
    for c in TUNE:
        oof.update(_scored(_model([r for r in tune if r["conversation"] != c]), [r for r in tune if r["conversation"] == c]))
    ans = [r for r in tune if r["category"] != 5]
    for t in sorted(set(oof.values())) + [math.inf]:
        if sum(r["abstain"] or oof.get(r["id"], 0.0) >= t for r in ans) <= WRONG_MAX * len(ans):
            return t, oof
    return math.inf, oof


def main() -> int:
    cmd, *args = sys.argv[1:] or ["-h"]
    if cmd == "features" and len(args) == 2:
        features(Path(args[0]), Path(args[1]))
        return 0
    if cmd not in ("train", "heldout") or len(args) != 1:
        print(__doc__)
        return 2
    with open(args[0], "rb") as fh:
        rows = pickle.load(fh)
    t, oof = choose(rows)
    tune = [r for r in rows if r["conversation"] in TUNE]
    print(f"tune, rules off:              {figures(tune, set())}")
    print(f"tune, gate out of fold (t={t:.3f}): {figures(tune, {i for i, p in oof.items() if p >= t})}")
    model = _model(tune)
    print("weights (standardised): " + ", ".join(f"{n} {b:+.2f}" for n, b in zip(FEATURES, model[2])))
    if cmd == "heldout":
        held = [r for r in rows if r["conversation"] in HELD]
        prob = _scored(model, held)
        print(f"held out, rules off:          {figures(held, set())}")
        print(f"held out, gate (t={t:.3f}):    {figures(held, {i for i, p in prob.items() if p >= t})}")
        for other in (0.5, 0.7, 0.8, 0.9, 0.95):
            print(f"  (diagnostic) at {other}:      {figures(held, {i for i, p in prob.items() if p >= other})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
