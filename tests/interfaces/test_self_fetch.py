"""The server fetching itself is not the person at this machine (issue 34, high finding 2).

With `[fetch] allow_private = true` (the person's own private network allowed), a write key
asks the server to ingest `http://127.0.0.1:PORT/audit` — its own admin-only audit log —
directly and through a redirect from another loopback page: the fetch gets no loopback
trust, so no note holds the log. A private page that is not Cairn is still fetched (the
setting works). The tools a model drives (MCP `ingest_url`, the assistant's tool registry)
never fetch a private address, whatever the setting: the page's server hears nothing.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from mcp_support import call, http_session, run
from rest_support import RestServer

from cairn.apikeys import KeyStore

CONFIG = "[fetch]\nallow_private = true\n"
MARK = "unmistakable-writer-7f3a"  # the write key's name: it appears in every audit entry of it


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    heard: list[str] = []
    box: dict = {}

    class Site(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            heard.append(self.path)
            if self.path == "/to-audit":
                self.send_response(302)
                self.send_header("Location", box["base"] + "/audit")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = f"<!doctype html><title>Pelicans {self.path}</title><p>Pelicans fish in the lagoon at dawn.</p>".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    site = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    with RestServer(tmp_path_factory.mktemp("self") / "home", CONFIG) as srv:
        box["base"] = srv.base
        store = KeyStore(srv.home)
        keys = {"write": store.create(MARK, "write")[1], "admin": store.create("boss", "admin")[1]}
        yield {"srv": srv, "keys": keys, "heard": heard,
               "site": f"http://127.0.0.1:{site.server_address[1]}"}
    site.shutdown()


def _bodies(srv, admin: str) -> str:
    with srv.client(headers={"Authorization": f"Bearer {admin}"}) as c:
        notes = c.get("/api/notes", params={"limit": 500}).json()["notes"]
        return "\n".join(c.get(f"/api/notes/{n['id']}").json()["body"] for n in notes)


def test_a_write_key_cannot_read_the_audit_log_through_ingest(world):
    srv, keys = world["srv"], world["keys"]
    with srv.client(headers={"Authorization": f"Bearer {keys['write']}"}) as c:
        made = c.post("/api/notes", json={"title": "Shopping", "body": "eggs"})  # audited as key:MARK
        assert made.status_code == 201, made.text
        assert c.get("/audit").status_code == 403  # the key itself may not read it
        with srv.client(headers={"Authorization": f"Bearer {keys['admin']}"}) as a:
            assert MARK in a.get("/audit").text  # there is something to steal
        # control: a private page that is not Cairn is fetched (allow_private is on)
        ok = c.post("/api/ingest/url", json={"url": world["site"] + "/pelicans"})
        assert ok.status_code == 200 and ok.json()["added"] == 1, ok.text
        for url in (srv.base + "/audit", world["site"] + "/to-audit",
                    srv.base.replace("127.0.0.1", "localhost") + "/audit"):
            r = c.post("/api/ingest/url", json={"url": url})
            assert r.status_code in (200, 400, 422), r.text
            assert r.json().get("added", 0) == 0, (url, r.text)
    assert "Pelicans fish" in _bodies(srv, keys["admin"])
    assert MARK not in _bodies(srv, keys["admin"])


def test_model_driven_tools_never_fetch_private_addresses(world):
    srv, keys, heard = world["srv"], world["keys"], world["heard"]
    before = len(heard)
    url = world["site"] + "/for-the-model"

    async def go():
        async with http_session(srv.base + "/mcp", headers={"Authorization": f"Bearer {keys['write']}"}) as s:
            return await call(s, "ingest_url", {"url": url})
    is_error, data, text = run(go())
    assert is_error or data["added"] == 0, text
    assert "private" in text or "loopback" in text, text
    # the assistant's tools are the same registry, called in process
    from cairn.service import Cairn
    from cairn.tools import registry
    from fakes.embedder import HashEmbedder
    with Cairn(srv.home, embedder=HashEmbedder()) as app:
        assert app.settings.fetch.allow_private
        try:
            out = registry().call(app, "ingest_url", {"url": url})
        except Exception as exc:  # noqa: BLE001 - a refusal may be raised or reported
            out = {"error": str(exc)}
        assert out.get("added", 0) == 0 and ("private" in str(out) or "loopback" in str(out)), out
    assert len(heard) == before and url.rsplit("/", 1)[1] not in "".join(heard)
