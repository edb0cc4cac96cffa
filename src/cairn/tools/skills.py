"""Tools over the person's skills (PRAANA P24, P25): `skills` (the named tool-call sequences,
most useful first, with the recurring workflow patterns) and `rate_skill` (a helpful / not
helpful vote); calls of `Cairn.skills`, `skill_patterns` and `skill_rate` (ops/skills.py).
Running a skill is not a tool: its calls must each pass the judge (`/skill run NAME`)."""

from __future__ import annotations

from cairn.hookspecs import hookimpl
from cairn.tools import Tool


def _skills(app, a: dict) -> dict:
    return {"skills": app.skills(), "patterns": app.skill_patterns()}


def _rate(app, a: dict) -> dict:
    return app.skill_rate(a["name"], bool(a["helpful"]))


TOOLS = (
    Tool("skills", "The person's skills (named sequences of tool calls, most useful first) and the tool "
         "sequences that recur across their conversations.",
         {"type": "object", "properties": {}, "additionalProperties": False}, _skills),
    Tool("rate_skill", "Record whether a skill helped the person (helpful true or false); skills are "
         "ranked by these votes.",
         {"type": "object", "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 60},
                                           "helpful": {"type": "boolean"}},
          "required": ["name", "helpful"], "additionalProperties": False},
         _rate, risk="low", read_only=False),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
