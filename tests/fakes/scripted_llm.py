"""A scripted model vendor on loopback: OpenAI-compatible /v1/chat/completions (JSON and
server-sent-event streaming, with `tool_calls`) and Anthropic's /v1/messages (tool_use).

    with ScriptedLLM() as llm:
        llm.script(tool("delete_note", note="Boiler"), say("Done."))
        spec = f"openai:{llm.base_url}:scripted"      # or f"anthropic:{llm.root}:claude-x"
        ...
        llm.requests                                  # every request body received

Each request takes the next scripted step; when the script runs out the model says "ok".
A step is {"content": str, "tool_calls": [(name, args)], "usage": (prompt, completion)} or
{"status": N, "error": message}. `usage` defaults to (100, 20). `hold(event, step)` answers
only once `event` is set (a slow model turn); `pause(step, at, event)` streams part of a
reply, then waits for `event`.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def say(text: str, usage=(100, 20)) -> dict:
    return {"content": text, "tool_calls": [], "usage": usage}


def tool(name: str, usage=(100, 20), **args) -> dict:
    return {"content": "", "tool_calls": [(name, args)], "usage": usage}


def hold(release, step: dict) -> dict:
    """`step`, answered only once the threading.Event `release` is set (a slow turn that the
    test ends); the step's "arrived" Event is set when its request comes in."""
    return {**step, "hold": release, "arrived": threading.Event()}


def pause(step: dict, at: int, resume) -> dict:
    """`step` streamed up to character `at` of its content, then held until the
    threading.Event `resume` is set; its "paused" Event is set when it stops there."""
    return {**step, "pause_at": at, "resume": resume, "paused": threading.Event()}


def fail(status: int, message: str) -> dict:
    return {"status": status, "error": message}


class ScriptedLLM:
    def __init__(self) -> None:
        self.steps: list[dict] = []
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                with fake._lock:
                    fake.requests.append({"path": self.path, "body": body, "headers": dict(self.headers)})
                    step = fake.steps.pop(0) if fake.steps else say("ok")
                if "hold" in step:
                    step["arrived"].set()
                    step["hold"].wait(120)
                if "status" in step:
                    self._send(step["status"], {"error": {"message": step["error"], "type": "server_error"}})
                elif self.path.endswith("/messages"):
                    self._send(200, fake._anthropic(step))
                elif body.get("stream"):
                    self._stream(step)
                else:
                    self._send(200, fake._openai(step))

            def _send(self, status: int, obj) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, step: dict) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                def emit(obj) -> None:
                    self.wfile.write(f"data: {json.dumps(obj)}\n\n".encode())
                    self.wfile.flush()
                text = step.get("content") or ""
                for i in range(0, len(text), 4):
                    if "pause_at" in step and i >= step["pause_at"] and not step["paused"].is_set():
                        step["paused"].set()
                        step["resume"].wait(120)
                    emit({"choices": [{"index": 0, "delta": {"content": text[i:i + 4]}}]})
                for n, (name, args) in enumerate(step.get("tool_calls") or []):
                    raw = json.dumps(args)
                    emit({"choices": [{"index": 0, "delta": {"tool_calls": [
                        {"index": n, "id": f"call_{n}", "type": "function",
                         "function": {"name": name, "arguments": raw[: len(raw) // 2]}}]}}]})
                    emit({"choices": [{"index": 0, "delta": {"tool_calls": [
                        {"index": n, "function": {"arguments": raw[len(raw) // 2:]}}]}}]})
                p, c = step.get("usage", (100, 20))
                emit({"choices": [{"index": 0, "delta": {}, "finish_reason":
                                   "tool_calls" if step.get("tool_calls") else "stop"}]})
                emit({"choices": [], "usage": {"prompt_tokens": p, "completion_tokens": c}})
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.root = f"http://127.0.0.1:{self.port}"
        self.base_url = f"{self.root}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def script(self, *steps: dict) -> "ScriptedLLM":
        with self._lock:
            self.steps.extend(steps)
        return self

    @staticmethod
    def _openai(step: dict) -> dict:
        calls = [{"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                 for i, (n, a) in enumerate(step.get("tool_calls") or [])]
        msg = {"role": "assistant", "content": step.get("content") or None}
        if calls:
            msg["tool_calls"] = calls
        p, c = step.get("usage", (100, 20))
        return {"id": "x", "object": "chat.completion", "model": "scripted",
                "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if calls else "stop"}],
                "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}}

    @staticmethod
    def _anthropic(step: dict) -> dict:
        blocks = [{"type": "text", "text": step["content"]}] if step.get("content") else []
        blocks += [{"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a}
                   for i, (n, a) in enumerate(step.get("tool_calls") or [])]
        p, c = step.get("usage", (100, 20))
        return {"id": "msg", "type": "message", "role": "assistant", "content": blocks,
                "stop_reason": "tool_use" if step.get("tool_calls") else "end_turn",
                "usage": {"input_tokens": p, "output_tokens": c}}

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "ScriptedLLM":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
