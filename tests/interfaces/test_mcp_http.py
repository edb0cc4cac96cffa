"""The MCP server over streamable HTTP: `http_app` served by a real uvicorn on loopback and
driven by the official `mcp` client; the per-request key scope (as `cairn serve`'s auth
middleware sets `current_scope`); `mount` into a FastAPI app at /mcp."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import uvicorn
from mcp.shared.exceptions import MCPError

from cairn.interfaces.mcp.server import http_app, mount
from cairn.service import Cairn
from cairn.tools import SCOPES, current_scope
from mcp_support import audit_entries, call, http_session, run

BUILTIN = {"search", "ask", "get_note", "list_notes", "create_note", "update_note", "delete_note",
           "ingest_url", "ingest_text", "remember", "recall", "forget", "core", "export"}


def _port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Serving:
    """A uvicorn server for `app` on a loopback port, in a thread."""

    def __init__(self, app):
        self.port = _port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(30)
        assert not self.thread.is_alive()


def scoped(inner):
    """A stand-in for the REST layer's auth middleware: the scope from an X-Test-Scope header
    into `current_scope` for the request."""
    async def app(scope, receive, send):
        if scope["type"] != "http":
            return await inner(scope, receive, send)
        headers = dict(scope["headers"])
        want = headers.get(b"x-test-scope", b"admin").decode()
        token = current_scope.set(want if want in SCOPES else "read")
        try:
            await inner(scope, receive, send)
        finally:
            current_scope.reset(token)
    return app


@pytest.fixture()
def http_home(tmp_path, real_embedder):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boiler", "The boiler was serviced on 3 May 2024.")
    return home


def test_http_tools_resources_errors_and_scopes(http_home, real_embedder):
    mcp_app = http_app(http_home, factory=lambda: Cairn(http_home, embedder=real_embedder))

    async def conversation(base):
        out = {}
        async with http_session(base + "/mcp") as s:
            out["tools"] = sorted(t.name for t in (await s.list_tools()).tools)
            out["get"] = await call(s, "get_note", {"note": "Boiler"})
            out["search"] = await call(s, "search", {"query": "boiler"})
            out["create"] = await call(s, "create_note", {"title": "Wifi", "body": "Router in the attic."})
            out["unknown"] = await call(s, "get_note", {"note": "no-such-note"})
            out["wrong"] = await call(s, "recall", {"query": "x", "k": "many"})
            out["read"] = (await s.read_resource(f"cairn://note/{out['get'][1]['id']}")).contents[0].text
            with pytest.raises(MCPError):
                await s.read_resource("cairn://note/no-such-note")
        async with http_session(base + "/mcp", headers={"X-Test-Scope": "read"}) as s:
            out["read_scope_write"] = await call(s, "create_note", {"title": "Denied", "body": "x"})
            out["read_scope_read"] = await call(s, "get_note", {"note": "Wifi"})
        async with http_session(base + "/mcp", headers={"X-Test-Scope": "write"}) as s:
            out["write_scope_delete"] = await call(s, "delete_note", {"note": "Wifi"})
            out["write_scope_update"] = await call(s, "update_note", {"note": "Wifi", "body": "Also a repeater."})
        return out

    with Serving(scoped(mcp_app)) as base:
        out = run(conversation(base))

    assert BUILTIN <= set(out["tools"])
    assert not out["get"][0] and "serviced" in out["read"]
    assert out["search"][1]["hits"][0]["title"] == "Boiler"
    assert not out["create"][0] and (http_home / "vault" / "Wifi.md").exists()
    assert out["unknown"][0] and "no-such-note" in out["unknown"][2]
    assert out["wrong"][0] and "'many' is not of type 'integer'" in out["wrong"][2]
    assert out["read_scope_write"][0] and out["read_scope_write"][1]["error"] == "forbidden"
    assert not (http_home / "vault" / "Denied.md").exists()
    assert not out["read_scope_read"][0]
    assert out["write_scope_delete"][0] and "'admin' scope" in out["write_scope_delete"][2]
    assert (http_home / "vault" / "Wifi.md").exists()  # nothing lost
    assert not out["write_scope_update"][0]
    entries = [e for e in audit_entries(http_home) if e["actor"] == "mcp"]
    assert {(e["action"], e["outcome"]) for e in entries} >= {
        ("tool.create_note", "ok"), ("tool.create_note", "denied"), ("tool.delete_note", "denied"),
        ("tool.update_note", "ok")}
    assert all(e["detail"]["transport"] == "http" for e in entries)


def test_mount_serves_mcp_at_slash_mcp_of_a_fastapi_app(http_home, real_embedder):
    from fastapi import FastAPI
    api = FastAPI()

    @api.get("/healthz")
    def healthz():
        return {"ok": True}

    mount(api, http_home, factory=lambda: Cairn(http_home, embedder=real_embedder))

    async def conversation(base):
        names = []
        for url in (base + "/mcp", base + "/mcp/"):
            async with http_session(url) as s:
                names.append(sorted(t.name for t in (await s.list_tools()).tools))
        return names

    with Serving(api) as base:
        names = run(conversation(base))
    assert all(BUILTIN <= set(n) for n in names)


def test_the_scope_is_read_for_every_request_not_per_session(http_home, real_embedder):
    """A session opened with an admin key cannot keep admin rights once the requests carry a
    read key (the scope comes from each HTTP request, not from the session's first one)."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    mcp_app = http_app(http_home, factory=lambda: Cairn(http_home, embedder=real_embedder))

    async def conversation(base):
        client = create_mcp_http_client(headers={"X-Test-Scope": "admin"})
        async with client, streamable_http_client(base + "/mcp", http_client=client) as st:
            async with ClientSession(st[0], st[1]) as s:
                await s.initialize()
                first = await call(s, "create_note", {"title": "One", "body": "first"})
                client.headers["X-Test-Scope"] = "read"
                second = await call(s, "create_note", {"title": "Two", "body": "second"})
                return first, second

    with Serving(scoped(mcp_app)) as base:
        first, second = run(conversation(base))
    assert not first[0] and second[0] and second[1]["error"] == "forbidden"
    assert (http_home / "vault" / "One.md").exists() and not (http_home / "vault" / "Two.md").exists()


def test_concurrent_sessions_lose_no_write(http_home, real_embedder):
    """Three clients at once, each creating notes and searching: no error, every note stored."""
    import asyncio
    mcp_app = http_app(http_home, factory=lambda: Cairn(http_home, embedder=real_embedder))

    async def client(base, i):
        errors = []
        async with http_session(base + "/mcp") as s:
            for j in range(3):
                for name, args in (("create_note", {"title": f"c{i}-{j}", "body": f"heron note {i} {j}"}),
                                   ("search", {"query": "heron"})):
                    is_error, _, text = await call(s, name, args)
                    if is_error:
                        errors.append(text)
        return errors

    async def conversation(base):
        return await asyncio.gather(*(client(base, i) for i in range(3)))

    with Serving(mcp_app) as base:
        errors = run(conversation(base))
    assert errors == [[], [], []]
    with Cairn(http_home, embedder=real_embedder) as app:
        titles = {n["title"] for n in app.notes_list(limit=100)["notes"]}
    assert {f"c{i}-{j}" for i in range(3) for j in range(3)} <= titles
