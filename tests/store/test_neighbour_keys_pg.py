"""Neighbour-carrying chat keys (ingest/neighbours.py) on PostgreSQL: `cairn import chat`
through the service stores the vectors the rule defines, as on SQLite
(tests/test_neighbour_keys.py), through the twins in store/postgres/vectors.py."""

from __future__ import annotations

import json

import numpy as np

from cairn.ingest.embedding import embed_text
from cairn.ingest.neighbours import mix
from cairn.model import Chunk
from cairn.service import Cairn

MESSAGES = [("s1", "m1", "Ana", "Are we still going to the lighthouse trip next week?"),
            ("s1", "m2", "Ben", "Yes, last Tuesday we booked it!"),
            ("s1", "m3", "Ana", "Great, I will pack the camera."),
            ("s2", "m4", "Ben", "Just one message in this session about bread.")]


def test_import_chat_on_postgresql_stores_mixed_message_vectors(tmp_path, pg_url, monkeypatch, hash_embedder):
    monkeypatch.setenv("CAIRN_STORE_URL", pg_url)
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps({"conversation": "c", "session": s, "id": i, "speaker": sp,
                                        "time": f"2024-05-0{n + 1}T10:00", "text": t}) + "\n"
                            for n, (s, i, sp, t) in enumerate(MESSAGES)))
    with Cairn(tmp_path / "home", embedder=hash_embedder) as app:
        assert app.on_postgres
        app.settings.memory.neighbour_keys = 0.3
        app.import_chat(path, extract=False)
        from cairn.store.postgres.vectors import _array
        with app.conn.session.connection() as pg:
            rows = pg.execute("SELECT c.source_id, v.vec::text FROM chunks c JOIN vectors v ON v.chunk_id = c.id"
                              ).fetchall()
    got = {r[0]: _array(r[1]) for r in rows}
    own = {i: hash_embedder.embed([embed_text("", Chunk(ord=0, text=t, start=0, end=0, speaker=sp))])[0]
           for _, i, sp, t in MESSAGES}
    assert np.allclose(got["m2"], mix(own["m2"], [own["m1"], own["m3"]], 0.3), atol=1e-5)
    assert np.allclose(got["m1"], mix(own["m1"], [own["m2"]], 0.3), atol=1e-5)
    assert np.allclose(got["m4"], own["m4"], atol=1e-5)  # alone in its session
