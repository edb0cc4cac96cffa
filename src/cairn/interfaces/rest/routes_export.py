"""/api/export: the service's export (`Cairn.export`, also `cairn export`) over HTTP, and
/api/exports/{name} to download a file it wrote under `<home>/exports/`. No logic here:
the service selects, writes and names the files and keeps them inside exports/."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from cairn.errors import NotFound, Unavailable
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import READ, actor, runtime

router = APIRouter(prefix="/api", tags=["export"])


def _export(svc, body: S.ExportBody):
    fn = getattr(svc, "export", None)
    if fn is None:
        raise Unavailable("export is not part of this build")
    result = fn(**body.model_dump(exclude_none=True))
    return result.to_json() if hasattr(result, "to_json") else result


@router.post("/export", dependencies=[READ])
async def export(request: Request, body: S.ExportBody):
    """Export one note as markdown, or several as text, JSON or a ZIP of markdown files,
    selected by ids, tag, type, date range or a search. Returns where the file is; fetch it
    from /api/exports/{name}. Recorded in the audit log (it writes a file)."""
    return await runtime(request).write(lambda s: _export(s, body), actor=actor(request), action="export",
                                        detail=body.model_dump(exclude_none=True))


@router.get("/exports/{name}", dependencies=[READ], response_class=FileResponse,
            responses={200: {"content": {"application/octet-stream": {}}, "description": "the file"}})
async def download(request: Request, name: str):
    """Download an export file by name; any name that is not a plain file in exports/ is 404."""
    folder = (runtime(request).home / "exports").resolve()
    path = (folder / name).resolve()
    if path.parent != folder or not path.is_file() or name != Path(name).name:
        raise NotFound(f"no export named {name!r}")
    return FileResponse(path, filename=path.name)
