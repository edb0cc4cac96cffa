"""Text embeddings for Cairn: all-MiniLM-L6-v2 (384-d, unit-length float32) on onnxruntime.

    from cairn.embed import get_embedder
    vecs = get_embedder().embed(["some text", "more text"])   # np.ndarray (2, 384) float32

Importing this package is cheap: submodules, numpy and onnxruntime are imported on first use
(which also keeps ``python -m cairn.embed.export`` free of double-import warnings). The model
is exported once by ``python -m cairn.embed.export`` (``make install``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cairn.embed.minilm import DEFAULT_BATCH_SIZE, INT8_BATCH_SIZE, Embedder, EmbedderUnavailable

__all__ = ["DEFAULT_BATCH_SIZE", "INT8_BATCH_SIZE", "Embedder", "EmbedderUnavailable", "get_embedder",
           "shared_minilm"]

_instance: "Embedder | None" = None
_instance_lock = threading.Lock()


def __getattr__(name: str) -> Any:
    if name == "EmbedderUnavailable":
        from cairn.embed.errors import EmbedderUnavailable

        return EmbedderUnavailable
    if name in __all__ and name not in ("get_embedder", "shared_minilm"):
        from cairn.embed import minilm

        return getattr(minilm, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_embedder(name: str = "minilm") -> "Embedder":
    """The embedder registered as `name` through the `register_embedders` hook (built-in:
    "minilm", the shared all-MiniLM-L6-v2 of `shared_minilm`). Raises InvalidInput naming the
    registered ones for an unknown name."""
    from cairn.errors import InvalidInput
    from cairn.registries import embedders
    table = embedders()
    if name not in table:
        raise InvalidInput(f"unknown embedder {name!r}; registered: {', '.join(sorted(table))}")
    return table[name]()


def shared_minilm() -> "Embedder":
    """The process-wide shared :class:`Embedder` (default model directory), created on first call.

    Thread-safe. Construction is cheap; the model itself loads on the first ``embed()``, which
    raises :class:`EmbedderUnavailable` if the model is not installed and cannot be exported.
    """
    global _instance
    if _instance is None:
        with _instance_lock:
            if _instance is None:
                from cairn.embed.minilm import Embedder

                _instance = Embedder()
    return _instance
