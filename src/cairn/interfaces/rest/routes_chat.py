"""POST /chat (server-sent events), POST /chat/approvals/{id}, GET /chat/sessions (/search,
/{id}, /{id}/stats), DELETE /chat/sessions/{id} and
GET /artifacts (/{id}, /{id}/lineage: what the assistant's tools, saved conversations and
exports produced), GET /skills, POST /skills (save), POST /skills/{name}/run and
POST /skills/{name}/rate: the assistant over HTTP,
a thin route over `cairn.assistant.sse.chat_events` (docs/assistant.md).

The turn runs in its own thread; its service calls go through a `ServiceProxy` (reads on the
reader pool, writes on the writer thread). The assistant audits its own decisions. A key's
scope bounds the tools: a "write" key cannot run delete or forget even when approved;
approving a pending call needs the scope its tool needs ("admin" for deletions).
"""

from __future__ import annotations

from typing import Optional

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from cairn.interfaces.rest.deps import READ, WRITE, actor, principal, runtime
from cairn.ops.sessions import MAX_MESSAGE_CHARS, MAX_SESSION_ID_CHARS

router = APIRouter(tags=["assistant"])


class ChatBody(BaseModel):
    message: str = Field(..., min_length=1, max_length=MAX_MESSAGE_CHARS, description="The person's message.")
    session: Optional[str] = Field(None, max_length=MAX_SESSION_ID_CHARS, description="Continue this session id.")
    new: bool = Field(False, description="Start a new session (without `session`; default: continue "
                                         "the current one of this channel).")


class Decision(BaseModel):
    approve: bool = Field(..., description="true runs the pending call, false drops it.")


@router.post("/chat", dependencies=[WRITE], response_class=StreamingResponse,
             responses={200: {"content": {"text/event-stream": {}},
                              "description": "events: session, delta*, notice*, then result or error"}})
async def chat(request: Request, body: ChatBody):
    """One assistant turn as server-sent events (`session`, `delta`…, `notice`…, then `result`
    — the `cairn chat --json` object — or `error`). High-risk calls come back pending."""
    from starlette.concurrency import iterate_in_threadpool

    from cairn.assistant.sse import chat_events
    from cairn.ops.sessions import check_session_id
    check_session_id(body.session)  # "" is no session, not the current one
    _not_a_command(body.message)
    from cairn.interfaces.rest.proxy import ServiceProxy
    who = actor(request)
    proxy = ServiceProxy(runtime(request), actor=who, audit=False)
    events = chat_events(proxy, body.message, session=body.session, new=body.new, channel="web", person=who,
                         scope=principal(request)["scope"])
    return StreamingResponse(iterate_in_threadpool(events), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# The slash commands of `cairn chat` (interfaces/cli_chat.HELP). Sent over HTTP they reached the
# assistant as words: "/new" was read as "create a note" ("What should the note be called?"),
# "/quit" as a question about approvals.
_COMMANDS = {"/new", "/resume", "/sessions", "/why", "/memories", "/approve", "/deny", "/undo", "/budget",
             "/stats", "/scorecard", "/skills", "/skill", "/model", "/models", "/incognito", "/help", "/quit",
             "/exit"}


def _not_a_command(message: str) -> None:
    """InvalidInput when `message` is one of `cairn chat`'s slash commands, naming what HTTP has
    for it; any other message (a path such as "/etc/hosts" included) is a message."""
    from cairn.errors import InvalidInput
    cmd = message.strip().split(maxsplit=1)[0].lower() if message.strip() else ""
    if cmd in _COMMANDS:
        raise InvalidInput(f"{cmd} is a command of `cairn chat`, not a message; over HTTP a new session is "
                           '"new": true, a decision POST /chat/approvals/{id}, the sessions GET /chat/sessions',
                           field="message")


@router.post("/chat/approvals/{approval_id}", dependencies=[WRITE])
async def decide(request: Request, approval_id: str, body: Decision):
    """Approve (run) or deny a pending call by id; the `cairn chat --json` object of the result.
    404 for an unknown or already decided id."""
    import asyncio

    from cairn.assistant import Assistant
    from cairn.interfaces.rest.proxy import ServiceProxy
    who = actor(request)
    proxy = ServiceProxy(runtime(request), actor=who, audit=False)

    def run():
        bot = Assistant(proxy, channel="web", person=who, open_session=False, scope=principal(request)["scope"])
        return bot.decide(approval_id, grant=body.approve).to_json()

    return await asyncio.to_thread(run)


@router.get("/chat/sessions", dependencies=[READ])
async def sessions(request: Request):
    """The assistant's sessions, most recent first (`cairn sessions --json`): [{"id", "channel",
    "turns", "started", "last", "opening"}]."""
    return await runtime(request).read(lambda s: s.sessions())


@router.get("/chat/sessions/search", dependencies=[READ])
async def sessions_search(request: Request, q: str = Query(..., min_length=1, max_length=1000),
                          k: int = Query(10, ge=1, le=100)):
    """Turns of every session ranked by BM25 (`cairn sessions search --json`). 400 for a blank query."""
    return await runtime(request).read(lambda s: s.sessions_search(q, k=k))


@router.get("/chat/sessions/{session_id}", dependencies=[READ])
async def session_events(request: Request, session_id: str):
    """One session's log events in order (`cairn sessions show --json`). 404 for an unknown session."""
    return await runtime(request).read(lambda s: s.session_events(session_id))


@router.delete("/chat/sessions/{session_id}", dependencies=[WRITE])
async def session_delete(request: Request, session_id: str):
    """Delete one session's log (`cairn sessions delete`): {"id"}. 404 for an unknown session."""
    return await runtime(request).write(lambda s: s.session_delete(session_id), actor=actor(request),
                                        action="session.delete", target=session_id)


@router.get("/chat/sessions/{session_id}/stats", dependencies=[READ])
async def session_stats(request: Request, session_id: str):
    """A session's `/stats` and `/scorecard` ({"stats", "scorecard"}, `cairn sessions stats ID
    --json`): tokens, cost, context pressure, tool calls, compactions, evidence kept. 404 for
    an unknown session."""
    rt = runtime(request)
    return {"stats": await rt.read(lambda s: s.session_stats(session_id)),
            "scorecard": await rt.read(lambda s: s.session_scorecard(session_id))}


@router.get("/artifacts", dependencies=[READ])
async def artifacts(request: Request, session: Optional[str] = None, kind: Optional[str] = None, limit: int = 50):
    """Artifact records, newest first (`cairn artifacts --json`)."""
    return await runtime(request).read(lambda s: s.artifacts(session=session, kind=kind, limit=max(1, min(limit, 1000))))


@router.get("/artifacts/{ref}", dependencies=[READ])
async def artifact(request: Request, ref: str):
    """One artifact: records, media type, size, text content (`cairn artifacts show ID --json`)."""
    return await runtime(request).read(lambda s: s.artifact_show(ref))


@router.get("/artifacts/{ref}/lineage", dependencies=[READ])
async def artifact_lineage(request: Request, ref: str):
    """What produced an artifact, from what inputs (`cairn artifacts lineage ID --json`)."""
    return await runtime(request).read(lambda s: s.artifact_lineage(ref))


class Vote(BaseModel):
    helpful: bool = Field(..., description="true: the skill helped; false: it did not.")


@router.get("/skills", dependencies=[READ])
async def skills(request: Request):
    """Skills, most useful first, and the recurring tool sequences (`cairn skills --json`,
    `cairn skills patterns --json`): {"skills", "patterns"}."""
    rt = runtime(request)
    return {"skills": await rt.read(lambda s: s.skills()), "patterns": await rt.read(lambda s: s.skill_patterns())}


class SkillBody(BaseModel):
    name: str = Field(..., min_length=1, max_length=100, description="The skill's name.")
    session: str = Field(..., min_length=1, max_length=100, description="The session to take the calls from.")
    turns: Optional[list[int]] = Field(None, max_length=100, description="Its turns (default: the newest "
                                       "turn that ran tool calls).")
    replace: bool = Field(False, description="Replace a skill of that name.")


class RunBody(BaseModel):
    session: Optional[str] = Field(None, max_length=100, description="Run as a turn of this session "
                                   "(default: the current web session, as POST /chat).")


@router.post("/skills", dependencies=[WRITE], status_code=201)
async def save_skill(request: Request, body: SkillBody):
    """Record the tool calls that ran in a session's turn(s) as a named skill (`cairn skills save
    --json`). 404 for an unknown session, 409 when the name exists and not `replace`, 400 for a
    bad name or turns without calls."""
    return await runtime(request).write(lambda s: s.skill_save(body.name, body.session, body.turns, body.replace),
                                        actor=actor(request), action="skill.save", target=body.name)


@router.post("/skills/{name}/run", dependencies=[WRITE])
async def run_skill(request: Request, name: str, body: Optional[RunBody] = None):
    """Run a skill's calls again as one assistant turn (`cairn skills run --json`: the `cairn chat
    --json` object); high-risk calls come back pending, and the key's scope bounds the tools as
    for POST /chat. 404 for an unknown skill or session."""
    import asyncio

    from cairn.assistant import Assistant
    from cairn.assistant.skills import run
    from cairn.interfaces.rest.proxy import ServiceProxy
    who = actor(request)
    proxy = ServiceProxy(runtime(request), actor=who, audit=False)
    session = body.session if body else None

    def go():
        bot = Assistant(proxy, channel="web", person=who, session_id=session, model="none",
                        scope=principal(request)["scope"])
        return run(bot, name).to_json()

    return await asyncio.to_thread(go)


@router.post("/skills/{name}/rate", dependencies=[WRITE])
async def rate_skill(request: Request, name: str, body: Vote):
    """One helpful / not-helpful vote; the skill with its new usefulness. 404 for an unknown skill."""
    return await runtime(request).write(lambda s: s.skill_rate(name, body.helpful), actor=actor(request),
                                        action="skill.rate", target=name)
