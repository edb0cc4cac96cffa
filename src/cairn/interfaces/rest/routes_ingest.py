"""/api/ingest (files by multipart upload, a URL, raw text or markdown), /api/jobs (the
ingest queue: list, dead letters, retry, run) and /api/sync, /api/reindex (tasks with
progress). Reports have the shape of `cairn ingest --json`; the trace id is in X-Trace-Id."""

from __future__ import annotations

import shutil

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import JSONResponse

from cairn.errors import InvalidInput, TooLarge
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import ADMIN, READ, WRITE, actor, runtime
from cairn.interfaces.rest.uploads import settle, target, upload_folder

router = APIRouter(prefix="/api", tags=["ingest"])
CHUNK = 1 << 20


def _report(report) -> JSONResponse:
    trace_id = getattr(report, "trace_id", None)
    return JSONResponse(report.to_json(), headers={"X-Trace-Id": trace_id} if trace_id else None)


@router.post("/ingest/files", response_model=S.IngestReport, dependencies=[WRITE])
async def ingest_files(request: Request, files: list[UploadFile] = File(..., description="One or many files.")):
    """Upload one or many files (multipart/form-data, field `files`) and ingest them as
    `cairn ingest FILE...` does. Each file is kept under `<home>/uploads/<id>/`; names are
    made safe (no folder can be escaped) and the reply names files so; a file the run skips is
    not kept (cairn.uploads.settle). Larger than `[server] max_upload_bytes`: 413."""
    rt = runtime(request)
    if not files:
        raise InvalidInput("no files in the upload (multipart field `files`)")
    limit = rt.settings.server.max_upload_bytes
    folder = upload_folder(rt.home)
    paths, taken, total = [], set(), 0
    try:
        for up in files:
            path = target(folder, up.filename, taken)
            with open(path, "wb") as out:
                while chunk := await up.read(CHUNK):
                    total += len(chunk)
                    if total > limit:
                        raise TooLarge(f"the upload is larger than the limit of {limit} bytes "
                                       "([server] max_upload_bytes)", limit=limit)
                    out.write(chunk)
            paths.append(path)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    names = [p.name for p in paths]
    report = await rt.write_bulk(lambda s: settle(s.ingest(paths, progress=rt.progress()), rt.home, folder, paths),
                                 actor=actor(request), action="ingest.files", target=", ".join(names)[:200],
                                 detail={"files": names, "bytes": total})
    return _report(report)


@router.post("/ingest/url", response_model=S.IngestReport, dependencies=[WRITE])
async def ingest_url(request: Request, body: S.IngestUrl):
    """Fetch a web page and store it as a note (`cairn ingest URL`)."""
    rt = runtime(request)
    report = await rt.write_bulk(lambda s: s.ingest([body.url], progress=rt.progress()), actor=actor(request),
                            action="ingest.url", target=body.url)
    return _report(report)


@router.post("/ingest/text", response_model=S.NoteRef, status_code=201, dependencies=[WRITE])
async def ingest_text(request: Request, body: S.IngestText):
    """Store raw text or markdown as a new note (title: given, else its first line)."""
    note = await runtime(request).write(
        lambda s: s.ingest_text(body.text, body.title, folder=body.folder, tags=body.tags),
        actor=actor(request), action="ingest.text", target=body.title, detail={"chars": len(body.text)})
    return {"action": "created", "id": note.id, "path": note.path, "title": note.title}


@router.get("/jobs", response_model=S.Jobs, tags=["jobs"], dependencies=[READ])
async def jobs(request: Request):
    """Job counts by state, dead letters, running and queued jobs (`cairn jobs --json`)."""
    return await runtime(request).read(lambda s: s.jobs())


@router.get("/jobs/dead", response_model=list[S.Job], tags=["jobs"], dependencies=[READ])
async def dead_letters(request: Request):
    """The dead letters: jobs that failed for good, with their last error."""
    return await runtime(request).read(lambda s: s.jobs()["dead"])


@router.post("/jobs/retry", response_model=S.IngestReport, tags=["jobs"], dependencies=[WRITE])
async def jobs_retry(request: Request, body: S.RetryBody):
    """Requeue dead letters (`ids`, or `all: true`) and run them (`cairn jobs retry`)."""
    if bool(body.ids) == body.all:
        raise InvalidInput("give ids or all: true (GET /api/jobs/dead lists the dead letters)")
    rt = runtime(request)
    ids = None if body.all else list(body.ids)
    report = await rt.write_bulk(lambda s: s.jobs_retry(ids, progress=rt.progress()), actor=actor(request),
                            action="jobs.retry", target="all" if ids is None else ",".join(map(str, ids)))
    return _report(report)


@router.post("/jobs/run", response_model=S.IngestReport, tags=["jobs"], dependencies=[WRITE])
async def jobs_run(request: Request):
    """Resume pending work: orphaned and queued jobs, missing vectors (`cairn jobs run`)."""
    rt = runtime(request)
    report = await rt.write_bulk(lambda s: s.jobs_run(progress=rt.progress()), actor=actor(request),
                            action="jobs.run")
    return _report(report)


@router.post("/sync", response_model=S.Task, status_code=202, tags=["jobs"], dependencies=[WRITE])
async def sync(request: Request):
    """Reconcile the vault with the index as a task (`cairn sync`); poll /api/tasks/{id}
    or listen to task.progress events. The result is the `cairn sync --json` report."""
    rt = runtime(request)
    task = rt.start_task("sync", lambda s, t: s.sync().to_json(), actor=actor(request))
    return task.to_json()


@router.post("/reindex", response_model=S.Task, status_code=202, tags=["jobs"], dependencies=[ADMIN])
async def reindex(request: Request):
    """Rebuild the index from the vault as a task (`cairn reindex`), with progress."""
    rt = runtime(request)
    task = rt.start_task("reindex", lambda s, t: s.reindex(progress=rt.progress(t)).to_json(),
                         actor=actor(request))
    return task.to_json()
