"""Merge candidates (EchoVessel V11): pairs of entities whose names mean nearly the same, put
to the person as "Is X the same as Y?" — a review list like the memories review.

Entity resolution already joins names that normalise alike (case, "the", plurals,
possessives: memory/entities.py). What it cannot tell — "Dave" and "David Moss", "Postgres"
and "PostgreSQL", "Lisbon office" and "Lisbon" — goes here: the cosine of the two names'
local embeddings (the home's embedder; each entity embedded as its name and aliases) in the
uncertain band [LOW, 1.0]. Nothing is merged without the person: "yes" merges the less
mentioned entity into the more mentioned one (graph/ops.merge, the same operation as
`cairn entity merge`), "no" is remembered so the pair is not asked again.

A pair whose kinds are both specific and differ (a person and a place) is not a candidate.
At most MAX_ENTITIES entities (the most mentioned) are compared, so a list costs one
embedding batch and a MAX_ENTITIES² matrix product, not a pass over the notes.

Answers are kept in `<home>/review/entity_pairs.json` ({pair id: "no"}), beside the index:
the index can be rebuilt from the vault; a lost file only means a pair may be asked again.
Pair ids are "ep-" + 12 hex of sha256 of the two entity ids, sorted (stable across runs).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

LOW = 0.72
MAX_ENTITIES = 400
GENERIC = {"entity", "topic", ""}  # kinds that do not rule a pair out


def pair_id(a: str, b: str) -> str:
    """The stable id of the pair of entity ids `a`, `b` (order does not matter)."""
    x, y = sorted((a, b))
    return "ep-" + hashlib.sha256(f"{x}|{y}".encode()).hexdigest()[:12]


def _answers_path(home) -> Path:
    return Path(home) / "review" / "entity_pairs.json"


def answers(home) -> dict[str, str]:
    """{pair id: "no"} of the pairs the person already answered (an unreadable file: none)."""
    try:
        data = json.loads(_answers_path(home).read_text(encoding="utf-8"))
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def remember_answer(home, pid: str, answer: str) -> None:
    """Record the person's answer to pair `pid` (written atomically). Answers given at the same
    time by two processes are both kept: the read-modify-write holds an exclusive lock on
    `entity_pairs.json.lock` (store.locks.file_lock) and each writer has its own temporary file. Raises
    Conflict, writing nothing, when the answers file exists but cannot be read (its earlier
    answers are kept)."""
    from cairn.errors import Conflict
    from cairn.store.locks import file_lock
    path = _answers_path(home)
    with file_lock(path.with_name(path.name + ".lock")):
        data = answers(home)
        if not data and path.exists():
            try:
                ok = isinstance(json.loads(path.read_text(encoding="utf-8")), dict)
            except (OSError, ValueError):
                ok = False
            if not ok:
                raise Conflict(f"{path} cannot be read (not a JSON object of answers); fix or remove it, "
                               "then answer again; nothing was recorded")
        data[pid] = answer
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)


def _mentions(e: dict) -> int:
    return int(e.get("notes") or 0) + int(e.get("memories") or 0)


def candidates(entities: list[dict], embedder, home, limit: int = 20, low: float = LOW) -> list[dict]:
    """The pairs to ask about, most similar first: [{"id", "question", "similarity", "a",
    "b"}] with a and b {"id", "name", "kind", "aliases", "notes", "memories"} (a: the more
    mentioned, the one a "yes" keeps). `entities` as `Cairn.entities()` lists them."""
    import numpy as np
    pool = sorted(entities, key=lambda e: (-_mentions(e), e["name"]))[:MAX_ENTITIES]
    if len(pool) < 2:
        return []
    texts = [" / ".join(dict.fromkeys([e["name"], *e.get("aliases", [])]))[:200] for e in pool]
    vecs = np.asarray(embedder.embed(texts), dtype=np.float32)
    vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
    sims = vecs @ vecs.T
    done = answers(home)
    out = []
    for i, j in zip(*np.nonzero(np.triu(sims >= low, k=1))):
        a, b = pool[int(i)], pool[int(j)]
        ka, kb = a.get("kind") or "", b.get("kind") or ""
        if ka not in GENERIC and kb not in GENERIC and ka != kb:
            continue
        pid = pair_id(a["id"], b["id"])
        if pid in done:
            continue
        if _mentions(b) > _mentions(a):
            a, b = b, a
        out.append({"id": pid, "question": f"Is {b['name']} the same as {a['name']}?",
                    "similarity": round(float(sims[i, j]), 3), "a": a, "b": b})
    out.sort(key=lambda c: (-c["similarity"], c["id"]))
    return out[:limit]
