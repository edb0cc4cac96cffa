"""REST's /api/ask reads validate.MAX_QUESTION_CHARS: a question one character over is refused
naming the limit, one at the limit is answered (tests/test_question_limit.py: the other doors)."""

from __future__ import annotations

from cairn.validate import MAX_QUESTION_CHARS


def test_rest_ask_over_the_limit_is_refused(tmp_path):
    from rest_support import RestServer
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        r = c.post("/api/ask", json={"question": "q" * (MAX_QUESTION_CHARS + 1), "llm": "none"})
        assert r.status_code in (400, 422), r.text
        assert "4000" in r.text or "4,000" in r.text
        r = c.post("/api/ask", json={"question": "q " * (MAX_QUESTION_CHARS // 2), "llm": "none"})
        assert r.status_code == 200, r.text  # exactly at the limit: answered (here: declined)
