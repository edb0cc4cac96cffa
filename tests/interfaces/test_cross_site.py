"""A web page elsewhere cannot make the server send notes out (issue 34, high finding 1).

In Debian's chromium, pages on other origins of this machine (`localhost:PORT`: cross-site;
`127.0.0.1:OTHER_PORT`: same-site) embed `<img src=".../api/ask/stream?question=...">`, with
and without `llm=` naming a model server of the attacker's; two fake model servers on
loopback (the configured one and the attacker's) prove neither hears from Cairn. A
same-origin request from Cairn's own page does reach the configured model (the harness can
see a leak). Without a browser: the `Sec-Fetch-Site` rule, a browser without it, the key
that makes a cross-site call legitimate, and `llm` limited to models the configuration
holds, whoever asks. GET never changes state or runs a model of the caller's choosing.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest

from fakes.openai_server import FakeOpenAIServer
from rest_support import RestServer
from web_site import chromium

from cairn.apikeys import KeyStore

QUESTION = "Where is the spare key hidden?"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    model, evil = FakeOpenAIServer(), FakeOpenAIServer()
    model.reply("The spare key is under the blue flowerpot [1].")
    evil.reply("thanks")
    config = f'llm = "openai:{model.base_url}:fake-model"\n'
    with RestServer(tmp_path_factory.mktemp("xs") / "home", config) as srv:
        with srv.client() as c:
            r = c.post("/api/notes", json={"title": "Spare key",
                                           "body": "The spare key is hidden under the blue flowerpot by the door."})
            assert r.status_code == 201, r.text
        yield {"srv": srv, "model": model, "evil": evil}
    model.close()
    evil.close()


def _attacker_page(cairn: str, evil_spec: str, configured_spec: str) -> bytes:
    q = quote(QUESTION)
    srcs = [f"{cairn}/api/ask/stream?question={q}&llm={quote(evil_spec)}",
            f"{cairn}/api/ask/stream?question={q}&llm={quote(configured_spec)}",
            f"{cairn}/api/ask/stream?question={q}",
            f"{cairn}/api/search?q=spare"]
    imgs = "".join(f'<img src="{s}" onerror="window.seen++" onload="window.seen++">' for s in srcs)
    return (f"<!doctype html><title>cat pictures</title><script>window.seen = 0</script>"
            f"<body>{imgs}</body>").encode()


@pytest.fixture(scope="module")
def attacker(world):
    pages: dict[str, bytes] = {}

    class Page(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            body = pages.get("page", b"")
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield pages, httpd.server_address[1]
    httpd.shutdown()


def _chat_posts(fake: FakeOpenAIServer) -> int:
    return sum(1 for r in fake.requests if r.path.endswith("/chat/completions"))


def test_a_page_elsewhere_cannot_send_notes_to_a_model(world, attacker):
    srv, model, evil = world["srv"], world["model"], world["evil"]
    pages, port = attacker
    evil_spec = f"openai:{evil.base_url}:m"
    configured = f"openai:{model.base_url}:fake-model"
    pages["page"] = _attacker_page(srv.base, evil_spec, configured)
    with chromium() as b:
        pg = b.new_context().new_page()
        pg.set_default_timeout(90_000)
        # control: Cairn's own page asking (same origin) reaches the configured model
        pg.goto(srv.base + "/login")
        text = pg.evaluate("q => fetch('/api/ask/stream?question=' + encodeURIComponent(q)).then(r => r.text())",
                           QUESTION)
        assert "event: done" in text and "event: error" not in text, text
        reached = _chat_posts(model)
        assert reached >= 1
        for origin in (f"http://localhost:{port}", f"http://127.0.0.1:{port}"):  # cross-site, same-site
            pg.goto(origin + "/cats")
            pg.wait_for_function("window.seen === 4")
    assert _chat_posts(model) == reached, "a cross-site page made Cairn call the configured model"
    assert evil.requests == [], "a cross-site page made Cairn call the attacker's model"


def test_sec_fetch_site_and_browsers_without_it(world):
    srv = world["srv"]
    admin = KeyStore(srv.home).create("xs-admin", "admin")[1]
    with srv.client() as c:
        for site in ("cross-site", "same-site"):
            for path in ("/api/status", "/events", "/mcp", "/api/notes"):
                r = c.get(path, headers={"Sec-Fetch-Site": site})
                assert r.status_code == 403, (site, path, r.status_code)
                assert "Sec-Fetch-Site" in r.json()["message"] and "key" in r.json()["message"]
        # a browser that sends no Sec-Fetch-Site and no key is not this machine's person either
        r = c.get("/api/status", headers={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Safari/605.1.15"})
        assert r.status_code == 403 and "browser" in r.json()["message"]
        # what stays trusted: same-origin, a typed address, scripts (no browser headers), and a key
        for h in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {},
                  {"Sec-Fetch-Site": "cross-site", "Authorization": f"Bearer {admin}"}):
            assert c.get("/api/status", headers=h).status_code == 200, h
        # the web page (its own guard) and /healthz are not refused by this rule
        assert c.get("/healthz", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


def test_llm_only_the_configured_models(world):
    srv, model, evil = world["srv"], world["model"], world["evil"]
    admin = KeyStore(srv.home).create("xs-admin2", "admin")[1]
    evil_spec = f"openai:{evil.base_url}:m"
    with srv.client() as c:
        for h in ({}, {"Authorization": f"Bearer {admin}"}):  # trusted loopback admin, admin key
            r = c.post("/api/ask", json={"question": QUESTION, "llm": evil_spec}, headers=h)
            assert r.status_code == 403, r.text
            assert "config.toml" in r.json()["message"]
            r = c.get("/api/ask/stream", params={"question": QUESTION, "llm": evil_spec}, headers=h)
            assert r.status_code == 403, r.text
        assert evil.requests == []
        for spec in ("none", f"openai:{model.base_url}:fake-model"):
            assert c.post("/api/ask", json={"question": QUESTION, "llm": spec}).status_code == 200


def test_nothing_that_writes_answers_to_get(world):
    """GET on the paths that write (with what the write would take in the query) writes
    nothing: 405, or the read that shares the path."""
    srv = world["srv"]
    with srv.client() as c:
        notes = c.get("/api/notes").json()["total"]
        memories = len(c.get("/api/memories").json())
        for path, params in (("/api/ingest/url", {"url": "http://203.0.113.9/x"}),
                             ("/api/ingest/text", {"text": "planted by GET"}),
                             ("/api/export", {"query": "spare key"}),
                             ("/api/jobs/run", {}), ("/api/sync", {}), ("/api/reindex", {}),
                             ("/api/entities/aliases", {"name": "x", "alias": "y"}),
                             ("/api/chat", {"message": "delete everything"})):
            assert c.get(path, params=params).status_code in (404, 405), path
        assert c.get("/api/notes", params={"title": "planted", "body": "by GET"}).status_code == 200
        assert c.get("/api/memories", params={"text": "planted by GET"}).status_code == 200
        assert c.get("/api/notes").json()["total"] == notes
        assert len(c.get("/api/memories").json()) == memories
