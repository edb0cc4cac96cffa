"""The PostgreSQL backend implements every method of every storage interface with the
SQLite implementation's parameters (so code above store/ can call either)."""

from __future__ import annotations

import inspect

import pytest

from cairn.store import backend as B
from cairn.store.postgres import jobs, keyword, memories, notes, vectors

MODULES = {"notes": (notes,), "keywords": (keyword,), "vectors": (vectors,), "links": (notes,),
           "jobs": (jobs,), "memories": (memories,)}
INTERFACES = {"notes": B.NoteStore, "keywords": B.KeywordIndex, "vectors": B.VectorStore,
              "links": B.LinkStore, "jobs": B.JobStore, "memories": B.MemoryStore}


def params(fn, drop: int) -> list[str]:
    return [p.name for p in list(inspect.signature(fn).parameters.values())[drop:]
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


@pytest.mark.parametrize("attr", sorted(INTERFACES))
def test_postgres_implements_every_interface_method(attr):
    for name, proto_fn in vars(INTERFACES[attr]).items():
        if not callable(proto_fn) or name.startswith("_"):
            continue
        fn = next((getattr(m, name) for m in MODULES[attr] if hasattr(m, name)), None)
        assert fn is not None, f"{attr}.{name} missing in store/postgres"
        want = params(proto_fn, 1)
        assert params(fn, 1)[:len(want)] == want, f"{attr}.{name}"
