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


def test_rest_search_and_recall_refuse_a_blank_query_and_control_characters(tmp_path):
    """probe23: `GET /api/search?q=%20%20` answered [] and `q=%1b[2J boiler` searched, while
    the command line, the web page and now MCP refuse both (validate.check_query)."""
    from rest_support import RestServer
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        for r in (c.get("/api/search", params={"q": "  "}), c.post("/api/search", json={"query": " "}),
                  c.get("/api/memories/recall", params={"query": "\t"})):
            assert r.status_code == 400 and r.json()["message"] == "the query is empty", r.text
        for r in (c.get("/api/search", params={"q": "\x1b[2J boiler"}),
                  c.post("/api/search", json={"query": "\x1b[2J boiler"}),
                  c.get("/api/memories/recall", params={"query": "\x1b[2J boiler"})):
            assert r.status_code == 400 and "control characters (U+001B)" in r.json()["message"], r.text
        assert c.get("/api/search", params={"q": "boiler\tpressure"}).status_code == 200
