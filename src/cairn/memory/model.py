"""Plain data of the memory store: kinds, `Memory`, `MemoryChange`, `RecalledMemory`.

A memory is one short statement about the person (or someone/something in their life) with
provenance and a validity interval. Updates never delete: a contradicted memory gets
`valid_to` and `superseded_by`; a forgotten one gets `tombstone = True`. Times are ISO 8601
strings with a UTC offset.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from cairn.model import MEMORY_KINDS

# The kinds of docs/memory.md (EchOS's fact/preference/person/project/expertise, PRAANA's
# decision/constraint, EchoVessel's promise/expectation/event, and the reflection pass's
# observation).
KINDS = MEMORY_KINDS

# Evergreen kinds never decay in recall (recency = 1): a constraint ("allergic to peanuts")
# and the core facts about who a person is (kind "person": "my sister is Anna") are as true in
# two years as today. Everything else decays with the configured half-life.
EVERGREEN_KINDS: frozenset[str] = frozenset({"constraint", "person"})

# Default importance (0-1) when the caller gives none; constraints matter most.
DEFAULT_IMPORTANCE: dict[str, float] = {
    "constraint": 0.9, "person": 0.7, "preference": 0.6, "promise": 0.7, "decision": 0.6,
    "expectation": 0.5, "event": 0.5, "project": 0.5, "expertise": 0.5, "fact": 0.5,
    "observation": 0.4, "pattern": 0.5, "mistake": 0.7,
}

ACTIONS = ("add", "reinforce", "supersede", "none")


@dataclass
class Memory:
    """One memory. `confidence`, `importance` in [0, 1]; `scope` "global" or a project/agent
    name; `source` "user", a message id or a note id, `source_ids` every message/note it came
    from; `created`, `event_time` (when it happened, if known), `valid_from`/`valid_to` (the
    interval it was true; valid_to None = still valid), `superseded_by` (id of the memory
    that replaced it), `last_used`/`use_count` (recall and restatement reinforce),
    `tombstone` (forgotten), `entities` (names linked to it), `log` (its change history:
    dicts with at/action/reason/other), `impact` (emotional weight, a signed integer in
    [-10, 10], memory/affect.py) and `tags` (a subset of affect.TAGS: identity,
    vulnerability, turning_point, commitment, correction)."""

    id: str
    text: str
    kind: str = "fact"
    confidence: float = 0.6
    scope: str = "global"
    source: str = "user"
    source_ids: list[str] = field(default_factory=list)
    created: str = ""
    event_time: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    superseded_by: str | None = None
    importance: float = 0.5
    last_used: str | None = None
    use_count: int = 0
    tombstone: bool = False
    entities: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    impact: int = 0
    tags: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        """Neither forgotten nor superseded."""
        return not self.tombstone and self.superseded_by is None and self.valid_to is None

    @property
    def status(self) -> str:
        """"active", "superseded" or "forgotten"."""
        if self.tombstone:
            return "forgotten"
        return "active" if self.active else "superseded"

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["status"] = self.status
        return d


@dataclass
class MemoryChange:
    """What `remember` or `forget_change` did: action "add" (new memory), "reinforce"
    (restated: same id, confidence/use_count up), "supersede" (`memory` replaces `previous`,
    which keeps its row with valid_to/superseded_by set), "forget" (`memory` tombstoned) or
    "none" (nothing changed); `reason` says why."""

    action: str
    memory: Memory
    previous: Memory | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "reason": self.reason, "memory": self.memory.to_json(),
                "previous": self.previous.to_json() if self.previous else None}


@dataclass
class RecalledMemory:
    """A recall hit: the memory, its total `score`, and `signals` with every component
    (raw values and weighted contributions; see recall.py for the formula)."""

    memory: Memory
    score: float
    signals: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {"score": round(self.score, 4),
                "signals": {k: round(v, 4) for k, v in self.signals.items()},
                "memory": self.memory.to_json()}


@dataclass
class CoreContext:
    """What an assistant puts in its prompt: the core blocks (name -> text) and the top
    memories by confidence and recency. `render()` gives plain text."""

    blocks: dict[str, str]
    memories: list[Memory]

    def render(self) -> str:
        parts = [f"# {name}\n{text}" for name, text in self.blocks.items() if text.strip()]
        if self.memories:
            parts.append("# Known facts\n" + "\n".join(f"- {m.text}" for m in self.memories))
        return "\n\n".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"blocks": self.blocks, "memories": [m.to_json() for m in self.memories]}
