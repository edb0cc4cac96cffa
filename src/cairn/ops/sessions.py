"""The assistant's sessions, the operations of `cairn.service.Cairn`: listing, reading,
searching and deleting them (`cairn sessions [show|search|output|delete]`, `GET /chat/sessions`,
`GET /chat/sessions/{id}`, `DELETE /chat/sessions/{id}`), and their figures: session_stats and
session_scorecard (`/stats` and `/scorecard` in `cairn chat`, `cairn sessions stats`,
`GET /chat/sessions/{id}/stats`, the `session_stats` tool). A mixin: `self` is the Cairn. The
log is assistant/sessions.py, the counting assistant/stats.py; sessions are read as the
service's person sees them (another person's session is not found)."""

from __future__ import annotations

from cairn import results as R
from cairn.errors import InvalidInput

#: The longest message the assistant takes from any door, in characters: REST's `POST /chat`
#: body (`message`, max_length) and `cairn chat` (--message, piped lines, the REPL) read this
#: number. A longer text is a note to keep (`cairn note create`, `cairn remember`), not a message.
MAX_MESSAGE_CHARS = 8000


def check_message_length(text: str) -> str:
    """`text` as given; raises InvalidInput (field "message") naming its length and the limit
    when it is longer than MAX_MESSAGE_CHARS characters. The assistant logs each message in its
    session (several times: the message, its reading, its tool calls), so a 1 MB line piped to
    `cairn chat` made a 4.9 MB session file before any reply refused it."""
    size = len(text.strip()) if isinstance(text, str) else 0  # a piped line's newline is not counted
    if size > MAX_MESSAGE_CHARS:
        raise InvalidInput(f"the message is {size:,} characters long; the limit is {MAX_MESSAGE_CHARS:,} "
                           "(to keep a long text, use `cairn note create` or `cairn remember`)", field="message")
    return text


#: The longest session id any door takes (REST's `session` field, max_length). Ids Cairn makes
#: are 24 characters ("s-20261207-112003-238a67"); a longer one named no session and, past the
#: file system's name limit, was answered "error: /home/…/sessions/s-….jsonl: file name too long".
MAX_SESSION_ID_CHARS = 100


def check_session_id(sid: str | None) -> str | None:
    """`sid` as given (None: not given); raises InvalidInput when it was given blank ("" must
    not quietly mean the current session) or longer than MAX_SESSION_ID_CHARS."""
    if sid is None:
        return None
    if not isinstance(sid, str) or not sid.strip():
        raise InvalidInput("the session id is empty (`cairn sessions` lists them)", field="session")
    if len(sid) > MAX_SESSION_ID_CHARS:
        raise InvalidInput(f"the session id is {len(sid):,} characters long; ids are at most "
                           f"{MAX_SESSION_ID_CHARS} (`cairn sessions` lists them)", field="session")
    return sid


class SessionOps:
    """The assistant's sessions and their figures: tokens, cost, tool calls, compactions,
    pressure, evidence kept."""

    def _sessions(self, sid: str | None = None):
        """The session store; `sid`, when given, is checked first (check_session_id)."""
        check_session_id(sid)
        from cairn.assistant.sessions import SessionStore
        return SessionStore(self.settings.home, viewer=self.settings.owner)

    def _session_events(self, sid: str) -> list[dict]:
        store = self._sessions(sid)
        store.load(sid)  # SessionNotFound (NotFound) for an unknown id or another person's
        return store.events(store.path(sid))

    def sessions(self) -> R.SessionList:
        """Every session the person can see, most recent activity first: [{"id", "channel",
        "turns", "started", "last", "opening"}] (times ISO 8601; "opening" the first thing the
        person said, one line of at most 80 characters, "" before any)."""
        return R.SessionList(dict(st.summary(), opening=st.opening()) for st in self._sessions().list())

    def session_conversation(self, sid: str) -> R.SessionConversation:
        """Session `sid` as a conversation is shown: {"id", "turns": [{"role": "user" |
        "assistant" | "tool", "text"}], "pending": [{"id", "name", "args", ...}]} (tool results
        as "NAME: OUTCOME (ERROR)"; pending: the calls still waiting for approval, each with its
        approval id). Raises SessionNotFound / InvalidInput for an unknown or malformed id."""
        store = self._sessions(sid)
        state = store.load(sid)
        turns: list[dict] = []
        for e in store.events(store.path(sid)):
            t = e.get("type")
            if t in ("user", "assistant") and e.get("text"):
                turns.append({"role": t, "text": e["text"]})
            elif t == "tool_result":
                turns.append({"role": "tool", "text": f"{e.get('name')}: {e.get('outcome')}"
                              + (f" ({e['error']})" if e.get("error") else "")})
        pending = [dict(call, id=aid) for aid, call in state.pending.items()]
        return R.SessionConversation(id=sid, turns=turns, pending=pending)

    def session_why(self, sid: str) -> R.SessionWhy:
        """What went into session `sid`'s last prompt (`/why` in `cairn chat`;
        context.session.load_why): {"budget", "total_tokens", "bands", "understanding",
        "conversation"} (budget and bands empty before any prompt was compiled). Raises
        SessionNotFound / InvalidInput for an unknown or malformed id."""
        from cairn.context.session import load_why
        store = self._sessions(sid)
        store.load(sid)
        return R.SessionWhy(load_why(store, sid) or {"budget": 0, "total_tokens": 0, "bands": []})

    def session_events(self, sid: str) -> R.SessionEvents:
        """Session `sid`'s log, in order: events {"seq", "at", "type", ...} (user and assistant
        turns, tool calls and results, notices). Raises SessionNotFound / InvalidInput for an
        unknown or malformed id."""
        return R.SessionEvents(self._session_events(sid))

    def sessions_search(self, query: str, k: int = 10) -> R.SessionTurns:
        """The turns of every session ranked by BM25 against `query` (assistant.sessions.
        SessionStore.search): [{"session", "turn", "role", "seq", "at", "score", "text",
        "intents"}], best first. Raises InvalidInput for a blank query or k < 1."""
        from cairn.errors import InvalidInput
        if not query.strip():
            raise InvalidInput("the query is empty; give words to find in the turns")
        if k < 1:
            raise InvalidInput(f"k must be at least 1 (got {k})")
        return R.SessionTurns(self._sessions().search(query, k=k))

    def session_tool_output(self, sid: str, call_id: str) -> R.ToolOutput:
        """The full result of tool call `call_id` in session `sid` (the prompt saw a distilled
        form): {"call_id", "name", "outcome", "result"|"error"}. Raises SessionNotFound, or
        NotFound when the session has no such call."""
        return R.ToolOutput(self._sessions(sid).tool_output(sid, call_id))

    def session_delete(self, sid: str) -> R.SessionDeleted:
        """Delete session `sid`'s log (and its current-session pointer). Raises SessionNotFound
        for an unknown id or another person's session."""
        self._sessions(sid).delete(sid)
        return R.SessionDeleted(id=sid)

    def session_stats(self, sid: str) -> R.SessionStats:
        """`/stats` of session `sid` (assistant.stats.stats): tokens in/out, cost (None when a
        remote model had no price), model calls, the last prompt's pressure. Raises
        SessionNotFound / InvalidInput for an unknown or malformed id."""
        from cairn.assistant.stats import stats
        return R.SessionStats(stats(self._session_events(sid), sid))

    def session_scorecard(self, sid: str) -> R.SessionStats:
        """`/scorecard` of session `sid` (assistant.stats.scorecard): tool calls by outcome
        and tool, compactions, pressure events, evidence kept, recall calls, checkpoints.
        Raises SessionNotFound / InvalidInput for an unknown or malformed id."""
        from cairn.assistant.stats import scorecard
        return R.SessionStats(scorecard(self._session_events(sid), sid))
