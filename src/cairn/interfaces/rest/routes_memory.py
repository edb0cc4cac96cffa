"""/api/memories (remember, list, history, recall, forget, core blocks) and /api/entities
(list, aliases, review: merge questions): the shapes of `cairn remember|memories|recall|core --json`."""

from __future__ import annotations

from typing import Optional

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from cairn.errors import InvalidInput
from cairn.interfaces.rest import schemas as S
from cairn.interfaces.rest.deps import ADMIN, READ, WRITE, actor, runtime
from cairn.validate import MAX_QUESTION_CHARS, check_query

router = APIRouter(prefix="/api", tags=["memories"])


def _time(value: Optional[str], name: str) -> None:
    if value is None:
        return
    from cairn.memory.temporal import parse_time
    try:
        parse_time(value)
    except (ValueError, TypeError):
        raise InvalidInput(f"{name} {value!r} is not an ISO 8601 time (e.g. 2025-11-19T18:30:00+01:00)") from None


@router.post("/memories", response_model=S.MemoryChange, dependencies=[WRITE])
async def remember(request: Request, body: S.RememberBody):
    """Remember a statement: adds, reinforces or supersedes, and says why (`cairn remember --json`)."""
    _time(body.at, "at")
    change = await runtime(request).write(
        lambda s: s.remember(body.text, kind=body.kind, scope=body.scope, at=body.at),
        actor=actor(request), action="memory.remember", target=body.text[:80], detail={"scope": body.scope})
    return change.to_json()


@router.get("/memories", response_model=list[S.Memory], dependencies=[READ])
async def memories(request: Request, kind: Optional[S.MemoryKind] = None,
                   scope: Optional[str] = None,
                   all: bool = Query(False, description="Include superseded and forgotten memories.")):
    """Active memories, or every memory with `all=true` (`cairn memories --json`)."""
    items = await runtime(request).read(lambda s: s.memories(kind=kind, scope=scope, include_inactive=all))
    return [m.to_json() for m in items]


@router.get("/memories/recall", response_model=list[S.Recalled], dependencies=[READ])
async def recall(request: Request, query: str = Query(..., min_length=1, max_length=MAX_QUESTION_CHARS),
                 scope: Optional[str] = None, k: int = Query(10, ge=1, le=1000),
                 at: Optional[str] = None, history: bool = False):
    """Memories ranked for `query`, with every score component (`cairn recall --json`).
    Recall marks what it returns as used, so it runs with the writes. A blank query or one
    holding control characters is refused (validate.check_query, as `cairn recall`)."""
    check_query(query)
    _time(at, "at")
    hits = await runtime(request).write(
        lambda s: s.recall(query, scope=scope, k=k, at=at, include_history=history),
        actor=actor(request), action="memory.recall", target=query[:80])
    return [h.to_json() for h in hits]


@router.get("/memories/core", response_model=S.Core, dependencies=[READ])
async def core(request: Request, scope: Optional[str] = None):
    """The core blocks and the top memories an assistant gets in its prompt (`cairn core --json`)."""
    return (await runtime(request).read(lambda s: s.core(scope=scope))).to_json()


@router.put("/memories/core/{name}", response_model=S.Core, dependencies=[WRITE])
async def core_set(request: Request, name: str, body: S.CoreBody):
    """Create or replace core block `name` (empty text clears it); returns the core context."""
    if not name.strip():
        raise InvalidInput("the core block needs a name")
    rt = runtime(request)
    await rt.write(lambda s: s.core_set(name, body.text), actor=actor(request), action="memory.core_set",
                   target=name)
    return (await rt.read(lambda s: s.core())).to_json()


@router.get("/memories/{memory_id}/history", response_model=list[S.Memory], dependencies=[READ])
async def history(request: Request, memory_id: str):
    """The supersession chain through a memory, oldest first."""
    return [m.to_json() for m in await runtime(request).read(lambda s: s.memory_history(memory_id))]


@router.delete("/memories/{memory_id}", response_model=S.MemoryChange, dependencies=[ADMIN])
async def forget(request: Request, memory_id: str):
    """Forget a memory (a tombstone: kept in history, never recalled) (`cairn forget`)."""
    change = await runtime(request).write(lambda s: s.forget(memory_id.strip()), actor=actor(request),
                                          action="memory.forget", target=memory_id)
    return change.to_json()


@router.get("/entities", response_model=list[S.Entity], tags=["entities"], dependencies=[READ])
async def entities(request: Request):
    """Entities with their aliases and number of memories (`cairn entities --json`)."""
    return await runtime(request).read(lambda s: s.entities())


@router.post("/entities/aliases", response_model=S.Entity, tags=["entities"], dependencies=[WRITE])
async def alias(request: Request, body: S.AliasBody):
    """Join `alias` to the entity `name`, merging entities if both exist (`cairn entity alias`)."""
    return await runtime(request).write(lambda s: s.entity_alias(body.name, body.alias), actor=actor(request),
                                        action="entity.alias", target=body.name, detail={"alias": body.alias})


class MergeAnswerBody(BaseModel):
    same: bool = Field(..., description="true: the two are one entity (merged); false: keep them apart.")


@router.get("/entities/review", tags=["entities"], dependencies=[READ])
async def entity_review(request: Request, limit: int = Query(20, ge=1, le=200)):
    """Merge questions: pairs of entities that may be one (`cairn entity review --json`)."""
    return await runtime(request).read(lambda s: s.entity_candidates(limit).to_json())


@router.post("/entities/review/{pair}", tags=["entities"], dependencies=[WRITE])
async def entity_review_answer(request: Request, pair: str, body: MergeAnswerBody):
    """Answer one merge question (`cairn entity review --yes ID` / `--no ID`)."""
    return await runtime(request).write(lambda s: s.entity_candidate_answer(pair, body.same).to_json(),
                                        actor=actor(request), action="entity.review", target=pair,
                                        detail={"same": body.same})
