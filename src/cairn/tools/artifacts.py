"""The `artifact_lineage` tool (PRAANA P16): what produced an artifact (a tool output, a saved
conversation, an export) and from what inputs, for the assistant and MCP clients; a call of
`Cairn.artifact_lineage` (ops/artifacts.py)."""

from __future__ import annotations

from cairn.hookspecs import hookimpl
from cairn.tools import Tool


def _lineage(app, a: dict) -> dict:
    return app.artifact_lineage(a["artifact"])


TOOLS = (
    Tool("artifact_lineage", "What produced an artifact (a tool output, saved conversation or export, by "
         "its id from a tool result's `artifact`) and from what inputs: session, turn, tool, arguments, "
         "input artifacts.",
         {"type": "object", "properties": {"artifact": {"type": "string", "minLength": 8, "maxLength": 64}},
          "required": ["artifact"], "additionalProperties": False},
         _lineage),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
