"""Subprocess plugins over JSON-RPC 2.0 on stdio: real programs in Python and in shell through
every phase — registration, calls, a schema-invalid call refused before it reaches the plugin,
a crash mid-call, a hang, junk output, restart with back-off, shutdown — and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cairn.config import load_settings
from cairn.errors import InvalidInput, TooLarge
from cairn.plugin_host.host import PluginHost, discover
from cairn.plugin_host.process import PluginFailed
from cairn.tools import add_plugin_tools, registry

PY_PLUGIN = """\
#!{python}
import json, os, sys, time
CONFIG = {{}}
def send(o):
    sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
TOOLS = [
    {{"name": "echo", "description": "Echo text", "risk_hint": "low",
      "parameters": {{"type": "object", "properties": {{"text": {{"type": "string"}}}}, "required": ["text"]}}}},
    {{"name": "wipe", "description": "Pretends to delete everything", "risk_hint": "high",
      "parameters": {{"type": "object", "properties": {{}}}}}},
    {{"name": "misbehave", "description": "crash, hang, junk, fail or big",
      "parameters": {{"type": "object", "properties": {{"how": {{"type": "string"}}}}, "required": ["how"]}}}},
]
for line in sys.stdin:
    msg = json.loads(line)
    print("got", msg.get("method"), json.dumps(msg.get("params")), file=sys.stderr, flush=True)
    if msg.get("method") == "initialize":
        CONFIG = msg["params"]["config"]
        send({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"name": "pyplug", "version": "1.2"}}}})
        send({{"jsonrpc": "2.0", "method": "tools.register", "params": {{"tools": TOOLS}}}})
    elif msg.get("method") == "tools.execute":
        name, args = msg["params"]["name"], msg["params"]["arguments"]
        how = args.get("how")
        if name == "echo":
            send({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"content": {{"echo": args["text"], "config": CONFIG, "pid": os.getpid()}}}}}})
        elif name == "wipe":
            send({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"content": "wiped nothing"}}}})
        elif how == "crash":
            os._exit(3)
        elif how == "hang":
            time.sleep(3600)
        elif how == "junk":
            print("this is not JSON-RPC", flush=True)
        elif how == "fail":
            send({{"jsonrpc": "2.0", "id": msg["id"], "error": {{"code": -32000, "message": "the disk is full"}}}})
        elif how == "noisy":
            chunk = "n" * 1023 + "\\n"
            for _ in range(3 * 1024):
                sys.stderr.write(chunk)
            print("noisy-end", file=sys.stderr, flush=True)
            send({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"content": "done"}}}})
        elif how == "big":
            send({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"content": "x" * 5000}}}})
    elif msg.get("method") == "shutdown":
        print("bye", file=sys.stderr, flush=True)
        sys.exit(0)
"""

SH_PLUGIN = r"""#!/usr/bin/env bash
# A complete plugin in shell: one tool that upper-cases a word.
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id": *\([0-9]*\).*/\1/p')
  case "$line" in
    *'"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"name":"shout","version":"0.1"}}\n' "$id"
      printf '{"jsonrpc":"2.0","method":"tools.register","params":{"tools":[{"name":"shout","description":"Upper-case a word","parameters":{"type":"object","properties":{"word":{"type":"string","pattern":"^[a-z]+$"}},"required":["word"],"additionalProperties":false},"risk_hint":"none"}]}}\n' ;;
    *'"tools.execute"'*)
      word=$(printf '%s' "$line" | sed -n 's/.*"word": *"\([a-z]*\)".*/\1/p')
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":"%s"}}\n' "$id" "$(printf '%s' "$word" | tr a-z A-Z)" ;;
    *'"shutdown"'*) exit 0 ;;
  esac
done
"""


def install(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text(text)
    p.chmod(0o755)
    return p


@pytest.fixture
def settings(tmp_path):
    s = load_settings(tmp_path / "home")
    s.ensure_dirs()
    s.plugins.call_timeout_s = 2.0
    s.plugins.start_timeout_s = 10.0
    s.plugins.max_result_bytes = 1000
    s.plugin_config = {"pyplug": {"greeting": "hello"}}
    install(s.home / "plugins", "cairn-plugin-pyplug", PY_PLUGIN.format(python=sys.executable))
    install(s.home / "plugins", "cairn-plugin-shout", SH_PLUGIN)
    install(s.home / "plugins", "not-a-plugin", "#!/bin/sh\n")
    (s.home / "plugins" / "cairn-plugin-notexec").write_text("#!/bin/sh\n")
    outside = install(s.home.parent / "elsewhere", "cairn-plugin-outside", SH_PLUGIN)
    (s.home / "plugins" / "cairn-plugin-link").symlink_to(outside)
    return s


@pytest.fixture
def host(settings):
    h = PluginHost(settings)
    yield h
    h.stop()


def test_discovery_takes_only_executables_named_cairn_plugin_inside_the_folder(settings):
    assert [p.name for p in discover(settings)] == ["cairn-plugin-pyplug", "cairn-plugin-shout"]


def test_registration_calls_and_risk(settings, host):
    reg = registry()
    add_plugin_tools(reg, host)
    echo, wipe, shout = reg.get("echo"), reg.get("wipe"), reg.get("shout")
    assert echo.source == "plugin:pyplug" and echo.risk == "medium"  # a low hint never lowers
    assert wipe.risk == "high" and wipe.destructive                  # a high hint raises
    assert shout.risk == "medium" and not shout.read_only
    out = reg.call(None, "echo", {"text": "hi"})
    assert out["echo"] == "hi" and out["config"] == {"greeting": "hello"}
    assert reg.call(None, "shout", {"word": "heron"}) == "HERON"
    names = {h["name"]: h for h in host.health()}
    assert names["pyplug"]["state"] == "running" and names["pyplug"]["version"] == "1.2"
    assert names["shout"]["tools"] == ["shout"]


def test_schema_invalid_call_never_reaches_the_plugin(settings, host):
    reg = registry()
    add_plugin_tools(reg, host)
    with pytest.raises(InvalidInput, match="text"):
        reg.call(None, "echo", {"text": 5})
    with pytest.raises(InvalidInput):
        reg.call(None, "shout", {"word": "Not Lower"})
    log = (settings.home / "plugins" / "logs" / "pyplug.log").read_text()
    assert "tools.execute" not in log


def test_crash_hang_junk_fail_and_big_results_are_isolated(settings, host):
    reg = registry()
    add_plugin_tools(reg, host)
    pid = reg.call(None, "echo", {"text": "a"})["pid"]
    with pytest.raises(PluginFailed, match="exited with code 3"):
        reg.call(None, "misbehave", {"how": "crash"})
    assert reg.call(None, "shout", {"word": "still"}) == "STILL"  # the other plugin is untouched
    with pytest.raises(PluginFailed, match="restarting"):
        reg.call(None, "echo", {"text": "b"})  # inside the back-off
    time.sleep(1.2)
    again = reg.call(None, "echo", {"text": "c"})
    assert again["pid"] != pid  # restarted
    with pytest.raises(PluginFailed, match="timed out"):
        reg.call(None, "misbehave", {"how": "hang"})
    time.sleep(2.2)
    with pytest.raises(PluginFailed, match="not JSON-RPC"):
        reg.call(None, "misbehave", {"how": "junk"})
    time.sleep(4.2)
    with pytest.raises(PluginFailed, match="the disk is full"):
        reg.call(None, "misbehave", {"how": "fail"})
    with pytest.raises(TooLarge, match="max_result_bytes"):
        reg.call(None, "misbehave", {"how": "big"})
    h = {x["name"]: x for x in host.health()}["pyplug"]
    assert h["restarts"] == 3 and "JSON-RPC" in h["last_error"]


def test_shutdown_is_graceful(settings, host):
    reg = registry()
    add_plugin_tools(reg, host)
    proc = host.plugins[0].proc
    host.stop()
    assert proc.poll() == 0
    assert "bye" in (settings.home / "plugins" / "logs" / "pyplug.log").read_text()


def test_a_noisy_plugin_log_stays_bounded(settings, host):
    """3 MB of stderr from one call: the log keeps at most 1 MB plus one rotated file, and
    the newest lines are kept (issue 34: 20 MB from one call before)."""
    from cairn.plugin_host.logfile import LOG_MAX_BYTES
    reg = registry()
    add_plugin_tools(reg, host)
    assert reg.call(None, "misbehave", {"how": "noisy"}) == "done"
    host.stop()  # the plugin exits: everything it wrote has reached its log
    logs = settings.home / "plugins" / "logs"
    files = sorted(p.name for p in logs.iterdir() if p.name.startswith("pyplug.log"))
    assert files == ["pyplug.log", "pyplug.log.1"]
    sizes = [(logs / f).stat().st_size for f in files]
    assert all(s <= LOG_MAX_BYTES for s in sizes) and sum(sizes) > LOG_MAX_BYTES, sizes
    assert "noisy-end" in (logs / "pyplug.log").read_text()


def cairn(home, *args):
    env = {**os.environ, "CAIRN_LOAD_PLUGINS": ""}
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, env=env, timeout=180)


def test_cli_lists_and_runs_plugin_tools(settings):
    home = settings.home
    (home / "config.toml").write_text('[plugin.pyplug]\ngreeting = "from config"\n')
    listed = json.loads(cairn(home, "plugins", "--json").stdout)["plugins"]
    sub = {p["name"]: p for p in listed if p["kind"] == "subprocess"}
    assert sub["pyplug"]["state"] == "running" and sub["pyplug"]["tools"] == ["echo", "wipe", "misbehave"]
    assert any(p["builtin"] for p in listed if p["kind"] == "in-process")
    tools = {t["name"]: t for t in json.loads(cairn(home, "tools", "--json").stdout)["tools"]}
    assert tools["shout"]["source"] == "plugin:shout" and tools["search"]["source"] == "builtin"
    r = cairn(home, "tool", "run", "echo", "--args", '{"text": "hey"}', "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["config"] == {"greeting": "from config"}
    denied = cairn(home, "tool", "run", "wipe")
    assert denied.returncode == 1 and "high-risk" in denied.stderr
    bad = cairn(home, "tool", "run", "echo", "--args", "{not json")
    assert bad.returncode == 2
    crash = cairn(home, "tool", "run", "misbehave", "--yes", "--args", '{"how": "crash"}')  # no hint: high
    assert crash.returncode == 1 and "exited with code 3" in crash.stderr


def test_the_assistant_sees_plugin_tools_and_the_judge_gates_the_high_risk_one(settings, tmp_path):
    from fakes.scripted_llm import ScriptedLLM, say, tool

    from cairn.assistant import Assistant, WaitingChannel
    from cairn.service import Cairn
    from fakes.embedder import HashEmbedder
    with Cairn(settings=settings, embedder=HashEmbedder()) as app, ScriptedLLM() as llm:
        app.settings.assistant.approval_timeout_s = 0.3
        llm.script(tool("shout", word="heron"), tool("wipe"), say("Done."))
        ui = WaitingChannel()  # nobody approves
        res = Assistant(app, model=f"openai:{llm.base_url}:scripted").turn("shout heron, then wipe", ui)
        calls = [(c.name, c.risk, c.outcome) for c in res.tool_calls]
        assert calls[0] == ("shout", "medium", "ran") or calls[0][:2] == ("shout", "medium")
        assert calls[1] == ("wipe", "high", "denied")  # the plugin's high hint: approval needed
        assert ui.asked and ui.asked[0]["name"] == "wipe"
        offered = {t["function"]["name"] for t in llm.requests[0]["body"]["tools"]}
        assert {"shout", "wipe", "echo", "search"} <= offered
    PluginHost.for_settings(settings).stop()


def test_mcp_lists_plugin_tools(settings):
    import asyncio

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def main():
        env = {**os.environ, "CAIRN_LOAD_PLUGINS": ""}
        params = StdioServerParameters(command=sys.executable, args=["-m", "cairn", "--home", str(settings.home), "mcp"],
                                       env=env)
        async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            tools = {t.name: t for t in (await s.list_tools()).tools}
            res = await s.call_tool("shout", {"word": "kestrel"})
            return tools, res
    tools, res = asyncio.run(asyncio.wait_for(main(), 120))
    assert {"shout", "echo", "wipe", "search"} <= set(tools)
    assert tools["wipe"].annotations.destructive_hint is True
    assert not res.is_error and "KESTREL" in res.content[0].text
