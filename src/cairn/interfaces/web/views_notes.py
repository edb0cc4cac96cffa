"""Note pages: list, read (rendered markdown with the vault's images, links, backlinks,
related notes and the entities it mentions), edit in place, create,
delete (asks first), set its content status (saved / read / archived), enrich it (the items
shown as they arrive over `/events`). Writes go through `Cairn.note_*`; an outside edit made while the
editor was open is refused by the service (noteops.EditConflict) and shown beside the
person's text, which is kept."""

from __future__ import annotations

from typing import Optional
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse

from cairn.interfaces.web import render
from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import need, call, error_message, service
from cairn.model import NOTE_STATUSES, NOTE_TYPES

router = APIRouter()
PAGE = 50


def _see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/notes")
def notes_list(request: Request, type: Optional[str] = None, tag: Optional[str] = None, offset: int = 0,
               undone: int = 0):
    """All notes, a page at a time, with type and tag filters, and unresolved links.
    `undone=1`: the page the Undo button leads to when the assistant's last change was a note
    it created (that note went to the trash), which says so."""
    app = service(request)
    try:
        listing = call(request, app.notes_list, type=type or None, tag=tag or None, limit=PAGE,
                       offset=max(0, offset))
        unresolved = call(request, app.unresolved_links) if not offset else []
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "notes.html", "notes", status_code=status, listing=None,
                    unresolved=[], types=NOTE_TYPES, f={"type": type, "tag": tag}, error=msg)
    notice = ("The assistant's last change was undone: the note it had created is now in the "
              "vault's .trash folder.") if undone else None
    return page(request, "notes.html", "notes", listing=listing, unresolved=unresolved,
                types=NOTE_TYPES, f={"type": type or "", "tag": tag or ""}, page_size=PAGE, notice=notice)


@router.get("/notes/new")
def note_new(request: Request):
    return page(request, "note_new.html", "notes", form={})


@router.post("/notes/new", dependencies=[Depends(need("write"))])
def note_create(request: Request, title: str = Form(""), body: str = Form(""), folder: str = Form(""),
                tags: str = Form("")):
    """Create a note; on error the form comes back filled in with the message."""
    app = service(request)
    tag_list = [t.strip().lstrip("#") for t in tags.split(",") if t.strip()]
    try:
        note = call(request, app.note_create, title, body, folder, tag_list or None)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "note_new.html", "notes", status_code=status, error=msg,
                    form={"title": title, "body": body, "folder": folder, "tags": tags})
    return _see_other(f"/notes/open?ref={quote(note.id)}&saved=created")


@router.get("/notes/open")
def note_view(request: Request, ref: str = "", start: Optional[int] = None, end: Optional[int] = None,
              page_no: Optional[int] = None, edit: bool = False, saved: str = ""):
    """One note: rendered body (the span start..end highlighted as `#cite`), outgoing links,
    backlinks; `edit=1` opens the editor."""
    page_arg = request.query_params.get("page")
    page_no = int(page_arg) if page_arg and page_arg.isdigit() else page_no
    app = service(request)
    try:
        note = call(request, app.note_show, ref)
        links = call(request, app.links, note["id"])
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "notes", status_code=status, error=msg, title="Note not found")
    mark = (start, end) if start is not None and end is not None and end > start else None
    try:
        context = call(request, app.note_context, note["id"])
    except (ValueError, OSError):  # the page still shows the note
        context = {"entities": [], "related": []}

    def asset(src: str) -> str:
        return f"/notes/asset?ref={quote(note['id'])}&src={quote(src)}"
    return page(request, "note.html", "notes", note=note, links=links, editing=edit, context=context,
                html=render.markdown_html(note["body"], mark, title=note["title"],
                                          unresolved=render.unresolved_targets(links), asset=asset),
                marked=bool(mark), page_no=page_no,
                notice={"created": "Note created.", "saved": "Saved to the vault.",
                        "restored": "The version was restored.",
                        "undone": "The assistant's last change was undone.",
                        "nothing": "Nothing to undo: the assistant has no change left that is not undone.",
                        "marked": f"Marked {note.get('status', 'saved')}.",
                        "enriched": "Enriched."}.get(saved), statuses=NOTE_STATUSES,
                conflict=None, draft=None)


@router.post("/notes/save", dependencies=[Depends(need("write"))])
def note_save(request: Request, ref: str = Form(...), body: str = Form(""), file_hash: str = Form("")):
    """Save the editor's text over the note's body, unless the file changed meanwhile."""
    app = service(request)
    try:
        note = call(request, app.note_update, ref, body, "overwrite", expected_hash=file_hash or None)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        current = None
        try:
            current = call(request, app.note_show, ref)
            links = call(request, app.links, current["id"])
        except (ValueError, OSError):
            return page(request, "error.html", "notes", status_code=status, error=msg, title="Not saved")
        conflict = getattr(exc, "details", {}) if status == 409 else None
        return page(request, "note.html", "notes", status_code=status, note=current, links=links,
                    editing=True, context={"entities": [], "related": []}, html=None, marked=False, page_no=None,
                    error=None if conflict else msg, conflict=conflict, draft=body, notice=None)
    return _see_other(f"/notes/open?ref={quote(note.id)}&saved=saved")


@router.post("/notes/mark", dependencies=[Depends(need("write"))])
def note_mark(request: Request, ref: str = Form(...), status: str = Form(...)):
    """Set the note's content status (saved, read, archived) from its page."""
    try:
        note = call(request, service(request).note_mark, ref, status)
    except (ValueError, OSError) as exc:
        msg, code = error_message(exc)
        return page(request, "error.html", "notes", status_code=code, error=msg, title="Status not set")
    return _see_other(f"/notes/open?ref={quote(note.id)}&saved=marked")


@router.post("/notes/enrich", dependencies=[Depends(need("write"))])
def note_enrich(request: Request, ref: str = Form(...)):
    """Enrich the note with the home's `llm` (else the extractive gist). Its items go to
    `/events` as they are produced; the page's script shows them as they arrive, then reloads.
    Answers JSON to a script (Accept: application/json), else redirects back to the note."""
    from fastapi.responses import JSONResponse
    app = service(request)
    wants_json = "application/json" in request.headers.get("accept", "")
    try:
        res = call(request, app.enrich, ref, app.settings.llm or "none")
    except (ValueError, OSError) as exc:
        msg, code = error_message(exc)
        if wants_json:
            return JSONResponse({"error": msg}, status_code=code)
        return page(request, "error.html", "notes", status_code=code, error=msg, title="Not enriched")
    if wants_json:
        return JSONResponse(res.to_json())
    return _see_other(f"/notes/open?ref={quote(res.note_id)}&saved=enriched")


@router.get("/notes/delete")
def note_delete_confirm(request: Request, ref: str = ""):
    """Ask before deleting."""
    app = service(request)
    try:
        note = call(request, app.note_show, ref)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "notes", status_code=status, error=msg, title="Note not found")
    return page(request, "note_delete.html", "notes", note=note)


@router.post("/notes/delete", dependencies=[Depends(need("admin"))])
def note_delete(request: Request, ref: str = Form(...)):
    app = service(request)
    try:
        gone = call(request, app.note_delete, ref)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "notes", status_code=status, error=msg, title="Not deleted")
    return page(request, "note_deleted.html", "notes", gone=gone)


@router.get("/notes/asset")
def note_asset(request: Request, ref: str = "", src: str = ""):
    """An image the note's markdown references, served from inside the vault only
    (`Cairn.note_asset`); 404 with the reason otherwise. An SVG cannot run a script here
    (sandboxed by its Content-Security-Policy)."""
    from fastapi.responses import FileResponse, PlainTextResponse

    from cairn.ops.notepage import IMAGE_TYPES
    try:
        path = call(request, service(request).note_asset, ref, src)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return PlainTextResponse(msg, status_code=status, headers={"X-Content-Type-Options": "nosniff"})
    return FileResponse(path, media_type=IMAGE_TYPES[path.suffix.lower()],
                        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=300",
                                 "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"})
