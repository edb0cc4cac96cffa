"""A real uvicorn server on loopback for the REST tests: `RestServer(home, config)` runs
`create_app` in a thread with the fast fake embedder; `client()` gives an httpx client."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from fakes.embedder import HashEmbedder
from cairn.config import load_settings
from cairn.interfaces.rest.app import create_app


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class RestServer:
    """uvicorn serving Cairn for `home` (config.toml text `config` written first)."""

    def __init__(self, home: Path, config: str = "") -> None:
        home.mkdir(parents=True, exist_ok=True)
        if config:
            (home / "config.toml").write_text(config, encoding="utf-8")
        self.home = home
        self.settings = load_settings(home)
        self.app = create_app(self.settings, embedder=HashEmbedder())
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", timeout_graceful_shutdown=5))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def client(self, **kwargs) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=120, **kwargs)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)

    def __enter__(self) -> "RestServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def sse_events(resp) -> list[tuple[str, dict]]:
    """(event name, its JSON data) of each server-sent event of a streamed response (POST /chat)."""
    out, name = [], None
    for line in resp.iter_lines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            out.append((name, json.loads(line[6:])))
    return out
