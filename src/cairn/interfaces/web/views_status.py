"""The status page: counts, index health, models in use, disk used."""

from __future__ import annotations

from fastapi import APIRouter, Request

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import call, error_message, service

router = APIRouter()


@router.get("/status")
def status(request: Request):
    app = service(request)
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
