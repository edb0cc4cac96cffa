#!/usr/bin/env python3
"""Benchmark Cairn's embedder: cold start, throughput per batch size, fidelity, fp32 vs int8.

Usage (from the repo root, in the project's virtualenv):

    python bench/bench_embed.py                 # cold start, chunks/s, cosine vs torch
    python bench/bench_embed.py --retrieval     # + SciFact nDCG@10 for each variant (~4 min)

Texts: abstracts from ../shared/data/beir-scifact/corpus.jsonl (relative to the repo root) if
present, else generated sentences. "Chunks" are ~90-word-piece windows of those abstracts
(what a chunker feeds the embedder); "sentences" are ~200 single sentences of mixed length.

Each variant (fp32, int8) is exported once into --model-root (idempotent, needs torch).
The cosine check against the torch reference runs only if sentence-transformers is importable.
Prints figures only; it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))

from cairn.embed import Embedder  # noqa: E402
from cairn.embed import export as ex  # noqa: E402

SCIFACT = REPO.parent / "shared" / "data" / "beir-scifact"


# ----------------------------------------------------------------------------- texts


def _source_tokenizer():
    from tokenizers import Tokenizer

    src, _ = ex.source_model_dir()
    tok = Tokenizer.from_file(str(src / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


def _generated_paragraphs(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    subjects = ["The committee", "Our team", "The new parser", "A local index", "The patient cohort",
                "Researchers", "The migration script", "This note", "The allergy clinic", "A small model"]
    verbs = ["reviewed", "measured", "rewrote", "compared", "summarised", "rejected", "indexed",
             "tested", "documented", "scheduled"]
    objects = ["the quarterly budget", "peanut and tree-nut reactions", "database schema changes",
               "search latency on old laptops", "the meeting notes from Tuesday", "markdown links",
               "the hiking route above the lake", "embedding quality", "a PDF with scanned pages",
               "the release checklist"]
    tails = ["before the deadline.", "with mixed results.", "and found two regressions.",
             "using a fixed random seed.", "for the third time this year.", "without network access.",
             "after lengthy discussion.", "in under a minute."]
    out = []
    for _ in range(n):
        k = rng.randint(4, 9)
        out.append(" ".join(f"{rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(objects)} {rng.choice(tails)}"
                            for _ in range(k)))
    return out


def load_paragraphs(limit: int = 3000) -> tuple[list[str], str]:
    corpus = SCIFACT / "corpus.jsonl"
    if corpus.is_file():
        paras = []
        with open(corpus, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                if d.get("text", "").strip():
                    paras.append(d["text"].strip())
                if len(paras) >= limit:
                    break
        return paras, str(corpus)
    return _generated_paragraphs(400), "generated"


def make_sentences(paras: list[str], n: int, seed: int = 1) -> list[str]:
    sents = []
    for p in paras:
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", p):
            words = s.split()
            if 6 <= len(words) <= 60:
                sents.append(s)
    random.Random(seed).shuffle(sents)
    return sents[:n]


def make_chunks(paras: list[str], n: int, target_tokens: int = 90) -> list[str]:
    """Windows of whole words whose encoding (incl. [CLS]/[SEP]) is ~target_tokens long."""
    tok = _source_tokenizer()
    chunks: list[str] = []
    for p in paras:
        words = p.split()
        i = 0
        while i < len(words) and len(chunks) < n:
            j = min(len(words), i + 40)
            while j < len(words) and len(tok.encode(" ".join(words[i:j])).ids) < target_tokens:
                j += 1
            piece = " ".join(words[i:j])
            if len(tok.encode(piece).ids) >= target_tokens * 0.8:
                chunks.append(piece)
            i = j
        if len(chunks) >= n:
            break
    return chunks


# ----------------------------------------------------------------------------- measures


def cold_start(model_dir: Path, runs: int) -> dict[str, float]:
    """Fresh interpreter each run: seconds for import, first vector, and whole process."""
    code = (
        "import time; t0=time.perf_counter()\n"
        "from cairn.embed import Embedder\n"
        "t1=time.perf_counter()\n"
        f"v=Embedder({str(model_dir)!r}).embed(['How do I treat a peanut allergy?'])\n"
        "t2=time.perf_counter()\n"
        "print(t1-t0, t2-t0)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    imports, firsts, walls = [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        walls.append(time.perf_counter() - t)
        a, b = map(float, res.stdout.split())
        imports.append(a)
        firsts.append(b)
    return {"import_s": statistics.median(imports), "first_vector_s": statistics.median(firsts),
            "process_wall_s": statistics.median(walls)}


def throughput(variants: dict[str, Path], texts: list[str], batch_sizes: list[int], repeat: int) -> dict[str, list[float]]:
    """texts/s per variant and batch size; variants are interleaved so that background load
    on the machine hits them alike; best of `repeat`."""
    embs = {name: Embedder(d).load() for name, d in variants.items()}
    for e in embs.values():
        e.embed(texts[:16])  # warm-up
    rates: dict[str, list[float]] = {name: [] for name in embs}
    for b in batch_sizes:
        best = {name: math.inf for name in embs}
        for _ in range(repeat):
            for name, e in embs.items():
                e.batch_size = b
                t = time.perf_counter()
                e.embed(texts)
                best[name] = min(best[name], time.perf_counter() - t)
        for name in embs:
            rates[name].append(len(texts) / best[name])
    return rates


def head_to_head(variants: dict[str, Path], workloads: dict[str, list[str]], repeat: int) -> None:
    """Wall-clock texts/s of each variant at its default batch size, rounds interleaved."""
    embs = {name: Embedder(d).load() for name, d in variants.items()}
    for e in embs.values():
        e.embed(["warm up"] * 4)
    for label, texts in workloads.items():
        best = {name: math.inf for name in embs}
        for _ in range(repeat):
            for name, e in embs.items():
                t = time.perf_counter()
                e.embed(texts)
                best[name] = min(best[name], time.perf_counter() - t)
        rates = {name: len(texts) / b for name, b in best.items()}
        extra = ""
        if "fp32" in rates and "int8" in rates:
            extra = f"   int8/fp32 = {rates['int8'] / rates['fp32']:.2f}x"
        print(f"  {label:28s}" + "".join(f"{n} {r:7.1f}/s   " for n, r in rates.items()) + extra)


def cpu_cost(variants: dict[str, Path], texts: list[str], batch_sizes: list[int], repeat: int) -> dict[str, list[float]]:
    """CPU milliseconds per text with one onnxruntime thread (process CPU time, so much less
    sensitive than wall-clock rates to other programs competing for the cores)."""
    embs = {name: Embedder(d, threads=1).load() for name, d in variants.items()}
    for e in embs.values():
        e.embed(texts[:16])
    out: dict[str, list[float]] = {name: [] for name in embs}
    for b in batch_sizes:
        best = {name: math.inf for name in embs}
        for _ in range(repeat):
            for name, e in embs.items():
                e.batch_size = b
                t = time.process_time()
                e.embed(texts)
                best[name] = min(best[name], time.process_time() - t)
        for name in embs:
            out[name].append(1000 * best[name] / len(texts))
    return out


def cos_stats(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    c = np.sum(a * b, axis=1)
    return {"min": float(c.min()), "p1": float(np.percentile(c, 1)), "mean": float(c.mean())}


def ndcg_at_10(qvecs: np.ndarray, dvecs: np.ndarray, qids: list[str], dids: list[str],
               qrels: dict[str, dict[str, int]]) -> tuple[float, np.ndarray]:
    scores = qvecs @ dvecs.T
    top = np.argsort(-scores, axis=1, kind="stable")[:, :10]
    total = 0.0
    for qi, qid in enumerate(qids):
        rel = qrels[qid]
        dcg = sum(rel.get(dids[d], 0) / math.log2(r + 2) for r, d in enumerate(top[qi]))
        ideal = sorted(rel.values(), reverse=True)[:10]
        idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal))
        total += dcg / idcg if idcg else 0.0
    return total / len(qids), top


def retrieval(variants: dict[str, Path]) -> None:
    corpus, queries, qrels = SCIFACT / "corpus.jsonl", SCIFACT / "queries-train.jsonl", SCIFACT / "qrels" / "train.tsv"
    if not (corpus.is_file() and queries.is_file() and qrels.is_file()):
        print("retrieval: SciFact files not found; skipped")
        return
    docs = [json.loads(x) for x in corpus.read_text(encoding="utf-8").splitlines() if x.strip()]
    dids = [d["_id"] for d in docs]
    dtexts = [(d.get("title", "") + ". " + d.get("text", "")).strip() for d in docs]
    rel: dict[str, dict[str, int]] = {}
    for line in qrels.read_text(encoding="utf-8").splitlines()[1:]:
        q, d, s = line.split("\t")
        rel.setdefault(q, {})[d] = int(s)
    qs = [json.loads(x) for x in queries.read_text(encoding="utf-8").splitlines() if x.strip()]
    qs = [q for q in qs if q["_id"] in rel]
    qids, qtexts = [q["_id"] for q in qs], [q["text"] for q in qs]
    print(f"\nretrieval: SciFact train, {len(dtexts)} docs, {len(qids)} queries (doc = title + abstract, truncated at 256 word pieces)")
    tops = {}
    for name, d in variants.items():
        emb = Embedder(d).load()
        t = time.perf_counter()
        dv = emb.embed(dtexts)
        secs = time.perf_counter() - t
        qv = emb.embed(qtexts)
        score, tops[name] = ndcg_at_10(qv, dv, qids, dids, rel)
        print(f"  {name:5s} nDCG@10 = {score:.4f}   (embedded corpus in {secs:.0f}s = {len(dtexts) / secs:.1f} docs/s)")
    if "fp32" in tops and "int8" in tops:
        overlap = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(tops["fp32"], tops["int8"])])
        print(f"  top-10 overlap int8 vs fp32: {overlap:.3f}")


# ----------------------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model-root", type=Path, default=Path("/tmp/cairn-bench-models"),
                    help="where to export the fp32/ and int8/ variants (default: %(default)s)")
    ap.add_argument("--variants", default="fp32,int8")
    ap.add_argument("--batch-sizes", default="1,4,8,16,32,64")
    ap.add_argument("--chunks", type=int, default=192, help="number of ~90-token chunks")
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3, help="timed repetitions (best is reported)")
    ap.add_argument("--cold-runs", type=int, default=3)
    ap.add_argument("--no-reference", action="store_true", help="skip the cosine check against torch")
    ap.add_argument("--retrieval", action="store_true", help="also run SciFact nDCG@10 per variant")
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # figures appear as they are measured

    import onnxruntime
    import tokenizers

    print(f"python {platform.python_version()}, {platform.machine()}, os.cpu_count()={os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.1f}, "
          f"onnxruntime {onnxruntime.__version__}, tokenizers {tokenizers.__version__}, numpy {np.__version__}")

    variants: dict[str, Path] = {}
    for v in args.variants.split(","):
        d = args.model_root / v
        t = time.perf_counter()
        ex.export_model(d, quantize=(v == "int8"))
        size = (d / ex.ONNX_FILE).stat().st_size / 1e6
        print(f"export {v}: {time.perf_counter() - t:.1f}s (0 if already up to date), model.onnx {size:.0f} MB")
        variants[v] = d

    paras, source = load_paragraphs()
    sents = make_sentences(paras, args.sentences)
    chunks = make_chunks(paras, args.chunks)
    tok = _source_tokenizer()
    clen = [len(tok.encode(c).ids) for c in chunks]
    slen = [len(tok.encode(s).ids) for s in sents]
    print(f"texts from {source}: {len(chunks)} chunks (word pieces mean {np.mean(clen):.0f}, "
          f"range {min(clen)}-{max(clen)}), {len(sents)} sentences (mean {np.mean(slen):.0f}, "
          f"range {min(slen)}-{max(slen)})")

    print("\ncold start (fresh interpreter, warm page cache; median of", args.cold_runs, "runs)")
    for name, d in variants.items():
        c = cold_start(d, args.cold_runs)
        print(f"  {name:5s} import cairn.embed {c['import_s']:.2f}s, import + first vector "
              f"{c['first_vector_s']:.2f}s, whole process {c['process_wall_s']:.2f}s")

    bss = [int(b) for b in args.batch_sizes.split(",")]
    defaults = {name: Embedder(d).load().batch_size for name, d in variants.items()}
    print("\ndefault batch size: " + ", ".join(f"{n} {b}" for n, b in defaults.items())
          + " (the cosine and retrieval figures below use these)")
    docs = paras[: len(chunks)]
    dlen = [min(256, len(tok.encode(p).ids)) for p in docs]
    print(f"\nhead-to-head at default batch sizes, threads=min(2, cpu), interleaved, best of {args.repeat} "
          f"(load average before: {os.getloadavg()[0]:.1f})")
    head_to_head(variants, {f"{len(chunks)} chunks (~90 tok)": chunks,
                            f"{len(sents)} sentences (~{np.mean(slen):.0f} tok)": sents,
                            f"{len(docs)} abstracts (~{np.mean(dlen):.0f} tok)": docs}, args.repeat)

    for label, texts in (("~90-token chunk", chunks), ("mixed-length sentence", sents)):
        print(f"\nCPU cost, ms of CPU per {label} with threads=1 (best of {args.repeat}; "
              f"robust to background load)")
        print("  batch " + "".join(f"{b:>8d}" for b in bss))
        for name, row in cpu_cost(variants, texts, bss, args.repeat).items():
            print(f"  {name:5s} " + "".join(f"{r:8.1f}" for r in row))
    for label, texts in (("~90-token chunks/s", chunks), ("mixed-length sentences/s", sents)):
        print(f"\nthroughput, {label} (sorted by length, threads=min(2, cpu); best of {args.repeat}; "
              f"load average before: {os.getloadavg()[0]:.1f})")
        print("  batch " + "".join(f"{b:>8d}" for b in bss))
        for name, row in throughput(variants, texts, bss, args.repeat).items():
            print(f"  {name:5s} " + "".join(f"{r:8.1f}" for r in row))

    try:
        if args.no_reference:
            raise ImportError
        from sentence_transformers import SentenceTransformer
    except ImportError:
        print("\ncosine vs torch reference: skipped (--no-reference, or sentence-transformers not importable)")
    else:
        src, _ = ex.source_model_dir()
        st = SentenceTransformer(str(src), device="cpu")
        texts = sents + chunks
        t = time.perf_counter()
        ref = st.encode(texts, batch_size=16, normalize_embeddings=True, convert_to_numpy=True)
        secs = time.perf_counter() - t
        print(f"\ncosine vs sentence-transformers reference ({len(sents)} sentences + {len(chunks)} chunks; "
              f"torch itself: {len(texts) / secs:.1f} texts/s at batch 16)")
        for name, d in variants.items():
            got = Embedder(d).embed(texts)
            s1, s2 = cos_stats(got[: len(sents)], ref[: len(sents)]), cos_stats(got[len(sents):], ref[len(sents):])
            print(f"  {name:5s} sentences: mean {s1['mean']:.5f} p1 {s1['p1']:.5f} min {s1['min']:.5f} | "
                  f"chunks: mean {s2['mean']:.5f} p1 {s2['p1']:.5f} min {s2['min']:.5f}")
        # does quantisation change which neighbours come first?
        if len(variants) > 1:
            rs = ref[: len(sents)] @ ref[: len(sents)].T
            ref_top = np.argsort(-rs, axis=1)[:, 1:6]
            for name, d in variants.items():
                got = Embedder(d).embed(sents)
                top = np.argsort(-(got @ got.T), axis=1)[:, 1:6]
                ov = np.mean([len(set(a) & set(b)) / 5 for a, b in zip(top, ref_top)])
                print(f"  {name:5s} sentence-to-sentence top-5 neighbour overlap with reference: {ov:.3f}")

    if args.retrieval:
        retrieval(variants)
    return 0


if __name__ == "__main__":
    sys.exit(main())
