"""A JSON body nested too deeply is a clear 400 on every endpoint (issue 34): `POST /capture`
answered 500 (or dropped the connection), the REST routes a vague "error parsing the body".
Brackets inside strings, escaped quotes and chunk boundaries do not count as nesting."""

from __future__ import annotations

import json

import pytest

from rest_support import RestServer

from cairn.interfaces.rest.json_depth import MAX_JSON_DEPTH, JsonDepth

PATHS = ("/capture", "/api/notes", "/api/search", "/api/ask", "/api/memories", "/api/export",
         "/chat", "/mcp", "/api/ingest/text", "/api/jobs/retry", "/api/notes/x")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with RestServer(tmp_path_factory.mktemp("deep") / "home", "[server]\nmax_upload_bytes = 4000000\n") as s:
        yield s


def test_deep_json_is_400_everywhere_and_stores_nothing(srv):
    arrays = b"[" * 100_000 + b"]" * 100_000
    objects = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
    with srv.client() as c:
        assert c.post("/api/notes", json={"title": "Kept", "body": "kept"}).status_code == 201
        before = c.get("/api/notes").json()["total"]
        for path in PATHS:
            for body in (arrays, objects):
                method = "PUT" if path == "/api/notes/x" else "POST"
                r = c.request(method, path, content=body, headers={
                    "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
                assert r.status_code == 400, (path, r.status_code, r.text[:200])
                assert r.json()["error"] == "invalid_input" and "nests deeper than" in r.json()["message"], path
        assert c.get("/api/notes").json()["total"] == before
        assert c.get("/healthz").status_code == 200  # still answering
        # brackets in strings are text, not nesting; strings with brackets pass
        text = "[[[[{{{{ \\\" [[[ " * 200
        r = c.post("/api/notes", json={"title": "Brackets", "body": text, "tags": ["a"]})
        assert r.status_code == 201, r.text


def test_depth_counter_across_chunks():
    body = json.dumps({"s": '"[[\\"{{' + "\\" * 3 + '"', "a": [[[{"b": [1]}]]]}).encode()
    for size in (1, 2, 3, 7, len(body)):
        d = JsonDepth(6)
        assert not any(d.feed(body[i:i + size]) for i in range(0, len(body), size))
        assert d.depth == 0 and d.deepest == 6
    deep = b"[" * (MAX_JSON_DEPTH + 1)
    d = JsonDepth()
    assert not JsonDepth().feed(b"[" * MAX_JSON_DEPTH)
    assert d.feed(deep)
