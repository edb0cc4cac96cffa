"""`ReviewOps`: the review inbox of extracted memories (cairn.memory.review) as operations of
`cairn.service.Cairn` — what `GET /memories/review` and `cairn memories review` call.

    memory_review()                        -> R.ReviewList of {"memory", "near", "sources"}
    memory_review_act(action, id, text=None, other=None) -> MemoryChange
        action: "confirm" | "edit" (text) | "reject" | "merge" (other: the duplicate to fold in)

A memory of another person is not found (as for `forget`). InvalidInput for an unknown
action or a missing text/other; MemoryNotFound for an unknown id; Conflict for a memory
that is no longer active.
"""

from __future__ import annotations

from cairn import results as R
from cairn.errors import InvalidInput
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cairn.memory.model import MemoryChange

ACTIONS = ("confirm", "edit", "reject", "merge")


def _source_text(home, source_id: str) -> str | None:
    """The words a memory came from when its source is an assistant turn ("SESSION#SEQ"),
    else None (a chat message or note id is shown as it is)."""
    if "#" not in source_id or not source_id.startswith("s-"):
        return None
    from cairn.assistant.sessions import SessionStore
    sid, _, seq = source_id.partition("#")
    store = SessionStore(home)
    try:
        store.load(sid)
    except Exception:  # noqa: BLE001 - a deleted session: the id alone is shown
        return None
    for e in store.events(store.path(sid)):
        if str(e.get("seq")) == seq:
            return e.get("text")
    return None


class ReviewOps:
    """The review inbox (see the module docstring)."""

    def memory_review(self, *, limit: int = 200) -> R.ReviewList:
        """Memories extracted and not yet reviewed, newest first, each with its
        near-duplicates ({"memory", "cosine"}) and its sources ({"id", "text"})."""
        from cairn.memory.review import inbox
        from cairn.people import memory_visible
        person = self.settings.owner
        items = []
        for item in inbox(self.conn, self.embedder, limit=limit):
            m = item["memory"]
            if not memory_visible(m.scope, person):
                continue
            sources = [{"id": s, "text": _source_text(self.settings.home, s)} for s in m.source_ids[:5]]
            items.append(R.ReviewItem(memory=m, sources=sources,
                                      near=[{"memory": o, "cosine": round(c, 3)} for o, c in item["near"]]))
        return R.ReviewList(items)

    def memory_review_act(self, action: str, memory_id: str, *, text: str | None = None,
                          other: str | None = None) -> "MemoryChange":
        """Confirm, edit (text), reject or merge (other: the duplicate merged into
        `memory_id`) one memory of the inbox; returns the MemoryChange."""
        from cairn.memory import review
        if action not in ACTIONS:
            raise InvalidInput(f"unknown review action {action!r}; one of {', '.join(ACTIONS)}")
        mid = self._own_memory(memory_id)
        vault = self.settings.vault
        if action == "confirm":
            from cairn.memory.model import MemoryChange
            return MemoryChange("confirm", review.confirm(self.conn, mid, vault=vault), None, "confirmed in review")
        if action == "edit":
            if not text or not text.strip():
                raise InvalidInput("edit needs the corrected text")
            return review.edit(self.conn, self.embedder, mid, text, vault=vault)
        if action == "reject":
            return review.reject(self.conn, mid, vault=vault)
        if not other:
            raise InvalidInput("merge needs the id of the duplicate to merge into this memory")
        return review.merge(self.conn, mid, self._own_memory(other), vault=vault)
