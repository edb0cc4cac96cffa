"""POST /chat with the offline assistant (model "none") and a message read as a question longer
than validate.MAX_QUESTION_CHARS: the turn's reply says the limit (a `result` event, no `error`
event), and the same session takes the next message (assistant22b; probe22's report)."""

from __future__ import annotations

from cairn.validate import MAX_QUESTION_CHARS
from rest_support import RestServer, sse_events


def test_an_over_long_question_is_a_reply_not_an_error_event(tmp_path):
    with RestServer(tmp_path / "home", '[assistant]\nmodel = "none"\n') as srv, srv.client() as c:
        question = "what is the code for the bike shed? " + "It is the green one by the gate. " * 130
        assert MAX_QUESTION_CHARS < len(question) <= 8000
        with c.stream("POST", "/chat", json={"message": question, "new": True}) as resp:
            assert resp.status_code == 200
            evs = sse_events(resp)
        assert not [e for e, _ in evs if e == "error"], evs
        result = evs[-1][1]
        assert evs[-1][0] == "result" and "characters long" in result["reply"]
        assert f"{MAX_QUESTION_CHARS:,}" in result["reply"]
        with c.stream("POST", "/chat", json={"message": "hello there", "session": result["session"]}) as resp:
            assert sse_events(resp)[-1][0] == "result"
