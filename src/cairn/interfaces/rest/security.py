"""The server's front door (pure ASGI middleware, outermost): request ids, Host allow-list,
Origin check, trust zones and API keys, per-key rate limit, request-size limit.

Order, for every HTTP request:
1. request id: `X-Request-ID` when it is a valid UUID, else a new one; echoed on the response;
2. Host header must be localhost, 127.0.0.1, ::1, the bind address or one of
   `[server] allowed_hosts` (DNS-rebinding defence) — else 400;
3. a request carrying an `Origin` is refused (403) unless the origin is the server itself
   or one of `[server] cors_origins` (a web page elsewhere cannot drive a trusted loopback
   server); CORS preflights from allowed origins pass to Starlette's CORSMiddleware;
4. who is calling: an API key (`Authorization: Bearer KEY` or `X-API-Key: KEY`, or the web
   page's sign-in cookie on its own `POST /chat` and approvals: `Sec-Fetch-Site: same-origin`,
   or without that header an `Origin` equal to the request's Host) is checked
   even from loopback (wrong or revoked -> 401, after a wait that doubles with each wrong key
   from that address: cairn.interfaces.rest.backoff; GET /healthz ignores keys); without one, a loopback client is trusted
   with scope admin when `[server] trust_loopback` (default), anyone else gets 401 (except
   GET /healthz, and the web page's paths, whose own guard asks for its sign-in cookie).
   A keyless request that Cairn's own fetcher sent never gets loopback trust; nor, on
   /api/*, /events, /mcp, /traces and /audit, one a browser sent for another site
   (`Sec-Fetch-Site` cross-site or same-site, or a browser without that header): 403
   there (`untrusted_reason`); the web page's paths then ask for the sign-in cookie;
5. token bucket per key (or per client address for keyless callers outside loopback):
   `rate_per_s` refill, `rate_burst` size; empty -> 429 with Retry-After (trusted loopback
   callers are not limited);
6. body larger than `max_upload_bytes` -> 413 (Content-Length checked first; a chunked body
   is counted as it streams); a JSON body nested deeper than 64 levels -> 400, checked as it
   streams, before any parser recurses into it (cairn.interfaces.rest.json_depth).
The caller's scope goes into `cairn.tools.current_scope` for the request (MCP tools mounted
at /mcp see it) and `scope["state"]["principal"]` = {"actor", "scope", "key_id"}.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import re
import threading
import time
import uuid
from urllib.parse import urlsplit

from cairn.apikeys import KeyStore
from cairn.config import Settings
from cairn.errors import CairnError, InvalidInput, TooLarge, Unauthorized
from cairn.interfaces.rest.backoff import FailedKeys
from cairn.interfaces.rest.json_depth import JsonDepth, is_json
from cairn.tools import current_person, current_scope

log = logging.getLogger("cairn.server")
OPEN_PATHS = ("/healthz",)
# Paths whose callers this middleware authenticates. Every other path belongs to the web page
# (cairn.interfaces.web), whose own guard handles its sign-in cookie and CSRF rule.
API_PREFIXES = ("/api/", "/mcp", "/events", "/traces", "/audit", "/openapi.json", "/docs", "/redoc")


def is_api_path(path: str) -> bool:
    """True for the paths the Guard itself authenticates (API_PREFIXES, /healthz)."""
    return path in OPEN_PATHS or path == "/api" or any(
        path == p.rstrip("/") or path.startswith(p if p.endswith("/") else p + "/") or path == p
        for p in API_PREFIXES)


# Paths where a browser request from another site, or a request Cairn itself sent out, is
# refused outright without a key (the web page's paths answer it with their sign-in page).
GUARDED_PREFIXES = ("/api", "/events", "/mcp", "/traces", "/audit")


def is_guarded_path(path: str) -> bool:
    """True for /api/*, /events, /mcp, /traces and /audit (GUARDED_PREFIXES)."""
    return any(path == p or path.startswith(p + "/") for p in GUARDED_PREFIXES)


def untrusted_reason(headers: dict[str, str], path: str) -> str | None:
    """Why a keyless request to `path` must not get loopback trust, or None. `headers`:
    lower-cased names. On every path: a request Cairn's own fetcher sent
    (cairn.fetch.OUTGOING_HEADER: the server reached itself). On the guarded paths
    (is_guarded_path) also a browser request another site made (`Sec-Fetch-Site`
    cross-site or same-site, the Fetch Metadata standard: an `<img>` or a script on a page
    elsewhere, even on another port of this machine) and a browser request without
    `Sec-Fetch-Site` (a `Mozilla/` User-Agent: an older browser, which cannot tell where the
    request came from). `Sec-Fetch-Site: same-origin` (Cairn's own page) and `none` (an
    address the person typed) keep it; so do scripts, which send no such headers. The web
    page's paths keep their own rules (cairn.interfaces.web.deps: CSRF, read-only GETs)."""
    from cairn.fetch import OUTGOING_HEADER
    if OUTGOING_HEADER.lower() in headers:
        return "a request Cairn's own fetcher sent (the server fetching itself)"
    if not is_guarded_path(path):
        return None
    site = headers.get("sec-fetch-site")
    if site is not None:
        site = site.strip().lower()
        return None if site in ("same-origin", "none") else f"a browser request from another site (Sec-Fetch-Site: {site})"
    if headers.get("user-agent", "").startswith("Mozilla/"):
        return "a browser request that does not say where it comes from (no Sec-Fetch-Site)"
    return None


def is_loopback(host: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and ::ffff:127.x (a client address string)."""
    try:
        ip = ipaddress.ip_address((host or "").split("%")[0])
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def request_id(value: str | None) -> str:
    """`value` when it is a UUID (normalised), else a new uuid4."""
    try:
        return str(uuid.UUID(value or ""))
    except ValueError:
        return str(uuid.uuid4())


def _host_name(host_header: str) -> str:
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


class TokenBuckets:
    """Token buckets by key: `take(key)` -> 0.0 when allowed, else seconds to wait.
    Classic token bucket (refill `rate` per second up to `burst`)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._b: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._b.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._b[key] = (tokens - 1.0, now)
                return 0.0
            self._b[key] = (tokens, now)
            return (1.0 - tokens) / self.rate


class Guard:
    """The middleware described in the module docstring."""

    def __init__(self, app, settings: Settings, bind_host: str | None = None,
                 failed_keys: FailedKeys | None = None) -> None:
        self.app = app
        self.settings = settings
        self.server = settings.server
        self.keys = KeyStore(settings.home)
        self.buckets = TokenBuckets(self.server.rate_per_s, self.server.rate_burst)
        self.failed_keys = failed_keys or FailedKeys()
        self.sleep = asyncio.sleep  # how a wrong key's answer waits (tests record it)
        hosts = {"localhost", "127.0.0.1", "::1", self.server.host.lower()}
        if bind_host:
            hosts.add(bind_host.lower())
        self.hosts = hosts | {h.lower() for h in self.server.allowed_hosts}
        self.origins = {o.rstrip("/").lower() for o in self.server.cors_origins}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        rid = request_id(headers.get("x-request-id"))
        state = scope.setdefault("state", {})
        state["request_id"] = rid

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        try:
            principal, limited = self._admit(scope, headers)
        except CairnError as exc:
            if getattr(exc, "wait_s", 0):  # a wrong key: slowed down (FailedKeys)
                await self.sleep(exc.wait_s)
            return await _error(send_with_id, exc, rid, scope)
        state["principal"] = principal
        if limited:
            wait = self.buckets.take(principal["actor"])
            if wait > 0:
                from cairn.errors import RateLimited
                exc = RateLimited(f"too many requests from {principal['actor']}: at most "
                                  f"{self.server.rate_per_s:g}/s (burst {self.server.rate_burst}); "
                                  f"retry in {math.ceil(wait)} s", retry_after=math.ceil(wait))
                return await _error(send_with_id, exc, rid, scope)
        limit = self.server.max_upload_bytes
        length = headers.get("content-length")
        if length and length.isdigit() and int(length) > limit:
            return await _error(send_with_id, _too_large(limit), rid, scope)
        seen = 0
        started = replaced = False
        refusal: CairnError | None = None  # set when the body is refused as it streams in
        depth = JsonDepth() if is_json(headers.get("content-type", "")) else None

        async def counted_receive():
            nonlocal seen, refusal
            message = await receive()
            if message["type"] == "http.request":
                chunk = message.get("body", b"")
                seen += len(chunk)
                if seen > limit:
                    refusal = _too_large(limit)
                    raise _RefusedBody()
                if depth is not None and depth.feed(chunk):
                    refusal = InvalidInput(f"the JSON body nests deeper than {depth.limit} levels "
                                           "(arrays and objects inside each other); nothing was stored")
                    raise _RefusedBody()
            return message

        async def tracking_send(message):
            # A body parser may turn the signal into its own error: the refusal replaces it.
            nonlocal started, replaced
            if refusal is not None and not started:
                started = replaced = True
                await _error(send_with_id, refusal, rid, scope)
                return
            if replaced:
                return
            if message["type"] == "http.response.start":
                started = True
            await send_with_id(message)

        token = current_scope.set(principal["scope"])
        who = current_person.set(principal.get("person"))
        try:
            await self.app(scope, counted_receive, tracking_send)
        except _RefusedBody:
            if not started and refusal is not None:
                started = True
                await _error(send_with_id, refusal, rid, scope)
        finally:
            current_person.reset(who)
            current_scope.reset(token)

    def _admit(self, scope, headers) -> tuple[dict, bool]:
        """(principal, rate-limited?) or raise the CairnError refusing the request."""
        host = headers.get("host", "")
        if _host_name(host) not in self.hosts:
            raise _BadHost(f"Host {host!r} is not allowed (DNS-rebinding defence): add it to "
                           "[server] allowed_hosts in config.toml")
        origin = headers.get("origin")
        if origin is not None:
            o = origin.rstrip("/").lower()
            own = {f"{scope.get('scheme', 'http')}://{host.lower()}"}
            if o not in self.origins and o not in own:
                raise _Forbidden(f"Origin {origin!r} is not allowed: add it to [server] cors_origins "
                                 "in config.toml to call Cairn from that web page")
        token = None
        auth = headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            token = auth[7:].strip()
        elif headers.get("x-api-key"):
            token = headers["x-api-key"].strip()
        client = (scope.get("client") or ("", 0))[0]
        if not token and _page_call(scope, headers):
            token = _cookie(headers.get("cookie", ""), "cairn_key") or None
            try:
                if token:
                    self.keys.verify(token)
            except Unauthorized:  # a stale cookie: the page's own refusal follows (scope none)
                token = None
        path = scope.get("path", "")
        key = None
        if token:
            try:
                key = self.keys.verify(token)
            except Unauthorized as exc:
                if path not in OPEN_PATHS:  # /healthz answers whatever key comes with it
                    exc.wait_s = self.failed_keys.delay(client)
                    raise
        if key is not None:
            self.failed_keys.clear(client)
            return {"actor": f"key:{key.name}", "scope": key.scope, "key_id": key.id, "person": key.person}, True
        doubt = untrusted_reason(headers, path)
        if doubt and is_guarded_path(path):
            raise _Forbidden(f"{doubt} is not trusted as the person at this machine: send an API key "
                             "(`Authorization: Bearer KEY`; create one with `cairn keys create NAME`)")
        if self.server.trust_loopback and is_loopback(client) and not doubt:
            return {"actor": "local", "scope": "admin", "key_id": None}, False
        if path in OPEN_PATHS or scope.get("method") == "OPTIONS" or not is_api_path(path):
            # /healthz, CORS preflights, and the web page (its own guard asks for its cookie)
            return {"actor": f"anonymous:{client}", "scope": "none", "key_id": None}, True
        raise Unauthorized(f"an API key is required from {client or 'this address'}: send "
                           "`Authorization: Bearer KEY` or `X-API-Key: KEY` (create one with "
                           "`cairn keys create NAME`)")


# The web page's conversation calls these API routes with its sign-in cookie (the page's
# scripts never see the key): accepted only from the page itself (Sec-Fetch-Site).
PAGE_API = ("/chat", "/chat/approvals/")


def _page_call(scope, headers) -> bool:
    """Whether a request is the web page calling POST /chat or an approval from its own origin:
    `Sec-Fetch-Site: same-origin`, or, from a browser that sends no Sec-Fetch-Site (Chromium
    sends none to a plain-http address other than localhost), an `Origin` whose host and port
    are this request's `Host` (a page elsewhere cannot forge it)."""
    path = scope.get("path", "")
    if scope.get("method") != "POST" or not (path == PAGE_API[0] or path.startswith(PAGE_API[1])):
        return False
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    origin = headers.get("origin", "")
    return origin not in ("", "null") and urlsplit(origin).netloc == headers.get("host", "")


def _cookie(header: str, name: str) -> str:
    """The value of cookie `name` in a Cookie header ("" when absent)."""
    from http.cookies import SimpleCookie
    jar = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # noqa: BLE001 - a malformed Cookie header is no key
        return ""
    return jar[name].value if name in jar else ""


class _RefusedBody(Exception):
    """Raised from the body stream when the body is refused (too large, nested too deep)."""


class _BadHost(CairnError):
    http_status = 400
    category = "invalid_host"


class _Forbidden(CairnError):
    http_status = 403
    category = "forbidden"


def _too_large(limit: int) -> TooLarge:
    return TooLarge(f"the request body is larger than the limit of {limit} bytes "
                    "([server] max_upload_bytes)", limit=limit)


async def _error(send, exc: CairnError, rid: str, scope) -> None:
    body = json.dumps({**exc.to_json(), "request_id": rid}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if getattr(exc, "retry_after", None):
        headers.append((b"retry-after", str(int(math.ceil(exc.retry_after))).encode()))
    if exc.http_status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="cairn"'))
    log.info("refused %s %s: %s %s", scope.get("method"), scope.get("path"), exc.http_status, exc.message)
    await send({"type": "http.response.start", "status": exc.http_status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


_SECRET_PATTERNS = (re.compile(r"cairn_[0-9a-f]{8}_[A-Za-z0-9_-]+"),
                    re.compile(r"(?i)(bearer\s+)[^\s\"']+"),
                    re.compile(r"(?i)((?:api[_-]?key|token|password|secret)[\"']?\s*[=:]\s*[\"']?)[^\s\"'&]+"))


def redact_text(text: str) -> str:
    """`text` with API keys, bearer tokens and key=value secrets replaced by [redacted]."""
    text = _SECRET_PATTERNS[0].sub("cairn_[redacted]", text)
    text = _SECRET_PATTERNS[1].sub(r"\1[redacted]", text)
    return _SECRET_PATTERNS[2].sub(r"\1[redacted]", text)


class RedactingFilter(logging.Filter):
    """A logging filter that redacts secrets (redact_text) from every record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            msg = record.getMessage()
        except Exception:
            return True
        clean = redact_text(msg)
        if clean != msg:
            record.msg, record.args = clean, ()
        return True


def install_log_redaction() -> None:
    """Add RedactingFilter to the root logger's and uvicorn's handlers and loggers."""
    f = RedactingFilter()
    for name in ("", "uvicorn", "uvicorn.access", "uvicorn.error", "cairn", "cairn.server"):
        lg = logging.getLogger(name)
        if not any(isinstance(x, RedactingFilter) for x in lg.filters):
            lg.addFilter(f)
        for h in lg.handlers:
            if not any(isinstance(x, RedactingFilter) for x in h.filters):
                h.addFilter(f)
