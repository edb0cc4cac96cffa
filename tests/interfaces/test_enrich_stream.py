"""Issue 39, EchOS E18: enrichment streamed as it is produced. A real uvicorn on loopback and a
scripted model that streams its JSON and stops half-way: the category and tags reach
`GET /events` (enrich.item, each checked against the note) while the model has not yet
written the gist; the rest follows, then enrich.done. Also the note's content status set from
REST and from the web page's form (`mark_note` from every door); a file tool's diff on the web
chat page while it waits for approval."""

from __future__ import annotations

import json
import threading

import pytest

from rest_support import RestServer

from cairn.llm.stream_items import ItemStream
from fakes.scripted_llm import ScriptedLLM, pause, say, tool

BODY = ("The boiler pressure should be 1.2 bar when cold. Dave the plumber fixes leaks and "
        "services the boiler every March.")
REPLY = json.dumps({"category": "home", "tags": ["boiler", "pressure", "unicorn"],
                    "gist": "The boiler pressure should be 1.2 bar when cold.",
                    "key_points": ["Dave services the boiler every March.", "The boiler runs on hydrogen."]})


def test_item_stream_hands_on_whole_items_in_order():
    want = [("category", "home"), ("tag", "boiler"), ("tag", "pressure"), ("tag", "unicorn"),
            ("gist", "The boiler pressure should be 1.2 bar when cold."),
            ("key_point", "Dave services the boiler every March."), ("key_point", "The boiler runs on hydrogen.")]
    for size in (1, 2, 5, 13, len(REPLY)):
        items, got = ItemStream(), []
        for i in range(0, len(REPLY), size):
            got += items.feed(REPLY[i:i + size])
        assert got == want, size
    items = ItemStream()  # a key inside a string is text; a half string is never handed on
    assert items.feed('{"gist": "say \\"tags\\": [\\"x\\"] and') == []
    assert items.feed(' more", "tags": ["a"') == [("gist", 'say "tags": ["x"] and more'), ("tag", "a")]
    assert items.feed("]}") == []


class Events:
    """`GET /events` read in a thread: (type, data) in arrival order."""

    def __init__(self, srv):
        self.seen: list[tuple[str, dict]] = []
        self.cv = threading.Condition()
        self.ready = threading.Event()
        self.client = srv.client()
        threading.Thread(target=self._run, daemon=True).start()
        assert self.ready.wait(60)

    def _run(self):
        import httpx
        kind = None
        try:
            with self.client.stream("GET", "/events") as r:
                self.ready.set()
                for line in r.iter_lines():
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:") and kind:
                        with self.cv:
                            self.seen.append((kind, json.loads(line[5:])["data"]))
                            self.cv.notify_all()
        except httpx.HTTPError:  # the server stopped at the end of the module
            pass

    def wait_for(self, pred, timeout=60):
        with self.cv:
            assert self.cv.wait_for(lambda: pred(self.seen), timeout), self.seen
            return list(self.seen)


def _items(seen, note_id):
    return [(d["field"], d["value"], d["kept"]) for k, d in seen if k == "enrich.item" and d["note_id"] == note_id]


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def srv(tmp_path_factory, llm):
    config = f'llm = "openai:{llm.base_url}:scripted"\n[assistant]\nwrite_folders = ["writable"]\n'
    with RestServer(tmp_path_factory.mktemp("enrich") / "home", config) as s:
        yield s


def test_enrichment_reaches_the_event_stream_while_the_model_writes(srv, llm):
    with srv.client() as c:
        note = c.post("/api/notes", json={"title": "Boiler", "body": BODY}).json()
        events = Events(srv)
        resume = threading.Event()
        step = pause(say(REPLY), REPLY.index('"gist"'), resume)
        llm.script(step)
        done: dict = {}
        post = threading.Thread(target=lambda: done.update(c.post(f"/api/notes/{note['id']}/enrich").json()))
        post.start()
        try:
            assert step["paused"].wait(60)
            seen = events.wait_for(lambda s: len(_items(s, note["id"])) == 4)
            # the category and the tags are out while the model has not written the gist
            assert _items(seen, note["id"]) == [("category", "home", True), ("tag", "boiler", True),
                                                ("tag", "pressure", True), ("tag", "unicorn", False)]
            assert not [k for k, d in seen if k == "enrich.done"] and not done
            assert [k for k, _ in seen if k.startswith("enrich.")][0] == "enrich.started"
        finally:
            resume.set()
        post.join(120)
        seen = events.wait_for(lambda s: any(k == "enrich.done" for k, _ in s))
        fields = [f for f, _, _ in _items(seen, note["id"])]
        assert fields == ["category", "tag", "tag", "tag", "gist", "key_point", "key_point"]
        points = [(v, kept) for f, v, kept in _items(seen, note["id"]) if f == "key_point"]
        assert points == [("Dave services the boiler every March.", True), ("The boiler runs on hydrogen.", False)]
        stored = [d for k, d in seen if k == "enrich.done"][0]
        assert stored["stored"] and stored["added"]["tags"] == ["boiler", "pressure"]
        assert done["added"] == {k: v for k, v in stored["added"].items()}
        assert llm.requests[-1]["body"]["stream"] is True
        # the stored block is shown on the note's page
        page = c.get(f"/notes/open?ref={note['id']}").text
        assert "Dave services the boiler every March." in page and 'id="enrich-form"' in page


def test_status_from_rest_and_from_the_web_page(srv):
    with srv.client() as c:
        note = c.post("/api/notes", json={"title": "Gutters", "body": "Clean the gutters in October."}).json()
        r = c.post(f"/api/notes/{note['id']}/mark", json={"status": "read"})
        assert r.status_code == 200 and r.json()["action"] == "marked"
        assert c.get(f"/api/notes/{note['id']}").json()["status"] == "read"
        bad = c.post(f"/api/notes/{note['id']}/mark", json={"status": "finished"})
        assert bad.status_code == 400 and "saved, read, archived" in bad.json()["message"]
        page = c.get(f"/notes/open?ref={note['id']}").text
        assert '<option value="read" selected>' in page
        r = c.post("/notes/mark", data={"ref": note["id"], "status": "archived"}, follow_redirects=True)
        assert r.status_code == 200 and "Marked archived." in r.text
        assert '<option value="archived" selected>' in r.text
        r = c.post("/notes/mark", data={"ref": note["id"], "status": "gone"})
        assert r.status_code == 400 and "saved, read, archived" in r.text


def test_entity_merge_questions_over_rest(srv):
    with srv.client() as c:
        r = c.get("/api/entities/review")
        assert r.status_code == 200 and isinstance(r.json(), list)
        r = c.post("/api/entities/review/ep-nope", json={"same": True})
        assert r.status_code == 404 and "no open merge question" in r.json()["message"]


def test_web_chat_shows_the_diff_a_file_tool_waits_on(srv, llm):
    folder = srv.home / "writable"
    folder.mkdir(exist_ok=True)
    (folder / "todo.txt").write_text("milk\nbread\n")
    llm.script(tool("edit_file", path="todo.txt", old="milk", new="eggs"), say("It waits for you."))
    with srv.client() as c:
        with c.stream("POST", "/chat", json={"message": "change milk to eggs in todo.txt"}) as r:
            kind, result = None, None
            for line in r.iter_lines():
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:") and kind == "result":
                    result = json.loads(line[5:])
        pending = result["pending_approvals"][0]
        assert pending["name"] == "edit_file" and "-milk\n+eggs\n" in pending["diff"]
        page = c.get("/chat", params={"session": result["session"]}).text
        assert '<pre class="diff">' in page and "-milk" in page and "+eggs" in page
    assert (folder / "todo.txt").read_text() == "milk\nbread\n"  # nothing written before approval


def test_rest_enrich_refuses_a_model_the_server_is_not_configured_with(srv, llm):
    """POST /api/notes/{ref}/enrich {"llm": "openai:ANY_URL:..."} sent the note's text to
    whatever server the caller named (review2); as /api/ask, only none, embedded or a
    configured model may be asked for."""
    with srv.client() as c:
        note = c.post("/api/notes", json={"title": "Pantry", "body": "Rice and lentils on the top shelf."}).json()
        before = len(llm.requests)
        r = c.post(f"/api/notes/{note['id']}/enrich", json={"llm": f"openai:{llm.base_url}:elsewhere"})
        assert r.status_code == 403 and "not a model this server is configured with" in r.json()["message"]
        assert len(llm.requests) == before and c.get(f"/api/notes/{note['id']}").json()["enrichment"] is None
