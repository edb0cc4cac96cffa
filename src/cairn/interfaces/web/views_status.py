"""The status page: counts, index health, models in use, disk used."""

from __future__ import annotations

from fastapi import APIRouter, Request

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import call, error_message, service

router = APIRouter()


@router.get("/status")
def status(request: Request):
    """The status page; for a client that asks for JSON (or sends no Accept header at all,
    as a bare script does), the same JSON as `/api/status` and `cairn status --json`."""
    app = service(request)
    accept = request.headers.get("accept")
    if accept is None or ("application/json" in accept and "text/html" not in accept):
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
