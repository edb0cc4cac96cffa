"""Tools on a note's content and links: `links`, `categorize`, `mark_note` (the seeds' agent
tools: EchOS's content status and categorisation, PRAANA's link walk). Each is one call of a
`cairn.service.Cairn` operation, registered through `register_tools` like any plugin's.
Risks follow the judge's rules: reading links is low; categorising and marking rewrite one key
of a note's frontmatter (medium, as any note write)."""

from __future__ import annotations

from cairn.hookspecs import hookimpl
from cairn.model import NOTE_STATUSES
from cairn.tools import Tool

_NOTE = {"type": "string", "minLength": 1}


def _links(app, a: dict) -> dict:
    return app.links(a["note"]).to_json()


def _categorize(app, a: dict) -> dict:
    # The configured model only (the person's own choice): a caller never names an address.
    return app.enrich(a["note"], llm="none" if a.get("llm", "none") == "none" else None).to_json()


def _mark_note(app, a: dict) -> dict:
    row = app.note_mark(a["note"], a["status"])
    return {"action": "marked", "id": row.id, "path": row.path, "title": row.title, "status": a["status"]}


TOOLS = (
    Tool("links", "The outgoing links and backlinks of one note (by id, title, alias or vault path).",
         {"type": "object", "properties": {"note": _NOTE}, "required": ["note"], "additionalProperties": False},
         _links),
    Tool("categorize", "Enrich one note on demand: a grounded gist (and, with the configured model, "
         "category, tags and key points) written to its frontmatter under `enrichment`.",
         {"type": "object", "properties": {"note": _NOTE, "llm": {"enum": ["none", "model"]}},
          "required": ["note"], "additionalProperties": False},
         _categorize, risk="medium", read_only=False),
    Tool("mark_note", "Set a note's content status: saved (to read later), read or archived.",
         {"type": "object", "properties": {"note": _NOTE, "status": {"enum": list(NOTE_STATUSES)}},
          "required": ["note", "status"], "additionalProperties": False},
         _mark_note, risk="medium", read_only=False),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
