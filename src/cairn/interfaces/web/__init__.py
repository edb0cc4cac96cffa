"""The web page: server-rendered pages over `cairn.service.Cairn`, for `cairn serve`.

    from cairn.interfaces.web import router
    app.include_router(router)   # pages at /, /search, /chat, /ask, /notes, /memories, /ingest, /status,
                                 # /login, and the page's CSS and script at /static/web/
    install(app)                 # the guards' refusals as pages (JSON for scripts)
    app.state.cairn = Cairn(home)  # the service every route calls (see deps.py for the rest)

Templates (jinja2) live in `templates/`, the CSS and the one script in `static/`; both are
package data, served from the installed package (no CDN, nothing fetched at run time, no
third-party front-end code). See docs/web.md.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Depends

from cairn.interfaces.web import (views_capture, views_chat, views_history, views_ingest, views_memory,
                                  views_notes, views_reminders, views_review, views_search, views_status)
from cairn.interfaces.web.auth import router as _auth_router
from cairn.interfaces.web.deps import Refused, guard

STATIC_DIR = Path(__file__).parent / "static"

router = APIRouter(dependencies=[Depends(guard)], include_in_schema=False)
for _mod in (views_search, views_chat, views_notes, views_history, views_review, views_memory, views_reminders,
             views_ingest, views_status, views_capture):
    router.include_router(_mod.router)
router.include_router(_auth_router)


def install(app) -> None:
    """Register the handler that shows a refusal of the page's guards (sign-in needed, key
    lacks the scope, cross-site form) as a page to a browser, and as {"error", "message"}
    JSON to anything else."""
    from fastapi.responses import JSONResponse

    from cairn.interfaces.web.common import HEADERS, page

    async def refused(request, exc: Refused):
        headers = dict(exc.headers or {})
        if exc.status_code == 303 or "text/html" not in request.headers.get("accept", ""):
            kind = {401: "unauthorized", 403: "forbidden"}.get(exc.status_code, "refused")
            return JSONResponse({"error": kind, "message": exc.detail}, status_code=exc.status_code,
                                headers={**HEADERS, **headers})
        title = "Sign in needed" if exc.status_code == 401 else "Not allowed"
        resp = page(request, "error.html", "", status_code=exc.status_code, error=exc.detail, title=title)
        resp.headers.update(headers)
        return resp

    app.add_exception_handler(Refused, refused)

    from starlette.exceptions import HTTPException as StarletteHTTPException
    as_json = app.exception_handlers.get(StarletteHTTPException)

    async def not_found(request, exc: StarletteHTTPException):
        # A browser that asks for a page that does not exist (a mistyped /notes/<id>) gets a
        # page with a way back; the API, MCP and scripts keep their JSON error.
        path = request.url.path
        if (exc.status_code == 404 and "text/html" in request.headers.get("accept", "")
                and not path.startswith(("/api/", "/mcp"))):
            return page(request, "error.html", "", status_code=404,
                        error=f"There is no page at {path}.", title="Page not found")
        if as_json is None:
            return JSONResponse({"error": "http_error", "message": str(exc.detail)}, status_code=exc.status_code)
        return await as_json(request, exc)

    app.add_exception_handler(StarletteHTTPException, not_found)

    from fastapi.exceptions import RequestValidationError
    invalid_json = app.exception_handlers.get(RequestValidationError)

    async def invalid(request, exc: RequestValidationError):
        # A browser whose address holds a bad value (`/notes/open?ref=X&start=abc`, an edited
        # bookmark) gets a page saying which value, not the API's JSON; the API, MCP and
        # scripts keep their JSON 400.
        resp = await invalid_json(request, exc) if invalid_json else JSONResponse(
            {"error": "invalid_input", "message": str(exc)}, status_code=400)
        path = request.url.path
        if "text/html" in request.headers.get("accept", "") and not path.startswith(("/api/", "/mcp")):
            import json
            try:
                said = json.loads(resp.body).get("message") or "a value in the address is not valid"
            except ValueError:
                said = "a value in the address is not valid"
            return page(request, "error.html", "", status_code=400, error=said, title="Not a valid address")
        return resp

    app.add_exception_handler(RequestValidationError, invalid)

    def as_page(to_json):
        # A failure of the service under a page (a damaged or locked index, a model that is
        # not there, a full disk, a bug) reached a browser as the API's JSON body; it gets
        # the same message, with the page's words for commands, on a page. The API, MCP and
        # scripts keep their JSON.
        async def handler(request, exc):
            resp = await to_json(request, exc)
            path = request.url.path
            if (not isinstance(getattr(resp, "body", None), bytes)  # a websocket's handler answers nothing
                    or "text/html" not in request.headers.get("accept", "") or path.startswith(("/api/", "/mcp"))):
                return resp
            import json
            try:
                said = json.loads(resp.body).get("message") or "the request failed"
            except ValueError:
                said = "the request failed"
            out = page(request, "error.html", "", status_code=resp.status_code, error=said,
                       title="Cairn cannot do this right now" if resp.status_code >= 500 else "Not done")
            if "retry-after" in resp.headers:
                out.headers["Retry-After"] = resp.headers["retry-after"]
            return out
        return handler

    for kind, to_json in list(app.exception_handlers.items()):
        if kind not in (Refused, StarletteHTTPException, RequestValidationError, 404):
            app.add_exception_handler(kind, as_page(to_json))


__all__ = ["router", "install", "STATIC_DIR"]
