"""probe24: a subprocess plugin could register a tool named "\\u0000nul" (a NUL in it), "../../etc"
or 300 characters long: Cairn offered it to MCP clients and to the assistant's model, whose
APIs take only letters, digits, "_", "-" and "." (`cairn plugins` printed "\\ufffdnul"). A tool
it dropped (a schema that is not an object, an entry that is no tool object) vanished without
a word. Now a name outside MCP's rule is refused like a bad schema, and `cairn plugins` names
every tool left out and why (`last_error`); the good tools still work."""

from __future__ import annotations

import json
import sys

from cairn.config import load_settings
from cairn.plugin_host.host import PluginHost

PLUGIN = """\
#!{python}
import json, sys
TOOLS = {tools}
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        print(json.dumps({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"name": "odd", "version": "1"}}}}), flush=True)
        print(json.dumps({{"jsonrpc": "2.0", "method": "tools.register", "params": {{"tools": TOOLS}}}}), flush=True)
    elif msg.get("method") == "tools.execute":
        print(json.dumps({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"content": msg["params"]["name"]}}}}), flush=True)
    elif msg.get("method") == "shutdown":
        break
"""

TOOLS = [
    {"name": "good_one", "description": "ok", "risk_hint": "none", "parameters": {"type": "object"}},
    {"name": "v1.count-words", "description": "ok", "risk_hint": "none"},
    {"name": "\u0000nul", "description": "x", "risk_hint": "none", "parameters": {"type": "object"}},
    {"name": "../../etc", "description": "x", "risk_hint": "none", "parameters": {"type": "object"}},
    {"name": "has space", "description": "x", "risk_hint": "none", "parameters": {"type": "object"}},
    {"name": "x" * 300, "description": "x", "risk_hint": "none", "parameters": {"type": "object"}},
    {"name": "schema", "description": "x", "risk_hint": "none", "parameters": {"type": "string"}},
    "notadict",
]


def test_unusable_tools_are_refused_and_named(tmp_path):
    s = load_settings(tmp_path / "home")
    s.ensure_dirs()
    exe = s.home / "plugins" / "cairn-plugin-odd"
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text(PLUGIN.format(python=sys.executable, tools=json.dumps(TOOLS)))
    exe.chmod(0o755)
    host = PluginHost(s)
    try:
        names = [t["name"] for t in host.tool_specs()]
        assert names == ["good_one", "v1.count-words"]
        health = host.health()[0]
        assert health["tools"] == names
        err = health["last_error"]
        for word in ('"\\u0000nul"', '"../../etc"', '"has space"', "'schema'", '; and 1 more'):
            assert word in err, err
        assert "x" * 70 in err and "x" * 300 not in err
        assert host.tool_specs()[0]["run"](None, {}) == "good_one"
    finally:
        host.stop()
