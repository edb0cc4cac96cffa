#!/usr/bin/env python3
"""A (question, passage) pair classifier as an answerability gate or a citation re-ranker,
measured on a LoCoMo replay (bench/answers_replay.py) without touching Cairn's code.

    python bench/answers_replay.py collect bench/out/replay.pkl
    python bench/pair_models.py score bench/out/replay.pkl bench/out/pairs-X.pkl \\
        --onnx MODEL.onnx --tokenizer tokenizer.json --max-len 256 [--token-types]
    python bench/pair_models.py gate bench/out/replay.pkl bench/out/pairs-X.pkl
    python bench/pair_models.py rerank bench/out/replay.pkl bench/out/pairs-X.pkl --weights 0.1,0.3,1

`score` runs a two-logit ONNX sequence-pair classifier (a cross-encoder: input_ids,
attention_mask and, with --token-types, token_type_ids; output logits [batch, 2]) on
(question, passage) for every one of the 8 hits each replayed question hands the answerer;
a chat message is read as "Speaker: text", since LoCoMo questions name who said what. The
pair's score is logit[--label] - logit[other]. Models exported with a fixed sequence length
get a symbolic one in memory (the file is not changed) and each pair runs alone, unpadded:
about 10x less CPU than padding every pair to the exported length (the scores differ a
little from padded runs: dynamic int8 quantisation scales over whatever tensor it is given).
CPU milliseconds per pair are printed.

`gate` adds one decline to today's answers: a question is declined when the score of the
passage(s) it would cite (`cited`), of the best of its 8 hits (`pool`) or of its first hit
(`top1`) is below t. The thresholds tried are quantiles of the scores of the tuning half's
answered answerable questions; the one kept is the best category-5 decline rate on the tuning
half with at most 0.10 answerable questions wrongly declined there, and the held-out half is
reported at that threshold (rule of bench/README.md: tune on conv-26/30, judge on 41/42/43).

`rerank` adds weight x sigmoid(score) to each hit's fused score before the answerer ranks
its sentences (answer.HIT_PRIOR reads the fused score), so the citation can move to the
passage the model prefers; what is declined is unchanged by construction (the rank is not the
decision to answer) unless the new sentence's message fails a later check.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from answers_replay import HALVES, figures, replay  # noqa: E402

TUNE, HELD = HALVES[0][1], HALVES[1][1]


def passage(hit) -> str:
    """The text a pair model reads for a hit: 'Speaker: text' for a chat message."""
    return (f"{hit.speaker}: " if hit.speaker else "") + hit.text[:2000]


class PairModel:
    """A two-logit ONNX pair classifier. Raises FileNotFoundError for a missing file and
    ValueError when the graph's output is not [batch, 2] logits."""

    def __init__(self, onnx_path: Path, tokenizer_path: Path, max_len: int, token_types: bool, label: int = 1):
        import onnx
        import onnxruntime as ort
        from tokenizers import Tokenizer
        for p in (onnx_path, tokenizer_path):
            if not Path(p).is_file():
                raise FileNotFoundError(f"no such file: {p}")
        graph = onnx.load(str(onnx_path))
        for inp in graph.graph.input:  # a fixed exported length becomes symbolic
            dims = inp.type.tensor_type.shape.dim
            if len(dims) > 1:
                dims[1].ClearField("dim_value")
                dims[1].dim_param = "seq"
        out = graph.graph.output[0].type.tensor_type.shape.dim
        if len(out) != 2 or out[1].dim_value != 2:
            got = [d.dim_value or d.dim_param for d in out]
            raise ValueError(f"{onnx_path}: expected logits [batch, 2], got {got}")
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        self.session = ort.InferenceSession(graph.SerializeToString(), so, providers=["CPUExecutionProvider"])
        self.names = {i.name for i in self.session.get_inputs()}
        self.tok = Tokenizer.from_file(str(tokenizer_path))
        self.tok.enable_truncation(max_len)
        self.tok.no_padding()
        self.token_types = token_types
        self.label = label

    def __call__(self, question: str, text: str) -> float:
        """logit[label] - logit[other] for the pair (question, text)."""
        import numpy as np
        enc = self.tok.encode(question, text)
        feed = {"input_ids": np.array([enc.ids], dtype=np.int64),
                "attention_mask": np.array([enc.attention_mask], dtype=np.int64)}
        if self.token_types and "token_type_ids" in self.names:
            feed["token_type_ids"] = np.array([enc.type_ids], dtype=np.int64)
        logits = self.session.run(None, feed)[0][0]
        return float(logits[self.label] - logits[1 - self.label])


def score(replay_path: Path, out: Path, model: PairModel) -> None:
    with open(replay_path, "rb") as fh:
        records = pickle.load(fh)
    pairs = {}
    for r in records:
        for h in (r["inputs"] or {}).get("hits", []):
            pairs[(r["question"], h.id)] = (r["question"], passage(h))
    t0, c0 = time.perf_counter(), time.process_time()
    scores = {k: model(*v) for k, v in pairs.items()}
    cpu = time.process_time() - c0
    print(f"{len(pairs)} pairs, {time.perf_counter() - t0:.0f} s wall, {cpu:.0f} s CPU, "
          f"{1000 * cpu / max(1, len(pairs)):.1f} ms CPU per pair")
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        pickle.dump(scores, fh)


def _load(replay_path: Path, scores_path: Path):
    with open(replay_path, "rb") as fh:
        records = pickle.load(fh)
    with open(scores_path, "rb") as fh:
        scores = pickle.load(fh)
    return records, scores


def _split(records, key):
    return ([figures([r for r in records if r["conversation"] in TUNE], key)],
            [figures([r for r in records if r["conversation"] in HELD], key)])


def _rate(cell: str) -> float:
    return float(cell.split(" ")[0]) if cell != "-" else 0.0


def gate(replay_path: Path, scores_path: Path) -> None:
    records, scores = _load(replay_path, scores_path)
    replay(records)
    (t_base,), (h_base,) = _split(records, "now")
    print(f"baseline  tune: {' | '.join(t_base)}\n          held: {' | '.join(h_base)}")
    for kind in ("cited", "pool", "top1"):
        for r in records:
            hits = (r["inputs"] or {}).get("hits", [])
            if kind == "cited":
                hits = [h for h in hits if h.source_id in set(r["now"]["cited"])]
            elif kind == "top1":
                hits = hits[:1]
            r["s"] = max((scores[(r["question"], h.id)] for h in hits), default=-math.inf)
        answered = sorted(r["s"] for r in records if r["conversation"] in TUNE and r["category"] != 5
                          and not r["now"]["abstain"])
        best = None
        print(f"\n{kind}: threshold (quantile of tune answered) | cat5 declined | wrongly declined | "
              "all gold | one gold")
        for q in (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3):
            t = answered[int(q * (len(answered) - 1))]
            for r in records:
                r["g"] = {"abstain": r["now"]["abstain"] or r["s"] < t, "cited": r["now"]["cited"]}
            (tf,), (hf,) = _split(records, "g")
            print(f"  q={q:<4} t={t:7.3f} tune: {' | '.join(tf)}\n                    held: {' | '.join(hf)}")
            if _rate(tf[1]) <= 0.10 and (best is None or _rate(tf[0]) > best[1]):
                best = (q, _rate(tf[0]), t, hf)
        if best:
            print(f"  kept on tune: q={best[0]} t={best[2]:.3f}; held out: {' | '.join(best[3])}")


def rerank(replay_path: Path, scores_path: Path, weights: list[float]) -> None:
    records, scores = _load(replay_path, scores_path)
    original = [(r["inputs"] or {}).get("hits") for r in records]
    for w in [0.0] + weights:
        for r, hits in zip(records, original):
            if hits:
                r["inputs"]["hits"] = [
                    dataclasses.replace(h, score=h.score + w / (1 + math.exp(-scores[(r["question"], h.id)])))
                    for h in hits]
        replay(records)
        (tf,), (hf,) = _split(records, "now")
        print(f"w={w:<4} tune: {' | '.join(tf)}\n       held: {' | '.join(hf)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("score", "gate", "rerank"))
    ap.add_argument("replay")
    ap.add_argument("scores")
    ap.add_argument("--onnx")
    ap.add_argument("--tokenizer")
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument("--token-types", action="store_true")
    ap.add_argument("--label", type=int, default=1, choices=(0, 1))
    ap.add_argument("--weights", default="0.1,0.3,1")
    args = ap.parse_args(argv)
    if args.action == "score":
        if not (args.onnx and args.tokenizer):
            ap.error("score needs --onnx and --tokenizer")
        score(Path(args.replay), Path(args.scores),
              PairModel(Path(args.onnx), Path(args.tokenizer), args.max_len, args.token_types, args.label))
    elif args.action == "gate":
        gate(Path(args.replay), Path(args.scores))
    else:
        rerank(Path(args.replay), Path(args.scores), [float(w) for w in args.weights.split(",")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
