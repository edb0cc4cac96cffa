"""Typed results of the PRAANA engine's operations (artifacts, configuration, the model
catalogue, the assistant's sessions and skills); part of `cairn.results`, which re-exports them."""

from __future__ import annotations

from typing import Any

from cairn.results_base import Items, Record

class Artifact(Record):
    """`Cairn.artifact_put()`: the production record of a stored artifact (store/artifacts.py
    `Record.to_json`): its `id` (sha256 of the content) and what produced it."""

    id: str


class ArtifactList(Items):
    """`Cairn.artifacts()`: production records (as `Artifact`), newest first."""

    item = "artifact"


class ArtifactsPruned(Record):
    """`Cairn.artifacts_prune()`: records older than the age removed, blobs no record names
    any more removed, the bytes freed, and the records kept (store/artifacts.py `prune`)."""

    records_removed: int
    blobs_removed: int
    bytes_freed: int
    records_kept: int


class ArtifactShown(Record):
    """`Cairn.artifact_show()`: the artifact `id`, its production `records`, `media` type,
    `size` in bytes and `content` (text, cut at ops.artifacts.TEXT_LIMIT; None for binary)."""

    id: str
    records: list
    media: str
    size: int
    content: Any


class ArtifactLineage(Record):
    """`Cairn.artifact_lineage()`: what produced the artifact and from which inputs, back to
    the person's messages (store/artifacts.py `lineage`)."""


class ConfigShown(Record):
    """`Cairn.config_show()`: the configuration `files` in layer order ({layer, path, exists})
    and the effective `values` ({key, value, origin}; secrets hidden)."""

    files: list
    values: list


class ModelCatalogue(Record):
    """`Cairn.model_catalogue()`: the models `/model` may switch to (assistant/catalogue.py),
    with when the list was fetched."""


class SessionStats(Record):
    """`Cairn.session_stats()` / `Cairn.session_scorecard()`: a session's counts from its log
    (tokens, cost, tool calls, compactions, evidence kept, pressure; assistant/stats.py)."""


class SessionList(Items):
    """`Cairn.sessions()`: {"id", "channel", "turns", "started", "last", "opening"} per session."""

    item = "session"


class SessionEvents(Items):
    """`Cairn.session_events()`: a session's log events {"seq", "at", "type", ...}."""

    item = "event"


class SessionConversation(Record):
    """`Cairn.session_conversation()`: a session's turns as shown and its calls awaiting approval."""

    id: str
    turns: list
    pending: list


class SessionWhy(Record):
    """`Cairn.session_why()`: what went into the session's last prompt (context.session.load_why)."""


class SessionTurns(Items):
    """`Cairn.sessions_search()`: turns ranked by BM25 {"session", "turn", "role", "score", "text", ...}."""

    item = "turn"


class ToolOutput(Record):
    """`Cairn.session_tool_output()`: one tool call's full result."""

    call_id: str
    name: str


class SessionDeleted(Record):
    """`Cairn.session_delete()`: the id of the session removed."""

    id: str


class Skill(Record):
    """`Cairn.skill()` and the skill writes: a named tool-call sequence with its votes and
    usefulness (store/skills.py)."""

    name: str


class SkillList(Items):
    """`Cairn.skills()` (ranked by usefulness) / `Cairn.skill_patterns()` (recurring tool
    sequences): skills or patterns as dicts."""

    item = "skill"


class SkillDeleted(Record):
    """`Cairn.skill_delete()`: the name of the skill removed."""

    name: str
    deleted: bool
