"""Tools over the assistant's session logs: `search_session_log` (PRAANA: the agent searches
its past sessions), `session_stats` (PRAANA's /stats and /scorecard) and `save_conversation`
(the session so far kept as a note).

The session a tool call belongs to is `current_session` (cairn.tools), which the assistant
sets around each call; a caller outside a conversation (MCP, REST) names it in `session`.
Sessions are read as the service's person sees them (assistant.sessions.SessionStore's
viewer): another person's session is not found."""

from __future__ import annotations

from cairn.errors import InvalidInput
from cairn.hookspecs import hookimpl
from cairn.tools import Tool, current_session


def _store(app):
    from cairn.assistant.sessions import SessionStore
    return SessionStore(app.settings.home, viewer=app.settings.owner)


def _search_session_log(app, a: dict) -> dict:
    return {"query": a["query"], "turns": _store(app).search(a["query"], k=a.get("k", 10))}


def _session_stats(app, a: dict) -> dict:
    sid = a.get("session") or current_session.get()
    if not sid:
        raise InvalidInput("no session: give `session` (an id from `cairn sessions`)")
    return {"stats": app.session_stats(sid), "scorecard": app.session_scorecard(sid)}


def transcript(state, events: list[dict]) -> str:
    """The markdown body of a saved conversation: one `**Speaker** (time): text` paragraph per
    user/assistant turn of `events` (a session's log, assistant.sessions), in order."""
    lines = [f"Conversation {state.id} ({state.channel}), started {state.started}.", ""]
    for e in events:
        if e.get("type") in ("user", "assistant") and e.get("text"):
            who = "You" if e["type"] == "user" else "Cairn"
            lines += [f"**{who}** ({e.get('at', '')}): {e['text'].strip()}", ""]
    return "\n".join(lines).rstrip() + "\n"


def _save_conversation(app, a: dict) -> dict:
    sid = a.get("session") or current_session.get()
    if not sid:
        raise InvalidInput("no conversation to save: give `session` (an id from `cairn sessions`)")
    store = _store(app)
    state = store.load(sid)
    events = store.events(store.path(sid))
    if not any(e.get("type") in ("user", "assistant") and e.get("text") for e in events):
        raise InvalidInput(f"session {sid} has no turns to save yet")
    title = (a.get("title") or f"Conversation {state.started[:10]} {sid}").strip()
    body = transcript(state, events)
    note = app.note_create(title, body, "conversations", ["conversation"])
    art = app.artifact_put(body, kind="conversation", session=sid, tool="save_conversation",
                           sources=[{"session": sid}, {"note": note.id}])  # the transcript, an artifact
    return {"action": "created", "id": note.id, "path": note.path, "title": note.title, "session": sid,
            "artifact": art["id"]}


TOOLS = (
    Tool("search_session_log", "Search the turns of past conversations with the assistant (every "
         "session, by keyword): session id, turn, who spoke, when, and the text.",
         {"type": "object", "properties": {"query": {"type": "string", "minLength": 1},
                                           "k": {"type": "integer", "minimum": 1, "maximum": 100}},
          "required": ["query"], "additionalProperties": False},
         _search_session_log),
    Tool("session_stats", "Figures of this conversation (or the session named): tokens in and out, "
         "cost, context pressure, tool calls, compactions, evidence kept.",
         {"type": "object", "properties": {"session": {"type": "string", "minLength": 1}},
          "required": [], "additionalProperties": False},
         _session_stats),
    Tool("save_conversation", "Save this conversation so far (or the session named) as a note in "
         "the vault's conversations/ folder.",
         {"type": "object", "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 200},
                                           "session": {"type": "string", "minLength": 1}},
          "required": [], "additionalProperties": False},
         _save_conversation, risk="medium", read_only=False),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
