"""What the fake chat servers share: a threaded HTTP server on a free loopback port, the
messages the bot sent (`sent`, guarded by a condition), waiting for them, and the
context-manager start/stop."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackChatServer:
    """Base of FakeBotAPI and FakeHomeserver. A subclass fills `self.sent` under
    `self._cond` (notifying it) and calls `_listen(Handler)` at the end of its __init__."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self._cond = threading.Condition()

    def _listen(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def wait_sent(self, n: int, timeout: float = 60.0) -> list[dict]:
        """Block until at least `n` messages were sent by the bot; returns them all."""
        deadline = time.time() + timeout
        with self._cond:
            while len(self.sent) < n and time.time() < deadline:
                self._cond.wait(0.1)
            return list(self.sent)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
