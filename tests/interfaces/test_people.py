"""Several people in one home: one person never sees another's notes, memories or sessions,
through any door — the CLI (CAIRN_PERSON), REST (an API key mapped to a person) and MCP
(stdio with CAIRN_PERSON); a note marked `shared: true` is seen by everyone; the home's own
person sees everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.apikeys import KeyStore
from cairn.errors import Forbidden, NotFound
from cairn.service import Cairn
from mcp_support import call, run, stdio_session
from rest_support import RestServer

SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("people")
    home = root / "home"
    (root / "ana").mkdir()
    (root / "ana" / "heron.md").write_text("# Heron log\n\nThe grey heron nests by the mill pond.\n")
    (root / "bob").mkdir()
    (root / "bob" / "boiler.md").write_text("# Boiler\n\nThe boiler pressure is 1.5 bar.\n")
    (root / "bob" / "rota.md").write_text("---\nshared: true\n---\n# Bin rota\n\nThe heron-grey bins go out on Monday.\n")
    with Cairn(home, embedder=real_embedder, person="ana") as ana:
        ana.ingest([root / "ana"])
        ana.note_create("Ana diary", "Ana keeps her spare key under the heron statue.")
        ana.remember("I am allergic to peanuts")
    with Cairn(home, embedder=real_embedder, person="bob") as bob:
        bob.ingest([root / "bob"])
        bob.remember("I play the trumpet on Sundays")
    return home


def titles(hits) -> set[str]:
    return {h["title"] if isinstance(h, dict) else h.title for h in hits}


def test_the_service_keeps_people_apart(shared_home, real_embedder):
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        assert titles(bob.search("heron", mode="keyword").hits) == {"Bin rota"}  # ana's notes: not there
        assert titles(bob.search("heron statue spare key", mode="hybrid").hits) <= {"Bin rota", "Boiler"}
        assert {n["title"] for n in bob.notes_list().to_json()["notes"]} == {"Boiler", "Bin rota"}
        with pytest.raises(NotFound):
            bob.note_show("Ana diary")
        with pytest.raises(NotFound):
            bob.note_delete("Heron log")
        assert [m.text for m in bob.memories()] == ["I play the trumpet on Sundays"]
        assert all(r.memory.text != "I am allergic to peanuts" for r in bob.recall("peanuts allergy"))
        ana_memory = next(m for m in Cairn(shared_home, embedder=real_embedder, person="ana").memories())
        with pytest.raises(NotFound):
            bob.forget(ana_memory.id)
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        assert titles(ana.search("heron", mode="keyword").hits) == {"Heron log", "Ana diary", "Bin rota"}
        ans = ana.ask("Where is the spare key?", llm="none")
        assert ans.citations and all("Boiler" not in json.dumps(c) for c in ans.citations)
        assert ana.note_show("Bin rota")["title"] == "Bin rota"  # shared: readable...
        with pytest.raises(Forbidden):
            ana.note_update("Bin rota", "changed")  # ...not changeable by another person
        assert [m.text for m in ana.memories()] == ["I am allergic to peanuts"]
    with Cairn(shared_home, embedder=real_embedder) as owner:  # the home's own person sees all
        assert titles(owner.search("heron", mode="keyword").hits) == {"Heron log", "Ana diary", "Bin rota"}
        assert len(owner.memories()) == 2
    # the owner lives in the vault: a rebuilt index keeps people apart
    with Cairn(shared_home, embedder=real_embedder) as owner:
        owner.reindex()
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        assert titles(bob.search("heron", mode="keyword").hits) == {"Bin rota"}
        assert [m.text for m in bob.memories()] == ["I play the trumpet on Sundays"]


def test_the_cli_acts_for_cairn_person(shared_home):
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": "", "CAIRN_PERSON": "bob"}
    env.pop("CAIRN_STORE_URL", None)

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "cairn", "--home", str(shared_home), *args],
                              capture_output=True, text=True, timeout=600, env=env)
    r = cli("search", "heron", "--mode", "keyword", "--json")
    assert r.returncode == 0, r.stderr
    assert titles(json.loads(r.stdout)["hits"]) == {"Bin rota"}
    r = cli("memories", "--json")
    assert r.returncode == 0, r.stderr
    assert "peanuts" not in r.stdout and "trumpet" in r.stdout
    r = cli("note", "show", "Ana diary")
    assert r.returncode != 0 and "spare key" not in r.stdout
    env["CAIRN_PERSON"] = "bad name!"
    r = cli("search", "heron")
    assert r.returncode != 0 and "person 'bad name!'" in r.stderr


def test_rest_keys_map_to_people(shared_home):
    keys = KeyStore(shared_home)
    _, bob_key = keys.create("bob-phone", "write", person="bob")
    _, ana_key = keys.create("ana-laptop", "write", person="ana")
    with RestServer(shared_home) as server, server.client() as c:
        bob = {"Authorization": f"Bearer {bob_key}"}
        ana = {"Authorization": f"Bearer {ana_key}"}
        r = c.get("/api/search", params={"q": "heron", "mode": "keyword"}, headers=bob)
        assert r.status_code == 200 and titles(r.json()) == {"Bin rota"}
        r = c.get("/api/search", params={"q": "heron", "mode": "keyword"}, headers=ana)
        assert titles(r.json()) == {"Heron log", "Ana diary", "Bin rota"}
        assert c.get("/api/notes/Ana diary", headers=bob).status_code == 404
        assert c.get("/api/notes/Ana diary", headers=ana).status_code == 200
        mems = c.get("/api/memories", headers=bob).json()
        assert [m["text"] for m in mems] == ["I play the trumpet on Sundays"]
        made = c.post("/api/notes", json={"title": "Bob plans", "body": "Bob will paint the heron fence."},
                      headers=bob)
        assert made.status_code in (200, 201), made.text
        assert "Bob plans" not in titles(c.get("/api/search", params={"q": "heron", "mode": "keyword"},
                                                headers=ana).json())
        # the loopback caller without a key is the home's own person: everything
        assert "Bob plans" in titles(c.get("/api/search", params={"q": "heron", "mode": "keyword"}).json())


def test_mcp_acts_for_cairn_person(shared_home, monkeypatch):
    monkeypatch.setenv("CAIRN_PERSON", "bob")
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)

    async def conversation():
        async with stdio_session(shared_home) as s:
            found = await call(s, "search", {"query": "heron", "mode": "keyword"})
            note = await call(s, "get_note", {"note": "Ana diary"})
            recalled = await call(s, "recall", {"query": "peanuts allergy"})
            return found, note, recalled
    found, note, recalled = run(conversation())
    assert not found[0] and "Bin rota" in found[2] and "Heron log" not in found[2] and "Ana diary" not in found[2]
    assert note[0] and "spare key" not in note[2]
    assert "peanuts" not in recalled[2]


def test_a_session_belongs_to_its_person(tmp_path, hash_embedder):
    from cairn.assistant import Assistant
    home = tmp_path / "home"
    with Cairn(home, embedder=hash_embedder, person="ana") as ana, \
            Cairn(home, embedder=hash_embedder, person="bob") as bob:
        mine = Assistant(ana, channel="cli", person="local")
        assert mine.state.owner == "ana"
        with pytest.raises(NotFound, match="no session"):
            Assistant(bob, channel="cli", person="local", session_id=mine.state.id)
        # the current session of the same channel is not handed to another person either
        theirs = Assistant(bob, channel="cli", person="local")
        assert theirs.state.id != mine.state.id and theirs.state.owner == "bob"
        assert Assistant(ana, channel="cli", person="local").state.id == mine.state.id
