"""Several people in one home: one person never sees another's notes, memories, sessions,
core blocks, entities, reminders, audit entries, mood or exports, through any door — the
CLI (CAIRN_PERSON), REST and the web page (an API key mapped to a person) and MCP (stdio
with CAIRN_PERSON); a note marked `shared: true` is seen by everyone, a note without it only
by its owner (a note of the home's own person, which has no `cairn_owner`, by the home's
own person); the home's own person sees every note. Asking for another person's item by its
id answers NotFound (404), never Forbidden: its existence is not revealed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from cairn.apikeys import KeyStore
from cairn.errors import Forbidden, NotFound
from cairn.service import Cairn
from mcp_support import audit_entries, call, http_session, run, stdio_session
from rest_support import RestServer

SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("people")
    home = root / "home"
    (root / "ana").mkdir()
    (root / "ana" / "heron.md").write_text("---\npeople: [Marta Kowalski]\n---\n"
                                           "# Heron log\n\nThe grey heron nests by the mill pond.\n")
    (root / "bob").mkdir()
    (root / "bob" / "boiler.md").write_text("---\npeople: [Piotr Nowak]\n---\n"
                                            "# Boiler\n\nThe boiler pressure is 1.5 bar.\n")
    (root / "own").mkdir()
    (root / "own" / "will.md").write_text("# Heron will\n\nThe heron painting goes to the museum.\n")
    (root / "bob" / "rota.md").write_text("---\nshared: true\n---\n# Bin rota\n\nThe heron-grey bins go out on Monday.\n")
    from cairn.assistant import Assistant
    with Cairn(home, embedder=real_embedder, person="ana") as ana:
        ana.ingest([root / "ana"])
        ana.note_create("Ana diary", "Ana keeps her spare key under the heron statue.")
        ana.remember("I am allergic to peanuts")
        ana.core_set("name", "Ana")
        with ana.scheduler() as sch:
            sch.remind("water the ferns", every="every day at 9")
        ana.extract_transcript([("s-ana#1", "I'm exhausted and so worried about the exam", "2026-01-05T10:00:00+00:00")],
                               llm="none")
        Assistant(ana, channel="cli", person="local")  # a session of ana's
    with Cairn(home, embedder=real_embedder, person="bob") as bob:
        bob.ingest([root / "bob"])
        bob.remember("I play the trumpet on Sundays")
        bob.core_set("name", "Bob")
        with bob.scheduler() as sch:
            sch.remind("call the plumber", every="every day at 9")
    with Cairn(home, embedder=real_embedder) as owner:  # the home's own person
        owner.ingest([root / "own"])
        owner.core_set("name", "Owner")
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
        # hers: the one she said and the one extracted from her own session
        assert sorted(m.text for m in ana.memories()) == ["I am allergic to peanuts",
                                                           "The person is exhausted and so worried about the exam."]
    with Cairn(shared_home, embedder=real_embedder) as owner:  # the home's own person sees all
        assert titles(owner.search("heron", mode="keyword").hits) == {"Heron log", "Ana diary", "Bin rota",
                                                                      "Heron will"}
        assert len(owner.memories()) == 3  # ana's two (one extracted from her session) and bob's
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
        # server tasks are the person's who started them (a sync's result lists note paths)
        task = c.post("/api/sync", headers=bob)
        assert task.status_code == 202, task.text
        tid = task.json()["id"]
        assert tid in [t["id"] for t in c.get("/api/tasks", headers=bob).json()]
        assert tid not in [t["id"] for t in c.get("/api/tasks", headers=ana).json()]
        assert c.get(f"/api/tasks/{tid}", headers=ana).status_code == 404
        assert c.get(f"/api/tasks/{tid}").status_code == 200  # the home's own person sees all


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


def entity_names(listing) -> set[str]:
    rows = listing.to_json() if hasattr(listing, "to_json") else listing
    rows = rows.get("entities", rows) if isinstance(rows, dict) else rows
    return {e["name"] for e in rows}


def test_sharing_is_explicit(shared_home, real_embedder):
    """A note is shared with everyone only when its frontmatter says `shared: true`; a note
    without an owner (the home's own person's) is not shared; `shared: false` is not shared."""
    with Cairn(shared_home, embedder=real_embedder) as owner:
        owner.note_create("Gate code", "The gate code is 4711.")
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        with pytest.raises(NotFound):
            bob.note_show("Gate code")
        with pytest.raises(NotFound):
            bob.note_show("Heron will")
        made = bob.note_create("Bob secret", "Bob hides the spare fuse in the heron shed.")
        assert bob.note_show(made.id)["title"] == "Bob secret"
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        for ref in (made.id, "n0000000000000000"):  # another's id reads exactly as an unknown one
            with pytest.raises(NotFound, match="^no note with id, path, title or alias"):
                ana.note_show(ref)  # NotFound, never Forbidden
        assert "Bob secret" not in titles(ana.search("spare fuse heron shed", mode="keyword").hits)
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:  # sharing it is a frontmatter key
        bob.note_update(made.id, "---\nshared: true\n---\nBob hides the spare fuse in the heron shed.\n")
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        assert ana.note_show(made.id)["title"] == "Bob secret"
        assert "Bob secret" in titles(ana.search("spare fuse heron shed", mode="keyword").hits)
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        bob.note_update(made.id, "---\nshared: false\n---\nBob hides the spare fuse in the heron shed.\n")
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        with pytest.raises(NotFound):
            ana.note_show(made.id)


def test_each_person_has_their_own_blocks_graph_reminders_mood_and_exports(shared_home, real_embedder):
    from datetime import datetime, timezone
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        assert bob.core().blocks == {"name": "Bob"}
        names = entity_names(bob.entities())
        assert "Piotr Nowak" in names and "Marta Kowalski" not in names
        with pytest.raises(NotFound, match="no entity named"):
            bob.entity_show("Marta Kowalski")  # only ana's note names her: worded as unknown
        with pytest.raises(NotFound, match="no entity named"):
            bob.search("heron", entity="Marta Kowalski")
        # The graph is one for the home: a named person edits none of it (a merge or an alias
        # reached into other people's entities, and "no entity named" told a hidden one apart
        # from an unknown one; fresh-eyes tester, session 7).
        from cairn.errors import Forbidden
        for edit in (lambda: bob.entity_merge("Piotr Nowak", "Marta Kowalski"),
                     lambda: bob.entity_merge("Piotr Nowak", "Bin rota"),
                     lambda: bob.entity_alias("Piotr Nowak", "Marta Kowalski"),
                     lambda: bob.entity_alias("Piotr Nowak", "Zzyzx Unknown"),
                     lambda: bob.entity_split("Piotr Nowak", ["Piotr"])):
            with pytest.raises(Forbidden, match="only the home's own person"):
                edit()
        assert "Piotr Nowak" in entity_names(bob.entities())
        shown = bob.entity_show("Piotr Nowak").to_json()
        assert [n["title"] for n in shown["notes"]] == ["Boiler"]
        with bob.scheduler() as sch:
            assert [r.text for r in sch.list()] == ["call the plumber"]
            ana_rid = next(r.id for r in sch.__class__(sch.settings).list() if r.text == "water the ferns")
            with pytest.raises(NotFound):
                sch.get(ana_rid)
            with pytest.raises(NotFound):
                sch.cancel(ana_rid)
        assert bob.mood().to_json()["mood"] == "neutral"
        exp = bob.export(format="json")
        assert {e["title"] for e in exp.to_json()["notes"]} >= {"Boiler"}
        assert not {e["title"] for e in exp.to_json()["notes"]} & {"Heron log", "Ana diary", "Heron will"}
        with pytest.raises(NotFound):
            Cairn(shared_home, embedder=real_embedder, person="ana").export_path(exp.name)
        assert bob.export_path(exp.name).is_file()
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        assert ana.core().blocks == {"name": "Ana"}
        assert "Marta Kowalski" in entity_names(ana.entities())
        assert ana.entity_show("Marta Kowalski").to_json()["notes"][0]["title"] == "Heron log"
        now = datetime(2026, 1, 5, 11, 0, tzinfo=timezone.utc)
        assert ana.mood(at=now).to_json()["mood"] != "neutral"
        with ana.scheduler() as sch:
            assert [r.text for r in sch.list()] == ["water the ferns"]
    with Cairn(shared_home, embedder=real_embedder) as owner:
        assert owner.core().blocks == {"name": "Owner"}  # the home's own blocks, not each person's
        assert {"Marta Kowalski", "Piotr Nowak"} <= entity_names(owner.entities())
        with owner.scheduler() as sch:
            assert {"water the ferns", "call the plumber"} <= {r.text for r in sch.list()}
        owner.reindex()  # core blocks of each person live in the vault's memory mirror
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        assert ana.core().blocks == {"name": "Ana"}
    with Cairn(shared_home, embedder=real_embedder, person="carol") as carol:  # a person with nothing yet
        assert carol.core().blocks == {} and not carol.memories()
        assert not entity_names(carol.entities()) & {"Marta Kowalski", "Piotr Nowak"}  # the shared note's only
        assert titles(carol.search("heron", mode="keyword").hits) == {"Bin rota"}



def test_names_and_links_never_point_into_another_persons_notes(shared_home, real_embedder):
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        ana.note_create("Garden", "Ana's garden plan links to [[Bin rota]] and [[Boiler]].")
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        bob.note_create("Garden", "Bob's garden is all gravel.")
        assert "gravel" in bob.note_show("Garden")["body"]  # his own, not "ambiguous" with ana's
        links = bob.links("Bin rota").to_json()
        assert not [b for b in links["backlinks"] if b["source_title"] == "Garden"]  # ana's link
        heron_path = Cairn(shared_home, embedder=real_embedder).find_note("Heron log").path
        with pytest.raises(NotFound):
            bob.note_show(heron_path)  # by path: not found either
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        assert "Ana's garden" in ana.note_show("Garden")["body"]
        out = {v["target"]: v["kind"] for v in ana.links("Garden").to_json()["outgoing"]}
        assert out == {"Bin rota": "resolved", "Boiler": "unresolved"}  # bob's Boiler is not hers
        assert "Boiler" in {v["target"] for v in ana.unresolved_links().to_json()}


def ids_of(shared_home, person: str) -> dict:
    """The ids of `person`'s items, read as that person through the service: a note, a
    reminder, a session (for the tests asking for them as someone else)."""
    from cairn.assistant.sessions import SessionStore
    with Cairn(shared_home, person=person) as svc:
        note = svc.find_note("Ana diary" if person == "ana" else "Boiler").id
        with svc.scheduler() as sch:
            rid = sch.list()[0].id
        memory = svc.memories()[0].id
    sessions = SessionStore(shared_home, viewer=person).list()
    return {"note": note, "reminder": rid, "memory": memory, "session": sessions[0].id if sessions else None}


def test_the_cli_keeps_the_rest_apart(shared_home):
    ana = ids_of(shared_home, "ana")
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_LOAD_PLUGINS": "", "CAIRN_PERSON": "bob"}
    env.pop("CAIRN_STORE_URL", None)

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "cairn", "--home", str(shared_home), *args],
                              capture_output=True, text=True, timeout=600, env=env)

    def ok_json(*args):
        r = cli(*args, "--json")
        assert r.returncode == 0, (args, r.stderr)
        return json.loads(r.stdout)
    assert ok_json("core")["blocks"] == {"name": "Bob"}
    names = entity_names(ok_json("entities"))
    assert "Piotr Nowak" in names and "Marta Kowalski" not in names
    r = cli("entity", "show", "Marta Kowalski")
    assert r.returncode == 1 and "no entity named" in r.stderr and "Heron" not in r.stdout  # NotFound
    assert [x["text"] for x in ok_json("reminders")] == ["call the plumber"]
    r = cli("reminders", "done", ana["reminder"])
    assert r.returncode == 1 and "no reminder" in r.stderr
    assert ok_json("sessions") == []  # ana's session is not listed...
    r = cli("sessions", "show", ana["session"])
    assert r.returncode == 1 and "no session" in r.stderr and "exhausted" not in r.stdout  # ...nor shown
    assert ok_json("mood")["mood"] == "neutral"
    assert all(e.get("person") == "bob" for e in ok_json("audit"))
    r = cli("note", "show", ana["note"])  # by id: not found, not forbidden
    assert r.returncode == 1 and "spare key" not in r.stdout
    r = cli("export", "--format", "json", "--json")
    assert r.returncode == 0, r.stderr
    exported = {n["title"] for n in json.loads(r.stdout)["notes"]}
    assert "Boiler" in exported and not exported & {"Heron log", "Ana diary", "Heron will"}
    env["CAIRN_PERSON"] = "../ana"  # bad input: a malformed name is refused, nothing is read
    for args in (("core",), ("sessions",), ("audit",)):
        r = cli(*args)
        assert r.returncode != 0 and "person '../ana'" in r.stderr and "Ana" not in r.stdout


def test_rest_web_and_mcp_over_http_keep_the_rest_apart(shared_home):
    ana = ids_of(shared_home, "ana")
    keys = KeyStore(shared_home)
    _, bob_key = keys.create("bob-admin", "admin", person="bob")
    _, ana_key = keys.create("ana-admin", "admin", person="ana")
    bob = {"Authorization": f"Bearer {bob_key}"}
    try:
        with RestServer(shared_home, "[server]\ntrust_loopback = false\n") as server, server.client() as c:
            assert c.get("/api/memories/core", headers=bob).json()["blocks"] == {"name": "Bob"}
            r = c.put("/api/memories/core/style", json={"text": "terse"}, headers=bob)
            assert r.status_code == 200 and r.json()["blocks"] == {"name": "Bob", "style": "terse"}
            assert "style" not in c.get("/api/memories/core", headers={"Authorization": f"Bearer {ana_key}"}).json()["blocks"]
            names = {e["name"] for e in c.get("/api/entities", headers=bob).json()}
            assert "Piotr Nowak" in names and "Marta Kowalski" not in names
            assert [x["text"] for x in c.get("/api/reminders", headers=bob).json()] == ["call the plumber"]
            r = c.post(f"/api/reminders/{ana['reminder']}/done", headers=bob)
            assert r.status_code == 404, r.text  # another person's reminder: not found
            assert c.get(f"/api/notes/{ana['note']}", headers=bob).status_code == 404
            assert c.put(f"/api/notes/{ana['note']}", json={"body": "x"}, headers=bob).status_code == 404
            assert c.delete(f"/api/notes/{ana['note']}", headers=bob).status_code == 404
            assert c.get(f"/api/memories/{ana['memory']}/history", headers=bob).status_code == 404
            assert ana["session"]  # her chat session: not listed, shown or deleted for bob
            assert ana["session"] not in [x["id"] for x in c.get("/chat/sessions", headers=bob).json()]
            assert c.get(f"/chat/sessions/{ana['session']}", headers=bob).status_code == 404
            assert c.delete(f"/chat/sessions/{ana['session']}", headers=bob).status_code == 404
            ana_h = {"Authorization": f"Bearer {ana_key}"}
            assert ana["session"] in [x["id"] for x in c.get("/chat/sessions", headers=ana_h).json()]
            assert c.delete(f"/api/memories/{ana['memory']}", headers=bob).status_code == 404
            r = c.get("/api/search", params={"q": "heron", "mode": "keyword", "entity": "Marta Kowalski"}, headers=bob)
            assert r.status_code == 404
            audit = c.get("/audit", headers=bob).json()
            assert audit and all(e.get("person") == "bob" for e in audit)
            assert any(e["action"] == "memory.core_set" for e in audit)
            # a name of her own: a default name is the second it was made in, which bob's CLI export above may share
            made = c.post("/api/export", json={"format": "json", "name": "ana-only-export"},
                          headers={"Authorization": f"Bearer {ana_key}"})
            assert made.status_code == 200, made.text
            assert c.get(f"/api/exports/{made.json()['name']}", headers=bob).status_code == 404
            asked = c.post("/api/ask", json={"question": "Where is the spare key?"},
                           headers={"Authorization": f"Bearer {ana_key}"})
            assert asked.status_code == 200, asked.text
            ana_trace = asked.headers["X-Trace-Id"]
            assert c.get(f"/traces/{ana_trace}", headers={"Authorization": f"Bearer {ana_key}"}).status_code == 200
            assert c.get(f"/traces/{ana_trace}", headers=bob).status_code == 404  # its question is hers
            assert ana_trace not in {t["id"] for t in c.get("/traces", headers=bob).json()}
            from cairn.events import bus_for
            assert any(e.data.get("person") == "ana" for e in bus_for(shared_home).since(0))  # there to hide
            frames = []
            try:
                with c.stream("GET", "/events", params={"since": 0}, headers=bob,
                              timeout=httpx.Timeout(120, read=3)) as stream:
                    for line in stream.iter_lines():
                        if line.startswith("data: "):
                            frames.append(json.loads(line[6:]))
            except httpx.ReadTimeout:
                pass  # the backlog came first; then the stream waits for new events
            assert frames and all(f["data"].get("person") == "bob" for f in frames)
            # the web page signed in with bob's key (the sign-in cookie) shows bob's notes only
            assert c.post("/login", data={"key": bob_key, "next": "/notes"}).status_code in (200, 303)
            page = c.get("/notes")
            assert page.status_code == 200 and "Boiler" in page.text
            assert "Ana diary" not in page.text and "Heron log" not in page.text and "Heron will" not in page.text
            c.cookies.clear()

            async def conversation():
                async with http_session(f"{server.base}/mcp", headers=bob) as s:
                    return (await call(s, "core", {}), await call(s, "reminders", {}),
                            await call(s, "get_note", {"note": ana["note"]}))
            core, reminders, note = run(conversation())
            assert core[1]["blocks"] == {"name": "Bob", "style": "terse"}
            assert "plumber" in reminders[2] and "ferns" not in reminders[2]
            assert note[0] and "spare key" not in note[2] and "no note with id, path, title or alias" in note[2]
    finally:
        (shared_home / "config.toml").unlink(missing_ok=True)


def test_mcp_over_stdio_keeps_the_rest_apart(shared_home, monkeypatch):
    ana = ids_of(shared_home, "ana")
    monkeypatch.setenv("CAIRN_PERSON", "bob")
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)

    async def conversation():
        async with stdio_session(shared_home) as s:
            return (await call(s, "core", {}), await call(s, "reminders", {}),
                    await call(s, "get_note", {"note": ana["note"]}),
                    await call(s, "remember", {"text": "Bob's bike is the red one"}))
    core, reminders, note, remembered = run(conversation())
    assert core[1]["blocks"].get("name") == "Bob" and "Ana" not in json.dumps(core[1])
    assert "plumber" in reminders[2] and "ferns" not in reminders[2]
    assert note[0] and "spare key" not in note[2] and "no note with id, path, title or alias" in note[2]
    assert not remembered[0]
    mine = [e for e in audit_entries(shared_home) if e["action"] == "tool.remember"]
    assert mine and mine[-1].get("person") == "bob"
    with Cairn(shared_home, person="ana") as ana_svc:
        assert "Bob's bike is the red one" not in [m.text for m in ana_svc.memories()]



def test_a_queued_ingest_belongs_to_who_queued_it(tmp_path, hash_embedder):
    """`cairn enqueue` as bob, `cairn jobs run` (or a worker) as anyone: the notes are
    bob's; the job list shows each person only the jobs queued for them."""
    home, src = tmp_path / "home", tmp_path / "in"
    src.mkdir()
    (src / "shed.md").write_text("# Shed\n\nThe shed key hangs by the door.\n")
    with Cairn(home, embedder=hash_embedder, person="bob") as bob:
        bob.enqueue([src])
        assert len(bob.jobs().to_json()["queued"]) == 1
    with Cairn(home, embedder=hash_embedder, person="ana") as ana:
        assert ana.jobs().to_json()["queued"] == [] and ana.jobs().to_json()["counts"]["queued"] == 0
    with Cairn(home, embedder=hash_embedder) as owner:
        assert len(owner.jobs().to_json()["queued"]) == 1
        owner.jobs_run()
        assert owner.find_note("Shed").meta.get("cairn_owner") == "bob"
    with Cairn(home, embedder=hash_embedder, person="ana") as ana:
        assert titles(ana.search("shed key", mode="keyword").hits) == set()
    with Cairn(home, embedder=hash_embedder, person="bob") as bob:
        assert titles(bob.search("shed key", mode="keyword").hits) == {"Shed"}
    (src / "shed.md").write_text("# Shed\n\nThe shed key now hangs by the window.\n")
    with Cairn(home, embedder=hash_embedder) as owner:  # a re-ingest by someone else keeps the owner
        assert owner.ingest([src]).updated
        assert owner.find_note("Shed").meta.get("cairn_owner") == "bob"
    with Cairn(home, embedder=hash_embedder, person="ana") as ana:
        assert titles(ana.search("shed window", mode="keyword").hits) == set()


def test_file_tools_show_a_person_only_their_notes(shared_home, real_embedder):
    """read_file / list_files (MCP, the assistant) went around the owner filter: a named person
    read another's note and the memory mirror by path (fresh-eyes tester, session 7)."""
    from cairn.errors import NotFound
    from cairn.tools import registry
    reg = registry()
    with Cairn(shared_home, embedder=real_embedder) as owner:
        _, rows = owner.store.notes.list_notes(limit=100)
        path = {r.title: r.path for r in rows}
        assert "spare key" in reg.call(owner, "read_file", {"path": path["Ana diary"]})["text"]
    memory_files = sorted(p.relative_to(owner.settings.vault) for p in (owner.settings.vault / "_memory").rglob("*.md"))
    assert memory_files
    with Cairn(shared_home, embedder=real_embedder, person="bob") as bob:
        for other in (path["Ana diary"], path["Heron log"], path["Heron will"], str(memory_files[0])):
            with pytest.raises(NotFound):
                reg.call(bob, "read_file", {"path": other})
        assert "Monday" in reg.call(bob, "read_file", {"path": path["Bin rota"]})["text"]  # shared
        assert "1.5 bar" in reg.call(bob, "read_file", {"path": path["Boiler"]})["text"]  # his own

        def walk(folder: str) -> set[str]:
            found = set()
            for e in reg.call(bob, "list_files", {"folder": folder})["entries"]:
                rel = f"{folder}/{e['name']}" if folder != "." else e["name"]
                found |= walk(rel) if e["dir"] else {rel}
            return found
        listed = walk(".")  # other tests of this module add notes of bob's to the home
        assert {path["Bin rota"], path["Boiler"]} <= listed
        assert not listed & {path["Ana diary"], path["Heron log"], path["Heron will"]}
        assert not any(p.startswith("_memory") for p in listed)
        with pytest.raises(NotFound):
            reg.call(bob, "list_files", {"folder": "_memory"})


def test_a_key_for_an_empty_person_is_refused(tmp_path):
    """`keys create NAME --person ""` made a key of the home's own person, who sees every
    note (a script passing an unset variable); it is refused, and nothing is stored."""
    from cairn.apikeys import KeyStore
    from cairn.errors import InvalidInput
    home = tmp_path / "home"
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "keys", "create", "phone",
                        "--person", ""], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "person ''" in r.stderr and "cairn_" not in r.stdout
    with pytest.raises(InvalidInput, match="person ''"):
        KeyStore(home).create("phone", "read", "")
    assert KeyStore(home).list() == []
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "keys", "create", "laptop"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr  # without --person: the home's own key, as before


def test_a_named_person_is_not_told_which_words_only_others_notes_hold(shared_home, real_embedder):
    """'no note contains X' / 'the notes never mention X' rested on the whole index's word
    counts: for a named person they told apart a word of another person's note (the tester's
    salary figure) from a word no note holds (fresh-eyes tester, session 7)."""
    with Cairn(shared_home, embedder=real_embedder, person="ana") as ana:
        for word in ("pressure", "zanzibarite"):  # in bob's private note / in no note
            res = ana.search(f"{word}", mode="keyword")
            assert not res.hits and res.missing_words == [] and not any("no note contains" in w for w in res.warnings)
            ans = ana.ask(f"What is the {word} of Piotr Nowak's boiler?", llm="none")
            assert ans.abstained and "never mention" not in ans.answer
    with Cairn(shared_home, embedder=real_embedder) as owner:  # the home's own person: as before
        assert owner.search("zanzibarite", mode="keyword").missing_words == ["zanzibarite"]
