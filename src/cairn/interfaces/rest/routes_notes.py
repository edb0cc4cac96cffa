"""/api/notes: list (filters, paging), get, create, update, delete, links, backlinks,
history, diff, restore (of a kept version), enrich (streamed to /events), mark (content
status), unresolved links; /api/undo (the assistant's last change) — the shapes of `cairn note ... --json` and `cairn links --json`."""

from __future__ import annotations

from typing import Optional

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import ADMIN, READ, WRITE, actor, runtime
from cairn.model import NOTE_TYPES

router = APIRouter(prefix="/api/notes", tags=["notes"])


def _ref(note) -> dict:
    return {"id": note.id, "path": note.path, "title": note.title}


def _links_json(info: dict) -> dict:
    return {"note": info["note"], "outgoing": [l.to_json() for l in info["outgoing"]],
            "backlinks": [l.to_json() for l in info["backlinks"]]}


async def _show(request: Request, ref: str, fn):
    """Run `fn(service)` on a reader when `ref` names an indexed note whose file exists;
    otherwise on the writer (the service then reconciles the vault first: a note moved
    outside Cairn is followed, as in the CLI)."""
    rt = runtime(request)

    def present(svc) -> bool:
        from cairn.links import AmbiguousNote, NoteNotFound
        try:
            note = svc.find_note(ref)
        except NoteNotFound:
            return False
        except AmbiguousNote:
            return True  # the service names the candidates
        return (svc.settings.vault / note.path).is_file()

    if await rt.read(present):
        return await rt.read(fn)
    return await rt.write(fn, actor=actor(request), action="note.resolve", target=ref)


@router.get("", response_model=S.NotePage, dependencies=[READ])
async def list_notes(request: Request,
                     type: Optional[str] = Query(None, description=f"One of {', '.join(NOTE_TYPES)}."),
                     tag: Optional[str] = None,
                     limit: int = Query(50, ge=1, le=1000), offset: int = Query(0, ge=0)):
    """One page of notes, newest first, optionally of one type or tag."""
    return await runtime(request).read(lambda s: s.notes_list(type=type, tag=tag, limit=limit, offset=offset))


@router.post("", response_model=S.NoteRef, status_code=201, dependencies=[WRITE])
async def create_note(request: Request, body: S.NoteCreate):
    """Create `<vault>/<folder>/<title>.md` and index it (`cairn note create --json`)."""
    note = await runtime(request).write(
        lambda s: s.note_create(body.title, body.body, body.folder, body.tags),
        actor=actor(request), action="note.create", target=body.title, detail={"folder": body.folder})
    return {"action": "created", **_ref(note)}


@router.get("/unresolved", response_model=list[S.Link], dependencies=[READ])
async def unresolved(request: Request):
    """Every link whose target matches no note (`cairn links --unresolved --json`)."""
    return await runtime(request).read(lambda s: [l.to_json() for l in s.unresolved_links()])


@router.get("/{ref:path}/links", response_model=S.Links, dependencies=[READ])
async def links(request: Request, ref: str):
    """Outgoing links and backlinks of a note (`cairn links NOTE --json`)."""
    return await runtime(request).read(lambda s: _links_json(s.links(ref)))


@router.get("/{ref:path}/backlinks", response_model=list[S.Link], dependencies=[READ])
async def backlinks(request: Request, ref: str):
    """The links pointing at a note."""
    return await runtime(request).read(lambda s: [l.to_json() for l in s.links(ref)["backlinks"]])


@router.get("/{ref:path}/history", response_model=S.NoteHistory, dependencies=[READ])
async def history(request: Request, ref: str):
    """The note's kept versions, newest first (`cairn note history NOTE --json`)."""
    return await runtime(request).read(lambda s: s.note_history(ref).to_json())


@router.get("/{ref:path}/diff", response_model=S.NoteDiff, dependencies=[READ])
async def diff(request: Request, ref: str, version: int = Query(..., ge=1)):
    """A unified diff from version `version` to the current file (`cairn note diff`)."""
    return await runtime(request).read(lambda s: s.note_diff(ref, version).to_json())


@router.post("/{ref:path}/restore", response_model=S.NoteRestored, dependencies=[WRITE])
async def restore(request: Request, ref: str, version: int = Query(..., ge=1)):
    """Write version `version` back to the note, byte for byte (`cairn note restore`)."""
    return await runtime(request).write(lambda s: s.note_restore(ref, version).to_json(),
                                        actor=actor(request), action="note.restore", target=ref,
                                        detail={"version": version})


class EnrichBody(BaseModel):
    llm: Optional[str] = Field(None, max_length=300, description="A model spec (none, embedded, "
                               "openai:BASE:MODEL); default the home's `llm`, else none (extractive).")


class MarkBody(BaseModel):
    status: str = Field(..., description="saved, read or archived.")


@router.post("/{ref:path}/enrich", dependencies=[WRITE])
async def enrich(request: Request, ref: str, body: Optional[EnrichBody] = None):
    """Enrich the note (`cairn enrich --json`'s object); each item is published on `/events`
    as it is produced (enrich.started, enrich.item..., enrich.done). A `llm` the server is not
    configured with is refused (Forbidden), as on /api/ask."""
    from cairn.interfaces.rest.routes_search import _llm_allowed
    spec = body.llm if body is not None and body.llm else None
    _llm_allowed(request, spec)
    return await runtime(request).write_bulk(
        lambda s: s.enrich(ref, spec or s.settings.llm or "none").to_json(),
        actor=actor(request), action="note.enrich", target=ref)


@router.post("/{ref:path}/mark", response_model=S.NoteRef, dependencies=[WRITE])
async def mark(request: Request, ref: str, body: MarkBody):
    """Set the note's content status: saved, read or archived (`cairn note mark`)."""
    note = await runtime(request).write(lambda s: s.note_mark(ref, body.status), actor=actor(request),
                                        action="note.mark", target=ref, detail={"status": body.status})
    return {"action": "marked", **_ref(note)}


@router.get("/{ref:path}", response_model=S.Note, dependencies=[READ])
async def get_note(request: Request, ref: str):
    """A note by id, title, alias or vault path (`cairn note show --json`); a path may hold
    folders, with its slashes as they are or percent-encoded (`notes/ladder.md`)."""
    return await _show(request, ref, lambda s: s.note_show(ref))


@router.put("/{ref:path}", response_model=S.NoteRef, dependencies=[WRITE])
async def update_note(request: Request, ref: str, body: S.NoteUpdate):
    """Overwrite or append to a note's body; its frontmatter is kept (`cairn note update`)."""
    note = await runtime(request).write(lambda s: s.note_update(ref, body.body, body.mode,
                                                                expected_hash=body.expected_hash),
                                        actor=actor(request), action="note.update", target=ref,
                                        detail={"mode": body.mode})
    return {"action": "updated", **_ref(note)}


@router.delete("/{ref:path}", response_model=S.NoteDeleted, dependencies=[ADMIN])
async def delete_note(request: Request, ref: str):
    """Move a note to the vault's .trash and drop it from the index (`cairn note delete`)."""
    return await runtime(request).write(lambda s: s.note_delete(ref), actor=actor(request),
                                        action="note.delete", target=ref)


undo_router = APIRouter(prefix="/api", tags=["notes"])


@undo_router.post("/undo", response_model=S.NoteRestored, dependencies=[WRITE])
async def undo(request: Request):
    """Undo the assistant's last change to a note that is not undone yet (`cairn undo --json`)."""
    return await runtime(request).write(lambda s: s.undo().to_json(), actor=actor(request),
                                        action="note.undo")
