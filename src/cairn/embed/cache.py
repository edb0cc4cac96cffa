"""An LRU cache in front of an embedder, for sentences embedded again and again (the same chat
sentences come back question after question in the person check and the extractive answer)."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

_CACHE: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
CACHE_SIZE = 20000


def embed_cached(embedder, texts: list[str]) -> np.ndarray:
    """`embedder.embed(texts)` with an LRU cache of up to CACHE_SIZE sentence vectors keyed
    by (model name, text): the same chat sentences come back question after question."""
    model = str(getattr(embedder, "model_name", id(embedder)))
    missing = list(dict.fromkeys(t for t in texts if (model, t) not in _CACHE))
    if missing:
        for t, v in zip(missing, embedder.embed(missing)):
            _CACHE[(model, t)] = np.asarray(v)
    out = []
    for t in texts:
        _CACHE.move_to_end((model, t))
        out.append(_CACHE[(model, t)])
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return np.stack(out)
