"""A tiny fake OpenAI-compatible server for tests (standard library only).

    with FakeOpenAIServer() as srv:
        srv.reply("hello")                 # next requests get a normal completion
        client = OpenAICompatClient(srv.base_url, "fake-model")
        ...
        srv.requests[-1]                   # RecordedRequest(path, headers, body)

Behaviours (each applies to all following requests until changed):
    reply(content, finish_reason="stop")   200 with an OpenAI chat.completion body
    fail(status, message)                  status with {"error": {"message", "type", "code"}}
    context_overflow(style)                "openai": 400 code=context_length_exceeded;
                                           "llamacpp": 400 like llama.cpp's server
    slow(seconds, content)                 waits `seconds` before replying normally
    garbage(status=200, body=...)          a non-JSON body
    raw(status, obj)                       any JSON-serialisable body

Each setter takes `check=True` to apply to the answer check's requests only (those asking for
`logprobs`, cairn/answer/judge.py), leaving the other requests' behaviour as it is;
`reply(..., logprobs={token: probability})` adds OpenAI `top_logprobs` for the first token.

The server listens on 127.0.0.1 on a free port in a daemon thread; `close()` (or leaving the
`with` block) stops it and releases any request still sleeping in `slow`.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any = None  # parsed JSON, or the raw text if it was not JSON


@dataclass
class _Behaviour:
    kind: str = "reply"
    status: int = 200
    content: str = "ok"
    finish_reason: str = "stop"
    message: str = ""
    style: str = "openai"
    seconds: float = 0.0
    body: Any = None
    extra: dict = field(default_factory=dict)


class FakeOpenAIServer:
    """See module docstring. `base_url` is "http://127.0.0.1:PORT/v1"."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self._behaviour = _Behaviour()
        self._check: _Behaviour | None = None  # the answer check's requests (logprobs), when set
        self._lock = threading.Lock()
        self._closing = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                fake._record(self, None)
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8", "replace")
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw
                fake._record(self, body)
                if self.path not in ("/v1/chat/completions", "/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                with fake._lock:
                    b = fake._behaviour
                    if isinstance(body, dict) and body.get("logprobs") and fake._check is not None:
                        b = fake._check
                if b.kind == "slow":
                    fake._closing.wait(b.seconds)
                    self._send(200, fake._completion(b.content, b.finish_reason, body))
                elif b.kind == "reply":
                    self._send(200, fake._completion(b.content, b.finish_reason, body, b.extra.get("logprobs")))
                elif b.kind == "fail":
                    self._send(
                        b.status,
                        {"error": {"message": b.message, "type": "server_error", "code": None}},
                    )
                elif b.kind == "overflow":
                    if b.style == "openai":
                        self._send(
                            400,
                            {
                                "error": {
                                    "message": "This model's maximum context length is 128000 tokens. "
                                    "However, your messages resulted in 130000 tokens.",
                                    "type": "invalid_request_error",
                                    "param": "messages",
                                    "code": "context_length_exceeded",
                                }
                            },
                        )
                    else:
                        self._send(
                            400,
                            {
                                "error": {
                                    "code": 400,
                                    "message": "request (3031 tokens) exceeds the available context "
                                    "size (2048 tokens), try increasing it",
                                    "type": "exceed_context_size_error",
                                    "n_prompt_tokens": 3031,
                                    "n_ctx": 2048,
                                }
                            },
                        )
                elif b.kind == "garbage":
                    self._send_raw(b.status, b.body.encode(), "text/html")
                elif b.kind == "raw":
                    self._send(b.status, b.body)
                else:  # pragma: no cover
                    self._send(500, {"error": {"message": f"unknown behaviour {b.kind}"}})

            def _send(self, status: int, obj: Any) -> None:
                self._send_raw(status, json.dumps(obj).encode(), "application/json")

            def _send_raw(self, status: int, data: bytes, ctype: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        self.port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-openai",
            daemon=True,
        )
        self._thread.start()

    # -- behaviour setters -----------------------------------------------------------------

    def _set(self, check: bool = False, **kw: Any) -> None:
        with self._lock:
            if check:
                self._check = _Behaviour(**kw)
            else:
                self._behaviour = _Behaviour(**kw)

    def reply(self, content: str, finish_reason: str = "stop", *, check: bool = False,
              logprobs: dict[str, float] | None = None) -> None:
        self._set(check, kind="reply", content=content, finish_reason=finish_reason,
                  extra={"logprobs": logprobs} if logprobs else {})

    def fail(self, status: int = 500, message: str = "internal error", *, check: bool = False) -> None:
        self._set(check, kind="fail", status=status, message=message)

    def context_overflow(self, style: str = "openai") -> None:
        assert style in ("openai", "llamacpp")
        self._set(kind="overflow", style=style)

    def slow(self, seconds: float, content: str = "late", *, check: bool = False) -> None:
        self._set(check, kind="slow", seconds=seconds, content=content)

    def garbage(self, status: int = 200, body: str = "<html><body>Bad Gateway</body></html>", *,
                check: bool = False) -> None:
        self._set(check, kind="garbage", status=status, body=body)

    def raw(self, status: int, obj: Any, *, check: bool = False) -> None:
        self._set(check, kind="raw", status=status, body=obj)

    # -- internals ---------------------------------------------------------------------------

    def _record(self, handler: BaseHTTPRequestHandler, body: Any) -> None:
        with self._lock:
            self.requests.append(
                RecordedRequest(
                    handler.command,
                    handler.path,
                    {k.lower(): v for k, v in handler.headers.items()},
                    body,
                )
            )

    @staticmethod
    def _completion(content: str, finish_reason: str, request: Any,
                    logprobs: dict[str, float] | None = None) -> dict:
        model = request.get("model", "fake-model") if isinstance(request, dict) else "fake-model"
        out = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        if logprobs:
            import math
            top = [{"token": t, "logprob": math.log(p)} for t, p in logprobs.items()]
            out["choices"][0]["logprobs"] = {"content": [{"token": content, "logprob": top[0]["logprob"],
                                                          "top_logprobs": top}]}
        return out

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
