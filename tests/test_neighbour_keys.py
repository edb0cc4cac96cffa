"""Neighbour-carrying keys of chat messages (ingest/neighbours.py, `[memory] neighbour_keys`):
a message's stored vector is normalise(v + alpha x mean(previous, next message of its
session)); notes and lone messages keep their own vector; reindex, a changed setting and
changed facts all give the vectors the rule defines. Fast hash embedder: the rule, not the
model, is under test."""

from __future__ import annotations

import numpy as np
import pytest

from cairn.ingest.embedding import embed_text
from cairn.ingest.neighbours import key_hash, mix, mix_rows
from cairn.model import Chunk
from cairn.service import Cairn
from conftest import HashEmbedder, write, write_jsonl

MESSAGES = [
    ("s1", "m1", "Ana", "Are we still going to the lighthouse trip next week?"),
    ("s1", "m2", "Ben", "Yes, last Tuesday we booked it!"),
    ("s1", "m3", "Ana", "Great, I will pack the camera."),
    ("s2", "m4", "Ben", "Just one message in this session about bread."),
]


def _rows():
    return [{"conversation": "c", "session": s, "id": i, "speaker": sp, "time": f"2024-05-0{n + 1}T10:00",
             "text": t} for n, (s, i, sp, t) in enumerate(MESSAGES)]


def _stored(app) -> dict[str, np.ndarray]:
    """{source_id or note title: stored vector} of every chunk."""
    rows = app.conn.execute("""SELECT c.source_id, n.title, v.vec FROM chunks c JOIN notes n ON n.id = c.note_id
                               JOIN vectors v ON v.chunk_id = c.id""").fetchall()
    return {r[0] or r[1]: np.frombuffer(r[2], dtype="<f4") for r in rows}


def _own(emb, speaker, text) -> np.ndarray:
    t = embed_text("", Chunk(ord=0, text=text, start=0, end=0, speaker=speaker))
    return emb.embed([t])[0]


def _open(home, alpha):
    app = Cairn(home, embedder=HashEmbedder())
    app.settings.memory.neighbour_keys = alpha
    app.settings.memory.extract_on_import = False
    return app


def test_mix_is_the_normalised_sum_with_the_neighbours_mean():
    v, a, b = np.eye(3, dtype=np.float32)
    got = mix(v, [a, b], 0.3)
    want = (v + 0.3 * (a + b) / 2) / np.linalg.norm(v + 0.3 * (a + b) / 2)
    assert np.allclose(got, want) and abs(np.linalg.norm(got) - 1) < 1e-6
    assert np.array_equal(mix(v, [], 0.3), v) and np.array_equal(mix(v, [a], 0.0), v)
    rows = mix_rows(np.stack([v, a, b]), ["n1", "n1", None], 0.5)
    assert np.allclose(rows[0], mix(v, [a], 0.5)) and np.allclose(rows[1], mix(a, [v], 0.5))
    assert np.array_equal(rows[2], b)  # not a chat message: unchanged


def test_key_hash_depends_on_neighbours_and_alpha_only_when_mixing():
    import hashlib
    plain = hashlib.sha1(b"x").hexdigest()
    assert key_hash("x", [], 0.3) == plain and key_hash("x", ["y"], 0.0) == plain
    assert len({key_hash("x", ["y"], 0.3), key_hash("x", ["z"], 0.3), key_hash("x", ["y"], 0.5), plain}) == 4


def test_import_stores_mixed_message_vectors_and_plain_note_vectors(tmp_path):
    emb = HashEmbedder()
    path = write_jsonl(tmp_path / "chat.jsonl", _rows())
    home = tmp_path / "home"
    with _open(home, 0.3) as app:
        app.ingest([str(write(tmp_path / "bread.md", "# Bread\n\nSourdough needs a starter and time.\n"))])
        app.import_chat(path)
        got = _stored(app)
    own = {i: _own(emb, sp, t) for _, i, sp, t in MESSAGES}
    assert np.allclose(got["m1"], mix(own["m1"], [own["m2"]], 0.3), atol=1e-6)
    assert np.allclose(got["m2"], mix(own["m2"], [own["m1"], own["m3"]], 0.3), atol=1e-6)
    assert np.allclose(got["m3"], mix(own["m3"], [own["m2"]], 0.3), atol=1e-6)
    assert np.allclose(got["m4"], own["m4"], atol=1e-6)  # alone in its session
    note = app.conn.execute("SELECT c.text, n.title FROM chunks c JOIN notes n ON n.id = c.note_id "
                            "WHERE n.type != 'chat'").fetchone()
    assert np.allclose(got[note[1]], emb.embed([f"{note[1]}\n{note[0]}"])[0], atol=1e-6)  # a note: its own vector


def test_reindex_and_a_changed_setting_give_the_vectors_the_rule_defines(tmp_path):
    path = write_jsonl(tmp_path / "chat.jsonl", _rows())
    home = tmp_path / "home"
    with _open(home, 0.3) as app:
        app.import_chat(path)
        first = _stored(app)
        app.reindex()
        again = _stored(app)
    assert first.keys() == again.keys()
    assert all(np.allclose(first[k], again[k], atol=1e-6) for k in first)
    with _open(home, 0.0) as app:  # setting turned off: plain vectors at the next embedding pass
        app.sync()
        plain = _stored(app)
    emb = HashEmbedder()
    assert all(np.allclose(plain[i], _own(emb, sp, t), atol=1e-6) for _, i, sp, t in MESSAGES)
    with _open(home, 0.3) as app:  # and back
        app.sync()
        back = _stored(app)
    assert all(np.allclose(first[k], back[k], atol=1e-6) for k in first)


def test_new_facts_on_a_message_re_key_its_neighbours(tmp_path):
    from cairn.ingest import embed_missing
    from cairn.memory.keys import store_fact_keys
    emb = HashEmbedder()
    path = write_jsonl(tmp_path / "chat.jsonl", _rows())
    with _open(tmp_path / "home", 0.3) as app:
        app.import_chat(path)
        before = _stored(app)
        note_id = app.conn.execute("SELECT note_id FROM chunks WHERE source_id = 'm1'").fetchone()[0]
        store_fact_keys(app.conn, note_id, {"m1": ["Ana plans a lighthouse trip"]}, "rules")
        embed_missing(app.conn, app.embedder, None, fact_keys=True, neighbour_keys=0.3)
        after = _stored(app)
    m1 = emb.embed([embed_text("", Chunk(ord=0, text=MESSAGES[0][3], start=0, end=0, speaker="Ana"),
                                ["Ana plans a lighthouse trip"])])[0]
    own = {i: _own(emb, sp, t) for _, i, sp, t in MESSAGES}
    assert np.allclose(after["m2"], mix(own["m2"], [m1, own["m3"]], 0.3), atol=1e-6)  # neighbour re-keyed
    assert np.allclose(after["m3"], before["m3"], atol=1e-6)  # two places away: unchanged
    assert not np.allclose(after["m2"], before["m2"], atol=1e-4)


@pytest.mark.parametrize("alpha", [-0.1, 1.5])
def test_out_of_range_setting_is_refused(tmp_path, alpha):
    from cairn.config import ConfigError, load_settings
    home = tmp_path / "home"
    write(home / "config.toml", f"[memory]\nneighbour_keys = {alpha}\n")
    with pytest.raises(ConfigError, match="neighbour_keys"):
        load_settings(home)

