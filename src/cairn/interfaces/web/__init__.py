"""The web page: server-rendered pages over `cairn.service.Cairn`, for `cairn serve`.

    from cairn.interfaces.web import router
    app.include_router(router)   # pages at /, /search, /ask, /notes, /memories, /ingest, /status,
                                 # /login, and the page's CSS and script at /static/web/
    app.state.cairn = Cairn(home)  # the service every route calls (see deps.py for the rest)

Templates (jinja2) live in `templates/`, the CSS and the one script in `static/`; both are
package data, served from the installed package (no CDN, nothing fetched at run time, no
third-party front-end code). See docs/web.md.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Depends

from cairn.interfaces.web import (views_ingest, views_memory, views_notes, views_search,
                                  views_status)
from cairn.interfaces.web.auth import router as _auth_router
from cairn.interfaces.web.deps import guard

STATIC_DIR = Path(__file__).parent / "static"

router = APIRouter(dependencies=[Depends(guard)], include_in_schema=False)
for _mod in (views_search, views_notes, views_memory, views_ingest, views_status):
    router.include_router(_mod.router)
router.include_router(_auth_router)


__all__ = ["router", "STATIC_DIR"]
