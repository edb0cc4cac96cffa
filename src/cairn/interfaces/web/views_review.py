"""The review inbox: `GET /memories/review` shows the memories Cairn extracted from
conversations that the person has not looked at yet (`Cairn.memory_review`), each with the
words it came from and its near-duplicates side by side; `POST /memories/review` {id,
action, text, other} confirms, edits, rejects or merges one (`Cairn.memory_review_act`).
A refused action comes back as the page with the message; nothing stored changes then."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import call, error_message, need, service

router = APIRouter()
WORDS = {"confirm": "Confirmed.", "edit": "Corrected; the old wording is kept in its history.",
         "reject": "Rejected: forgotten.", "merge": "Merged: one memory now holds both sources."}


def _page(request: Request, status_code: int = 200, **extra):
    try:
        items = call(request, service(request).memory_review)
    except (ValueError, OSError) as exc:
        msg, status_code = error_message(exc)
        items, extra["error"] = [], msg
    return page(request, "review.html", "memories", status_code=status_code, items=items, **extra)


@router.get("/memories/review")
def review(request: Request, done: str = ""):
    """What Cairn learned since the last look (see the module docstring)."""
    return _page(request, notice=WORDS.get(done))


@router.post("/memories/review", dependencies=[Depends(need("write"))])
def act(request: Request, id: str = Form(""), action: str = Form(""), text: str = Form(""),
        other: str = Form("")):
    try:
        call(request, service(request).memory_review_act, action, id, text=text or None, other=other or None)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _page(request, status, error=msg)
    return RedirectResponse(f"/memories/review?done={action}", status_code=303)
