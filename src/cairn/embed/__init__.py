"""Text embeddings for Cairn: all-MiniLM-L6-v2 (384-d, unit-length float32) on onnxruntime.

    from cairn.embed import get_embedder
    vecs = get_embedder().embed(["some text", "more text"])   # np.ndarray (2, 384) float32

Importing this package is cheap: onnxruntime and the model are loaded on first use.
The model is exported once by ``python -m cairn.embed.export`` (``make install``).
"""

from __future__ import annotations

import threading

from cairn.embed.minilm import DEFAULT_BATCH_SIZE, Embedder, EmbedderUnavailable

__all__ = ["DEFAULT_BATCH_SIZE", "Embedder", "EmbedderUnavailable", "get_embedder"]

_instance: Embedder | None = None
_instance_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide shared :class:`Embedder` (default model directory), created on first call.

    Thread-safe. Construction is cheap; the model itself loads on the first ``embed()``, which
    raises :class:`EmbedderUnavailable` if the model is not installed and cannot be exported.
    """
    global _instance
    if _instance is None:
        with _instance_lock:
            if _instance is None:
                _instance = Embedder()
    return _instance
