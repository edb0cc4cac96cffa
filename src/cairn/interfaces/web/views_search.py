"""Search and ask pages: `/`, `/search`, `/ask`, `/ask/stream` (server-sent events)."""

from __future__ import annotations

import json
import queue
import re
import threading
from typing import Optional

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from cairn.interfaces.web import render
from cairn.interfaces.web.common import HEADERS, fragment, page
from cairn.interfaces.web.deps import call, error_message, service
from cairn.model import NOTE_TYPES
from cairn.validate import MAX_QUESTION_CHARS, check_query

router = APIRouter()
PASSAGES = 30  # chunks fetched for a search page (grouped into notes)


@router.get("/")
def home(request: Request):
    """The start page: the search box and the note types to filter by."""
    return page(request, "search.html", "search", q="", groups=None, types=NOTE_TYPES, f={})


@router.get("/search")
def search_page(request: Request, q: str = "", type: Optional[str] = None, tag: Optional[str] = None,
                since: Optional[str] = Query(None, alias="from"), until: Optional[str] = Query(None, alias="to")):
    """Results grouped by note, with per-signal bars and highlighted snippets."""
    f = {"type": type or "", "tag": tag or "", "from": since or "", "to": until or ""}
    if not q.strip():
        return page(request, "search.html", "search", q=q, groups=None, types=NOTE_TYPES, f=f)
    app = service(request)
    try:
        check_query(q)  # REST's limit on a search query (validate.MAX_QUESTION_CHARS)
        res = call(request, app.search, q, k=PASSAGES, types=[type] if type else None,
                   since=since or None, until=until or None, tag=tag or None, group=False)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "search.html", "search", status_code=status, q=q, groups=None,
                    types=NOTE_TYPES, f=f, error=msg)
    return page(request, "search.html", "search", q=q, groups=render.group_hits(res.hits),
                warnings=res.warnings, types=NOTE_TYPES, f=f, highlight=render.highlight, plain=render.plain,
                cite_href=render.cite_href)


@router.get("/ask")
def ask_page(request: Request, q: str = ""):
    """The ask page; with `q`, the answer rendered on the server (works without script)."""
    if not q.strip():
        return page(request, "ask.html", "ask", q="", answer=None)
    app = service(request)
    try:
        ans = call(request, app.ask, q)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return page(request, "ask.html", "ask", status_code=status, q=q, answer=None, error=msg)
    return page(request, "ask.html", "ask", q=q, answer=ans, answer_html=render.answer_html,
                cite_href=render.cite_href)


def _sse(event: str, data: str) -> str:
    return f"event: {event}\n" + "".join(f"data: {line}\n" for line in data.split("\n")) + "\n"


# What the page says while the answer is made: the service's trace stages (cairn.traces)
# are heard as each one ends, so the words name the step that starts next.
AFTER_STAGE = {
    "model": "Searching your notes…",
    "search": "Read {hits} passages. Checking what the question is about…",
    "context_search": "Checking what else your notes say about it…",
    "premise": "Writing the answer and checking each sentence against your notes…",
}


@router.get("/ask/stream")
def ask_stream(request: Request, q: str = ""):
    """Server-sent events for the ask page: `phase` (the step under way, in words, from the
    service's trace stages as they end), `text` (pieces of the checked answer), then `done`
    (the finished answer block as HTML, citations linked) or `failed` (one line). The
    answer is shown only after the verifier has checked it, so its pieces follow the check."""
    from cairn.traces import Trace
    app = service(request)
    heard: queue.Queue = queue.Queue()
    box: dict = {}

    def work() -> None:
        trace = Trace("answer", {"question": q}, listener=heard.put)
        try:
            box["answer"] = call(request, app.ask, q, trace=trace)
        except Exception as exc:  # reported to the page, never swallowed
            box["error"] = error_message(exc)[0] if isinstance(exc, (ValueError, OSError)) else \
                f"{type(exc).__name__}: {exc}"
        finally:
            heard.put(None)

    def events():
        if not q.strip():
            yield _sse("failed", "Type a question first.")
            return
        yield _sse("phase", "Getting ready…")
        threading.Thread(target=work, daemon=True).start()
        while True:
            try:
                stage = heard.get(timeout=5)
            except queue.Empty:
                yield ": still working\n\n"  # keeps proxies from closing a quiet stream
                continue
            if stage is None:
                break
            words = AFTER_STAGE.get(stage.get("name", ""))
            if words:
                out = stage.get("output") or {}
                yield _sse("phase", words.format(hits=out.get("hits", "the matching")))
        if "error" in box:
            yield _sse("failed", box["error"])
            return
        ans = box["answer"]
        for piece in re.findall(r"\S+\s*", ans.answer):
            yield _sse("text", json.dumps(piece))
        yield _sse("done", fragment(request, "_answer.html", q=q, answer=ans,
                                    answer_html=render.answer_html, cite_href=render.cite_href))

    headers = {k: v for k, v in HEADERS.items() if k != "Content-Security-Policy"}
    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={**headers, "X-Accel-Buffering": "no"})
