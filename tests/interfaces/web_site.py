"""A real server for the web tests: uvicorn on loopback (and on a non-loopback address of
this machine, for the "another machine" checks) serving `cairn serve`'s application
(`serve_app`), or, for route tests without the REST door, the web router alone (`web_app`).

`serve(app, host)` runs uvicorn in a thread and returns (base URL, stop function).
`outside_address()` is an address of this machine that is not loopback (the source
address of a UDP socket routed to a documentation address; nothing is sent).
"""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

RIGHT_KEY = "ck_test_right_key_0123456789"


def free_port(host: str) -> int:
    s = socket.socket()
    s.bind((host, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def outside_address() -> str:
    """A non-loopback IPv4 address of this machine (raises OSError when it has none)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # UDP connect sends nothing; it picks the route's source
        addr = s.getsockname()[0]
    finally:
        s.close()
    if addr.startswith("127.") or addr == "0.0.0.0":
        raise OSError("this machine has no non-loopback IPv4 address")
    return addr


def serve(app, host: str = "127.0.0.1"):
    """Start uvicorn for `app` on host:free port in a thread; returns (base_url, stop)."""
    port = free_port(host)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           lifespan="off", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError(f"uvicorn did not start on {host}:{port}")
        time.sleep(0.05)

    def stop() -> None:
        server.should_exit = True
        thread.join(10)

    return f"http://{host}:{port}", stop


def serve_app(home, embedder, bind_host: str | None = None):
    """`cairn serve`'s application (cairn.interfaces.rest.app.create_app) for `home`, with
    `embedder`; `bind_host`: a non-loopback address it also answers on."""
    from cairn.config import load_settings
    from cairn.interfaces.rest.app import create_app
    return create_app(load_settings(home), embedder=embedder, bind_host=bind_host)


def web_app(cairn, check_key=lambda key: key == RIGHT_KEY):
    """A FastAPI app with the web router over `cairn` (a cairn.service.Cairn)."""
    from fastapi import FastAPI

    from cairn.interfaces.web import install, router
    app = FastAPI()
    app.include_router(router)
    install(app)
    app.state.cairn = cairn
    app.state.check_key = check_key
    return app
