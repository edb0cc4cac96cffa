"""Memory pages: memories by kind (confidence, dates), one memory's history as a timeline,
remember and forget, core blocks (editable) and entities with their aliases."""

from __future__ import annotations

from typing import Optional
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import need, call, error_message, service
from cairn.model import MEMORY_KINDS

router = APIRouter()

CHANGE_WORDS = {"add": "Remembered.", "reinforce": "Already known: made more certain.",
                "supersede": "Remembered; it replaces an older memory.",
                "forget": "Forgotten.", "none": "Nothing changed.",
                "core": "Core block saved.", "alias": "Alias added."}


def _memories_page(request: Request, status_code: int = 200, *, kind: str = "",
                   show_all: bool = False, **extra):
    app = service(request)
    try:
        memories = call(request, app.memories, kind=kind or None, include_inactive=show_all)
        core = call(request, app.core)
        entities = call(request, app.entities)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        memories, core, entities = [], None, []
        extra["error"], status_code = msg, status
    by_kind: dict[str, list] = {}
    for m in sorted(memories, key=lambda m: m.created, reverse=True):
        by_kind.setdefault(m.kind, []).append(m)
    return page(request, "memories.html", "memories", status_code=status_code,
                by_kind=[(k, by_kind[k]) for k in MEMORY_KINDS if k in by_kind]
                + [(k, v) for k, v in by_kind.items() if k not in MEMORY_KINDS],
                count=len(memories), core=core, entities=entities, kinds=MEMORY_KINDS,
                kind=kind, show_all=show_all, **extra)


@router.get("/memories")
def memories(request: Request, kind: Optional[str] = None, all: bool = False, done: str = ""):
    """Every active memory (or all with `all=1`), grouped by kind."""
    return _memories_page(request, kind=kind or "", show_all=all, notice=CHANGE_WORDS.get(done))


@router.post("/memories/remember", dependencies=[Depends(need("write"))])
def remember(request: Request, text: str = Form(""), kind: str = Form("")):
    app = service(request)
    try:
        change = call(request, app.remember, text, kind=kind or None)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _memories_page(request, status, error=msg, draft=text)
    return RedirectResponse(f"/memories?done={change.action}", status_code=303)


@router.post("/memories/forget", dependencies=[Depends(need("admin"))])
def forget(request: Request, memory_id: str = Form(...)):
    app = service(request)
    try:
        change = call(request, app.forget, memory_id)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _memories_page(request, status, error=msg)
    return RedirectResponse(f"/memories?done={change.action}", status_code=303)


@router.get("/memories/history")
def history(request: Request, id: str = ""):
    """One memory's supersession chain, oldest first, each with its change log."""
    app = service(request)
    try:
        chain = call(request, app.memory_history, id)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "error.html", "memories", status_code=status, error=msg,
                    title="Memory not found")
    return page(request, "memory_history.html", "memories", chain=chain, memory_id=id)


@router.post("/memories/core", dependencies=[Depends(need("write"))])
def core_set(request: Request, name: str = Form(""), text: str = Form("")):
    app = service(request)
    try:
        call(request, app.core_set, name, text)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _memories_page(request, status, error=msg)
    return RedirectResponse("/memories?done=core#core", status_code=303)


@router.post("/memories/alias", dependencies=[Depends(need("write"))])
def alias(request: Request, name: str = Form(""), alias: str = Form("")):
    app = service(request)
    try:
        call(request, app.entity_alias, name, alias)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _memories_page(request, status, error=msg)
    return RedirectResponse(f"/memories?done=alias#entity-{quote(name)}", status_code=303)
