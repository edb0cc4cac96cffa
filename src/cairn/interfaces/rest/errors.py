"""Errors at the REST edge: every failure becomes {"error", "message", "request_id", ...}
with the status of its category (cairn.errors); request validation problems are 400s
naming the field. Anything unexpected is a 500 whose body holds no traceback. No message
names an absolute path of this machine (cairn.redact_paths: `<vault>/...`, `<home>/...`)."""

from __future__ import annotations

import logging
import math
import sqlite3

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from cairn.errors import FULL_MESSAGE, CairnError, storage_full
from cairn.interfaces.rest.schemas import ErrorBody

log = logging.getLogger("cairn.server")

# Documented on every route (the OpenAPI schema lists what a client can get back).
ERROR_RESPONSES = {code: {"model": ErrorBody, "description": text} for code, text in (
    (400, "invalid input (the message names the field)"), (401, "missing, wrong or revoked API key"),
    (403, "the key's scope does not allow this, or the Origin is not allowed"),
    (404, "no such item"), (409, "conflicts with what is stored"), (413, "request too large"),
    (429, "rate limited (see Retry-After)"), (503, "busy or a dependency is unavailable (see Retry-After)"),
    (507, "the disk is full: nothing was stored"))}


# Older service errors are ValueError subclasses; these names mean "not found" / "conflict".
_LEGACY = {"NoteNotFound": ("not_found", 404), "MemoryNotFound": ("not_found", 404),
           "ToolNotFound": ("not_found", 404), "NoteConflict": ("conflict", 409),
           "AmbiguousNote": ("conflict", 409), "EditConflict": ("conflict", 409)}


def _rid(request: Request) -> str | None:
    return request.scope.get("state", {}).get("request_id")


def _public(request: Request, message: str) -> str:
    """`message` without absolute paths of this machine (cairn.redact_paths)."""
    from cairn.redact_paths import without_paths
    rt = getattr(request.app.state, "runtime", None)
    return without_paths(message, getattr(rt, "settings", None))


def _body(request: Request, category: str, message: str, status: int, headers: dict | None = None,
          **details) -> JSONResponse:
    return JSONResponse({"error": category, "message": _public(request, message), "request_id": _rid(request),
                         **details}, status_code=status, headers=headers)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors()[:5]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        msg = e.get("msg", "invalid")
        if e.get("type") == "json_invalid":
            loc, msg = "body", f"malformed JSON ({e.get('ctx', {}).get('error', 'cannot parse')})"
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts) or "invalid request"


def install(app: FastAPI) -> None:
    """Register the exception handlers on `app`."""

    @app.exception_handler(CairnError)
    async def cairn_error(request: Request, exc: CairnError):
        headers = {}
        retry = getattr(exc, "retry_after", None) or exc.details.get("retry_after")
        if retry:
            headers["Retry-After"] = str(int(math.ceil(float(retry))))
        body = exc.to_json()
        body["message"] = _public(request, str(body.get("message", "")))
        return JSONResponse({**body, "request_id": _rid(request)}, status_code=exc.http_status,
                            headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return _body(request, "invalid_input", _validation_message(exc), 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        category = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = f"no endpoint {request.method} {request.url.path} (see /docs)"
        return _body(request, category, message, exc.status_code, getattr(exc, "headers", None))

    @app.exception_handler(FileNotFoundError)
    async def missing(request: Request, exc: FileNotFoundError):
        return _body(request, "not_found", f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "), 404)

    @app.exception_handler(ValueError)
    async def value_error(request: Request, exc: ValueError):
        category, status = _LEGACY.get(type(exc).__name__, ("invalid_input", 400))
        return _body(request, category, str(exc) or "invalid input", status)

    @app.exception_handler(OSError)
    async def os_error(request: Request, exc: OSError):
        if storage_full(exc):
            return _body(request, "insufficient_storage", FULL_MESSAGE, 507)
        where = f"{exc.filename}: " if exc.filename else ""
        return _body(request, "invalid_input", f"{where}{(exc.strerror or str(exc)).lower()}", 400)

    @app.exception_handler(sqlite3.Error)
    async def database(request: Request, exc: sqlite3.Error):
        # Handled here, not by the catch-all below: Starlette re-raises what reaches that one
        # after answering, and the server then drops the connection (the next request on it
        # got no answer).
        from cairn.store.damaged import is_damaged_error
        svc = getattr(request.app.state, "cairn", None)
        if is_damaged_error(exc) and svc is not None:  # the service words it (names `cairn reindex`)
            return _body(request, "unavailable", svc.database_error_message(exc), 503)
        return await bug(request, exc)

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception):
        if storage_full(exc):  # SQLite's "database or disk is full"
            return _body(request, "insufficient_storage", FULL_MESSAGE, 507)
        name = type(exc).__name__
        if name in ("EmbedderUnavailable", "LLMUnavailable", "IndexOpenError", "HomeNotWritable"):
            return _body(request, "unavailable", str(exc), 503, {"Retry-After": "30"})
        log.exception("internal error on %s %s (request %s)", request.method, request.url.path, _rid(request))
        return _body(request, "internal", f"internal error ({name}); the server log has the details "
                     f"under request id {_rid(request)}", 500)
