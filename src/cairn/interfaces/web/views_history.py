"""Note history pages: the kept versions of a note (newest first) with a diff against the
current file and a Restore button each, and the "Undo the assistant's last change" button
(POST /undo). Every write goes through `Cairn.note_restore` / `Cairn.undo`."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import call, error_message, need, service

router = APIRouter()


@router.get("/notes/history")
def note_history(request: Request, ref: str = "", version: int = 0):
    """The note's versions; `version`: also show that version's diff to the current file."""
    app = service(request)
    try:
        hist = call(request, app.note_history, ref)
        diff = call(request, app.note_diff, ref, version) if version else None
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "notes", status_code=status, error=msg, title="No history")
    return page(request, "note_history.html", "notes", hist=hist, diff=diff)


@router.post("/notes/restore", dependencies=[Depends(need("write"))])
def note_restore(request: Request, ref: str = Form(...), version: int = Form(...)):
    """Write a kept version back to the note, byte for byte."""
    app = service(request)
    try:
        done = call(request, app.note_restore, ref, version)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "notes", status_code=status, error=msg, title="Not restored")
    return RedirectResponse(f"/notes/open?ref={quote(done['note']['id'])}&saved=restored", status_code=303)


@router.post("/undo", dependencies=[Depends(need("write"))])
def undo(request: Request, back: str = Form("")):
    """Undo the assistant's last change to a note (Cairn.undo). `back`: the note whose page
    the button is on; when the assistant has nothing left to undo, that page is shown again
    saying so (not a dead end)."""
    from cairn.errors import NotFound
    app = service(request)
    try:
        done = call(request, app.undo)
    except NotFound:
        if back:
            return RedirectResponse(f"/notes/open?ref={quote(back)}&saved=nothing", status_code=303)
        msg, status = "there is no change by the assistant to undo", 404
        return page(request, "error.html", "notes", status_code=status, error=msg, title="Nothing undone")
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "notes", status_code=status, error=msg, title="Nothing undone")
    if done["version"] is None:  # the assistant had created it: it went to the trash
        return RedirectResponse("/notes?undone=1", status_code=303)
    return RedirectResponse(f"/notes/open?ref={quote(done['note']['id'])}&saved=undone", status_code=303)
