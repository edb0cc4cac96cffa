"""System endpoints: /healthz (cheap, no key), /api/status, /events (server-sent events with
Last-Event-ID resume), /traces, /audit, /api/tasks (sync and reindex progress)."""

from __future__ import annotations

import asyncio
import json
from typing import Optional

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from cairn import audit, traces
from cairn.events import TYPES
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import ADMIN, READ, principal, runtime

router = APIRouter()

SSE = {200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
             "description": "server-sent events"}}


@router.get("/healthz", response_model=S.Health, tags=["system"])
async def healthz():
    """Liveness: answers without touching the index or the models."""
    from cairn import __version__
    return {"ok": True, "version": __version__}


@router.get("/api/status", response_model=S.Status, dependencies=[READ], tags=["system"])
async def status(request: Request):
    """Counts and health of the index (`cairn status --json`)."""
    return await runtime(request).read(lambda s: s.status())


@router.get("/events", dependencies=[READ], tags=["system"], response_class=StreamingResponse, responses=SSE)
async def events(request: Request,
                 types: Optional[str] = Query(None, description="Comma-separated event types to keep."),
                 last_event_id: Optional[str] = Header(None, alias="Last-Event-ID"),
                 since: Optional[int] = Query(None, ge=0, description="Resume after this event id "
                                              "(same as the Last-Event-ID header).")):
    """The service's events as server-sent events (`id:` = event id, `event:` = type,
    `data:` = the event JSON). Reconnect with `Last-Event-ID` to get the events missed
    (the last 1000 are kept). A comment line is sent every 15 s to keep the connection open.
    A key acting for a person (cairn.people) gets only the events of that person's work."""
    from cairn.errors import InvalidInput
    rt = runtime(request)
    wanted = [t.strip() for t in types.split(",") if t.strip()] if types else None
    bad = [t for t in wanted or [] if t not in TYPES]
    if bad:
        raise InvalidInput(f"unknown event type(s) {', '.join(bad)}; known: {', '.join(TYPES)}")
    after = since
    if last_event_id is not None:
        if not last_event_id.strip().isdigit():
            raise InvalidInput(f"Last-Event-ID {last_event_id!r} is not an event id (a whole number)")
        after = int(last_event_id)
    from cairn.events import visible
    person = principal(request).get("person")  # a person's key: only their events (cairn.people)
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()
    sub = rt.events.subscribe(types=wanted, notify=lambda: loop.call_soon_threadsafe(wake.set))
    backlog = [e for e in rt.events.since(after) if (not wanted or e.type in wanted) and visible(e, person)] \
        if after is not None else []

    def frame(e) -> str:
        return f"id: {e.id}\nevent: {e.type}\ndata: {json.dumps(e.to_json(), ensure_ascii=False)}\n\n"

    async def stream():
        try:
            yield "retry: 2000\n\n"
            seen = 0
            for e in backlog:
                seen = e.id
                yield frame(e)
            idle = 0.0
            while not rt.stopping.is_set():
                wake.clear()  # before looking, so an event queued after the look sets it again
                e = sub.get(0)  # never blocks: `wake` says when there is something
                if e is None:
                    try:
                        await asyncio.wait_for(wake.wait(), 1.0)
                    except asyncio.TimeoutError:
                        idle += 1.0
                        if idle >= 15:
                            idle = 0.0
                            yield ": keep-alive\n\n"
                        if await request.is_disconnected():
                            break
                    continue
                idle = 0.0
                if e.id > seen and visible(e, person):
                    yield frame(e)
        finally:
            sub.close()

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/traces", response_model=list[S.TraceHead], dependencies=[READ], tags=["system"])
async def trace_list(request: Request, limit: int = Query(20, ge=1, le=500)):
    """The newest traces (ingest and answer), newest first; a key acting for a person
    (cairn.people) sees only that person's."""
    home = runtime(request).home
    return await asyncio.to_thread(traces.recent, home, limit, principal(request).get("person"))


@router.get("/traces/{trace_id}", response_model=S.TraceOut, dependencies=[READ], tags=["system"])
async def trace_get(request: Request, trace_id: str):
    """What Cairn did for one ingest or answer: each stage with a summary of its input and
    output and its milliseconds. Ingest and ask responses carry the id in `X-Trace-Id`."""
    return await asyncio.to_thread(traces.load, runtime(request).home, trace_id,
                                   principal(request).get("person"))


@router.get("/audit", response_model=list[S.AuditEntry], dependencies=[ADMIN], tags=["system"])
async def audit_log(request: Request, limit: int = Query(100, ge=1, le=10000),
                    action: Optional[str] = Query(None, max_length=100)):
    """The audit log (every write: who, what, when, outcome), oldest first (`cairn audit`);
    a key acting for a person (cairn.people) sees only the entries made for that person."""
    return await asyncio.to_thread(audit.entries, runtime(request).home, limit, action,
                                   principal(request).get("person"))


@router.get("/api/tasks", response_model=list[S.Task], dependencies=[READ], tags=["jobs"])
async def task_list(request: Request):
    """Server tasks (sync, reindex) started since the server started, oldest first; a key
    acting for a person (cairn.people) sees only the tasks it started for that person."""
    return [t.to_json() for t in runtime(request).visible_tasks(principal(request).get("person"))]


@router.get("/api/tasks/{task_id}", response_model=S.Task, dependencies=[READ], tags=["jobs"])
async def task_get(request: Request, task_id: str):
    """One task's state and progress; `result` holds its report when done."""
    return runtime(request).task(task_id, principal(request).get("person")).to_json()
