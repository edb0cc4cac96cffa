"""Cairn: a local-first memory for everything a person reads, saves, says and decides.

Layers, lowest first: `model` (plain data) -> `parse`, `chunk`, `embed`, `llm`, `fetch`
(guarded URL download) -> `store` (SQLite index) -> `jobs` (queue worker) -> `ingest`,
`search`, `answer`, `links`, `memory` -> `sync` (vault <-> index) -> `noteops`, `watch` ->
`service` (the application service) -> interfaces (`cli`). A module imports only from
layers below it.
"""

__version__ = "0.1.0"

import os as _os
import sys as _sys

# Numpy's BLAS (OpenBLAS) runs one thread per core by default. A hybrid search multiplies
# the query by every stored vector while its BM25 thread runs on the other core, and the
# extra BLAS thread fights that thread (and spins): at 106k chunks on the 2-core machine
# one BLAS thread kept the p50 (30.5-32.3 ms against 31.9-32.3) and cut the p95 from
# 49.6-50.5 to 36.4-39.6 ms (bench/README.md, issue 16). A server's concurrent requests
# gain the same way. Only a default: a value the person sets wins, and nothing changes
# once numpy is loaded (a program that imported it first keeps its own setting).
if "numpy" not in _sys.modules:
    _os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

