"""The `export` tool: notes to a file under the home's exports/ folder (see cairn.exports).
Registered through `register_tools` like any plugin's tool. Risk low: it only reads notes
and writes a new, expiring file inside exports/ (never elsewhere, never overwriting). Its key
scope is "read", as for `POST /api/export`: a key that may read every note may export them."""

from __future__ import annotations

from cairn.exports import FORMATS
from cairn.hookspecs import hookimpl
from cairn.model import NOTE_TYPES
from cairn.tools import Tool
from cairn.tools.builtin import QUERY
from cairn.validate import check_query

_DAY = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}


def _export(app, a: dict) -> dict:
    if a.get("query") is not None:
        check_query(a["query"])  # as `search`
    return app.export(ids=a.get("ids"), tag=a.get("tag"), type=a.get("type"), since=a.get("since"),
                      until=a.get("until"), query=a.get("query"), format=a.get("format"),
                      name=a.get("name"), k=a.get("k", 20)).to_json()


EXPORT = Tool(
    "export",
    "Export notes to a file in Cairn's exports folder (kept 24 h): one note as markdown, or "
    "several as plain text, JSON or a ZIP of markdown files. Select by note ids, a search query, "
    "tag, type and a date range (YYYY-MM-DD); with no selection, every note. Returns the file's "
    "name, path and the exported notes.",
    {"type": "object", "additionalProperties": False, "required": [], "properties": {
        "ids": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "maxItems": 1000},
        "query": QUERY,
        "tag": {"type": "string", "minLength": 1},
        "type": {"enum": list(NOTE_TYPES)},
        "since": _DAY, "until": _DAY,
        "format": {"enum": list(FORMATS)},
        "name": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$"},
        "k": {"type": "integer", "minimum": 1, "maximum": 1000}}},
    _export, risk="low", read_only=False, scope="read")  # as REST's /api/export: it only reads notes


@hookimpl
def register_tools(register):
    register(EXPORT)
