"""store/matrix_cache.py: the vector matrix cache read ahead by a cold search, and handed to
the VectorIndex that would otherwise map the file again."""

from __future__ import annotations

import numpy as np
import pytest

from cairn.store import matrix_cache
from conftest import write
from cairn.store.vectors import VectorIndex


def _unit(rows: int, dim: int = 8, seed: int = 0) -> np.ndarray:
    m = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@pytest.fixture
def saved(tmp_path):
    """A cache folder holding a 50 x 8 matrix as VectorIndex writes it."""
    mat_p, ids_p, gen_p = matrix_cache.paths(tmp_path)
    mat = _unit(50)
    np.save(mat_p, mat)
    np.save(ids_p, np.arange(1, 51, dtype=np.int64))
    gen_p.write_text("7")
    return tmp_path, mat


def test_prefetch_maps_the_matrix_once_for_take(saved):
    folder, mat = saved
    assert matrix_cache.prefetch(folder) is True
    got = matrix_cache.take(matrix_cache.paths(folder)[0])
    assert isinstance(got, np.memmap) and np.array_equal(np.asarray(got), mat)
    assert matrix_cache.take(matrix_cache.paths(folder)[0]) is None  # handed over once


def test_no_cache_or_a_broken_one_prefetches_nothing(tmp_path):
    assert matrix_cache.prefetch(tmp_path) is False
    matrix_cache.paths(tmp_path)[0].write_bytes(b"not a numpy file")
    assert matrix_cache.prefetch(tmp_path) is False
    assert matrix_cache.take(matrix_cache.paths(tmp_path)[0]) is None


def test_a_matrix_rewritten_after_the_prefetch_is_not_handed_over(saved):
    folder, mat = saved
    assert matrix_cache.prefetch(folder)
    mat_p = matrix_cache.paths(folder)[0]
    tmp = mat_p.with_suffix(".tmp.npy")
    np.save(tmp, _unit(50, seed=1))  # another process saves a new cache (VectorIndex._write_cache)
    tmp.replace(mat_p)
    assert matrix_cache.take(mat_p) is None


def test_the_vector_index_searches_the_prefetched_mapping(app, tmp_path):
    write(tmp_path / "v" / "a.md", "# Heron\n\nThe heron nests by the mill pond.\n")
    write(tmp_path / "v" / "b.md", "# Bread\n\nSourdough needs a lively starter.\n")
    app.ingest([tmp_path / "v"])
    home = app.settings.home
    q = app.vectors._mat[0].copy() if len(app.vectors) else None  # loads (and saves) the matrix
    want = VectorIndex(app.conn, home).search(q, 5)
    assert matrix_cache.prefetch(home)
    fresh = VectorIndex(app.conn, home)
    assert fresh.search(q, 5) == want
    assert matrix_cache.take(matrix_cache.paths(home)[0]) is None  # the index took the mapping
