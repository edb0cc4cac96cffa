"""/api/export: the service's export (`Cairn.export`, also `cairn export`) over HTTP, and
/api/exports/{name} to download a file it wrote under `<home>/exports/`. No logic here: the
service selects, writes, names and resolves the files and keeps them inside exports/
(cairn.exports); the server only calls it, and removes expired files hourly (app.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from cairn.errors import Unavailable
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import READ, actor, runtime

router = APIRouter(prefix="/api", tags=["export"])


def _op(svc, name: str):
    fn = getattr(svc, name, None)
    if fn is None:
        raise Unavailable("export is not part of this build")
    return fn


@router.post("/export", response_model=S.ExportOut, dependencies=[READ])
async def export(request: Request, body: S.ExportBody):
    """Export one note as markdown, or several as text, JSON or a ZIP of markdown files,
    selected by ids, tag, type, date range or a search. The file expires (24 h by default);
    download it from /api/exports/{name}. Recorded in the audit log (it writes a file)."""
    args = body.model_dump(exclude_none=True)
    result = await runtime(request).write(lambda s: _op(s, "export")(**args), actor=actor(request),
                                          action="export", target=body.name, detail=args)
    return result.to_json()


@router.get("/exports/{name}", dependencies=[READ], response_class=FileResponse,
            responses={200: {"content": {"application/octet-stream": {}}, "description": "the file"}})
async def download(request: Request, name: str):
    """Download an export by name while it has not expired; any other name is 400 or 404."""
    path = await runtime(request).read(lambda s: _op(s, "export_path")(name))
    return FileResponse(path, filename=path.name)
