"""Plain data of fact extraction (shared by `extract`, `rules` and `keys`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

KINDS = ("fact", "preference", "person", "project", "expertise", "decision", "constraint",
         "promise", "expectation", "event")


@dataclass
class Message:
    """One chat message: `id` (the archive's source_id), `speaker`, `text`, `time` (ISO 8601
    string of when it was said, or "" if unknown)."""

    id: str
    speaker: str
    text: str
    time: str = ""


@dataclass
class ExtractedFact:
    """A third-person statement about `subject` taken from messages `source_ids`.

    kind: one of KINDS. entities: names in it (spaCy labels or NAME). confidence: 0-1.
    method: "llm" or "rules" (how this fact was produced). said_at: the time of its first
    source message (ISO 8601, "" if unknown); relative dates in `text` were resolved
    against it. impact/tags: its emotional weight (memory/affect.py), from its text and,
    when the text is neutral, half the weight of its source message.
    """

    text: str
    kind: str
    subject: str
    source_ids: list[str]
    entities: list[str] = field(default_factory=list)
    confidence: float = 0.5
    method: str = "rules"
    said_at: str = ""
    impact: int = 0
    tags: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class ExtractionResult:
    """Outcome of `extract_facts` over one list of messages.

    method: "llm", "rules" or "llm+rules" (some windows fell back to rules).
    problems: failures the user should see (LLM errors, invalid replies, rejected facts).
    note: a one-line summary, which says so when nothing was found.
    stats: counts (messages, windows, llm_calls, llm_facts, rejected, rule_facts, seconds).
    """

    facts: list[ExtractedFact] = field(default_factory=list)
    method: str = "rules"
    problems: list[str] = field(default_factory=list)
    note: str = ""
    stats: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"method": self.method, "facts": [f.to_json() for f in self.facts],
                "problems": list(self.problems), "note": self.note, "stats": dict(self.stats)}
