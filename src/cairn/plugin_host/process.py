"""One subprocess plugin: its program, its tools, its health.

Lifecycle: start the executable (stdin/stdout pipes; stderr appended to
`<home>/plugins/logs/NAME.log`, the plugin's log, at most 1 MB plus one rotated `NAME.log.1`:
cairn.plugin_host.logfile) -> request `initialize` {"protocol": "1",
"config": {...}} answered with {"name", "version"} -> the plugin's `tools.register`
notification (waited for up to start_timeout_s) -> `tools.execute` calls -> notification
`shutdown`, a grace period (SHUTDOWN_GRACE_S), then SIGTERM, then SIGKILL.

Crash isolation: a plugin that exits, hangs past call_timeout_s or writes a line that is not
JSON-RPC gets every in-flight call failed with a clear PluginFailed, is stopped, and is
started again on the next use after an exponential back-off (1 s, 2 s, 4 s ... at most
restart_max_s). Nothing it does can stop Cairn or another plugin. `health()` reports state
("running", "stopped", "crashed", "backoff"), restarts and the last error.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from cairn.errors import TooLarge, Unavailable
from cairn.plugin_host import rpc
from cairn.plugin_host.logfile import CappedLog, pump

SHUTDOWN_GRACE_S = 2.0
RISKS = ("none", "low", "medium", "high")


# A tool name as MCP clients and model APIs take one (MCP's tool-name rule: letters, digits,
# "_", "-", "." and at most 128 characters); "PLUGIN.NAME" renames stay within it.
TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


def _unusable(tool) -> str | None:
    """Why a registered tool cannot be offered (its name, its parameters), or None."""
    if not isinstance(tool, dict):
        return f"{json.dumps(tool)[:60]} is not a tool object"
    name = tool.get("name")
    if not isinstance(name, str) or not TOOL_NAME.fullmatch(name.strip()):
        return (f"tool name {json.dumps(name)[:80]} refused (letters, digits, _ - . only, "
                "1-128 characters)")
    params = tool.get("parameters", {"type": "object"})
    if not isinstance(params, dict) or params.get("type") != "object":
        return f"tool {name.strip()!r}: parameters must be a JSON schema of type object"
    return None


class PluginFailed(Unavailable):
    """A plugin call could not complete (crash, hang, garbage, or the plugin's own error)."""


class PluginProcess:
    """The running program behind one `cairn-plugin-NAME` executable."""

    def __init__(self, path: Path, settings) -> None:
        self.path = Path(path)
        self.name = self.path.name.removeprefix("cairn-plugin-")
        self.settings = settings
        self.cfg = settings.plugins
        self.config = dict(settings.plugin_config.get(self.name, {}))
        self.proc: subprocess.Popen | None = None
        self.info: dict = {}
        self.tools: list[dict] = []
        self.state = "stopped"
        self.last_error: str | None = None
        self.restarts = 0
        self._fails = 0
        self._retry_at = 0.0
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._pending: dict[int, Future] = {}
        self._next_id = 0
        self._registered = threading.Event()
        self._log_thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def ensure(self) -> None:
        """Start the plugin if it is not running (respecting the back-off). Raises PluginFailed."""
        with self._lock:
            if self.proc is not None and self.proc.poll() is None and self.state == "running":
                return
            wait = self._retry_at - time.monotonic()
            if wait > 0:
                self.state = "backoff"
                raise PluginFailed(f"plugin {self.name} is restarting after a failure "
                                   f"({self.last_error}); next try in {wait:.0f} s")
            self._start()

    def _start(self) -> None:
        logs = Path(self.settings.home) / "plugins" / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        try:
            self.proc = subprocess.Popen([str(self.path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=str(self.path.parent), start_new_session=True)
        except OSError as exc:
            self._failed(f"cannot start {self.path}: {exc.strerror or exc}")
            raise PluginFailed(f"plugin {self.name}: {self.last_error}") from exc
        self._log_thread = threading.Thread(target=pump, args=(self.proc.stderr, CappedLog(logs / f"{self.name}.log")),
                                            daemon=True, name=f"plugin-{self.name}-log")
        self._log_thread.start()
        self._registered.clear()
        self.state = "running"
        threading.Thread(target=self._read, args=(self.proc,), daemon=True, name=f"plugin-{self.name}").start()
        try:
            info = self._call("initialize", {"protocol": rpc.PROTOCOL, "config": self.config},
                              self.cfg.start_timeout_s)
        except PluginFailed:
            raise
        if not isinstance(info, dict) or not isinstance(info.get("name"), str):
            self._crash("initialize did not answer {\"name\", \"version\"}")
            raise PluginFailed(f"plugin {self.name}: {self.last_error}")
        self.info = {"name": info["name"], "version": str(info.get("version", ""))}
        self._registered.wait(self.cfg.start_timeout_s)
        self._fails = 0

    def stop(self) -> None:
        """The `shutdown` notification, a grace period, then SIGTERM and SIGKILL."""
        with self._lock:
            proc, self.proc = self.proc, None
            if proc is None:
                return
            try:
                self._send(proc, rpc.notification("shutdown"))
                proc.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                proc.wait(SHUTDOWN_GRACE_S)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(SHUTDOWN_GRACE_S)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            if self._log_thread is not None:  # what it wrote before it ended is in its log
                self._log_thread.join(SHUTDOWN_GRACE_S)
            if self.state == "running":
                self.state = "stopped"
            self._fail_pending(f"plugin {self.name} was stopped")

    # ------------------------------------------------------------------ failures
    def _failed(self, reason: str) -> None:
        self.last_error = reason
        self._fails += 1
        self.state = "crashed"
        self._retry_at = time.monotonic() + min(self.cfg.restart_max_s, 2 ** (self._fails - 1))

    def _crash(self, reason: str) -> None:
        """Record the failure, fail in-flight calls, stop the process (a restart follows on next use)."""
        with self._lock:
            if self.state != "running" and self.proc is None:
                return
            self._failed(reason)
            self.restarts += 1
            proc, self.proc = self.proc, None
        self._fail_pending(f"plugin {self.name} failed: {reason}")
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def _fail_pending(self, message: str) -> None:
        pending, self._pending = self._pending, {}
        for fut in pending.values():
            if not fut.done():
                fut.set_exception(PluginFailed(message))

    # ------------------------------------------------------------------ I/O
    def _send(self, proc: subprocess.Popen, data: bytes) -> None:
        with self._write_lock:
            proc.stdin.write(data)
            proc.stdin.flush()

    def _read(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            if not line.strip():
                continue
            try:
                msg = rpc.parse(line)
            except rpc.ProtocolError as exc:
                if proc is self.proc:
                    self._crash(f"wrote something that is not JSON-RPC ({exc})")
                return
            if "method" in msg:
                if msg["method"] == "tools.register":
                    self._register((msg.get("params") or {}).get("tools"))
                continue
            fut = self._pending.pop(msg.get("id"), None)
            if fut is None or fut.done():
                continue
            if "error" in msg:
                err = msg["error"]
                fut.set_exception(PluginFailed(f"plugin {self.name}: {err.get('message')}"
                                               + (f" (code {err['code']})" if "code" in err else "")))
            else:
                fut.set_result(msg.get("result"))
        code = proc.wait()
        if proc is self.proc:
            self._crash(f"exited with code {code}")

    def _register(self, tools) -> None:
        """Keep the tools of a `tools.register` notification that can be offered; each one
        left out is named in `last_error` (shown by `cairn plugins`) with the reason."""
        ok: list[dict] = []
        refused: list[str] = []
        for t in tools if isinstance(tools, list) else []:
            why = _unusable(t)
            if why:
                refused.append(why)
                continue
            params = t.get("parameters") if isinstance(t.get("parameters"), dict) else {"type": "object"}
            hint = t.get("risk_hint") if t.get("risk_hint") in RISKS else "high"
            ok.append({"name": t["name"].strip(), "description": str(t.get("description", ""))[:1000],
                       "parameters": params, "risk_hint": hint})
        self.tools = ok
        if refused:
            self.last_error = "tools.register: " + "; ".join(refused[:5]) + (
                f"; and {len(refused) - 5} more" if len(refused) > 5 else "")
        self._registered.set()

    def _call(self, method: str, params: dict, timeout: float):
        with self._lock:
            proc = self.proc
            if proc is None:
                raise PluginFailed(f"plugin {self.name} is not running")
            self._next_id += 1
            rid = self._next_id
            fut: Future = Future()
            self._pending[rid] = fut
        try:
            self._send(proc, rpc.request(rid, method, params))
        except (OSError, ValueError) as exc:
            self._crash(f"its input closed ({exc})")
            raise PluginFailed(f"plugin {self.name}: {self.last_error}") from None
        try:
            return fut.result(timeout)
        except FutureTimeout:
            self._crash(f"{method} took longer than {timeout:g} s")
            raise PluginFailed(f"plugin {self.name}: {method} timed out after {timeout:g} s; "
                               "the plugin is restarted") from None

    # ------------------------------------------------------------------ tools
    def execute(self, tool: str, arguments: dict):
        """Call a tool; returns its `content`. Raises PluginFailed (crash, hang, garbage, the
        plugin's error) or TooLarge (result over max_result_bytes)."""
        self.ensure()
        result = self._call("tools.execute", {"name": tool, "arguments": arguments}, self.cfg.call_timeout_s)
        if not isinstance(result, dict) or "content" not in result:
            raise PluginFailed(f"plugin {self.name}: tools.execute answered without \"content\"")
        size = len(json.dumps(result["content"]))
        if size > self.cfg.max_result_bytes:
            raise TooLarge(f"plugin {self.name}: {tool} returned {size} bytes, more than "
                           f"[plugins] max_result_bytes = {self.cfg.max_result_bytes}")
        return result["content"]

    def health(self) -> dict:
        """{"name", "path", "state", "version", "tools", "restarts", "last_error"}."""
        state = self.state
        if state == "running" and (self.proc is None or self.proc.poll() is not None):
            state = "stopped"
        return {"name": self.name, "path": str(self.path), "state": state,
                "version": self.info.get("version"), "tools": [t["name"] for t in self.tools],
                "restarts": self.restarts, "last_error": self.last_error}
