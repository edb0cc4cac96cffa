"""/api/search and /api/ask. Search takes every `cairn search` parameter (GET with query
parameters, or POST with a JSON body, which also takes a `batch`). Ask answers as JSON, or
as server-sent events when the client accepts `text/event-stream`: each pipeline stage as it
ends, then the answer, its citations and the verifier's verdict."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from typing import Optional

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse

from cairn.errors import Forbidden, InvalidInput
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import READ, runtime
from cairn.model import NOTE_TYPES
from cairn.validate import MAX_QUESTION_CHARS, check_query

router = APIRouter(prefix="/api", tags=["search"])


def _check(types: list[str] | None, since: str | None) -> None:
    for t in types or []:
        if t not in NOTE_TYPES:
            raise InvalidInput(f"type {t!r} is not one of {', '.join(NOTE_TYPES)}")
    if since is not None:
        try:
            date.fromisoformat(since[:10])
        except ValueError:
            raise InvalidInput(f"since {since!r} is not an ISO date (YYYY-MM-DD)") from None


def _hits(res) -> list[dict]:
    return [h.to_json() for h in res.hits]


@router.get("/search", response_model=list[S.Hit], dependencies=[READ])
async def search_get(request: Request, q: str = Query(..., min_length=1, max_length=MAX_QUESTION_CHARS, description="Any text."),
                     k: Optional[int] = Query(None, ge=1, le=1000),
                     mode: S.SearchMode = "hybrid",
                     fusion: Optional[S.FusionName] = None,
                     type: Optional[list[str]] = Query(None, description="Note type (repeatable)."),
                     since: Optional[str] = Query(None, description="ISO date: items dated on/after it."),
                     until: Optional[str] = Query(None, description="ISO date: items dated on/before it."),
                     tag: Optional[str] = Query(None, min_length=1, description="Notes with this tag."),
                     entity: Optional[str] = Query(None, description="Notes and messages mentioning this entity."),
                     semantic_floor: Optional[float] = Query(None, ge=0, le=1, description="This call's relevance floor.")):
    """Search by keyword and meaning (`cairn search --json`); warnings go in `X-Cairn-Warnings`.
    A blank query or one holding control characters is refused (validate.check_query)."""
    check_query(q)
    _check(type, since)
    res = await runtime(request).read(lambda s: s.search(q, k=k, mode=mode, fusion=fusion, types=type, since=since,
                                                         until=until, tag=tag, entity=entity,
                                                         semantic_floor=semantic_floor))
    return _with_warnings(_hits(res), res.warnings)


WARNING_HEADER_CHARS = 2000  # an HTTP client refuses a header line past ~64 KiB (http.client: LineTooLong)


def _with_warnings(data, warnings: list[str]):
    """JSON `data` with the warnings in `X-Cairn-Warnings` (a JSON list, ASCII-escaped), each cut
    to WARNING_HEADER_CHARS characters: a warning that quotes a long query stays readable."""
    cut = [w if len(w) <= WARNING_HEADER_CHARS else w[:WARNING_HEADER_CHARS] + "…" for w in warnings]
    headers = {"X-Cairn-Warnings": json.dumps(cut, ensure_ascii=True)} if cut else None
    return JSONResponse(data, headers=headers)


@router.post("/search", response_model=list[S.Hit] | list[S.BatchRow], dependencies=[READ])
async def search_post(request: Request, body: S.SearchBody):
    """Search with a JSON body: `query` for one list of hits, or `batch` [{id, query}] for
    one row {query_id, hits, warnings} per query (`cairn search --batch`)."""
    if (body.query is None) == (body.batch is None):
        raise InvalidInput("give either query or batch")
    _check(body.type, body.since)
    kw = dict(k=body.k, mode=body.mode, fusion=body.fusion, types=body.type, since=body.since, until=body.until,
              tag=body.tag, entity=body.entity, semantic_floor=body.semantic_floor)
    rt = runtime(request)
    if body.batch is not None:
        pairs = [(str(b.id), b.query) for b in body.batch]
        for n, (qid, query) in enumerate(pairs):
            if query.strip():  # an empty query finds nothing (as `cairn search --batch`); a NUL is refused
                try:
                    check_query(query)
                except InvalidInput as exc:
                    raise InvalidInput(f"batch[{n}] (id {qid!r}): {exc.message}", field="batch") from None
        return await rt.read(lambda s: list(s.search_batch(pairs, **kw)))
    check_query(body.query)  # as GET's q
    res = await rt.read(lambda s: s.search(body.query, **kw))
    return _with_warnings(_hits(res), res.warnings)


def _llm_allowed(request: Request, llm: str | None) -> None:
    """A caller may pick "none", "embedded" or a model the configuration already holds
    (cairn.llm.requested_llm_allowed); any other spec (a URL the server would send passages
    to) is refused, whatever the key's scope."""
    from cairn.llm import requested_llm_allowed
    if not requested_llm_allowed(runtime(request).settings, llm):
        raise Forbidden(f"llm {llm!r} is not a model this server is configured with: use none, "
                        "embedded or leave it out for the configured one (set another model in "
                        "config.toml: llm, [assistant] model)")


ASK_RESPONSES = {200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                       "description": "JSON (AnswerOut), or with `Accept: text/event-stream` the events "
                                      "stage*, answer, citations, verdict, done"}}


@router.post("/ask", response_model=S.AnswerOut, dependencies=[READ], responses=ASK_RESPONSES)
async def ask(request: Request, body: S.AskBody):
    """Answer from the notes with checked citations (`cairn ask --json`). The trace id is in
    `X-Trace-Id` (GET /traces/{id}). With `Accept: text/event-stream` the answer streams."""
    if not body.question.strip():
        raise InvalidInput("the question is empty")
    _llm_allowed(request, body.llm)
    if "text/event-stream" in request.headers.get("accept", ""):
        return _ask_stream(request, body.question, body.llm, body.k)
    ans = await runtime(request).read(lambda s: s.ask(body.question, llm=body.llm, k=body.k))
    return JSONResponse(ans.to_json(), headers={"X-Trace-Id": ans.trace_id})


@router.get("/ask/stream", dependencies=[READ], responses=ASK_RESPONSES, response_class=StreamingResponse)
async def ask_stream(request: Request, question: str = Query(..., min_length=1, max_length=MAX_QUESTION_CHARS),
                     llm: Optional[str] = None, k: int = Query(8, ge=1, le=100)):
    """The streaming answer for EventSource clients (GET): the same events as POST /api/ask
    with `Accept: text/event-stream`."""
    if not question.strip():
        raise InvalidInput("the question is empty")
    _llm_allowed(request, llm)
    return _ask_stream(request, question, llm, k)


def _ask_stream(request: Request, question: str, llm: str | None, k: int) -> StreamingResponse:
    """Events: `stage` (each pipeline stage as it ends: name, output summary, ms), `answer`
    ({"text", "mode", "llm"}), `citations` (list), `verdict` ({"verdict", "problems",
    "trace_id"}), then `done`; an `error` event ({"error", "message"}) if it fails."""
    from cairn.traces import Trace
    rt = runtime(request)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def put(kind: str, data) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (kind, data))

    trace = Trace("answer", {"question": question}, listener=lambda st: put("stage", st))

    async def run():
        try:
            ans = await rt.read(lambda s: s.ask(question, llm=llm, k=k, trace=trace))
            put("answer", {"text": ans.answer, "mode": ans.mode, "llm": ans.llm, "fallback": ans.fallback})
            put("citations", ans.citations)
            put("verdict", {"verdict": ans.verdict, "problems": ans.problems, "trace_id": ans.trace_id,
                            "answerability": ans.answerability})
        except Exception as exc:  # noqa: BLE001 - sent to the client as an error event
            from cairn.errors import CairnError
            body = exc.to_json() if isinstance(exc, CairnError) else {
                "error": "invalid_input" if isinstance(exc, ValueError) else "internal", "message": str(exc)}
            from cairn.redact_paths import without_paths
            body["message"] = without_paths(str(body.get("message", "")), rt.settings)
            put("error", body)
        put("done", {})

    async def stream():
        job = asyncio.create_task(run())
        try:
            while True:
                kind, data = await queue.get()
                yield f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"
                if kind == "done":
                    break
        finally:
            if not job.done():
                await job

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
