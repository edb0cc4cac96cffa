"""MCP through `cairn serve` at /mcp (the REST server's auth in front): the official client
over streamable HTTP lists every tool and calls them; a read key's write call is a tool error
and changes nothing; the audit entry names the key."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

from cairn.service import Cairn
from mcp_support import audit_entries, call, http_session, run, server_env

NEED = {"search", "ask", "get_note", "list_notes", "create_note", "update_note", "delete_note",
        "ingest_url", "ingest_text", "remember", "recall", "forget", "core", "export"}


def _port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_mcp_at_slash_mcp_of_cairn_serve(tmp_path, real_embedder):
    home = tmp_path / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boiler", "The boiler was serviced on 3 May 2024.")
    env = server_env()
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "keys", "create", "reader",
                        "--scope", "read", "--json"], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    key = json.loads(r.stdout)["key"]
    port = _port()
    base = f"http://127.0.0.1:{port}"
    srv = subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "serve", "--port", str(port)],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=5)
                break
            except OSError:
                assert srv.poll() is None and time.monotonic() < deadline, "cairn serve did not start"
                time.sleep(0.3)

        async def conversation():
            out = {}
            async with http_session(base + "/mcp") as s:  # loopback, no key: trusted
                out["tools"] = {t.name for t in (await s.list_tools()).tools}
                out["get"] = await call(s, "get_note", {"note": "Boiler"})
                out["unknown"] = await call(s, "get_note", {"note": "no-such-note"})
                out["create"] = await call(s, "create_note", {"title": "Wifi", "body": "Router in the attic."})
            async with http_session(base + "/mcp", headers={"Authorization": f"Bearer {key}"}) as s:
                out["read_get"] = await call(s, "get_note", {"note": "Wifi"})
                out["read_delete"] = await call(s, "delete_note", {"note": "Wifi"})
            return out

        out = run(conversation())
    finally:
        srv.terminate()
        srv.wait(60)
    assert NEED <= out["tools"]
    assert not out["get"][0] and "serviced" in out["get"][1]["body"]
    assert out["unknown"][0] and "no-such-note" in out["unknown"][2]
    assert not out["create"][0] and not out["read_get"][0]
    assert out["read_delete"][0] and out["read_delete"][1]["error"] == "forbidden"
    assert (home / "vault" / "Wifi.md").exists()
    denied = [e for e in audit_entries(home) if e["action"] == "tool.delete_note"]
    assert denied and denied[-1]["outcome"] == "denied" and denied[-1]["actor"] == "mcp"
    assert denied[-1]["detail"].get("caller") == "key:reader"
