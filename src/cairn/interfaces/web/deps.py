"""What every web route shares: the service, its lock, the templates, and the guards.

The host app (`cairn serve`, cairn.interfaces.rest.app) puts its `Cairn` on
`app.state.cairn`. Optional hooks it may set on `app.state`:

- `cairn_lock`: a lock serialising calls on the service's one index connection (else the
  web package's own lock is used);
- `check_key(key: str) -> str | None`: the scope of a valid API key ("read", "write",
  "admin"), None when it is not valid (a bool is accepted: True = admin). Without it a
  request from another machine is refused: only loopback is trusted;
- `key_person(key: str) -> str | None`: the person (cairn.people) a valid key acts for; the
  page then shows only that person's notes, memories, reminders... (see `guard`);
- `events`: a bus with `publish(type, data)` (ingest runs started from the page report there).

Guards (router dependency `guard`):

- Access: a request from loopback passes (or, under `cairn serve`, what its front door
  decided: `[server] trust_loopback`); from elsewhere it needs a valid key, sent as
  `Authorization: Bearer KEY` or in the `cairn_key` cookie that `/login` sets (HttpOnly,
  SameSite=Strict: the page's scripts never see it and it is never written into a page).
  The key's scope limits what the page may do (`need`): read < write < admin.
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
from cairn.validate import MAX_QUESTION_CHARS

HERE = Path(__file__).parent
KEY_COOKIE = "cairn_key"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_LOCK = threading.RLock()

_env = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                   autoescape=select_autoescape(["html", "xml"], default=True))
_env.filters["short_time"] = render.short_time
_env.filters["bytes"] = render.human_bytes
_env.filters["basename"] = render.basename
_env.globals["verdict_words"] = render.verdict_words
_env.globals["plain"] = render.plain  # a quote or gist without markdown marks ([[links]] as words)
_env.globals["max_question"] = MAX_QUESTION_CHARS  # the ask and search boxes (validate.check_question)
_env.filters["event_words"] = render.event_words
_env.filters["web_reply"] = render.web_reply  # a reply without typed /approve /deny (buttons instead)
_env.filters["web_words"] = render.web_words  # service messages without commands a browser cannot run
_env.filters["no_bidi"] = render.no_bidi  # titles and snippets shown in their stored order
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
    """Call a service operation under the lock; the note versions it writes are by "web"
    (store.history)."""
    from cairn.store.history import acting
    with locked(request), acting("web"):
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
    from cairn.errors import FULL_MESSAGE, CairnError, storage_full
    if isinstance(exc, CairnError):
        return exc.message or str(exc), exc.http_status
    if storage_full(exc):
        return FULL_MESSAGE, 507
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
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _key_of(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(KEY_COOKIE, "")


class Refused(HTTPException):
    """A guard's refusal (401, 403, or a 303 to the sign-in page). `install(app)` renders it
    as a page for a browser and as {"error", "message"} JSON for anything else."""


SCOPES = ("read", "write", "admin")  # each includes the ones before it (as cairn.tools.SCOPES)


def key_scope(request: Request, key: str) -> str | None:
    """The scope of API key `key` per the host app's `check_key` (None when it is not
    valid, or when the host has no key check). `check_key` returns the key's scope, or a
    plain True for "admin" / False."""
    check = getattr(request.app.state, "check_key", None)
    if not key or check is None:
        return None
    result = check(key)
    if isinstance(result, str):
        return result if result in SCOPES else None
    return "admin" if result else None


def key_ok(request: Request, key: str) -> bool:
    """Whether `key` is a valid API key per the host app's `check_key`."""
    return key_scope(request, key) is not None


def caller_scope(request: Request) -> str | None:
    """What the caller may do: "read", "write", "admin", or None (not signed in).

    When the host app authenticated the request (`cairn serve`'s front door puts
    {"actor", "scope", "key_id"} in the request state: a trusted loopback caller, or a valid
    key in a header), that scope; else loopback is trusted (admin) when the host has no such
    door; else the key in the Authorization header or the sign-in cookie."""
    principal = request.scope.get("state", {}).get("principal")
    if principal and principal.get("scope") in SCOPES:
        return principal["scope"]
    if principal is None and is_loopback(request):
        return "admin"
    return key_scope(request, _key_of(request))


def authorised(request: Request) -> bool:
    """Whether the caller may see the page at all (any scope)."""
    return caller_scope(request) is not None


def need(scope: str):
    """A route dependency refusing (403) a caller whose key lacks `scope` (read < write <
    admin): writes need "write"; deleting a note and forgetting a memory need "admin", as in
    the REST API."""
    async def check(request: Request) -> None:
        have = caller_scope(request)
        if have is None or SCOPES.index(have) < SCOPES.index(scope):
            raise Refused(403, f"this needs a key with scope {scope!r}; yours has {have!r}")
    return check


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
        raise Refused(403, "cross-site request refused (CSRF protection)")
    path = request.url.path
    if path in ("/login", "/sw.js", "/manifest.webmanifest") or path.startswith("/static/web/"):
        return
    if not authorised(request):
        if request.method == "GET" and "text/html" in request.headers.get("accept", "") \
                and not request.headers.get("authorization"):
            from urllib.parse import quote
            raise Refused(303, "sign in first", headers={
                "Location": "/login?next=" + quote(request.url.path + ("?" + request.url.query if request.url.query else ""))})
        raise Refused(401, "this page needs a key from another machine: open /login",
                            headers={"WWW-Authenticate": "Bearer"})
    _act_for_key_person(request)


def _act_for_key_person(request: Request) -> None:
    """When the page is signed in with a key (cookie or header) that the host's front door
    did not already take, act for that key's person (cairn.people) for this request: the
    host's `key_person(key) -> str | None` names them; the service proxy reads it from
    cairn.tools.current_person. Nothing when the front door authenticated the caller."""
    principal = request.scope.get("state", {}).get("principal")
    if principal and principal.get("scope") in SCOPES:
        return
    who = getattr(request.app.state, "key_person", None)
    key = _key_of(request)
    person = who(key) if who is not None and key else None
    if person:
        from cairn.tools import current_person
        current_person.set(person)  # this request's context only (its task ends with it)
