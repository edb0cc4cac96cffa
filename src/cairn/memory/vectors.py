"""The vectors of memories: stored ones reused while they come from the embedder's model,
missing or stale ones (another model, never embedded) embedded and stored. Vectors are unit
length (the embedder's), so a dot product is the cosine."""

from __future__ import annotations

import json
import sqlite3

import numpy as np

from cairn.memory.model import Memory
from cairn.store import memories as S


def memory_vectors(conn: sqlite3.Connection, embedder, memories: list[Memory]) -> np.ndarray:
    """(n, dim) unit vectors of `memories`, embedding (and storing) any missing or stale one."""
    model = getattr(embedder, "model_name", "unknown")
    rows = S.memory_vectors(conn, [m.id for m in memories])
    missing = [m for m in memories if rows.get(m.id, (None, None))[0] != model or rows[m.id][1] is None]
    if missing:
        fresh = embedder.embed([m.text for m in missing])
        for m, v in zip(missing, fresh):
            blob = np.asarray(v, dtype="<f4").tobytes()
            S.set_memory_vector(conn, m.id, model, blob)
            rows[m.id] = (model, blob)
    if not memories:
        return np.zeros((0, getattr(embedder, "dim", 384)), dtype=np.float32)
    return np.stack([np.frombuffer(rows[m.id][1], dtype="<f4") for m in memories])


def scope_cosines(conn: sqlite3.Connection, embedder, scope: str,
                    vec: np.ndarray, forgotten: bool = False) -> list[tuple[Memory, float]]:
    """(light Memory with id/text/entities/event_time, cosine to `vec`) for every active (with
    `forgotten`: every forgotten) memory of `scope`; missing or stale vectors are embedded and stored."""
    rows = (S.forgotten_vector_rows if forgotten else S.active_vector_rows)(conn, scope)
    if not rows:
        return []
    light = [Memory(id=r["id"], text=r["text"], entities=json.loads(r["entities"]), event_time=r["event_time"])
             for r in rows]
    matrix = row_vectors(conn, embedder, rows, lambda i: light[i])
    return list(zip(light, (matrix @ vec).tolist()))


def row_vectors(conn: sqlite3.Connection, embedder, rows: list, memory_of) -> np.ndarray:
    """(n, dim) unit vectors of memory `rows` (each with `model` and `vec` columns): the
    stored vector when it is from the embedder's model, else `memory_of(i)` is embedded and
    stored (memory_vectors). rows must be non-empty."""
    model = getattr(embedder, "model_name", "unknown")
    stale = [i for i, r in enumerate(rows) if r["model"] != model or r["vec"] is None]
    fresh = dict(zip(stale, memory_vectors(conn, embedder, [memory_of(i) for i in stale]))) if stale else {}
    return np.stack([fresh[i] if i in fresh else np.frombuffer(r["vec"], dtype="<f4")
                     for i, r in enumerate(rows)])
