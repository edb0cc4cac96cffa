"""The status page: counts, index health, models in use, disk used."""

from __future__ import annotations

from fastapi import APIRouter, Request

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import call, error_message, service

router = APIRouter()


@router.get("/status")
def status(request: Request):
    """The status page for a browser; for a client that does not ask for HTML (curl, a
    script), the same JSON as `/api/status` and `cairn status --json`."""
    app = service(request)
    if "text/html" not in request.headers.get("accept", ""):
        from fastapi.responses import JSONResponse
        try:
            return JSONResponse(call(request, app.status))
        except (ValueError, OSError) as exc:
            msg, code = error_message(exc)
            return JSONResponse({"error": "unavailable", "message": msg}, status_code=code)
    try:
        st = call(request, app.status)
        disk = call(request, app.disk_usage)
        jobs = call(request, app.jobs, 0)
    except (ValueError, OSError) as exc:
        msg, code = error_message(exc)
        return page(request, "error.html", "status", status_code=code, error=msg, title="Status unavailable")
    from cairn.llm import default_llm_spec
    models = {"embedder": getattr(app.embedder, "model_name", "?"),
              "answers": app.settings.llm or default_llm_spec()}
    return page(request, "status.html", "status", st=st, disk=disk, jobs=jobs, models=models)
