"""probe24b: a line `cairn mcp` cannot read over stdio (a question holding a lone surrogate
"\\ud800", not JSON, JSON that is no JSON-RPC message) was dropped by the SDK with a debug log:
the client waited for an answer that never came. Each is now answered with a JSON-RPC error
naming the problem, carrying the request's id when the line has one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from mcp import types

from cairn.interfaces.mcp.drain import refusal

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _refused(line: str) -> dict:
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)  # what the SDK's stdio reader does
    except Exception as exc:  # noqa: BLE001 - the SDK's own exception, as its reader passes it on
        return json.loads(refusal(exc).message.model_dump_json(by_alias=True, exclude_unset=True))
    raise AssertionError(f"the SDK read {line!r}")


def test_each_unreadable_line_gets_an_error_naming_it():
    lone = _refused('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask",'
                    '"arguments":{"question":"where\\ud800?"}}}')
    assert lone["id"] == 2 and lone["error"]["code"] == -32700 and "surrogate" in lone["error"]["message"]
    junk = _refused("not json")
    assert junk["id"] is None and junk["error"]["code"] == -32700 and "not JSON" in junk["error"]["message"]
    shape = _refused('{"jsonrpc":"2.0","id":"q","nomethod":1}')
    assert shape["id"] == "q" and shape["error"]["code"] == -32600 and "method" in shape["error"]["message"]
    top = _refused('"text"')
    assert top["id"] is None and top["error"]["code"] == -32600


def test_stdio_answers_a_lone_surrogate_and_keeps_serving(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)}
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(tmp_path / "home"), "mcp"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    lines = ['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",'
             '"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
             '{"jsonrpc":"2.0","method":"notifications/initialized"}',
             '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"k\\udc80"}}}',
             '{"jsonrpc":"2.0","id":3,"method":"ping"}']
    got: dict = {}

    def read():
        for raw in proc.stdout:
            msg = json.loads(raw)
            got[msg.get("id")] = msg
            if 3 in got:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        proc.stdin.write(("\n".join(lines) + "\n").encode())
        proc.stdin.flush()
        reader.join(90)
    finally:
        proc.kill()
        proc.wait(10)
    assert 2 in got, f"no answer to the request holding a lone surrogate; got {sorted(got, key=str)}"
    assert got[2]["error"]["code"] == -32700 and "surrogate" in got[2]["error"]["message"]
    assert got[3].get("result") == {}  # still serving
