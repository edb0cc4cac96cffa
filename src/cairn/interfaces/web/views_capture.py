"""Captures from the browser: the bookmarklet, its confirmation form, and POST /capture.

The bookmarklet (from `/bookmarklet`) runs on the page being read and opens
`/capture?kind=...&url=...&title=...&text=...` in a small window of Cairn's own origin: the
person sees what will be saved and presses Save, so the write is a same-origin form post
(guarded like every page: a key from another machine, CSRF refused) — no cross-site request
is ever accepted. Scripts may POST /capture JSON {"kind", "url", "text", "title", "comment"}
with a key, like the API. The note is made by `Cairn.capture` (cairn.capture).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from cairn.interfaces.web.common import HEADERS, page
from cairn.interfaces.web.deps import call, error_message, need, service

router = APIRouter()
KINDS = ("highlight", "bookmark", "note")


def bookmarklet_code(base: str) -> str:
    """The bookmarklet's javascript: URL for a server at `base` (no trailing slash)."""
    return ("javascript:(()=>{const s=String(getSelection()).slice(0,20000);"
            f"window.open('{base}/capture?kind='+(s?'highlight':'bookmark')"
            "+'&url='+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title)"
            "+'&text='+encodeURIComponent(s),'cairn_capture','width=560,height=680')})()")


@router.get("/bookmarklet")
def bookmarklet(request: Request):
    """A page with the bookmarklet to drag to the bookmarks bar."""
    base = str(request.base_url).rstrip("/")
    return page(request, "bookmarklet.html", "ingest", code=bookmarklet_code(base), base=base)


@router.get("/capture")
def capture_form(request: Request, kind: str = "highlight", url: str = "", title: str = "", text: str = ""):
    """The confirmation form, filled from the bookmarklet's query."""
    form = {"kind": kind if kind in KINDS else "highlight", "url": url, "title": title, "text": text, "comment": ""}
    return page(request, "capture.html", "ingest", form=form, kinds=KINDS)


@router.post("/capture", dependencies=[Depends(need("write"))])
async def capture(request: Request):
    """Save a capture: a form from the page, or JSON from a script (answered in JSON)."""
    is_json = "application/json" in request.headers.get("content-type", "")
    if is_json:
        try:
            data = await request.json()
        except ValueError:
            return JSONResponse({"error": "invalid_input", "message": "the body is not JSON"}, 400, headers=HEADERS)
        if not isinstance(data, dict):
            return JSONResponse({"error": "invalid_input", "message": "the body must be a JSON object"}, 400,
                                headers=HEADERS)
    else:
        data = dict(await request.form())
    fields = {k: str(data.get(k) or "") for k in ("kind", "url", "text", "title", "comment")}
    app = service(request)
    try:
        note = call(request, app.capture, fields["kind"], fields["url"], fields["text"], fields["title"],
                    fields["comment"])
    except (ValueError, OSError) as exc:
        msg, code = error_message(exc)
        if is_json:
            return JSONResponse({"error": "invalid_input", "message": msg}, code, headers=HEADERS)
        return page(request, "capture.html", "ingest", status_code=code, error=msg, form=fields, kinds=KINDS)
    if is_json:
        return JSONResponse({"action": "created", "id": note.id, "path": note.path, "title": note.title}, 201,
                            headers=HEADERS)
    return page(request, "capture.html", "ingest", form=None, kinds=KINDS, saved=note)
