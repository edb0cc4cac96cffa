"""Signing in from another machine, and the page's static files.

`/login` takes an API key in a form and keeps it in an HttpOnly, SameSite=Strict cookie
(Secure when the page is served over HTTPS), so no page and no script ever holds it;
`/logout` clears it. A wrong key is refused with 401 and nothing is set, after the wait the
host's `failed_keys` back-off asks for (cairn.interfaces.rest.backoff). From loopback no
key is needed and the login page says so.

`/static/web/{name}`: the page's own CSS and script, read from the installed package
(names are looked up in the folder's listing, so no path can leave it).
"""

from __future__ import annotations

import time

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import FileResponse, RedirectResponse

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import HERE, KEY_COOKIE, is_loopback, key_ok

router = APIRouter()
_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml", ".png": "image/png"}


def _safe_next(url: str) -> str:
    return url if url.startswith("/") and not url.startswith("//") and "\\" not in url else "/"


@router.get("/login")
def login_form(request: Request, next: str = "/"):
    return page(request, "login.html", "", next=_safe_next(next), loopback=is_loopback(request))


@router.post("/login")
def login(request: Request, key: str = Form(""), next: str = Form("/")):
    if not key_ok(request, key.strip()):
        failed = getattr(request.app.state, "failed_keys", None)  # the host's back-off (rest.backoff)
        if failed is not None:
            time.sleep(failed.delay(request.client.host if request.client else ""))
        return page(request, "login.html", "", status_code=401, next=_safe_next(next),
                    loopback=is_loopback(request), error="That key is not valid.")
    resp = RedirectResponse(_safe_next(next), status_code=303)
    resp.set_cookie(KEY_COOKIE, key.strip(), httponly=True, samesite="strict",
                    secure=request.url.scheme == "https", path="/")
    return resp


@router.post("/logout")
def logout():
    resp = RedirectResponse("/login", status_code=303)
    resp.delete_cookie(KEY_COOKIE, path="/")
    return resp


@router.get("/static/web/{name}")
def static(name: str):
    folder = HERE / "static"
    files = {p.name: p for p in folder.iterdir() if p.is_file()}
    if name not in files:
        raise HTTPException(404, "no such file")
    path = files[name]
    return FileResponse(path, media_type=_TYPES.get(path.suffix, "application/octet-stream"),
                        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})
