"""POST /chat (server-sent events) and POST /chat/approvals/{id} on a real uvicorn, with a
scripted OpenAI-compatible model on loopback: the same loop as `cairn chat`."""

from __future__ import annotations

import pytest

from fakes.scripted_llm import ScriptedLLM, say, tool
from rest_support import RestServer, sse_events


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def server(tmp_path_factory, llm):
    home = tmp_path_factory.mktemp("chat") / "home"
    with RestServer(home, f'[assistant]\nmodel = "openai:{llm.base_url}:scripted"\n') as srv:
        with srv.client() as c:
            assert c.post("/api/notes", json={"title": "Boiler", "body": "Pressure 1.2 bar."}).status_code in (200, 201)
        yield srv


def test_chat_streams_a_turn_and_high_risk_waits_for_approval(server, llm):
    llm.script(tool("delete_note", note="Boiler"), say("That waits for your approval."))
    with server.client() as c:
        with c.stream("POST", "/chat", json={"message": "delete the Boiler note"}) as resp:
            assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/event-stream")
            evs = sse_events(resp)
        assert evs[0][0] == "session" and evs[-1][0] == "result"
        assert "".join(d["text"] for e, d in evs if e == "delta") == "That waits for your approval."
        result = evs[-1][1]
        call = result["tool_calls"][0]
        assert (call["name"], call["risk"], call["outcome"]) == ("delete_note", "high", "pending")
        assert c.get("/api/notes/Boiler").status_code == 200
        done = c.post(f"/chat/approvals/{call['approval_id']}", json={"approve": True})
        assert done.status_code == 200, done.text
        assert done.json()["tool_calls"][0]["outcome"] == "ran"
        assert c.get("/api/notes/Boiler").status_code == 404
        again = c.post(f"/chat/approvals/{call['approval_id']}", json={"approve": True})
        assert again.status_code == 404 and "already decided" in again.text


def test_chat_bad_input_and_unknown_session(server):
    with server.client() as c:
        assert c.post("/chat", json={"message": ""}).status_code in (400, 422)
        with c.stream("POST", "/chat", json={"message": "hi", "session": "s-missing"}) as resp:
            evs = sse_events(resp)
        assert evs == [("error", {"error": evs[0][1]["error"], "status": 404})]
        assert c.post("/chat/approvals/ap-nope", json={"approve": False}).status_code == 404


def test_session_stats_and_artifact_lineage_over_http(server, llm):
    """Issue 39 (PRAANA P1, P26, P16): the same figures and lineage as the CLI."""
    llm.script(tool("search", query="pressure"), say("1.2 bar."))
    with server.client() as c:
        with c.stream("POST", "/chat", json={"message": "what pressure?"}) as resp:
            result = sse_events(resp)[-1][1]
        sid = result["session"]
        got = c.get(f"/chat/sessions/{sid}/stats")
        assert got.status_code == 200, got.text
        assert got.json()["scorecard"]["tool_calls"]["by_tool"].get("search", 0) >= 1
        assert got.json()["stats"]["tokens"]["in"] > 0
        assert c.get("/chat/sessions/s-missing/stats").status_code == 404
        rows = c.get("/artifacts", params={"session": sid, "kind": "tool_output"}).json()
        assert rows and rows[0]["tool"] == "search"
        tree = c.get(f"/artifacts/{rows[0]['id']}/lineage").json()
        assert tree["produced_by"][0]["session"] == sid and tree["inputs"][0]["artifact"]["kind"] == "message"
        assert c.get("/artifacts/not-hex/lineage").status_code in (400, 422)
        assert c.get(f"/artifacts/{'0' * 64}").status_code == 404
        assert c.get("/skills").json() == {"skills": [], "patterns": []}
        assert c.post("/skills/nope/rate", json={"helpful": True}).status_code == 404


def test_skills_are_saved_and_run_over_http(server, llm):
    """A skill saved from a session's tool calls runs again as one turn (`cairn skills save/run`)."""
    llm.script(tool("search", query="boiler pressure"), say("It says 1.2 bar."))
    with server.client() as c:
        with c.stream("POST", "/chat", json={"message": "check the boiler pressure"}) as resp:
            sid = sse_events(resp)[-1][1]["session"]
        saved = c.post("/skills", json={"name": "boiler-check", "session": sid})
        assert saved.status_code == 201, saved.text
        assert saved.json()["steps"][0]["tool"] == "search"
        assert c.post("/skills", json={"name": "boiler-check", "session": sid}).status_code == 409
        assert c.post("/skills", json={"name": "x", "session": "s-missing"}).status_code == 404
        assert c.post("/skills", json={"name": "", "session": sid}).status_code in (400, 422)
        ran = c.post("/skills/boiler-check/run", json={"session": sid})
        assert ran.status_code == 200, ran.text
        turn = ran.json()
        assert turn["session"] == sid
        assert [(t["name"], t["outcome"]) for t in turn["tool_calls"]] == [("search", "ran")]
        assert "boiler-check" in turn["reply"]
        assert c.post("/skills/nope/run").status_code == 404
        listed = c.get("/skills").json()["skills"]
        assert [s["name"] for s in listed] == ["boiler-check"] and listed[0]["runs"] == 1


def test_sessions_listed_read_searched_and_deleted_over_http(server, llm):
    """The CLI's `cairn sessions`, `show`, `search` and `delete` over HTTP, through the service."""
    llm.script(say("Noted the kayak trip."))
    with server.client() as c:
        with c.stream("POST", "/chat", json={"message": "the kayak trip is on the ninth"}) as resp:
            sid = sse_events(resp)[-1][1]["session"]
        listed = c.get("/chat/sessions").json()
        assert sid in [s["id"] for s in listed] and set(listed[0]) >= {"id", "channel", "turns", "started", "last"}
        shown = c.get(f"/chat/sessions/{sid}").json()
        assert any(e["type"] == "user" and "kayak" in e["text"] for e in shown)
        hits = c.get("/chat/sessions/search", params={"q": "kayak trip"}).json()
        assert hits and hits[0]["session"] == sid and "kayak" in hits[0]["text"]
        assert c.get("/chat/sessions/search", params={"q": " "}).status_code == 400
        assert c.get("/chat/sessions/search").status_code in (400, 422)
        assert c.get("/chat/sessions/s-missing").status_code == 404
        assert c.delete(f"/chat/sessions/{sid}").json() == {"id": sid}
        assert c.get(f"/chat/sessions/{sid}").status_code == 404
        assert sid not in [s["id"] for s in c.get("/chat/sessions").json()]
        assert c.delete(f"/chat/sessions/{sid}").status_code == 404
