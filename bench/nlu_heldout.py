"""The assistant's intent classifier (cairn.assistant.nlu.classify) on a held-out set written
apart from its training utterances (tests/data/nlu_heldout.txt): accuracy, the "none of these"
decision's precision and recall, the errors, and ablations (features switched off and the
model retrained: without the head vector, without the question flag, without the threshold).

    PYTHONPATH=src python bench/nlu_heldout.py [--heldout FILE]

Nothing asserts; figures are printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from _common import REPO


def evaluate(model, x, gold: list[str], none_threshold: bool = True) -> dict:
    from cairn.assistant.nlu.classify import NONE
    saved = model.threshold
    if not none_threshold:
        model.threshold = 0.0
    preds = [p.intent for p in model.predict_features(x)]
    model.threshold = saved
    acc = float(np.mean([p == g for p, g in zip(preds, gold)]))
    tp = sum(p == NONE and g == NONE for p, g in zip(preds, gold))
    said = sum(p == NONE for p in preds)
    real = sum(g == NONE for g in gold)
    return {"accuracy": acc, "none_precision": tp / said if said else float("nan"),
            "none_recall": tp / real if real else float("nan"), "preds": preds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heldout", type=Path, default=REPO / "tests" / "data" / "nlu_heldout.txt")
    args = ap.parse_args()
    from cairn.assistant.nlu import classify as C
    from cairn.embed import get_embedder
    emb = get_embedder()
    model = C.model_for(emb)
    print(f"training utterances: {len(C.read_utterances())} over {len(model.labels)} intents; calibration split "
          f"n={model.calibration['n']} accuracy={model.calibration['accuracy']:.3f} threshold={model.threshold:.2f}")
    held = C.read_utterances(args.heldout)
    texts, gold = [u for _, u in held], [i for i, _ in held]
    x = C.features(emb, texts)
    full = evaluate(model, x, gold)
    print(f"held-out: n={len(held)} accuracy={full['accuracy']:.3f} none precision={full['none_precision']:.2f} "
          f"recall={full['none_recall']:.2f}")
    for t, g, p in zip(texts, gold, full["preds"]):
        if g != p:
            print(f"  miss: {t!r}: {g} -> {p}")
    no_t = evaluate(model, x, gold, none_threshold=False)
    print(f"ablation, no threshold (only the 'none' class): accuracy={no_t['accuracy']:.3f} "
          f"none precision={no_t['none_precision']:.2f} recall={no_t['none_recall']:.2f}")
    pairs = C.read_utterances()
    xt = C.features(emb, [u for _, u in pairs])
    yt = np.array([model.labels.index(i) for i, _ in pairs])
    d = (xt.shape[1] - 1) // 2
    for name, cols in (("without the head vector", list(range(d)) + [2 * d]),
                       ("without the question flag", list(range(2 * d))),
                       ("whole-message vector only", list(range(d)))):
        thr, cal = C._calibrate(xt[:, cols], yt, model.labels)
        w, b = C.train(xt[:, cols], yt, len(model.labels))
        m2 = C.IntentModel(model.labels, w, b, thr, cal)
        r = evaluate(m2, x[:, cols], gold)
        print(f"ablation, {name}: calibration accuracy={cal['accuracy']:.3f}; held-out accuracy={r['accuracy']:.3f} "
              f"none precision={r['none_precision']:.2f} recall={r['none_recall']:.2f}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
