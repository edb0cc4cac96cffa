"""What every web route shares: the service, its lock, the templates, and the guards.

The host app (`cairn serve`, cairn.interfaces.rest.app) puts its `Cairn` on
`app.state.cairn`. Optional hooks it may set on `app.state`:

- `cairn_lock`: a lock serialising calls on the service's one index connection (else the
  web package's own lock is used);
- `check_key(key: str) -> bool`: whether an API key is valid (the REST auth). Without it a
  request from another machine is refused: only loopback is trusted.

Guards (router dependency `guard`):

- Access: a request from loopback passes; from elsewhere it needs a valid key, sent as
  `Authorization: Bearer KEY` or in the `cairn_key` cookie that `/login` sets (HttpOnly,
  SameSite=Strict: the page's scripts never see it and it is never written into a page).
- CSRF: a state-changing request (POST, PUT, PATCH, DELETE) from a browser must come from
  this origin: `Sec-Fetch-Site` must be `same-origin` or `none` when sent, else `Origin`
  must name this host. Requests without either header (curl, scripts) carry no ambient
  browser credentials and pass. (The rule of Go's net/http CrossOriginProtection.)
"""

from __future__ import annotations

import ipaddress
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from fastapi import HTTPException, Request
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape

from cairn.interfaces.web import render

HERE = Path(__file__).parent
KEY_COOKIE = "cairn_key"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_LOCK = threading.RLock()

_env = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                   autoescape=select_autoescape(["html", "xml"], default=True))
_env.filters["short_time"] = render.short_time
_env.filters["bytes"] = render.human_bytes
_env.globals["verdict_words"] = render.verdict_words
templates = Jinja2Templates(env=_env)


def service(request: Request):
    """The host app's `Cairn` (app.state.cairn)."""
    return request.app.state.cairn


@contextmanager
def locked(request: Request):
    """Hold the lock that serialises use of the service's index connection."""
    lock = getattr(request.app.state, "cairn_lock", None) or _LOCK
    with lock:
        yield


def call(request: Request, fn: Callable, *args, **kwargs) -> Any:
    """Call a service operation under the lock."""
    with locked(request):
        return fn(*args, **kwargs)


@contextmanager
def background_service(app_state):
    """The service a background run (an ingest from the page) uses, as a context manager.
    When the host app serialises calls itself (it set `cairn_lock`, as `cairn serve` does
    through its writer thread), that is its service; else a second `Cairn` on the same home
    and embedder, on its own SQLite connection (WAL: the page keeps reading meanwhile)."""
    app = app_state.cairn
    if getattr(app_state, "cairn_lock", None) is not None:
        yield app
        return
    from cairn.service import Cairn
    with Cairn(settings=app.settings, embedder=app.embedder) as worker:
        yield worker


def error_message(exc: Exception) -> tuple[str, int]:
    """(one line for the person, HTTP status) for an error a service operation raised.
    CairnError carries its status; other ValueErrors are the person's input (400)."""
    from cairn.errors import CairnError
    if isinstance(exc, CairnError):
        return exc.message or str(exc), exc.http_status
    name = type(exc).__name__
    if name in ("NoteNotFound", "MemoryNotFound"):
        return str(exc), 404
    if name in ("NoteConflict", "AmbiguousNote"):
        return str(exc), 409
    return str(exc), 400


def is_loopback(request: Request) -> bool:
    """Whether the request's peer address is a loopback address."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _key_of(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(KEY_COOKIE, "")


def key_ok(request: Request, key: str) -> bool:
    """Whether `key` is a valid API key per the host app's `check_key` (False without one)."""
    check = getattr(request.app.state, "check_key", None)
    return bool(key) and check is not None and bool(check(key))


def authorised(request: Request) -> bool:
    """Loopback, or a valid key in the Authorization header or the key cookie."""
    return is_loopback(request) or key_ok(request, _key_of(request))


def same_origin(request: Request) -> bool:
    """The CSRF rule of this module's docstring."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return True
    return origin != "null" and urlsplit(origin).netloc == request.headers.get("host", "")


async def guard(request: Request) -> None:
    """Router dependency: the access and CSRF rules (see module docstring). The login page
    and static files pass the access rule (they show nothing stored)."""
    if request.method in UNSAFE and not same_origin(request):
        raise HTTPException(403, "cross-site request refused (CSRF protection)")
    path = request.url.path
    if path in ("/login",) or path.startswith("/static/web/"):
        return
    if not authorised(request):
        if request.method == "GET" and "text/html" in request.headers.get("accept", "") \
                and not request.headers.get("authorization"):
            from urllib.parse import quote
            raise HTTPException(303, "sign in first", headers={
                "Location": "/login?next=" + quote(request.url.path + ("?" + request.url.query if request.url.query else ""))})
        raise HTTPException(401, "this page needs a key from another machine: open /login",
                            headers={"WWW-Authenticate": "Bearer"})
