"""/api/reminders: create, list, change and preview reminders — the shapes of `cairn remind
--json` ({"id", "next_due"}) and `cairn reminders --json` (one object per reminder)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Optional

from fastapi import APIRouter, Query, Request
from pydantic import Field

from cairn.errors import InvalidInput
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import READ, WRITE, actor, runtime

router = APIRouter(prefix="/api/reminders", tags=["reminders"])


class RemindBody(S.Body):
    text: str = Field(min_length=1, max_length=2000)
    at: Optional[str] = Field(None, max_length=200)
    every: Optional[str] = Field(None, max_length=200)
    tz: Optional[str] = Field(None, max_length=100)


class SnoozeBody(S.Body):
    until: str = Field("in 10 minutes", min_length=1, max_length=200)


def _with(fn):
    """`fn(scheduler)` on a service, the scheduler closed after."""
    def run(svc):
        with svc.scheduler() as sch:
            return fn(sch)
    return run


@router.post("", status_code=201, dependencies=[WRITE])
async def remind(request: Request, body: RemindBody):
    """Create a reminder, once (`at`) or repeating (`every`): {"id", "next_due"}."""
    from cairn.schedule.scheduler import local_time
    if (body.at is None) == (body.every is None):
        raise InvalidInput("give exactly one of at WHEN (once) or every WHEN (repeating)")
    r = await runtime(request).write(_with(lambda s: s.remind(body.text, at=body.at, every=body.every, tz=body.tz)),
                                     actor=actor(request), action="reminder.create", target=body.text[:80])
    return {"id": r.id, "next_due": local_time(r.next_due, r.tz)}


@router.get("", dependencies=[READ])
async def reminders(request: Request, all: bool = Query(False, description="Also done and cancelled.")):
    """Every reminder: {"id", "text", "next_due", "state", "delivered_at", ...}."""
    from cairn.schedule.scheduler import reminder_json
    states = None if all else ("scheduled", "delivered", "failed", "dead", "firing")
    return await runtime(request).read(_with(lambda s: [reminder_json(r) for r in s.list(states, kind="reminder")]))


@router.get("/{rid}/upcoming", dependencies=[READ])
async def upcoming(request: Request, rid: str, count: int = Query(5, ge=1, le=1000),
                   start: Optional[str] = Query(None, alias="from", description="ISO 8601 start.")):
    """The next runs as ISO times with their offsets."""
    when = None
    if start is not None:
        try:
            when = datetime.fromisoformat(start)
        except ValueError:
            raise InvalidInput(f"from {start!r} is not an ISO 8601 time") from None

    def run(sch):
        nonlocal when
        if when is not None and when.tzinfo is None:
            from cairn.schedule.when import zone
            when = when.replace(tzinfo=zone(sch.get(rid).tz))
        return [d.isoformat() for d in sch.upcoming(rid, count, when)]
    return await runtime(request).read(_with(run))


@router.post("/{rid}/{action}", dependencies=[WRITE])
async def change(request: Request, rid: str, action: Literal["done", "cancel", "snooze", "replay", "discard"],
                 body: Optional[SnoozeBody] = None):
    """done, cancel, snooze (body {"until"}), replay or discard (dead letters)."""
    from cairn.schedule.scheduler import reminder_json
    kw = {"until": body.until} if action == "snooze" and body is not None else {}
    r = await runtime(request).write(_with(lambda s: getattr(s, action)(rid, **kw)),
                                     actor=actor(request), action=f"reminder.{action}", target=rid)
    return reminder_json(r)
