"""A real server for the web tests: uvicorn on loopback (and on a non-loopback address of
this machine, for the "another machine" checks) serving `cairn serve`'s application
(`serve_app`), or, for route tests without the REST door, the web router alone (`web_app`).

`serve(app, host)` runs uvicorn in a thread and returns (base URL, stop function).
`outside_address()` is an address of this machine that is not loopback (the source
address of a UDP socket routed to a documentation address; nothing is sent).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest
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


# --- the browser: Debian's chromium driven by Playwright (no browser download) ---------------

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 60_000  # ms; the machine is shared and slow


@contextlib.contextmanager
def chromium():
    """A launched headless chromium (closed on exit)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser():
    """One headless chromium per test module that imports this fixture (`chromium`)."""
    with chromium() as b:
        yield b


@contextlib.contextmanager
def watched_page(browser, viewport: tuple[int, int] = (1280, 860)):
    """A page in a new context whose script errors fail the test on exit. HTTP error
    statuses the tests provoke (401, 409) are logged by the browser as failed loads: those
    are expected and ignored."""
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url')})") if m.type == "error" else None)
    yield pg
    ctx.close()
    assert not [e for e in errors if not e.startswith("Failed to load resource")], errors


def shoot(pg, shots, name: str, widths: dict[str, tuple[int, int]], *, full_page: bool = False) -> None:
    """Screenshots of the current view at each width into the folder `shots`; at every width
    nothing may be wider than the screen. The viewport is set back to the last width."""
    for label, (w, h) in widths.items():
        pg.set_viewport_size({"width": w, "height": h})
        overflow = pg.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than a {w}px screen"
        pg.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=full_page)
