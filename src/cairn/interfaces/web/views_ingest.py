"""Adding to Cairn from the page: drag-and-drop or pick files, or give a URL; each run shows
a live progress bar (the page polls `/ingest/tasks/{id}`, and listens to `/events` when the
server has them); the job queue with its dead letters and a retry button."""

from __future__ import annotations

from typing import List

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse, RedirectResponse

from cairn.interfaces.web import tasks
from cairn.uploads import discard, settle, target as upload_target, upload_folder
from cairn.interfaces.web.common import HEADERS, page
from cairn.interfaces.web.deps import need, call, error_message, service

router = APIRouter()


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def _started(request: Request, task: tasks.Task):
    if _wants_json(request):
        return JSONResponse(task.to_json(), status_code=202, headers=HEADERS)
    return RedirectResponse(f"/ingest?task={task.id}", status_code=303)


def _refused(request: Request, message: str, status: int):
    if _wants_json(request):
        return JSONResponse({"error": message}, status_code=status, headers=HEADERS)
    return ingest_page(request, error=message, status_code=status)


@router.get("/ingest")
def ingest_page(request: Request, task: int = 0, error: str | None = None, status_code: int = 200):
    """Drop zone, URL form, recent runs, and the job queue."""
    app = service(request)
    try:
        jobs = call(request, app.jobs)
    except (ValueError, OSError) as exc:
        jobs, error = None, error or error_message(exc)[0]
    return page(request, "ingest.html", "ingest", status_code=status_code, error=error,
                runs=tasks.recent(request.app.state), jobs=jobs, focus_task=task)


def _as_named(filename: str | None) -> str | None:
    """The file's name as the person saw it: a browser's form sends `"`, CR and LF in a file
    name as %22, %0D and %0A (the HTML standard's multipart/form-data encoding), which were
    kept as such ('say %22hi%22.md')."""
    if not filename:
        return filename
    return filename.replace("%22", '"').replace("%0D", "\r").replace("%0A", "\n")


@router.post("/ingest/upload", dependencies=[Depends(need("write"))])
async def upload(request: Request, files: List[UploadFile] = File(...)):
    """Save the uploaded files under <home>/uploads/<task>/ and ingest them in the background
    (the report names them as uploaded; a file the run skips is not kept: cairn.uploads.settle)."""
    app = service(request)
    task_id = tasks.new_id(request.app.state)
    folder = upload_folder(app.settings.home)
    saved, names, taken = [], [], set()
    for up in files:
        target = upload_target(folder, _as_named(up.filename), taken, fallback="upload")  # two of one name: name-2
        name = target.name
        size = 0
        with open(target, "wb") as out:
            while chunk := await up.read(1 << 20):
                size += len(chunk)
                if size > tasks.MAX_UPLOAD_BYTES:
                    out.close()
                    discard(app.settings.home, folder)  # the files saved before it too
                    return _refused(request, f"{name} is larger than {tasks.MAX_UPLOAD_BYTES >> 20} MB", 413)
                out.write(chunk)
        saved.append(target)
        names.append(name)
    if not saved:
        discard(app.settings.home, folder)
        return _refused(request, "no file was sent", 400)
    home = app.settings.home
    task = tasks.start(request.app.state, task_id, names,
                       lambda svc, p: settle(svc.ingest(saved, progress=p), home, folder, saved))
    return _started(request, task)


@router.post("/ingest/url", dependencies=[Depends(need("write"))])
def ingest_url(request: Request, url: str = Form("")):
    """Fetch a web page into the vault in the background (the service refuses private hosts)."""
    url = url.strip()
    if not url.lower().startswith(("http://", "https://")):
        return _refused(request, "give a web address starting with http:// or https://", 400)
    app = service(request)
    task = tasks.start(request.app.state, tasks.new_id(request.app.state), [url], lambda svc, p: svc.ingest([url], progress=p))
    return _started(request, task)


@router.post("/ingest/retry", dependencies=[Depends(need("write"))])
def retry(request: Request, job_id: str = Form("")):
    """Requeue one dead letter (or all of them when no id is given) and run the queue."""
    ids = [int(job_id)] if job_id.strip().isdigit() else None
    if job_id.strip() and ids is None:
        return _refused(request, f"job id {job_id!r} is not a number", 400)
    app = service(request)
    try:  # the same check the service makes, before starting: the error shows on the page
        if ids:
            dead = {j["id"] for j in call(request, app.jobs)["dead"]}
            if ids[0] not in dead:
                raise ValueError(f"job {ids[0]} is not a dead letter")
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _refused(request, msg, status)
    name = f"retry job {ids[0]}" if ids else "retry all dead letters"
    task = tasks.start(request.app.state, tasks.new_id(request.app.state), [name],
                       lambda svc, p: svc.jobs_retry(ids, progress=p))
    return _started(request, task)


@router.get("/ingest/tasks/{task_id}")
def task_state(request: Request, task_id: int):
    """One run's progress as JSON (what the progress bar reads)."""
    task = tasks.get(request.app.state, task_id)
    if task is None:
        return JSONResponse({"error": f"no ingest run {task_id}"}, status_code=404, headers=HEADERS)
    return JSONResponse(task.to_json(), headers=HEADERS)
