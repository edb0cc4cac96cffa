"""The files of the vector matrix cache beside a SQLite index, and reading them ahead.

`VectorIndex` (store/vectors.py) saves its float32 matrix as `vectors.npy` (rows of the
vectors, L2-normalised), `vector_ids.npy` (the chunk id of each row) and `vectors.gen` (the
index's vector generation they were made at) in the home folder, and memory-maps the
matrix when the generation is current.

Mapping is cheap, but the first search then faults every page of the matrix into the
process: at 106k chunks x 384 (163 MB) ~15 ms of a cold `cairn search` on the 2-core
machine, on top of the ~18 ms product itself (bench/README.md, session 9). `prefetch`
maps the matrix and reads its pages in (a numpy reduction over one value per row, which
runs outside the GIL) on a background thread before the search needs it; `take` hands that mapping to the
VectorIndex, which would otherwise map the file again. This module imports nothing of
Cairn's, so the command line can call it before the store is imported.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

MATRIX_FILE = "vectors.npy"
IDS_FILE = "vector_ids.npy"
GEN_FILE = "vectors.gen"

_lock = threading.Lock()
_ready: dict[str, tuple[tuple[int, int, int], Any]] = {}  # matrix path -> (file identity, mapping)


def paths(cache_dir: Path) -> tuple[Path, Path, Path]:
    """(matrix, ids, generation) file paths of the cache in `cache_dir`."""
    d = Path(cache_dir)
    return d / MATRIX_FILE, d / IDS_FILE, d / GEN_FILE


def _identity(path: Path) -> tuple[int, int, int]:
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns, st.st_size


def prefetch(cache_dir: Path) -> bool:
    """Memory-map the cached matrix in `cache_dir` and read its pages in, keeping the
    mapping for `take`. Returns True when a mapping is ready, False when there is no cache
    file or it cannot be read (nothing happens then: the search maps the file itself)."""
    mat_p = paths(cache_dir)[0]
    try:
        import numpy as np
        ident = _identity(mat_p)
        mat = np.load(mat_p, mmap_mode="r")
    except (OSError, ValueError):
        return False
    if len(mat.shape) == 2 and mat.shape[0] and mat.shape[1]:
        # One value of every row: every page of the file is faulted in (a row is 1.5 kB
        # at 384 dimensions), inside a numpy reduction, which runs outside the GIL.
        np.add.reduce(mat[:, 0])
    with _lock:
        _ready[str(mat_p)] = (ident, mat)
    return True


def take(mat_path: Path) -> Any | None:
    """The mapping `prefetch` made of `mat_path`, once (None when there is none, or the
    file was replaced since: another process rewrote the cache)."""
    with _lock:
        entry = _ready.pop(str(mat_path), None)
    if entry is None:
        return None
    try:
        return entry[1] if _identity(mat_path) == entry[0] else None
    except OSError:
        return None
