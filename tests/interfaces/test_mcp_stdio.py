"""`cairn mcp` over stdio, driven by the official `mcp` client: every tool (plugins' too)
with its schema and hints, bad input as tool errors carrying the CLI's message, notes as
resources, a scope-limited server, the audit log, and nothing but JSON-RPC on stdout (B32)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from mcp.shared.exceptions import MCPError

from cairn.service import Cairn
from cairn.tools import registry
from mcp_support import audit_entries, call, run, server_env, stdio_session

BUILTIN = {"search", "ask", "get_note", "list_notes", "create_note", "update_note", "delete_note",
           "ingest_url", "ingest_text", "remember", "recall", "forget", "core", "export"}


@pytest.fixture(scope="module")
def mcp_home(tmp_path_factory, real_embedder):
    home = tmp_path_factory.mktemp("mcp") / "home"
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Boiler", "The boiler was serviced on 3 May 2024 by Ana.", tags=["house"])
        app.note_create("Garden", "Plant the tulip bulbs in October.")
    return home


def test_every_tool_through_the_stdio_server(mcp_home):
    async def conversation():
        out = {}
        async with stdio_session(mcp_home) as s:
            out["tools"] = {t.name: t for t in (await s.list_tools()).tools}
            c = lambda name, args: call(s, name, args)  # noqa: E731
            out["search"] = await c("search", {"query": "boiler serviced"})
            out["ask"] = await c("ask", {"question": "When was the boiler serviced?"})
            out["get"] = await c("get_note", {"note": "Boiler"})
            out["list"] = await c("list_notes", {"limit": 10})
            out["create"] = await c("create_note", {"title": "Bikes", "body": "The tandem needs a chain.",
                                                    "tags": ["bike"]})
            out["create_again"] = await c("create_note", {"title": "Bikes", "body": "again"})
            out["update"] = await c("update_note", {"note": "Bikes", "body": "And new tyres.", "mode": "append"})
            out["update_empty"] = await c("update_note", {"note": "Bikes", "body": "  "})
            out["ingest_text"] = await c("ingest_text", {"text": "# Wifi\n\nThe router is in the attic."})
            out["ingest_url"] = await c("ingest_url", {"url": "http://127.0.0.1:9/private"})
            out["ingest_ftp"] = await c("ingest_url", {"url": "ftp://example.org/x"})
            out["remember"] = await c("remember", {"text": "I am allergic to peanuts."})
            out["recall"] = await c("recall", {"query": "allergy peanuts"})
            mem = out["remember"][1]["memory"]["id"]
            out["forget"] = await c("forget", {"memory_id": mem})
            out["forget_unknown"] = await c("forget", {"memory_id": "m-nope"})
            out["core_set"] = await c("core", {"name": "persona", "text": "Likes cycling."})
            out["core_bad"] = await c("core", {"text": "no name"})
            out["export"] = await c("export", {"ids": ["Boiler", "Garden"], "format": "json"})
            out["export_bad"] = await c("export", {"name": "../../escape"})
            out["delete"] = await c("delete_note", {"note": "Bikes"})
            out["get_deleted"] = await c("get_note", {"note": "Bikes"})
            # bad input: unknown id, wrong types, missing and extra arguments
            out["unknown"] = await c("get_note", {"note": "no-such-note"})
            out["wrong_type"] = await c("search", {"query": 42})
            out["wrong_limit"] = await c("list_notes", {"limit": "ten"})
            out["missing"] = await c("search", {})
            out["extra"] = await c("get_note", {"note": "Boiler", "evil": True})
            out["bad_query"] = await c("search", {"query": 'ubuntu 20.04 "unbalanced'})
            with pytest.raises(MCPError) as exc:
                await s.call_tool("no_such_tool", {})
            out["no_tool"] = exc.value.message
            # resources
            listed = await s.list_resources()
            out["resources"] = [str(r.uri) for r in listed.resources]
            out["templates"] = [t.uri_template for t in (await s.list_resource_templates()).resource_templates]
            boiler = out["get"][1]["id"]
            out["read"] = (await s.read_resource(f"cairn://note/{boiler}")).contents[0]
            for uri in ("cairn://note/no-such-note", "file:///etc/passwd", "cairn://note/..%2F..%2Findex.db"):
                with pytest.raises(MCPError) as exc:
                    await s.read_resource(uri)
                out.setdefault("read_errors", []).append(exc.value.message)
        return out

    out = run(conversation())
    tools = out["tools"]
    assert BUILTIN <= set(tools)
    reg = registry()
    for name, tool in tools.items():  # schemas and hints are the registry's
        assert tool.input_schema == reg.get(name).parameters
        assert tool.annotations.read_only_hint is reg.get(name).read_only
    assert tools["delete_note"].annotations.destructive_hint is True
    assert tools["create_note"].annotations.destructive_hint is False

    ok = lambda key: not out[key][0]  # noqa: E731
    for key in ("search", "ask", "get", "list", "create", "update", "ingest_text", "remember", "recall",
                "forget", "core_set", "export", "delete", "bad_query"):
        assert ok(key), (key, out[key][2])
    assert out["search"][1]["hits"][0]["title"] == "Boiler"
    assert {"answer", "verdict", "citations"} <= set(out["ask"][1])
    assert "serviced" in out["get"][1]["body"] and out["list"][1]["total"] == 2
    assert out["create"][1]["action"] == "created" and out["update"][1]["action"] == "updated"
    assert "peanuts" in json.dumps(out["recall"][1])
    assert out["core_set"][1]["blocks"]["persona"] == "Likes cycling."
    assert out["export"][1]["format"] == "json" and out["export"][1]["count"] == 2
    assert (mcp_home / "exports" / out["export"][1]["name"]).is_file()

    def err(key, *words):
        is_error, data, text = out[key]
        assert is_error, (key, text)
        assert data["message"] == text and all(w in text for w in words), (key, text)
        return data["error"]

    err("create_again", "'Bikes' exists already")
    err("update_empty", "empty", "nothing was changed")
    assert ok("ingest_url") and out["ingest_url"][1]["added"] == 0  # a private address: refused, as in the CLI
    assert "allow_private" in json.dumps(out["ingest_url"][1]["failed"])
    err("ingest_ftp", "url")
    err("forget_unknown", "m-nope")
    err("core_bad", "name")
    err("export_bad", "name")
    err("get_deleted", "Bikes")
    assert err("unknown", "no-such-note") == "not_found"
    assert err("wrong_type", "query", "42") == "invalid_input"
    err("wrong_limit", "limit")
    err("missing", "query", "required")
    err("extra", "evil")
    assert "no_such_tool" in out["no_tool"]

    assert out["templates"] == ["cairn://note/{id}"]
    assert f"cairn://note/{out['get'][1]['id']}" in out["resources"]
    assert "serviced" in out["read"].text and out["read"].mime_type == "text/markdown"
    assert "no-such-note" in out["read_errors"][0] and "unknown resource" in out["read_errors"][1]

    # every write is audited with actor "mcp"; reads are not
    entries = [e for e in audit_entries(mcp_home) if e["actor"] == "mcp"]
    actions = {(e["action"], e["outcome"]) for e in entries}
    assert ("tool.create_note", "ok") in actions and ("tool.create_note", "failed") in actions
    assert ("tool.delete_note", "ok") in actions and ("tool.forget", "ok") in actions
    assert not any(e["action"] in ("tool.search", "tool.get_note") for e in entries)
    assert all(e["detail"]["transport"] == "stdio" for e in entries)

    # the message is the one the CLI prints
    cli = subprocess.run([sys.executable, "-m", "cairn", "--home", str(mcp_home), "note", "show", "no-such-note"],
                         capture_output=True, text=True, timeout=300, env=server_env())
    assert cli.returncode == 1 and cli.stderr.strip() == "error: " + out["unknown"][2]


def test_a_read_scope_server_refuses_writes(mcp_home):
    async def conversation():
        async with stdio_session(mcp_home, "--scope", "read") as s:
            return (await call(s, "create_note", {"title": "Denied", "body": "x"}),
                    await call(s, "get_note", {"note": "Garden"}))

    denied, allowed = run(conversation())
    assert denied[0] and denied[1]["error"] == "forbidden" and "'write' scope" in denied[2]
    assert not allowed[0]
    assert not (mcp_home / "vault" / "Denied.md").exists()
    assert any(e["action"] == "tool.create_note" and e["outcome"] == "denied" for e in audit_entries(mcp_home))


NOISY_PLUGIN = '''
import os, sys
print("NOISY import banner")
os.write(1, b"NOISY C-level write at import\\n")
from cairn.hookspecs import hookimpl
from cairn.tools import Tool

def _run(app, args):
    print("NOISY progress during a call")
    os.write(1, b"NOISY C-level write during a call\\n")
    return {"ok": True}

def _bug(app, args):
    return {"x": 1} / 2  # a plugin bug: TypeError

@hookimpl
def register_tools(register):
    register(Tool("noisy", "A tool that chatters on stdout.", {"type": "object", "properties": {}}, _run))
    register(Tool("buggy", "A tool with a bug.", {"type": "object", "properties": {}}, _bug))
'''


def test_stdout_carries_only_json_rpc(tmp_path):
    """Case B32: DEBUG logging, a fresh home with a broken vault file, a plugin that prints on
    import and during its tool call, a search with an unbalanced quote."""
    plugins = tmp_path / "plugins"
    dist = plugins / "noisy_cairn-0.1.dist-info"
    dist.mkdir(parents=True)
    (plugins / "noisy_cairn.py").write_text(NOISY_PLUGIN)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: noisy-cairn\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[cairn.plugins]\nnoisy = noisy_cairn\n")
    home = tmp_path / "home"
    (home / "vault").mkdir(parents=True)
    (home / "vault" / "broken.md").write_bytes(b"---\ntitle: [unclosed\n---\n\xff\xfe bad bytes\n")
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "boiler pressure"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "search", "arguments": {"query": 'ubuntu 20.04 "unbalanced'}}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "noisy", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "buggy", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "list_notes", "arguments": {}}},
    ]
    env = {**server_env(str(plugins)), "LOG_LEVEL": "DEBUG"}
    p = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "-v", "mcp"], env=env,
                       input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True, text=True, timeout=180)
    replies = {}
    for line in p.stdout.splitlines():
        if line.strip():
            obj = json.loads(line)  # raises on any non-JSON line
            assert obj["jsonrpc"] == "2.0"
            replies[obj.get("id")] = obj
    assert set(replies) == {1, 2, 3, 4, 5, 6, 7}, p.stdout + p.stderr
    assert "noisy" in {t["name"] for t in replies[2]["result"]["tools"]}  # plugin tools are served
    assert "result" in replies[4]  # a normal result or a tool error, not a crash
    assert replies[5]["result"]["structuredContent"] == {"ok": True}
    bug = replies[6]["result"]  # a bug is a tool error naming it (traceback on stderr); serving goes on
    assert bug["isError"] and bug["structuredContent"]["error"] == "internal" and "TypeError" in bug["content"][0]["text"]
    assert "Traceback" in p.stderr and replies[7]["result"]["isError"] is False
    for chatter in ("NOISY import banner", "NOISY C-level write at import", "NOISY progress during a call",
                    "NOISY C-level write during a call"):
        assert chatter in p.stderr and chatter not in p.stdout


def test_the_command_line_does_not_import_the_mcp_sdk():
    """`cairn --help` and the other commands stay fast: the SDK loads only for `cairn mcp`."""
    code = "import sys, cairn.cli; print(sorted(m for m in ('mcp', 'mcp_types', 'anyio', 'starlette') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=server_env())
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
