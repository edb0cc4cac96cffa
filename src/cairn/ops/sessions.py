"""The assistant's sessions as figures, the operations of `cairn.service.Cairn`:
session_stats and session_scorecard (`/stats` and `/scorecard` in `cairn chat`, `cairn
sessions stats`, `GET /chat/sessions/{id}/stats`, the `session_stats` tool). A mixin: `self`
is the Cairn. The counting is assistant/stats.py; sessions are read as the service's person
sees them (another person's session is not found)."""

from __future__ import annotations

from cairn import results as R


class SessionOps:
    """Per-session figures: tokens, cost, tool calls, compactions, pressure, evidence kept."""

    def _session_events(self, sid: str) -> list[dict]:
        from cairn.assistant.sessions import SessionStore
        store = SessionStore(self.settings.home, viewer=self.settings.owner)
        store.load(sid)  # SessionNotFound (NotFound) for an unknown id or another person's
        return store.events(store.path(sid))

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
