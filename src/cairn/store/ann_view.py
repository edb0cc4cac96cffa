"""A searching process's read-only view of the HNSW graph file (store/ann.py), made through
usearch's compiled module alone.

Why: `from usearch.index import Index` also imports what usearch needs to download its
SQLite extension and draw progress bars (urllib.request with http.client, ssl and email;
tqdm, which reads its own version through importlib.metadata): ~40 ms of CPU holding the
GIL, against ~3 ms for the compiled module, in a cold `cairn search` whose start-up is
mostly such Python work (bench/README.md, session 17). A search only maps the file, reads
its size and keys and searches it, so `map_graph` builds the compiled index as
`Index.restore(path, view=True)` does (the file's own metadata: dimensions, scalar kind,
metric; usearch's default parameters) and `MappedGraph` answers the few calls AnnIndex
makes of a mapped graph. Everything that writes a graph (build, fold) keeps the full
`usearch.index.Index` (ann.usearch_index).

The compiled module is loaded the way usearch's package loads it: onnxruntime first (the
load order of ann.usearch_index), numkong's kernels with RTLD_GLOBAL, then the extension
under its own name `usearch.compiled` but not entered in sys.modules: a later `import
usearch` in the same process imports its package as usual, and Python hands it the same,
already initialised extension module (one copy of its types: tests/store/test_ann.py).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import threading

LOAD_LOCK = threading.RLock()  # one thread loads usearch (this module or ann.usearch_index)
_loaded: list = []  # the compiled module, once loaded here


def compiled():
    """usearch's compiled extension module (`usearch.compiled`), loaded without running the
    usearch package's own __init__ when it is not imported yet (see the module docstring). Raises ImportError when
    usearch (or its compiled module) is not installed."""
    with LOAD_LOCK:
        mod = sys.modules.get("usearch.compiled") or (_loaded[0] if _loaded else None)
        if mod is not None:
            return mod
        try:
            import onnxruntime  # noqa: F401 - before usearch's native code: see ann.usearch_index
        except ImportError:
            pass
        if "usearch" in sys.modules:  # the package is (being) imported: its own way
            import usearch.compiled
            return usearch.compiled
        spec = importlib.util.find_spec("usearch")  # finds the package without running it
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("usearch is not installed")
        _load_numkong()
        path = _extension(spec.submodule_search_locations[0])
        loader = importlib.machinery.ExtensionFileLoader("usearch.compiled", path)
        cspec = importlib.util.spec_from_file_location("usearch.compiled", path, loader=loader)
        mod = importlib.util.module_from_spec(cspec)
        loader.exec_module(mod)
        _loaded.append(mod)
        return mod


def _load_numkong() -> None:
    """numkong's kernels loaded with RTLD_GLOBAL, as usearch/__init__.py does before its
    compiled module (which resolves numkong's symbols when it loads); nothing when numkong
    is not installed (usearch then runs without it)."""
    try:
        from numkong import _numkong
    except ImportError:
        return
    if _numkong.__file__ and sys.platform != "win32":
        import ctypes
        ctypes.CDLL(_numkong.__file__, mode=ctypes.RTLD_GLOBAL)


def _extension(folder: str) -> str:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, "compiled" + suffix)
        if os.path.isfile(path):
            return path
    raise ImportError(f"no compiled module of usearch in {folder}")


class MappedGraph:
    """A graph file mapped read-only (`map_graph`): len(), `key in graph`, `keys` (np.uint64 array),
    `expansion_search` (settable), `search(vector, count, threads=1)` -> an object whose
    `keys` are the best `count` keys, nearest first (as usearch.index.Index.search for one
    vector)."""

    def __init__(self, index, scalar_unknown, lookups: bool) -> None:
        self._c = index
        self._unknown = scalar_unknown
        self.lookups = lookups  # False: `keys` and `in` cannot be answered (map_graph)

    def __len__(self) -> int:
        return len(self._c)

    def __contains__(self, key: int) -> bool:
        if not self.lookups:
            raise LookupError("mapped without key lookups")
        return self._c.contains_one(int(key))

    @property
    def keys(self):
        if not self.lookups:
            raise LookupError("mapped without key lookups")
        return self._c.get_keys_in_slice()

    @property
    def expansion_search(self) -> int:
        return self._c.expansion_search

    @expansion_search.setter
    def expansion_search(self, value: int) -> None:
        self._c.expansion_search = value

    def search(self, vector, count: int, threads: int = 1) -> "_Matches":
        """The `count` nearest keys of one float32 vector (1-d), nearest first."""
        q = vector.reshape(1, -1)
        keys, distances, counts, _, _ = self._c.search_many(q, count=count, exact=False, threads=threads,
                                                           dtype=self._unknown)
        n = int(counts[0])
        return _Matches(keys[0, :n], distances[0, :n])


class _Matches:
    def __init__(self, keys, distances) -> None:
        self.keys, self.distances = keys, distances


def map_graph(path: str, lookups: bool = True) -> MappedGraph | None:
    """The graph file at `path` mapped read-only, or None when it does not exist or its
    header names no index (as Index.restore). lookups=False leaves out usearch's table from
    key to node (Index's `enable_key_lookups`), which mapping builds by visiting every node:
    the mapping then costs less than half (100k vectors: 4.6 against 10.7 ms of CPU) and
    searches find the same keys, but the graph cannot tell which keys it holds (`keys`,
    `in`: the caller maps it again with lookups when it needs them). Raises ImportError
    without usearch, and usearch's own errors (RuntimeError, ValueError) for a damaged file."""
    c = compiled()
    if not os.path.exists(path):
        return None
    meta = c.index_dense_metadata_from_path(path)
    if not meta:
        return None
    index = c.Index(ndim=meta["dimensions"], dtype=meta["kind_scalar"],
                    connectivity=c.DEFAULT_CONNECTIVITY, expansion_add=c.DEFAULT_EXPANSION_ADD,
                    expansion_search=c.DEFAULT_EXPANSION_SEARCH, metric_kind=meta["kind_metric"],
                    metric_signature=c.MetricSignature.ArrayArraySize, metric_pointer=0,
                    multi=False, enable_key_lookups=lookups)
    index.view_index_from_path(path, None)
    return MappedGraph(index, c.ScalarKind.Unknown, lookups)
